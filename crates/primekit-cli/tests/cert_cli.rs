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

/// `gen --provable --count 3`: three distinct primes, each followed by its certificate
/// (plain output) or carrying it in its JSON line, every certificate verifying its own
/// prime only; `--cert FILE` (one certificate per file) and `--seed` (one prime per seed)
/// take `--count 1` and are refused with more, exit 2, writing no file.
#[test]
fn provable_count_prints_each_certificate() {
    let out = run(&["gen", "--bits", "256", "--provable", "--count", "3"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 6, "prime, certificate, three times: {text}");
    let primes: Vec<&str> = lines.iter().step_by(2).copied().collect();
    for (k, pair) in lines.chunks(2).enumerate() {
        let cert = tmp(&format!("count-{k}.json"));
        std::fs::write(&cert, pair[1]).unwrap();
        for &q in &primes {
            let want = if q == pair[0] { 0 } else { 1 };
            assert_eq!(run(&["verify-cert", cert.to_str().unwrap(), "--n", q]).status.code(), Some(want), "certificate {k} for {q}");
        }
    }
    let mut primes = primes;
    primes.sort();
    primes.dedup();
    assert_eq!(primes.len(), 3, "three distinct primes");
    let out = run(&["gen", "--bits", "256", "--provable", "--safe", "--count", "3", "--json"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let objs: Vec<serde_json::Value> = String::from_utf8(out.stdout).unwrap().lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(objs.len(), 3);
    for v in &objs {
        assert_eq!((v["provable"].as_bool(), v["safe"].as_bool()), (Some(true), Some(true)), "{v}");
        assert!(v["certificate"].is_object() && v["prime"].is_string(), "{v}");
    }
    let cert = tmp("count-refused.json");
    let out = run(&["gen", "--bits", "256", "--provable", "--count", "3", "--cert", cert.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--cert FILE holds one certificate, so it takes --count 1"));
    assert!(!cert.exists(), "nothing written when refused");
    let out = run(&["gen", "--bits", "256", "--provable", "--count", "2", "--seed", "abcd"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(run(&["gen", "--bits", "256", "--provable", "--count", "0"]).status.code(), Some(2));
}

#[test]
fn prove_proves_any_prime_and_refuses_composites() {
    // N = k 2^300 + 1: N - 1 is fully factored by trial division.
    let n = (1u32..).map(|k| BigUint::from(k) * (BigUint::one() << 300u32) + 1u8).find(primekit::is_prime).unwrap();
    let cert = tmp("proth.json");
    let out = run(&["prove", &n.to_string(), "--cert", cert.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(run(&["verify-cert", cert.to_str().unwrap(), "--n", &n.to_string()]).status.code(), Some(0));
    assert_ne!(python_ok(&cert), Some(false));
    // N - 1 = 2 k a b with a, b primes of 120 bits: no N - 1 proof; elliptic curves.
    let a = primekit::next_prime(&(BigUint::one() << 119u32)).unwrap();
    let b = primekit::next_prime(&((BigUint::one() << 119u32) + (BigUint::one() << 100u32))).unwrap();
    let n = (1u32..).map(|k| BigUint::from(2 * k) * &a * &b + 1u8).find(primekit::is_prime).unwrap();
    let cert = tmp("ecpp.json");
    let out = run(&["prove", &n.to_string(), "--cert", cert.to_str().unwrap(), "--jobs", "2"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(std::fs::read_to_string(&cert).unwrap().contains("\"method\":\"ecpp\""));
    assert_eq!(run(&["verify-cert", cert.to_str().unwrap(), "--n", &n.to_string()]).status.code(), Some(0));
    assert_ne!(python_ok(&cert), Some(false), "python checker disagrees");
    // --json: one object with the certificate inside.
    let out = run(&["prove", &n.to_string(), "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!((v["command"].as_str(), v["result"].as_str()), (Some("prove"), Some("proven")), "{v}");
    assert!(v["ecpp_steps"].as_u64().unwrap() >= 1 && v["certificate"].as_str().unwrap().contains("ecpp"), "{v}");
    // Composites: exit 1 with how it showed, never a certificate; a Carmichael number,
    // a product of two close primes, one with a small factor, and one below 2^64.
    let close = &a * primekit::next_prime(&a).unwrap();
    for c in [(&n * 3u8).to_string(), close.to_string(), "561".into(), "3825123056546413051".into()] {
        let out = run(&["prove", &c]);
        assert_eq!(out.status.code(), Some(1), "{c}");
        assert!(out.stdout.is_empty(), "{c}");
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("primekit prove: N is composite: "), "{c}");
    }
    // Below 2^64 the exact test is the proof: a certificate without steps.
    let out = run(&["prove", "97"]);
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"steps\":[]"));
    // No time: exit 3 with a JSON verdict; bad input: exit 2.
    let big = primekit::next_prime(&(BigUint::one() << 1500u32)).unwrap();
    let out = run(&["prove", &big.to_string(), "--max-seconds", "0.001", "--json"]);
    assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"result\":\"timed_out\""));
    for bad in [&["prove", "12x"][..], &["prove", "97", "--max-seconds", "-1"], &["prove", "97", "--format", "magma"]] {
        assert_eq!(run(bad).status.code(), Some(2), "{bad:?}");
    }
}

#[test]
fn prove_format_pari_is_accepted_by_gp() {
    let n = primekit::next_prime(&(BigUint::one() << 200u32)).unwrap();
    let out = run(&["prove", &n.to_string(), "--format", "pari"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.trim_start().starts_with('['), "{text}");
    let gp = Command::new("gp")
        .args(["-q", "-f", "--default", "parisizemax=100000000"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn();
    let Ok(mut gp) = gp else {
        eprintln!("SKIP prove --format pari in PARI: gp not found");
        return;
    };
    use std::io::Write;
    let script = format!("print(primecertisvalid({}));\n", text.trim());
    gp.stdin.take().unwrap().write_all(script.as_bytes()).unwrap();
    let out = gp.wait_with_output().unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "1");
}

#[test]
fn prove_format_primo_passes_the_primo_checker() {
    let n = primekit::next_prime(&(BigUint::one() << 200u32)).unwrap();
    let cert = tmp("prove-200.primo");
    let out = run(&["prove", &n.to_string(), "--format", "primo", "--cert", cert.to_str().unwrap(), "--force"]);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = std::fs::read_to_string(&cert).unwrap();
    assert!(text.starts_with("[PRIMO - Primality Certificate]\nFormat=4\n"), "{text}");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/verify_primo.py");
    match Command::new("python3").arg(script).arg(&cert).args(["--expect", &n.to_string()]).output() {
        Ok(o) => assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout)),
        Err(_) => eprintln!("SKIP prove --format primo in tools/verify_primo.py: python3 not found"),
    }
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

/// Seeded primes of 64 bits or fewer get a certificate without steps (format version 2)
/// that both checkers accept.
#[test]
fn small_seeded_primes_have_stepless_certificates() {
    let seed = "00112233445566778899aabbccddeeff";
    for bits in ["33", "64"] {
        let cert = tmp(&format!("small-{bits}.json"));
        let out = run(&["gen", "--bits", bits, "--provable", "--seed", seed, "--cert", cert.to_str().unwrap()]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let p = String::from_utf8(out.stdout).unwrap().trim().to_string();
        let text = std::fs::read_to_string(&cert).unwrap();
        assert!(text.contains(&format!(r#""prime":"{p}""#)) && text.contains(r#""steps":[]"#) && text.contains(r#""version":2"#), "{text}");
        let v = run(&["verify-cert", cert.to_str().unwrap(), "--n", &p]);
        assert_eq!(v.status.code(), Some(0), "{}", String::from_utf8_lossy(&v.stderr));
        assert_eq!(String::from_utf8_lossy(&v.stdout).trim(), p);
        assert_ne!(python_ok(&cert), Some(false), "python checker disagrees");
    }
}

/// --max-work: below a certificate's estimate, verify-cert refuses it at once (exit 2,
/// one line naming the flag), as does the Python checker; check-dh --cert fails its check.
#[test]
fn max_work_limits_verify_cert_and_check_dh() {
    let (dh, cert) = (tmp("limit-dh.pem"), tmp("limit-dh.cert.json"));
    let out = run(&["dhparam", "--bits", "512", "--provable", "--out", dh.to_str().unwrap(), "--cert", cert.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let c = cert.to_str().unwrap();
    assert_eq!(run(&["verify-cert", c, "--max-work", "100000000"]).status.code(), Some(0));
    let v = run(&["verify-cert", c, "--max-work", "1000"]);
    assert_eq!(v.status.code(), Some(2));
    let err = String::from_utf8_lossy(&v.stderr);
    assert!(
        err.starts_with("malformed certificate: estimated work ") && err.contains("exceeds the limit 1000; raise it with --max-work"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1, "{err}");
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/verify_cert.py");
    if let Ok(py) = Command::new("python3").arg(&script).arg(c).args(["--max-work", "1000"]).output() {
        assert_eq!(py.status.code(), Some(2), "{}", String::from_utf8_lossy(&py.stderr));
    }
    let check = run(&["check-dh", dh.to_str().unwrap(), "--cert", c, "--max-work", "1000"]);
    assert_eq!(check.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&check.stdout)
            .contains("FAIL  certificate: the certificate does not prove p: malformed certificate: estimated work"),
        "{}",
        String::from_utf8_lossy(&check.stdout)
    );
    let check = run(&["check-dh", dh.to_str().unwrap(), "--cert", c, "--max-work", "100000000"]);
    assert!(String::from_utf8_lossy(&check.stdout).contains("PASS  certificate"), "{}", String::from_utf8_lossy(&check.stdout));
    assert_eq!(run(&["verify-cert", c, "--max-work", "-1"]).status.code(), Some(2));
}
