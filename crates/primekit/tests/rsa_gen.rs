//! RSA key generation (FIPS 186-5 A.1.3) checked independently: every FIPS condition
//! re-derived with num-bigint, the primes by a num-bigint Miller-Rabin oracle, the keys
//! by primekit's audit and (where installed) `openssl pkey -check`, the position of the
//! primes in their range by a statistical test, and bad requests as errors.

mod common;

use common::craft::mersenne;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;
use primekit::keys::rsa::check_rsa_pem;
use primekit::{generate_rsa_key, generate_rsa_key_with, Error, RsaKeyOptions, RsaPrivateKey};

/// 24 fixed-base Miller-Rabin rounds in num-bigint: an oracle written apart from the library.
fn oracle_probable_prime(n: &BigUint) -> bool {
    let one = BigUint::one();
    let n1 = n - 1u8;
    let s = n1.trailing_zeros().unwrap();
    let d = &n1 >> s;
    (0..24u32).all(|i| {
        let a = BigUint::from(2u32 + 7 * i) % n;
        let mut x = a.modpow(&d, n);
        if x == one || x == n1 {
            return true;
        }
        for _ in 1..s {
            x = x.modpow(&BigUint::from(2u8), n);
            if x == n1 {
                return true;
            }
        }
        false
    })
}

/// Every condition of FIPS 186-5 A.1.3 and every field, re-derived here.
fn assert_fips_key(k: &RsaPrivateKey, bits: u64) {
    let half = bits / 2;
    let sqrt2_floor = (BigUint::one() << (2 * half - 1)).sqrt(); // floor(sqrt(2) 2^(half-1))
    for x in [&k.p, &k.q] {
        assert_eq!(x.bits(), half);
        assert!(*x > sqrt2_floor, "prime below sqrt(2) 2^(nlen/2-1)");
        assert!(oracle_probable_prime(x));
        assert!((x - 1u8).gcd(&k.e).is_one());
    }
    assert_eq!(k.n, &k.p * &k.q);
    assert_eq!(k.n.bits(), bits);
    let gap = if k.p > k.q { &k.p - &k.q } else { &k.q - &k.p };
    assert!(gap > BigUint::one() << (half - 100));
    let (p1, q1) = (&k.p - 1u8, &k.q - 1u8);
    let lambda = p1.lcm(&q1);
    assert_eq!(k.d, k.e.modinv(&lambda).unwrap(), "d = e^-1 mod lcm(p-1, q-1)");
    assert!(k.d > BigUint::one() << half);
    assert_eq!(k.dp, &k.d % &p1);
    assert_eq!(k.dq, &k.d % &q1);
    assert_eq!(k.qinv, k.q.modinv(&k.p).unwrap());
    assert!(k.e.is_odd() && k.e.bits() > 16 && k.e.bits() <= 256);
}

fn insecure(bits: u32) -> RsaKeyOptions {
    RsaKeyOptions::new(bits).insecure(true)
}

#[test]
fn hundreds_of_1024_bit_keys_meet_fips_and_spread_over_the_range() {
    let keys: Vec<RsaPrivateKey> = (0..300).map(|_| generate_rsa_key_with(&insecure(1024)).unwrap()).collect();
    keys.iter().for_each(|k| assert_fips_key(k, 1024));
    // Position of the primes in [sqrt(2) 2^511, 2^512): the share below 1.5 * 2^511 is
    // (1.5 - sqrt 2) / (2 - sqrt 2) = 0.1464 for primes spread uniformly (prime density
    // is flat at this scale). 600 primes: sd 0.0144; the band is +-4 sd.
    let mid = BigUint::from(3u8) << 510u32;
    let low = keys.iter().flat_map(|k| [&k.p, &k.q]).filter(|x| **x < mid).count() as f64 / 600.0;
    assert!((0.0886..=0.2042).contains(&low), "share of primes in the lowest part of the range: {low}");
    // Top byte of p and q: never below 0xb5 (= floor(256 sqrt(2) / 2)).
    assert!(keys.iter().flat_map(|k| [&k.p, &k.q]).all(|x| (x >> 504u32) >= BigUint::from(0xb5u8)));
    // Distinct keys.
    let mut ns: Vec<&BigUint> = keys.iter().map(|k| &k.n).collect();
    ns.sort();
    ns.dedup();
    assert_eq!(ns.len(), keys.len());
}

#[test]
fn dozens_of_2048_bit_keys_pass_fips_and_the_audit() {
    let keys: Vec<RsaPrivateKey> = (0..24).map(|_| generate_rsa_key(2048, &BigUint::from(65_537u32)).unwrap()).collect();
    for k in &keys {
        assert_fips_key(k, 2048);
        for pem in [k.to_pkcs1_pem().unwrap(), k.to_pkcs8_pem().unwrap()] {
            let r = check_rsa_pem(pem.as_bytes()).unwrap();
            assert!(r.ok(), "{}", r.to_text());
        }
    }
}

/// `openssl pkey -check` on both encodings, and the public key as openssl derives it.
#[test]
fn openssl_accepts_the_keys() {
    if std::process::Command::new("openssl").arg("version").output().is_err() {
        eprintln!("SKIP: no openssl on PATH");
        return;
    }
    let dir = std::env::temp_dir().join(format!("primekit-rsa-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (i, bits) in [2048u32, 3072].into_iter().enumerate() {
        let k = generate_rsa_key(bits, &BigUint::from(65_537u32)).unwrap();
        for (name, pem) in [("pkcs1", k.to_pkcs1_pem().unwrap()), ("pkcs8", k.to_pkcs8_pem().unwrap())] {
            let f = dir.join(format!("{i}-{name}.pem"));
            std::fs::write(&f, &pem).unwrap();
            let out = std::process::Command::new("openssl").args(["pkey", "-check", "-noout", "-in"]).arg(&f).output().unwrap();
            assert!(out.status.success(), "{name} {bits}: {}", String::from_utf8_lossy(&out.stderr));
            let out = std::process::Command::new("openssl").args(["pkey", "-pubout", "-in"]).arg(&f).output().unwrap();
            assert_eq!(String::from_utf8_lossy(&out.stdout), k.public_key_pem().unwrap(), "public key of {name} {bits}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_large_exponent_and_several_jobs() {
    // e = 2^255 - 19 (prime, above 64 bits: checked after generation, not sieved).
    let e = (BigUint::one() << 255u32) - 19u8;
    let k = generate_rsa_key_with(&insecure(1024).e(e.clone()).jobs(2)).unwrap();
    assert_eq!(k.e, e);
    assert_fips_key(&k, 1024);
    // A Mersenne-prime exponent (2^127 - 1).
    let k = generate_rsa_key_with(&insecure(1024).e(mersenne(127))).unwrap();
    assert_fips_key(&k, 1024);
}

#[test]
fn bad_requests_are_errors() {
    let e = BigUint::from(65_537u32);
    let invalid = |r: Result<RsaPrivateKey, Error>| matches!(r, Err(Error::InvalidArgument(_)));
    assert!(invalid(generate_rsa_key(1024, &e)), "below 2048 without insecure");
    assert!(invalid(generate_rsa_key_with(&insecure(256))), "below the insecure floor");
    assert!(invalid(generate_rsa_key_with(&insecure(1025))), "odd size");
    assert!(matches!(generate_rsa_key(16_386, &e), Err(Error::InputTooLarge { .. })));
    for bad_e in [
        BigUint::from(3u8),
        BigUint::from(65_536u32),
        BigUint::from(65_535u32),
        BigUint::from(65_538u32),
        BigUint::one() << 256u32,
        (BigUint::one() << 256u32) + 1u8,
    ] {
        assert!(invalid(generate_rsa_key_with(&insecure(1024).e(bad_e.clone()))), "e = {bad_e}");
    }
    assert!(invalid(generate_rsa_key_with(&insecure(1024).jobs(0))));
}
