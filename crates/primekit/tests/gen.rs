//! Prime generation: outputs checked by independent oracles (the system `openssl prime`
//! where present, else a num-bigint Miller-Rabin written here; trial division below
//! 2^32), sizes and top bits, safe-prime structure, options, errors, and the output
//! distribution (Dobrosavljević 2021, §5.2: MSB-byte histogram band and chi-square).

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive};
use primekit::hazmat::gen::generate_prime_with_rng;
use primekit::{generate_prime, generate_prime_with, generate_primes, generate_safe_prime, Error, LowerBound, PrimeOptions, MAX_GEN_BITS};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use statrs::distribution::{ChiSquared, ContinuousCDF};
use std::process::Command;

fn openssl_available() -> bool {
    Command::new("openssl").arg("version").output().map(|o| o.status.success()).unwrap_or(false)
}

/// Independent fallback: strong probable prime to the first 24 prime bases, via
/// num-bigint's own modpow (shares no code with primekit).
fn num_bigint_probable_prime(n: &BigUint) -> bool {
    let small = [2u32, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61, 67, 71, 73, 79, 83, 89];
    for &p in &small {
        if n == &BigUint::from(p) {
            return true;
        }
        if (n % p).to_u32() == Some(0) {
            return false;
        }
    }
    if n < &BigUint::from(2u8) {
        return false;
    }
    let nm1 = n - 1u8;
    let s = nm1.trailing_zeros().unwrap();
    let d = &nm1 >> s;
    'b: for &a in &small {
        let mut x = BigUint::from(a).modpow(&d, n);
        if x.is_one() || x == nm1 {
            continue;
        }
        for _ in 1..s {
            x = x.modpow(&BigUint::from(2u8), n);
            if x == nm1 {
                continue 'b;
            }
        }
        return false;
    }
    true
}

/// Checks primality of all of `ns` with `openssl prime` (one process), or with the
/// fallback when openssl is absent (printing a note).
fn assert_all_prime(ns: &[BigUint]) {
    if ns.is_empty() {
        return;
    }
    if openssl_available() {
        let args: Vec<String> = ns.iter().map(|n| format!("{n:X}")).collect();
        let out = Command::new("openssl").arg("prime").arg("-hex").args(&args).output().expect("run openssl");
        let text = String::from_utf8_lossy(&out.stdout);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), ns.len(), "openssl prime output: {text}");
        for (n, line) in ns.iter().zip(lines) {
            assert!(line.ends_with(" is prime"), "openssl says {line} for {n}");
        }
    } else {
        eprintln!("note: openssl CLI absent; checking with the num-bigint Miller-Rabin oracle");
        for n in ns {
            assert!(num_bigint_probable_prime(n), "{n} is composite");
        }
    }
}

fn assert_shape(p: &BigUint, bits: u32) {
    assert_eq!(p.bits(), bits as u64, "{p} should have {bits} bits");
    assert!(p >= &(BigUint::from(3u8) << (bits - 2)), "top two bits of {p} not set");
}

#[test]
fn random_primes_are_prime_with_exact_size() {
    let mut all = Vec::new();
    for bits in [2u32, 3, 4, 5, 8, 17, 32, 63, 64, 65, 100, 128, 256, 512, 1024] {
        for _ in 0..2 {
            let p = generate_prime(bits).unwrap();
            assert_shape(&p, bits);
            all.push(p);
        }
    }
    assert_eq!(generate_prime(2).unwrap(), BigUint::from(3u8));
    assert_eq!(generate_prime(3).unwrap(), BigUint::from(7u8));
    assert_all_prime(&all);
}

#[test]
fn safe_primes_have_prime_halves() {
    let mut all = Vec::new();
    for bits in [3u32, 6, 7, 9, 20, 64, 65, 96, 128, 256, 512] {
        let p = generate_safe_prime(bits).unwrap();
        assert_shape(&p, bits);
        assert_eq!((&p % 4u8).to_u8(), Some(3));
        all.push(p.clone());
        all.push(&p >> 1u8);
    }
    assert_eq!(generate_safe_prime(3).unwrap(), BigUint::from(7u8));
    assert_all_prime(&all);
}

#[test]
fn error_cases() {
    let invalid = |r: Result<BigUint, Error>| matches!(r, Err(Error::InvalidArgument(_)));
    assert!(invalid(generate_prime(0)));
    assert!(invalid(generate_prime(1)));
    assert!(invalid(generate_safe_prime(2)));
    // No safe prime of 4 or 5 bits has its top two bits set.
    assert!(invalid(generate_safe_prime(4)));
    assert!(invalid(generate_safe_prime(5)));
    assert!(matches!(generate_prime(MAX_GEN_BITS + 1), Err(Error::InputTooLarge { .. })));
    assert!(matches!(generate_safe_prime(u32::MAX), Err(Error::InputTooLarge { .. })));
    let b = |x: u64| BigUint::from(x);
    let with = |o: PrimeOptions| generate_prime_with(&o);
    assert!(invalid(with(PrimeOptions::new(256).congruence(b(6), b(3))))); // 3 | p
    assert!(invalid(with(PrimeOptions::new(256).congruence(b(0), b(0)))));
    assert!(invalid(with(PrimeOptions::new(256).congruence(b(10), b(11)))));
    assert!(invalid(with(PrimeOptions::new(256).safe(true).congruence(b(12), b(7))))); // 3 | q
    assert!(invalid(with(PrimeOptions::new(256).safe(true).congruence(b(8), b(5))))); // p = 1 mod 4
    assert!(invalid(with(PrimeOptions::new(256).rsa_exponent(4))));
    assert!(invalid(with(PrimeOptions::new(256).rsa_exponent(1))));
    assert!(invalid(with(PrimeOptions::new(256).congruence(b(6), b(1)).rsa_exponent(3)))); // 3 | p-1
    assert!(invalid(with(PrimeOptions::new(256).congruence(BigUint::one() << 250u32, b(1))))); // step too big
    assert!(invalid(with(PrimeOptions::new(256).jobs(0))));
    assert!(invalid(with(PrimeOptions::new(16).congruence(b(3), b(0)))));
    assert!(invalid(with(PrimeOptions::new(16).congruence(BigUint::one() << 100u32, b(1)))));
}

#[test]
fn options_are_honoured() {
    let b = |x: u64| BigUint::from(x);
    let mut out = Vec::new();
    for _ in 0..3 {
        let p = generate_prime_with(&PrimeOptions::new(256).safe(true).congruence(b(24), b(23))).unwrap();
        assert_shape(&p, 256);
        assert_eq!((&p % 24u8).to_u8(), Some(23));
        out.push(&p >> 1u8);
        out.push(p);
        let p = generate_prime_with(&PrimeOptions::new(512).rsa_exponent(65537).congruence(b(65537 * 6), b(2 * 6 + 5))).unwrap();
        assert!((&p - 1u8).gcd(&b(65537)).is_one());
        assert_eq!((&p % (65537u64 * 6)).to_u64(), Some(17));
        out.push(p);
        let p = generate_prime_with(&PrimeOptions::new(20).rsa_exponent(3)).unwrap();
        assert!((&p % 3u8).to_u8() == Some(2));
        out.push(p);
    }
    // FIPS 186-5 B.3.3: p >= sqrt(2) 2^(bits-1), i.e. p^2 >= 2^(2 bits - 1); top bit set.
    for bits in [100u32, 512] {
        for _ in 0..4 {
            let p = generate_prime_with(&PrimeOptions::new(bits).lower_bound(LowerBound::Fips186Sqrt2)).unwrap();
            assert_eq!(p.bits(), bits as u64);
            assert!(&p * &p >= BigUint::one() << (2 * bits - 1));
            out.push(p);
        }
    }
    // Several cores: racing on one prime, and a batch.
    let p = generate_prime_with(&PrimeOptions::new(512).jobs(2)).unwrap();
    assert_shape(&p, 512);
    out.push(p);
    let batch = generate_primes(&PrimeOptions::new(256).safe(true).jobs(2), 4).unwrap();
    assert_eq!(batch.len(), 4);
    for p in batch {
        assert_shape(&p, 256);
        out.push(&p >> 1u8);
        out.push(p);
    }
    assert_all_prime(&out);
}

#[test]
fn injected_rng_is_reproducible() {
    let opts = PrimeOptions::new(256);
    let a = generate_prime_with_rng(&opts, &mut ChaCha20Rng::seed_from_u64(5)).unwrap();
    let b = generate_prime_with_rng(&opts, &mut ChaCha20Rng::seed_from_u64(5)).unwrap();
    let c = generate_prime_with_rng(&opts, &mut ChaCha20Rng::seed_from_u64(6)).unwrap();
    assert_eq!(a, b);
    assert_ne!(a, c);
}

/// Upper tail P(X >= x) of chi-square with k degrees of freedom (statrs).
fn chi_square_p_value(x: f64, k: f64) -> f64 {
    ChiSquared::new(k).expect("k > 0 degrees of freedom").sf(x)
}

#[test]
fn chi_square_helper_is_sane() {
    // Median of chi-square(63) ~ 62.3; 95th percentile ~ 82.53; 99.9th ~ 103.4.
    assert!((chi_square_p_value(62.33, 63.0) - 0.5).abs() < 0.01);
    assert!((chi_square_p_value(82.53, 63.0) - 0.05).abs() < 0.003);
    assert!((chi_square_p_value(103.44, 63.0) - 0.001).abs() < 0.0005);
}

/// Dobrosavljević 2021, §5.2: the most significant byte of k-bit outputs has its top two bits set and
/// six varying bits, so 64 bins of expected count mu = N/64; the 95% band is
/// mu +- 1.96 sqrt(mu). A uniform generator leaves ~5% of bins outside it; we require
/// at most 12 of 64 and a chi-square p-value above 0.001. Fixed seed: deterministic.
#[test]
fn msb_byte_distribution() {
    for (bits, safe, n) in [(128u32, false, 64 * 60), (96, true, 64 * 30)] {
        let mut rng = ChaCha20Rng::seed_from_u64(2024 + bits as u64);
        let opts = PrimeOptions::new(bits).safe(safe);
        let mut hist = [0u64; 64];
        for _ in 0..n {
            let p = generate_prime_with_rng(&opts, &mut rng).unwrap();
            let msb = (&p >> (bits - 8)).to_u64().unwrap();
            assert!(msb >= 0xc0);
            hist[(msb - 0xc0) as usize] += 1;
        }
        let mu = n as f64 / 64.0;
        let band = 1.96 * mu.sqrt();
        let outside = hist.iter().filter(|&&c| (c as f64 - mu).abs() > band).count();
        let chi2: f64 = hist.iter().map(|&c| (c as f64 - mu).powi(2) / mu).sum();
        let pv = chi_square_p_value(chi2, 63.0);
        eprintln!("bits={bits} safe={safe} n={n}: {outside}/64 bins outside the band, chi2={chi2:.1}, p={pv:.3}");
        assert!(outside <= 12, "{outside} bins outside mu +- 1.96 sqrt(mu): {hist:?}");
        assert!(pv > 0.001, "chi-square p-value {pv}: {hist:?}");
    }
}
