//! `primekit gen --provable`, `prove` and `verify-cert` end to end, with the independent
//! Python checker (tools/verify_cert.py) as second opinion where python3 exists.

use num_bigint::BigUint;
use num_traits::One;
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_primekit");

fn tmp(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("cert-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn python_ok(cert: &PathBuf) -> Option<bool> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/verify_cert.py");
    Command::new("python3").arg(script).arg(cert).output().ok().map(|o| o.status.success())
}

#[test]
fn provable_primes_and_proofs_verify() {
    for (bits, safe) in [("512", false), ("1024", false), ("256", true)] {
        let cert = tmp(&format!("gen-{bits}-{safe}.json"));
        let mut args = vec!["gen", "--bits", bits, "--provable", "--cert", cert.to_str().unwrap()];
        if safe {
            args.push("--safe");
        }
        let out = run(&args);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let p = String::from_utf8(out.stdout).unwrap().trim().to_string();
        let v = run(&["verify-cert", cert.to_str().unwrap(), "--n", &p]);
        assert_eq!(v.status.code(), Some(0), "{}", String::from_utf8_lossy(&v.stderr));
        assert_eq!(String::from_utf8_lossy(&v.stdout).trim(), p);
        assert_ne!(python_ok(&cert), Some(false), "python checker disagrees");
        // For another number: invalid.
        let other = (p.parse::<BigUint>().unwrap() + 2u8).to_string();
        assert_eq!(run(&["verify-cert", cert.to_str().unwrap(), "--n", &other]).status.code(), Some(1));
    }
}

#[test]
fn prove_succeeds_with_and_without_smooth_n_minus_1() {
    // N = k 2^300 + 1: N - 1 is fully factored by trial division.
    let n = (1u32..).map(|k| BigUint::from(k) * (BigUint::one() << 300u32) + 1u8).find(primekit::is_prime).unwrap();
    let cert = tmp("proth.json");
    let out = run(&["prove", &n.to_string(), "--cert", cert.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(run(&["verify-cert", cert.to_str().unwrap(), "--n", &n.to_string()]).status.code(), Some(0));
    assert_ne!(python_ok(&cert), Some(false));
    // N - 1 = 2 k a b with a, b primes of 120 bits: N - 1 does not help, the proof is by
    // elliptic curves (ecpp steps).
    let a = primekit::next_prime(&(BigUint::one() << 119u32)).unwrap();
    let b = primekit::next_prime(&((BigUint::one() << 119u32) + (BigUint::one() << 100u32))).unwrap();
    let n = (1u32..).map(|k| BigUint::from(2 * k) * &a * &b + 1u8).find(primekit::is_prime).unwrap();
    let cert = tmp("ecpp.json");
    let out = run(&["prove", &n.to_string(), "--cert", cert.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(run(&["verify-cert", cert.to_str().unwrap(), "--n", &n.to_string()]).status.code(), Some(0));
    // A composite.
    assert_eq!(run(&["prove", &(&n * 3u8).to_string()]).status.code(), Some(1));
    assert_eq!(run(&["prove", "97"]).status.code(), Some(2));
}

#[test]
fn bad_certificate_files() {
    let garbage = tmp("garbage.json");
    std::fs::write(&garbage, vec![b'{'; 10_000_000]).unwrap();
    let t = std::time::Instant::now();
    assert_eq!(run(&["verify-cert", garbage.to_str().unwrap()]).status.code(), Some(2));
    assert!(t.elapsed().as_secs() < 2);
    assert_eq!(run(&["verify-cert", tmp("missing.json").to_str().unwrap()]).status.code(), Some(2));
    let bad = tmp("bad.json");
    std::fs::write(&bad, r#"{"format":"primekit-certificate","version":1,"prime":"36893488147419103233","steps":[{"n":"36893488147419103233","method":"pocklington","factors":[{"q":"2","k":65,"witness":"3"}]}]}"#).unwrap();
    let out = run(&["verify-cert", bad.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("invalid: step 0:"));
}

#[test]
fn provable_dh_group_checked_against_its_certificate() {
    let (dh, cert) = (tmp("dh.pem"), tmp("dh.cert.json"));
    let out = run(&["dhparam", "--bits", "512", "--provable", "--out", dh.to_str().unwrap(), "--cert", cert.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let check = run(&["check-dh", dh.to_str().unwrap(), "--cert", cert.to_str().unwrap()]);
    let text = String::from_utf8_lossy(&check.stdout);
    assert!(text.contains("PASS  certificate: p and q are proven prime"), "{text}");
    assert!(text.contains("PASS  g_order"), "{text}");
    // The certificate of another group fails the check.
    let other = tmp("other.cert.json");
    assert!(run(&["gen", "--bits", "512", "--provable", "--cert", other.to_str().unwrap()]).status.success());
    let check = run(&["check-dh", dh.to_str().unwrap(), "--cert", other.to_str().unwrap()]);
    assert_eq!(check.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&check.stdout).contains("FAIL  certificate"));
}

#[test]
fn seeded_provable_primes_are_reproducible() {
    let seed = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";
    let cert = tmp("seeded.json");
    let first = run(&["gen", "--bits", "1024", "--provable", "--seed", seed, "--cert", cert.to_str().unwrap()]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    let again = run(&["gen", "--bits", "1024", "--provable", "--seed", seed]);
    let p = String::from_utf8_lossy(&first.stdout).trim().to_string();
    assert_eq!(String::from_utf8_lossy(&again.stdout).lines().next().unwrap(), p);
    assert_eq!(run(&["verify-cert", cert.to_str().unwrap(), "--n", &p]).status.code(), Some(0));
    assert_ne!(python_ok(&cert), Some(false));
    assert_eq!(run(&["gen", "--bits", "1024", "--provable", "--seed", "xyz"]).status.code(), Some(2));
}
