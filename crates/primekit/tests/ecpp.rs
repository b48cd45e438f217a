//! Elliptic-curve primality proving: `certificate::prove` on primes where N - 1 does not
//! help, ECPP-only chains, composites, and the checker against mutated steps.

use num_bigint::{BigUint, RandBigInt};
use primekit::certificate::{from_json, prove, prove_with, to_json, verify, Certificate, ProveError, ProveOptions, Step};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// A random prime of exactly `bits` bits (the first prime from a random odd start).
fn random_prime(bits: u64, seed: u64) -> BigUint {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut n = rng.gen_biguint(bits) | (BigUint::from(1u8) << (bits - 1)) | BigUint::from(1u8);
    while !primekit::is_prime(&n) {
        n += 2u8;
    }
    n
}

fn ecpp_steps(c: &Certificate) -> usize {
    c.steps.iter().filter(|s| matches!(s, Step::Ecpp(_))).count()
}

fn ecpp_only(jobs: usize) -> ProveOptions {
    ProveOptions { ecpp_only: true, jobs, ..ProveOptions::default() }
}

#[test]
fn random_primes_are_proved_and_verified() {
    for (bits, seed) in [(128u64, 1u64), (256, 2), (512, 3)] {
        let p = random_prime(bits, seed);
        let cert = prove(&p).unwrap_or_else(|e| panic!("{bits} bits: {e}"));
        assert_eq!(verify(&cert, Some(&p)), Ok(p.clone()));
        let back = from_json(to_json(&cert).as_bytes()).unwrap();
        assert_eq!(back, cert);
        assert_eq!(verify(&back, Some(&p)), Ok(p.clone()));
        assert!(ecpp_steps(&cert) > 0 || bits < 200, "{bits} bits: no ecpp step in {:?}", cert.steps.len());
    }
}

#[test]
fn primes_just_above_2_64() {
    for (bits, seed) in [(65u64, 31u64), (66, 32), (72, 33), (90, 34)] {
        let p = random_prime(bits, seed);
        for o in [ProveOptions::default(), ecpp_only(1)] {
            let cert = prove_with(&p, &o).unwrap_or_else(|e| panic!("{bits} bits: {e}"));
            assert_eq!(verify(&cert, Some(&p)), Ok(p.clone()));
        }
    }
}

#[test]
fn ecpp_only_chain_is_linear_and_threads_agree() {
    let p = random_prime(256, 7);
    let seen = Arc::new(AtomicUsize::new(0));
    let s2 = seen.clone();
    let opts = ProveOptions {
        progress: Some(Arc::new(move |_, _| {
            s2.fetch_add(1, Ordering::Relaxed);
        })),
        ..ecpp_only(1)
    };
    let cert = prove_with(&p, &opts).unwrap();
    assert_eq!(verify(&cert, Some(&p)), Ok(p.clone()));
    assert_eq!(ecpp_steps(&cert), cert.steps.len());
    assert_eq!(seen.load(Ordering::Relaxed), cert.steps.len(), "one progress report per level");
    for w in cert.steps.windows(2) {
        let (Step::Ecpp(a), Step::Ecpp(b)) = (&w[0], &w[1]) else { unreachable!() };
        assert_eq!(a.q, b.n, "a linear chain");
        assert!(a.d.is_some());
    }
    let Some(Step::Ecpp(last)) = cert.steps.last() else { unreachable!() };
    assert!(last.q.bits() <= 64);
    // The discriminant search gives the same chain on any number of threads.
    assert_eq!(prove_with(&p, &ecpp_only(2)).unwrap(), cert);
}

#[test]
fn a_past_deadline_times_out() {
    let p = random_prime(256, 9);
    let opts = ProveOptions { deadline: Some(std::time::Instant::now()), ..ecpp_only(1) };
    assert_eq!(prove_with(&p, &opts), Err(ProveError::TimedOut));
}

#[test]
fn composites_get_no_certificate() {
    let big = |s: &str| s.parse::<BigUint>().unwrap();
    let p = random_prime(90, 11);
    let mut q = &p + 2u8;
    while !primekit::is_prime(&q) {
        q += 2u8;
    }
    let cases = [
        // Chernick's (1939) Carmichael form (6k+1)(12k+1)(18k+1), k = 4194421 (the first
        // k >= 2^22 with all three prime).
        big("95635931083302480072049"),
        // 561 * 1105 * 2^89 - 1 (Carmichael factors times a Mersenne prime): composite.
        BigUint::from(561u32 * 1105) * ((BigUint::from(1u8) << 89) - 1u8),
        // Two consecutive 90-bit primes.
        &p * &q,
        // Sorenson & Webster 2017, psi_12 and psi_13: strong pseudoprimes to every prime
        // base up to 37, respectively 41 (399165290221 * 798330580441 and
        // 1287836182261 * 2575672364521).
        big("318665857834031151167461"),
        big("3317044064679887385961981"),
    ];
    for n in cases {
        for o in [ProveOptions::default(), ecpp_only(2)] {
            match prove_with(&n, &o) {
                Err(ProveError::Composite(how)) => assert!(!how.is_empty()),
                other => panic!("{n}: {other:?}"),
            }
        }
    }
}

/// A change to one field of an ecpp step.
type Mutation = Box<dyn Fn(&mut primekit::certificate::EcppStep)>;

#[test]
fn every_mutated_ecpp_field_is_rejected() {
    let p = random_prime(160, 13);
    let cert = prove_with(&p, &ecpp_only(1)).unwrap();
    assert!(verify(&cert, Some(&p)).is_ok());
    for i in 0..cert.steps.len() {
        let muts: Vec<(&str, Mutation)> = vec![
            ("n", Box::new(|s| s.n += 2u8)),
            ("a", Box::new(|s| s.a = (&s.a + 1u8) % &s.n)),
            ("b", Box::new(|s| s.b = (&s.b + 1u8) % &s.n)),
            ("m + 1", Box::new(|s| s.m += 1u8)),
            ("q", Box::new(|s| s.q += 2u8)),
            ("x", Box::new(|s| s.x = (&s.x + 1u8) % &s.n)),
            ("y", Box::new(|s| s.y = (&s.y + 1u8) % &s.n)),
        ];
        for (name, f) in &muts {
            let mut c = cert.clone();
            let Step::Ecpp(e) = &mut c.steps[i] else { unreachable!() };
            f(e);
            assert!(verify(&c, Some(&p)).is_err(), "step {i}: mutated {name} still verifies");
        }
    }
}

#[test]
#[ignore = "seconds: run with --ignored in release"]
fn large_primes_1024_and_2048() {
    for (bits, seed) in [(1024u64, 21u64), (2048, 22)] {
        let p = random_prime(bits, seed);
        let t = std::time::Instant::now();
        let cert = prove_with(&p, &ecpp_only(1)).unwrap();
        let proved = t.elapsed();
        let t = std::time::Instant::now();
        assert_eq!(verify(&cert, Some(&p)), Ok(p.clone()));
        eprintln!("{bits} bits: {} steps, prove {proved:?}, verify {:?}", cert.steps.len(), t.elapsed());
    }
}

/// A 1024-bit prime for which no order from the table's discriminants, trial-divided to
/// 2^22, has a prime cofactor large enough at the top level (a random prime of
/// `bench prove --bits 1024 --seed 1`, the 21st): the third pass splits a composite
/// cofactor by Pollard rho and finds one. The certificate is elliptic curves only.
#[test]
fn a_prime_the_trial_divided_orders_miss_is_proved() {
    let p = BigUint::parse_bytes(
        b"bb8a7f4a530dce3680b69386ac74140e85f1274a555ae12dd494203ec5747c1a55dcadb55edd4dcf444bb3781b3abc3823cbed06265e4a703978622fb50c2c642f69802987dd9dc67c99b72257255382d096190f99ec4169b2538b3928b56cb1b56b2a82e0356a21cfaf4c62d871733cc9c45df81c9a7d0f786a4c3232c0229b",
        16,
    )
    .unwrap();
    let cert = prove_with(&p, &ecpp_only(2)).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(verify(&cert, Some(&p)), Ok(p.clone()));
    assert_eq!(ecpp_steps(&cert), cert.steps.len());
}
