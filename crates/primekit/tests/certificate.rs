//! Provable primes and their certificates: generated ones verify in Rust and in the
//! independent Python checker (tools/verify_cert.py); every field mutated in turn is
//! rejected by both; garbage is refused quickly.

use num_bigint::BigUint;
use num_traits::One;
use primekit::certificate::{
    decimal_digits, estimate_work, from_json, to_json, verify, verify_with, verify_with_limit, Certificate, CertificateError, EcppStep,
    Factor, PocklingtonStep, Step, DEFAULT_MAX_WORK, MAX_DECIMAL_DIGITS,
};
use primekit::{generate_provable_prime, generate_provable_safe_prime, is_prime};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

fn python_checker() -> Option<PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tools/verify_cert.py");
    Command::new("python3").arg("--version").output().ok().filter(|o| o.status.success()).map(|_| script)
}

/// Exit status of the Python checker on `text`, for the number `expected` if given
/// (None when python3 is absent).
fn python_verdict(text: impl AsRef<[u8]>, expected: Option<&BigUint>) -> Option<i32> {
    python_verdict_with(text.as_ref(), expected, &[])
}

fn python_verdict_with(text: &[u8], expected: Option<&BigUint>, extra: &[&str]) -> Option<i32> {
    static FILES: AtomicUsize = AtomicUsize::new(0);
    let script = python_checker()?;
    let f = std::env::temp_dir().join(format!("primekit-cert-{}-{}.json", std::process::id(), FILES.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&f, text).unwrap();
    let mut cmd = Command::new("python3");
    cmd.arg(&script).arg(&f).args(extra);
    if let Some(n) = expected {
        cmd.arg(n.to_string());
    }
    let out = cmd.output().unwrap();
    let _ = std::fs::remove_file(&f);
    out.status.code()
}

fn rust_verdict(text: impl AsRef<[u8]>, expected: Option<&BigUint>) -> i32 {
    rust_verdict_with(text.as_ref(), expected, DEFAULT_MAX_WORK)
}

fn rust_verdict_with(text: &[u8], expected: Option<&BigUint>, max_work: u128) -> i32 {
    match from_json(text).map(|c| verify_with_limit(&c, expected, max_work)) {
        Ok(Ok(_)) => 0,
        Ok(Err(CertificateError::Invalid { .. })) => 1,
        Ok(Err(CertificateError::Malformed(_))) | Err(_) => 2,
    }
}

/// Both checkers give `want` (0 valid, 1 invalid, 2 malformed) on `text`.
fn assert_both(text: impl AsRef<[u8]>, want: i32, what: &str) {
    let text = text.as_ref();
    assert_eq!(rust_verdict(text, None), want, "rust: {what}");
    match python_verdict(text, None) {
        Some(v) => assert_eq!(v, want, "python: {what}"),
        None => eprintln!("SKIP python checker: no python3 ({what})"),
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
    for text in ["", "[]", "{}", "null", r#"{"format":"primekit-certificate","version":1,"prime":"7","steps":[]}"#] {
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

/// The digit cap is exactly the digits of the largest allowed number.
#[test]
fn decimal_digit_cap_is_exact() {
    assert_eq!(MAX_DECIMAL_DIGITS, 4933);
    let exact = |b: u64| ((BigUint::one() << b) - 1u8).to_string().len();
    for b in (1..=700).chain((701..=17_000).step_by(97)).chain([16_383, 16_384, 16_385]) {
        assert_eq!(decimal_digits(b), exact(b), "{b} bits");
    }
}

fn small_cert(version: u32, prime: &str) -> String {
    format!(r#"{{"format":"primekit-certificate","version":{version},"prime":"{prime}","steps":[]}}"#)
}

/// Primes below 2^64 have certificates with no steps (version 2), valid exactly when the
/// exact test says prime; Shawe-Taylor primes of 64 bits or fewer get one.
#[test]
fn small_primes_have_stepless_certificates() {
    let largest = "18446744073709551557"; // the largest prime below 2^64
    for (p, want) in [("7", 0), ("2", 0), (largest, 0), ("9", 1), ("1", 1), ("0", 1), ("18446744073709551629", 1)] {
        assert_both(small_cert(2, p), want, p);
    }
    // 2^64 + 13 is prime but needs a step.
    assert!(is_prime(&"18446744073709551629".parse::<BigUint>().unwrap()));
    assert_both(small_cert(1, "7"), 2, "version 1 has no stepless form");
    let c = Certificate::new(BigUint::from(7u8), vec![]);
    assert_eq!(from_json(to_json(&c).as_bytes()).unwrap(), c);
    assert!(to_json(&c).contains(r#""version":2"#));
    let seed = BigUint::from(0x1234_5678_9abc_def0u64);
    for bits in [2u32, 33, 64] {
        let st = primekit::hazmat::gen::shawe_taylor_random_prime(bits, &seed, 64).unwrap();
        assert!(st.certificate.steps.is_empty());
        assert_eq!(verify(&st.certificate, Some(&st.prime)).unwrap(), st.prime);
        assert_both(to_json(&st.certificate), 0, &format!("Shawe-Taylor {bits} bits"));
    }
}

/// Encodings one JSON reader takes and another refuses: both checkers call them malformed.
#[test]
fn encoding_edges_get_the_same_class_from_both() {
    let valid = small_cert(2, "7");
    let with_extra = |extra: &str| format!(r#"{{"x":{extra},{}"#, &valid[1..]);
    let mut cases: Vec<(Vec<u8>, i32, String)> = vec![
        (valid.clone().into_bytes(), 0, "valid".into()),
        ([b"\xef\xbb\xbf".as_slice(), valid.as_bytes()].concat(), 2, "byte order mark".into()),
        (valid.encode_utf16().flat_map(|u| u.to_le_bytes()).collect(), 2, "UTF-16".into()),
        (format!("{valid} x").into_bytes(), 2, "trailing text".into()),
        (format!(" \n{valid}\t").into_bytes(), 0, "whitespace".into()),
    ];
    for v in ["1.0", "2.0", "true", "\"2\"", "3", "0", "-1", "2e0", "18446744073709551618"] {
        cases.push((valid.replace(r#""version":2"#, &format!(r#""version":{v}"#)).into_bytes(), 2, format!("version {v}")));
    }
    for (extra, want) in [
        ("NaN", 2),
        ("Infinity", 2),
        ("-Infinity", 2),
        ("1e400", 2),
        ("1e300", 0),
        ("123456789012345678901234567890", 0),
        (&"9".repeat(400), 2),
        (r#""\ud800""#, 2),
        (r#""\ud83d\ude00""#, 0),
        (&format!("{}{}", "[".repeat(60), "]".repeat(60)), 0),
        (&format!("{}{}", "[".repeat(64), "]".repeat(64)), 2),
        (&format!("{}{}", "[".repeat(200), "]".repeat(200)), 2),
        (&format!("{}{}", "[".repeat(100_000), "]".repeat(100_000)), 2),
    ] {
        cases.push((with_extra(extra).into_bytes(), want, format!("extra field {}", &extra[..extra.len().min(30)])));
    }
    cases.push(("[".repeat(500_000).into_bytes(), 2, "deep unclosed".into()));
    // Integers up to the digit cap (4,933, beyond CPython's default 4,300) are read.
    let long7 = format!("{}7", "0".repeat(MAX_DECIMAL_DIGITS - 1));
    cases.push((small_cert(2, &long7).into_bytes(), 0, "4,933 digits".into()));
    cases.push((small_cert(2, &format!("0{long7}")).into_bytes(), 2, "4,934 digits".into()));
    // Exponents: a JSON integer in 1..=65536, anything else malformed.
    let (p, cert) = generate_provable_prime(128).unwrap();
    let text = to_json(&cert);
    let k = format!(r#""k":{}"#, pocklington_steps(&cert)[0].factors[0].k);
    assert!(text.contains(&k));
    for bad in ["0", "-1", "65537", "4294967297", "18446744073709551616", "1.0", "\"1\"", "null"] {
        cases.push((text.replacen(&k, &format!(r#""k":{bad}"#), 1).into_bytes(), 2, format!("k = {bad}")));
    }
    cases.push((text.clone().into_bytes(), 0, "the 128-bit certificate".into()));
    for (bytes, want, what) in &cases {
        assert_both(bytes, *want, what);
    }
    assert_eq!(rust_verdict(&text, Some(&p)), 0);
}

fn pocklington_steps(c: &Certificate) -> Vec<&PocklingtonStep> {
    c.steps.iter().map(|s| if let Step::Pocklington(p) = s { p } else { panic!("Pocklington steps expected") }).collect()
}

/// Refused in under a second by both checkers (each checker's own run).
fn assert_refused_fast(text: &str, want: i32, what: &str) {
    let t = Instant::now();
    assert_eq!(rust_verdict(text, None), want, "rust: {what}");
    assert!(t.elapsed() < Duration::from_secs(1), "rust took {:?}: {what}", t.elapsed());
    let t = Instant::now();
    if let Some(v) = python_verdict(text, None) {
        assert_eq!(v, want, "python: {what}");
        assert!(t.elapsed() < Duration::from_secs(1), "python took {:?}: {what}", t.elapsed());
    }
}

/// Certificates that once cost minutes or hours are refused at once: factors listed many
/// times, a huge exponent (of a proven and of an unproven q), more factors than N - 1 has room for.
#[test]
fn repeated_factors_and_huge_exponents_are_refused_at_once() {
    let (_, cert) = generate_provable_prime(2048).unwrap();
    let top = pocklington_steps(&cert)[0].clone();
    let mut dup = cert.clone();
    let Step::Pocklington(s) = &mut dup.steps[0] else { unreachable!() };
    s.factors = top.factors.iter().cycle().take(top.factors.len() * 1500).cloned().collect();
    let text = to_json(&dup);
    assert!(text.len() < 1 << 20);
    assert_refused_fast(&text, 1, "one factor listed 1,500 times");
    // Every step repeating its factors (the chain's later steps are checked first).
    let mut all = cert.clone();
    for s in &mut all.steps {
        let Step::Pocklington(s) = s else { unreachable!() };
        s.factors = s.factors.iter().cycle().take(s.factors.len() * 150).cloned().collect();
    }
    assert_refused_fast(&to_json(&all), 1, "every step's factors listed 150 times");
    let mut huge = cert.clone();
    let Step::Pocklington(s) = &mut huge.steps[0] else { unreachable!() };
    s.factors[0].k = 65_536;
    assert_refused_fast(&to_json(&huge), 1, "a 1,025-bit q to the power 65,536");
    // An unproven 8,192-bit q with k = 65,536 on a 16,384-bit N.
    let n = (BigUint::one() << 16_383u32) + 1u8;
    let q = (BigUint::one() << 8191u32) + 1u8;
    let c = Certificate::new(
        n.clone(),
        vec![Step::Pocklington(PocklingtonStep { n, factors: vec![Factor { q, k: 65_536, witness: BigUint::from(3u8) }] })],
    );
    assert_refused_fast(&to_json(&c), 1, "unproven 8,192-bit q^65536");
    // 2^i for distinct small primes: more factors than bits(N - 1) allows.
    let n = (BigUint::one() << 200u32) + 1u8;
    let factors = (2u32..)
        .filter(|&x| is_prime(&BigUint::from(x)))
        .take(300)
        .map(|q| Factor { q: q.into(), k: 1, witness: BigUint::from(3u8) })
        .collect();
    let c = Certificate::new(n.clone(), vec![Step::Pocklington(PocklingtonStep { n, factors })]);
    assert_refused_fast(&to_json(&c), 1, "300 distinct factors of a 201-bit N - 1");
}

/// A fake step of `bits` bits, for the estimate (which reads only sizes and counts).
fn sized(bits: u64) -> BigUint {
    (BigUint::one() << (bits - 1)) + 1u8
}

/// The documented bounds on the checkers' time per unit of estimated work (release
/// build; docs/limits.md, which multiplies them by the default limit for the worst case).
const RUST_SECONDS_PER_UNIT: f64 = 4e-9;
const PYTHON_SECONDS_PER_UNIT: f64 = 8e-8;

/// The estimate is the documented formula; every certificate primekit makes up to 16,384
/// bits fits the default limit; the limit refuses as malformed in both checkers; and a
/// Pocklington step of the shape that costs the most per unit (many small factors) is
/// checked within the documented time per unit.
#[test]
fn work_estimate_and_limit() {
    let pock = |bits: u64, r: usize| {
        let n = sized(bits);
        let f = Factor { q: BigUint::from(3u8), k: 1, witness: BigUint::from(2u8) };
        Step::Pocklington(PocklingtonStep { n, factors: vec![f; r] })
    };
    let ecpp = |bits: u64| {
        let z = BigUint::one();
        Step::Ecpp(EcppStep { n: sized(bits), a: z.clone(), b: z.clone(), m: z.clone(), q: z.clone(), x: z.clone(), y: z, d: None })
    };
    let est = |steps: Vec<Step>| estimate_work(&Certificate::new(steps[0].n().clone(), steps));
    assert_eq!(est(vec![pock(2048, 3)]), 4 * 2048 * 32 * 32);
    assert_eq!(est(vec![pock(65, 1)]), 2 * 65 * 2 * 2);
    assert_eq!(est(vec![ecpp(16_384)]), 20 * 16_384 * 256 * 256);
    assert_eq!(est(vec![pock(1000, 2), ecpp(129)]), 3 * 1000 * 16 * 16 + 20 * 129 * 9);
    // A Maurer / Shawe-Taylor chain from 16,384 bits (one factor per step, halving).
    let mut maurer = vec![];
    let mut b = 16_384;
    while b > 64 {
        maurer.push(pock(b, 1));
        b = b / 2 + 1;
    }
    assert!(est(maurer) < 3_000_000_000);
    // A Pocklington step at 16,384 bits listing every prime whose product can divide N - 1.
    let mut room = 16_383u64;
    let most = (2u32..).filter(|&x| is_prime(&BigUint::from(x))).take_while(|&q| {
        room = room.saturating_sub(u64::from(32 - q.leading_zeros()) - 1);
        room > 0
    });
    let most = most.count();
    assert!((1400..1500).contains(&most), "{most}");
    assert!(est(vec![pock(16_384, most)]) <= DEFAULT_MAX_WORK);
    // As many 16,384-bit elliptic-curve steps with random a, b, P (q of 8,193 bits) as
    // 1 MiB holds.
    let mut rng = rand::thread_rng();
    let mut r = |bits: u64| num_bigint::RandBigInt::gen_biguint(&mut rng, bits) | (BigUint::one() << (bits - 1));
    let (n, a, b, m, q, x, y) = (r(16_384), r(16_383), r(16_383), r(16_384), r(8193), r(16_383), r(16_383));
    let one = Step::Ecpp(EcppStep { n: n.clone(), a, b, m, q, x, y, d: Some(-7) });
    let one_len = to_json(&Certificate::new(n, vec![one.clone()])).len();
    let fit = primekit::certificate::MAX_CERTIFICATE_BYTES / (one_len - 100);
    assert!((25..40).contains(&fit), "{fit}");
    assert!(est(vec![one; fit]) <= DEFAULT_MAX_WORK);

    // The limit, in both checkers.
    let (p, cert) = generate_provable_prime(512).unwrap();
    let work = estimate_work(&cert);
    let text = to_json(&cert);
    assert_eq!(rust_verdict_with(text.as_bytes(), None, work), 0);
    assert_eq!(rust_verdict_with(text.as_bytes(), None, work - 1), 2);
    let err = verify_with_limit(&cert, Some(&p), work - 1).unwrap_err().to_string();
    assert!(err.starts_with("malformed certificate: estimated work") && err.contains("--max-work") && !err.contains('\n'), "{err}");
    if let Some(v) = python_verdict_with(text.as_bytes(), None, &["--max-work", &work.to_string()]) {
        assert_eq!(v, 0);
        assert_eq!(python_verdict_with(text.as_bytes(), None, &["--max-work", &(work - 1).to_string()]), Some(2));
    }

    // Many small factors: N - 1 = 2 * 3 * 5 * ... * 599 * h, 1,536 bits.
    let mut f = BigUint::one();
    let primes: Vec<u32> = (2u32..).filter(|&x| is_prime(&BigUint::from(x))).take_while(|&x| x <= 600).collect();
    for &q in &primes {
        f *= q;
    }
    let mut h = (BigUint::one() << (1535 - f.bits())) + 1u8;
    let n = loop {
        let n = &f * &h + 1u8;
        if is_prime(&n) {
            break n;
        }
        h += 1u8;
    };
    let n1 = &n - 1u8;
    let factors: Vec<Factor> = primes
        .iter()
        .map(|&q| {
            let q = BigUint::from(q);
            let e = &n1 / &q;
            let witness = (2u32..).map(BigUint::from).find(|a| !a.modpow(&e, &n).is_one()).unwrap();
            Factor { q, k: 1, witness }
        })
        .collect();
    let c = Certificate::new(n.clone(), vec![Step::Pocklington(PocklingtonStep { n: n.clone(), factors })]);
    let work = estimate_work(&c) as f64;
    let t = Instant::now();
    assert_eq!(verify(&c, Some(&n)).unwrap(), n);
    let rust = t.elapsed().as_secs_f64();
    eprintln!("{} factors of a {}-bit N: estimate {work:.3e}, rust {rust:.3} s ({:.2e} s/unit)", primes.len(), n.bits(), rust / work);
    if cfg!(debug_assertions) {
        eprintln!("SKIP the time bound: debug build");
    } else {
        assert!(rust <= work * RUST_SECONDS_PER_UNIT, "{rust} s for {work} units");
    }
    let text = to_json(&c);
    let t = Instant::now();
    if let Some(v) = python_verdict(&text, Some(&n)) {
        let python = t.elapsed().as_secs_f64();
        assert_eq!(v, 0);
        eprintln!("python {python:.3} s ({:.2e} s/unit)", python / work);
        assert!(python <= work * PYTHON_SECONDS_PER_UNIT, "{python} s for {work} units");
    }
}

/// Runs the PARI/GP helper (tests/support/pari_ecpp_cert.py) for `n`: an ecpp-only
/// certificate from PARI's primecert, or None (with a visible message) without gp.
fn pari_ecpp_certificate(n: &BigUint) -> Option<String> {
    let helper = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/pari_ecpp_cert.py");
    let out = match Command::new("python3").arg(helper).arg(n.to_string()).output() {
        Ok(o) => o,
        Err(e) => {
            eprintln!("SKIP ecpp certificates from PARI: no python3 ({e})");
            return None;
        }
    };
    if out.status.code() == Some(3) {
        eprintln!("SKIP ecpp certificates from PARI: {}", String::from_utf8_lossy(&out.stderr).trim());
        return None;
    }
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    Some(String::from_utf8(out.stdout).unwrap())
}

/// Elliptic-curve steps made by an independent prover (PARI's primecert): both checkers
/// accept them, and refuse each with any one field of any step changed.
#[test]
fn ecpp_steps_from_pari_verify_and_every_mutation_fails() {
    for n in [primekit::next_prime(&((BigUint::one() << 200u32) + 12_345u32)).unwrap(), (BigUint::one() << 127u32) - 1u8] {
        let Some(text) = pari_ecpp_certificate(&n) else { return };
        let cert = from_json(text.as_bytes()).unwrap();
        assert!(cert.steps.len() >= 2 && cert.steps.iter().all(|s| matches!(s, Step::Ecpp(_))), "{text}");
        assert_valid(&n, &cert);
        assert_eq!(python_verdict(&text, Some(&n)).unwrap_or(0), 0);
        let mut mutants: Vec<(String, Certificate)> = vec![];
        // Every field of the first, second and last steps (the checkers treat every step
        // alike; the first and last meet the chain's two ends), each step removed.
        let last = cert.steps.len() - 1;
        for i in 0..cert.steps.len() {
            let mut c = cert.clone();
            c.steps.remove(i);
            mutants.push((format!("step {i} removed"), c));
            if ![0, 1, last].contains(&i) {
                continue;
            }
            type Field = fn(&mut EcppStep) -> &mut BigUint;
            let fields: [(&str, Field); 7] = [
                ("n", |e| &mut e.n),
                ("a", |e| &mut e.a),
                ("b", |e| &mut e.b),
                ("m", |e| &mut e.m),
                ("q", |e| &mut e.q),
                ("x", |e| &mut e.x),
                ("y", |e| &mut e.y),
            ];
            for (name, get) in fields {
                for delta in [1u8, 2] {
                    let mut c = cert.clone();
                    let Step::Ecpp(e) = &mut c.steps[i] else { unreachable!() };
                    *get(e) += delta;
                    mutants.push((format!("step {i} {name} + {delta}"), c));
                }
            }
        }
        for (what, m) in &mutants {
            let text = to_json(m);
            assert_ne!(rust_verdict(&text, Some(&n)), 0, "rust accepted: {what}");
            if let Some(v) = python_verdict(&text, Some(&n)) {
                assert_ne!(v, 0, "python accepted: {what}");
            }
        }
    }
}

/// A 16,343-bit prime (4,920 digits: above CPython's default 4,300-digit limit and the
/// earlier 4,917-digit cap) parses and verifies in both checkers; its N - 1 proof is a
/// single factor, 2^8192.
#[test]
fn proth_16343_bit_certificate_verifies_in_both() {
    let text = std::fs::read(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/proth-16343.cert.json")).unwrap();
    let cert = from_json(&text).unwrap();
    let n = cert.prime.clone();
    assert_eq!((n.bits(), n.to_string().len()), (16_343, 4920));
    assert_eq!(((&n - 1u8) >> 8192u32 << 8192u32) + 1u8, n);
    assert_eq!(verify(&cert, Some(&n)).unwrap(), n);
    match python_verdict(&text, Some(&n)) {
        Some(v) => assert_eq!(v, 0, "python"),
        None => eprintln!("SKIP python checker: no python3"),
    }
    // The same N with F = 2^8171 only: F^2 = 2^16342 <= N.
    let smaller = String::from_utf8(text).unwrap().replace(r#""k": 8192"#, r#""k": 8171"#);
    assert!(smaller.contains(r#""k": 8171"#));
    assert_both(smaller, 1, "F = 2^8171");
}

/// Verification on several threads gives the verdict and names the step one thread names:
/// with two broken steps, the later one in the chain (the first a walk from the end meets).
#[test]
fn threads_do_not_change_the_verdict_or_the_step_named() {
    let n = BigUint::parse_bytes(b"115792089237316195423570985008687907853269984665640564039457584007913129639747", 10).unwrap();
    let cert = primekit::certificate::prove(&n).expect("2^256 - 189 is prime");
    let ecpp: Vec<usize> = (0..cert.steps.len()).filter(|&i| matches!(cert.steps[i], Step::Ecpp(_))).collect();
    assert!(ecpp.len() >= 3, "a 256-bit proof has several elliptic-curve steps");
    for jobs in 1..=4 {
        assert_eq!(verify_with(&cert, Some(&n), DEFAULT_MAX_WORK, jobs).unwrap(), n);
    }
    let mut broken = cert.clone();
    for &i in &[ecpp[0], ecpp[2]] {
        if let Step::Ecpp(s) = &mut broken.steps[i] {
            s.x += 1u8;
        }
    }
    for jobs in 1..=4 {
        match verify_with(&broken, Some(&n), DEFAULT_MAX_WORK, jobs) {
            Err(CertificateError::Invalid { step, .. }) => assert_eq!(step, ecpp[2], "jobs {jobs}"),
            other => panic!("jobs {jobs}: {other:?}"),
        }
    }
}
