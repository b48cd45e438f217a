//! `is_prime` against independent oracles: a sieve, the public corpus with provenance
//! (tests/data/README.md), known primes, and composites built to fool weak tests.

use num_bigint::{BigUint, RandBigInt};
use num_traits::One;
use primekit::hazmat::limbs::to_limbs;
use primekit::hazmat::primality::is_prime_with_rng;
use primekit::hazmat::primality::MillerRabin;
use primekit::{is_prime, try_is_prime, Error};
use rand::SeedableRng;

fn big(s: &str) -> BigUint {
    BigUint::parse_bytes(s.as_bytes(), 10).unwrap()
}

#[test]
fn all_n_below_2_20_match_a_sieve() {
    let limit = 1usize << 20;
    let mut comp = vec![false; limit];
    comp[0] = true;
    comp[1] = true;
    for i in 2..limit {
        if i * i >= limit {
            break;
        }
        if !comp[i] {
            for j in (i * i..limit).step_by(i) {
                comp[j] = true;
            }
        }
    }
    for (n, &c) in comp.iter().enumerate() {
        assert_eq!(is_prime(&BigUint::from(n)), !c, "n = {n}");
    }
}

#[test]
fn public_corpus_every_verdict() {
    let data = include_str!("data/vectors.tsv");
    let (mut primes, mut composites, mut negatives) = (0, 0, 0);
    for line in data.lines() {
        let mut f = line.split('\t');
        let value = f.next().unwrap();
        let expected = f.next().unwrap();
        if value.starts_with('-') {
            negatives += 1; // not representable as BigUint; the CLI rejects signs
            continue;
        }
        let n = big(value);
        let want = match expected {
            "prime" => true,
            "composite" => false,
            other => panic!("bad label {other}"),
        };
        assert_eq!(is_prime(&n), want, "corpus value {value} ({})", f.next().unwrap_or(""));
        if want {
            primes += 1
        } else {
            composites += 1
        }
    }
    assert_eq!((primes, composites, negatives), (221, 1105, 16));
}

#[test]
fn boringssl_single_round_vectors() {
    // Each row: W, base B, whether B is a non-witness. Checks the MR round itself.
    let mut checked = 0;
    for line in include_str!("data/boringssl_miller_rabin_tests_decimal.tsv").lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (w, b) = (big(f[0]), big(f[1]));
        if w < BigUint::from(5u8) || b < BigUint::from(2u8) || b > &w - 2u8 {
            continue;
        }
        let mr = MillerRabin::new(&w).unwrap();
        let base = to_limbs(&b, mr.context().len()).unwrap();
        let want = f[2] == "PossiblyPrime";
        assert_eq!(mr.passes_vartime(&base), want, "W={w} B={b}");
        assert_eq!(mr.passes_ct(&base), want, "ct W={w} B={b}");
        checked += 1;
    }
    assert!(checked >= 60, "only {checked} rows checked");
}

fn mersenne(p: u32) -> BigUint {
    (BigUint::one() << p) - 1u8
}

#[test]
fn known_large_primes_and_their_products() {
    let rfc3526_2048 = BigUint::parse_bytes(
        b"FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF",
        16,
    )
    .unwrap();
    // 2^4423 - 1 is above the IFMA lanes' 4,096 bits: its rounds run one at a time in the
    // (vector-count-rounded) IFMA domain where the CPU has it.
    let primes =
        [mersenne(89), mersenne(127), mersenne(521), mersenne(607), mersenne(1279), mersenne(2203), mersenne(4423), rfc3526_2048.clone()];
    for p in &primes {
        assert!(is_prime(p), "{} bits", p.bits());
    }
    for (i, p) in primes.iter().enumerate() {
        let q = &primes[(i + 1) % primes.len()];
        assert!(!is_prime(&(p * q)), "product of primes {} x {} bits", p.bits(), q.bits());
        assert!(!is_prime(&(p * p)), "square of a {}-bit prime", p.bits());
        assert!(!is_prime(&(p * p * p)), "cube");
    }
    // Composite Mersenne numbers and Fermat numbers F5..F12 (all composite).
    for e in [67u32, 257, 1024, 2048] {
        assert!(!is_prime(&mersenne(e)), "2^{e}-1");
    }
    for k in 5..=12u32 {
        assert!(!is_prime(&((BigUint::one() << (1u32 << k)) + 1u8)), "F{k}");
    }
}

#[test]
fn chernick_carmichael_numbers_are_composite() {
    // (6k+1)(12k+1)(18k+1) with all three factors prime is a Carmichael number: it fools
    // every Fermat test with bases coprime to it. Find a few of several sizes.
    let mut rng = rand::rngs::StdRng::seed_from_u64(11);
    for bits in [30u64, 100, 200] {
        let mut found = 0;
        while found < 2 {
            let k = rng.gen_biguint(bits);
            let f = [&k * 6u8 + 1u8, &k * 12u8 + 1u8, &k * 18u8 + 1u8];
            if f.iter().all(is_prime) {
                let n = &f[0] * &f[1] * &f[2];
                // Carmichael check: 2^(n-1) = 1 mod n.
                assert_eq!(BigUint::from(2u8).modpow(&(&n - 1u8), &n), BigUint::one());
                assert!(!is_prime(&n), "Carmichael {n}");
                found += 1;
            }
        }
    }
}

#[test]
fn adversarial_2x_plus_1_times_4x_plus_1() {
    // Massimo & Paterson 2020, §3.5.2: n = (2x+1)(4x+1) with both factors prime is a strong liar for a
    // quarter of all bases, the worst case for Miller-Rabin. 1024-bit n, made here.
    let mut rng = rand::rngs::StdRng::seed_from_u64(12);
    let mut made = 0;
    while made < 3 {
        let x = rng.gen_biguint(510) | (BigUint::one() << 509u32);
        let p = &x * 2u8 + 1u8;
        if !is_prime(&p) {
            continue;
        }
        let q = &x * 4u8 + 1u8;
        if !is_prime(&q) {
            continue;
        }
        let n = &p * &q;
        assert!(n.bits() >= 1022 && n.bits() <= 1024);
        for _ in 0..8 {
            assert!(!is_prime(&n), "adversarial n declared prime");
        }
        made += 1;
    }
}

#[test]
fn reproducible_rng_and_errors() {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
    assert_eq!(is_prime_with_rng(&mersenne(521), &mut rng), Ok(true));
    assert_eq!(is_prime_with_rng(&mersenne(523), &mut rng), Ok(false));
    let huge = BigUint::one() << 70000u32;
    assert!(matches!(try_is_prime(&(huge + 1u8)), Err(Error::InputTooLarge { .. })));
}

#[test]
fn largest_primes_below_powers_of_two() {
    // 2^k - c is the largest prime below 2^k for these (k, c) (published tables of
    // "primes just less than a power of two"): it is prime and every odd number between
    // it and 2^k is composite.
    for (k, c) in [(64u32, 59u32), (128, 159), (256, 189), (512, 569), (1024, 105)] {
        let top = BigUint::one() << k;
        let p = &top - c;
        assert!(is_prime(&p), "2^{k}-{c}");
        let mut q = &p + 2u8;
        while q < top {
            assert!(!is_prime(&q), "2^{k}-{}", &top - &q);
            q += 2u8;
        }
    }
}

#[test]
fn arnault_strong_pseudoprimes_to_many_prime_bases() {
    // Arnault's composites built to pass Miller-Rabin for every prime base up to a
    // bound (the 337-digit one for the 46 primes < 200, the 397-digit Carmichael number
    // for every prime base < 307); taken from the corpus by their provenance notes.
    let mut found = 0;
    for line in include_str!("data/vectors.tsv").lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if f[3].contains("Arnault") || f[3].contains("LARGE_CARMICHAEL") {
            let n = big(f[0]);
            assert_eq!(f[1], "composite");
            if n.bits() > 1000 {
                // Check the construction really fools fixed prime bases (all primes < 200
                // for both; up to 293 for the 397-digit one).
                let mr = MillerRabin::new(&n).unwrap();
                let bases: &[u64] = if f[0].len() == 397 { &[2, 3, 5, 7, 11, 13, 101, 197, 293] } else { &[2, 3, 5, 7, 11, 13, 101, 197] };
                for &b in bases {
                    assert!(mr.passes_vartime(&to_limbs(&BigUint::from(b), mr.context().len()).unwrap()), "base {b}");
                }
            }
            assert!(!is_prime(&n), "Arnault composite of {} digits", f[0].len());
            found += 1;
        }
    }
    assert!(found >= 3, "found {found}");
}
