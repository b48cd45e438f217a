//! Provable primes and their certificates: generated ones verify in Rust and in the
//! independent Python checker (tools/verify_cert.py); every field mutated in turn is
//! rejected by both; garbage is refused quickly.

use num_bigint::BigUint;
use num_traits::One;
use primekit::certificate::{from_json, to_json, verify, Certificate, CertificateError, PocklingtonStep, Step};
use primekit::{generate_provable_prime, generate_provable_safe_prime, is_prime};
use std::path::{Path, PathBuf};
use std::process::Command;

fn python_checker() -> Option<PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/verify_cert.py");
    Command::new("python3").arg("--version").output().ok().filter(|o| o.status.success()).map(|_| script)
}

/// Exit status of the Python checker on `text`, for the number `expected` if given
/// (None when python3 is absent).
fn python_verdict(text: &str, expected: Option<&BigUint>) -> Option<i32> {
    let script = python_checker()?;
    let f = std::env::temp_dir().join(format!("primekit-cert-{}-{:x}.json", std::process::id(), text.len() ^ (text.as_ptr() as usize)));
    std::fs::write(&f, text).unwrap();
    let mut cmd = Command::new("python3");
    cmd.arg(&script).arg(&f);
    if let Some(n) = expected {
        cmd.arg(n.to_string());
    }
    let out = cmd.output().unwrap();
    let _ = std::fs::remove_file(&f);
    out.status.code()
}

fn rust_verdict(text: &str, expected: Option<&BigUint>) -> i32 {
    match from_json(text.as_bytes()).map(|c| verify(&c, expected)) {
        Ok(Ok(_)) => 0,
        Ok(Err(CertificateError::Invalid { .. })) => 1,
        Ok(Err(CertificateError::Malformed(_))) | Err(_) => 2,
    }
}

fn assert_valid(p: &BigUint, cert: &Certificate) {
    assert_eq!(verify(cert, Some(p)).unwrap(), *p);
    assert!(is_prime(p));
    let text = to_json(cert);
    assert_eq!(from_json(text.as_bytes()).unwrap(), *cert);
    assert_eq!(rust_verdict(&text, None), 0);
    if let Some(v) = python_verdict(&text, None) {
        assert_eq!(v, 0, "python checker rejected a valid certificate");
    } else {
        eprintln!("SKIP python checker: no python3");
    }
}

#[test]
fn generated_certificates_verify_in_both_checkers() {
    for bits in [66u32, 128, 512, 1024, 2048] {
        let (p, cert) = generate_provable_prime(bits).unwrap();
        assert_eq!(p.bits(), u64::from(bits));
        assert!(!cert.steps.is_empty());
        assert_valid(&p, &cert);
    }
    for bits in [128u32, 512] {
        let (p, cert) = generate_provable_safe_prime(bits).unwrap();
        assert_eq!(p.bits(), u64::from(bits));
        let q: BigUint = (&p - 1u8) >> 1;
        assert!(cert.steps.iter().any(|s| s.n() == &q), "q is proven too");
        assert_valid(&p, &cert);
    }
}

/// Every field of every step changed in turn: both checkers refuse each.
#[test]
fn every_mutation_is_rejected_by_both() {
    let (p, cert) = generate_provable_prime(512).unwrap();
    let mut mutants: Vec<(String, Certificate)> = Vec::new();
    /// Step i of a clone of `cert`, which (made by the Pocklington generator) has only
    /// Pocklington steps.
    fn pocklington(c: &mut Certificate, i: usize) -> &mut PocklingtonStep {
        match &mut c.steps[i] {
            Step::Pocklington(s) => s,
            Step::Ecpp(_) => panic!("generated certificates have Pocklington steps only"),
        }
    }
    for i in 0..cert.steps.len() {
        let s = pocklington(&mut cert.clone(), i).clone();
        let mut c = cert.clone();
        pocklington(&mut c, i).n = &s.n + 2u8;
        mutants.push((format!("step {i} n"), c));
        let mut c = cert.clone();
        c.steps.remove(i);
        mutants.push((format!("step {i} removed"), c));
        for j in 0..s.factors.len() {
            let mut c = cert.clone();
            pocklington(&mut c, i).factors[j].q = &s.factors[j].q + 2u8;
            mutants.push((format!("step {i} factor {j} q"), c));
            let mut c = cert.clone();
            pocklington(&mut c, i).factors[j].k += 1;
            mutants.push((format!("step {i} factor {j} k"), c));
            let mut c = cert.clone();
            pocklington(&mut c, i).factors[j].witness = BigUint::one();
            mutants.push((format!("step {i} factor {j} witness 1"), c));
            let mut c = cert.clone();
            pocklington(&mut c, i).factors[j].witness = &s.n - 1u8;
            mutants.push((format!("step {i} factor {j} witness N-1"), c));
            let mut c = cert.clone();
            pocklington(&mut c, i).factors.remove(j);
            mutants.push((format!("step {i} factor {j} removed"), c));
        }
    }
    for (what, m) in &mutants {
        // Checked as a certificate *of p*, as a user checks one (removing the first
        // step leaves a valid certificate of another number).
        let text = to_json(m);
        assert_ne!(rust_verdict(&text, Some(&p)), 0, "rust accepted: {what}");
        if let Some(v) = python_verdict(&text, Some(&p)) {
            assert_ne!(v, 0, "python accepted: {what}");
        }
    }
    // For a different number.
    assert!(matches!(verify(&cert, Some(&(&p + 2u8))), Err(CertificateError::Invalid { step: 0, .. })));
    // A composite "proved" with a fake factorisation: N = p * 3, F = p > sqrt(N).
    let fake = format!(
        r#"{{"format":"primekit-certificate","version":1,"prime":"{n}","steps":[{{"n":"{n}","method":"pocklington","factors":[{{"q":"3","k":1,"witness":"2"}}]}}]}}"#,
        n = &p * 3u8
    );
    assert_eq!(rust_verdict(&fake, None), 1);
    if let Some(v) = python_verdict(&fake, None) {
        assert_eq!(v, 1);
    }
}

#[test]
fn garbage_is_refused_quickly() {
    let huge = vec![b'x'; 10_000_000];
    let t = std::time::Instant::now();
    assert!(matches!(from_json(&huge), Err(CertificateError::Malformed(_))));
    assert!(t.elapsed().as_secs_f64() < 1.0, "10 MB refused in {:?}", t.elapsed());
    for text in ["", "[]", "{}", "null", r#"{"format":"primekit-certificate","version":2,"prime":"7","steps":[]}"#] {
        assert_eq!(rust_verdict(text, None), 2, "{text}");
        if let Some(v) = python_verdict(text, None) {
            assert_eq!(v, 2, "{text}");
        }
    }
}

#[test]
fn bad_sizes_are_errors() {
    assert!(generate_provable_prime(65).is_err());
    assert!(generate_provable_prime(8193).is_err());
    assert!(generate_provable_safe_prime(66).is_err());
}

/// FIPS 186-5 Shawe-Taylor: the same seed gives the same prime (and certificate), another
/// seed another prime; the certificate verifies in both checkers.
#[test]
fn shawe_taylor_is_reproducible_from_its_seed() {
    use primekit::hazmat::gen::shawe_taylor_random_prime;
    let seed = BigUint::parse_bytes(b"a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90", 16).unwrap();
    for bits in [32u32, 100, 1024, 2048] {
        let a = shawe_taylor_random_prime(bits, &seed, 256).unwrap();
        let b = shawe_taylor_random_prime(bits, &seed, 256).unwrap();
        assert_eq!(a, b, "{bits}: not reproducible");
        assert_eq!(a.prime.bits(), u64::from(bits));
        assert!(is_prime(&a.prime));
        if bits > 64 {
            assert_valid(&a.prime, &a.certificate);
        }
        let c = shawe_taylor_random_prime(bits, &(&seed + 1u8), 256).unwrap();
        assert_ne!(a.prime, c.prime);
    }
    assert!(shawe_taylor_random_prime(1, &seed, 256).is_err());
    assert!(shawe_taylor_random_prime(512, &seed, 8).is_err(), "seed wider than seedlen");
}

#[test]
fn maurer_random_sizes_verify_and_vary() {
    use primekit::hazmat::gen::generate_provable_prime_maurer;
    for bits in [128u32, 1024] {
        let (p, cert) = generate_provable_prime_maurer(bits).unwrap();
        assert_eq!(p.bits(), u64::from(bits));
        assert_valid(&p, &cert);
    }
    // The top factor's relative size is drawn from [1/2, 1 - 20/k]: over 24 primes of 400
    // bits it takes many values, averaging well above the fixed construction's 1/2.
    let sizes: Vec<f64> = (0..24)
        .map(|_| {
            let (p, cert) = generate_provable_prime_maurer(400).unwrap();
            let Step::Pocklington(top) = &cert.steps[0] else { panic!("Maurer's construction makes Pocklington steps") };
            assert_eq!(top.n, p);
            top.factors[0].q.bits() as f64 / 400.0
        })
        .collect();
    let distinct: std::collections::BTreeSet<u64> = sizes.iter().map(|s| (s * 400.0) as u64).collect();
    let mean = sizes.iter().sum::<f64>() / sizes.len() as f64;
    assert!(distinct.len() >= 8, "{sizes:?}");
    assert!(sizes.iter().all(|&s| (0.5..=0.95).contains(&s)), "{sizes:?}");
    assert!(mean > 0.6, "{mean}");
}

#[test]
fn large_and_safe_certificates() {
    let (p, cert) = generate_provable_prime(4096).unwrap();
    assert_eq!(p.bits(), 4096);
    assert_valid(&p, &cert);
    for bits in [1024u32, 2048] {
        let (p, cert) = generate_provable_safe_prime(bits).unwrap();
        assert_eq!(p.bits(), u64::from(bits));
        assert!(cert.steps.iter().any(|s| s.n() == &((&p - 1u8) >> 1)), "q is proven too");
        assert_valid(&p, &cert);
    }
}

/// A stored 4096-bit provable safe prime (tests/data/README.md): generating one takes
/// about a minute and a half, so the tests check a kept certificate in both checkers.
#[test]
fn stored_4096_bit_safe_certificate_verifies() {
    let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/provable-safe-4096.cert.json")).unwrap();
    let cert = from_json(text.as_bytes()).unwrap();
    let p = verify(&cert, None).unwrap();
    assert_eq!(p.bits(), 4096);
    let q = (&p - 1u8) >> 1;
    assert!(cert.steps.iter().any(|s| s.n() == &q), "q is proven too");
    assert!(verify(&cert, Some(&q)).is_err(), "a certificate of p is not one of q");
    assert_valid(&p, &cert);
    // The same certificate offered for p + 2 is refused by both.
    let other = &p + 2u8;
    assert_eq!(rust_verdict(&text, Some(&other)), 1);
    if let Some(v) = python_verdict(&text, Some(&other)) {
        assert_eq!(v, 1);
    }
}
