//! `primekit check-dh` / `check-rsa` end to end, running the built binary: files made by
//! the system `openssl` CLI in this run (skipped with a note when it is absent), and
//! crafted bad files (built with `der`, see `primekit/tests/common/craft.rs`), checking
//! exit codes (0 pass, 1 a check failed, 2 bad input), messages and `--json` output.
//! Where openssl is present it is also the oracle that our crafted bad files are bad.

#[path = "../../primekit/tests/common/craft.rs"]
mod craft;

use craft::*;
use num_bigint::BigUint;
use serde_json::Value;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

const BIN: &str = env!("CARGO_BIN_EXE_primekit");

/// A fresh path under cargo's per-target temporary directory.
fn tmp(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("check_cli-{}-{}", std::process::id(), N.fetch_add(1, Ordering::Relaxed)));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let p = tmp(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn primekit(cmd: &str, file: &PathBuf, json: bool) -> Output {
    let mut c = Command::new(BIN);
    c.arg(cmd).arg(file);
    if json {
        c.arg("--json");
    }
    c.output().unwrap()
}

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

/// Runs the audit, asserts the exit code, returns stdout+stderr.
fn expect(cmd: &str, file: &PathBuf, code: i32) -> String {
    let o = primekit(cmd, file, false);
    assert_eq!(o.status.code(), Some(code), "{cmd} {}:\n{}", file.display(), text(&o));
    text(&o)
}

fn json(cmd: &str, file: &PathBuf) -> Value {
    let o = primekit(cmd, file, true);
    let out = String::from_utf8(o.stdout).unwrap();
    assert_eq!(out.lines().count(), 1, "one JSON object per result: {out}");
    serde_json::from_str(&out).unwrap()
}

fn have_openssl() -> bool {
    let ok = Command::new("openssl").arg("version").output().map(|o| o.status.success()).unwrap_or(false);
    if !ok {
        eprintln!("note: system `openssl` not found; skipping the cases and oracle checks that need it");
    }
    ok
}

/// Runs `openssl ARGS` (which writes `out`), returning the path.
fn openssl(out: &str, args: &[&str]) -> PathBuf {
    let p = tmp(out);
    let o = Command::new("openssl").args(args).arg("-out").arg(&p).output().unwrap();
    assert!(o.status.success(), "openssl {args:?}: {}", text(&o));
    p
}

/// `openssl ARGS -in FILE` succeeds (the independent verdict on a file).
fn openssl_accepts(args: &[&str], file: &PathBuf) -> bool {
    openssl_check(args, file).status.success()
}

fn openssl_check(args: &[&str], file: &PathBuf) -> Output {
    Command::new("openssl").args(args).arg("-in").arg(file).output().unwrap()
}

/// Oracle: `openssl ARGS -in FILE` rejects the file, saying `reason`.
fn assert_openssl_rejects(args: &[&str], file: &PathBuf, reason: &str) {
    let o = openssl_check(args, file);
    assert!(!o.status.success() && text(&o).contains(reason), "{}: {}", file.display(), text(&o));
}

#[test]
fn openssl_made_dh_parameters_pass() {
    if !have_openssl() {
        return;
    }
    let files = [
        ("ffdhe2048.pem", "genpkey -genparam -algorithm DH -pkeyopt group:ffdhe2048"),
        ("modp2048.pem", "genpkey -genparam -algorithm DH -pkeyopt group:modp_2048"),
        ("rfc5114.pem", "genpkey -genparam -algorithm DHX -pkeyopt dh_rfc5114:2"),
        ("dhx_generated.pem", "genpkey -genparam -algorithm DHX -pkeyopt dh_paramgen_prime_len:2048 -pkeyopt dh_paramgen_subprime_len:224"),
    ];
    for (name, args) in files {
        let f = openssl(name, &args.split_whitespace().collect::<Vec<_>>());
        let out = expect("check-dh", &f, 0);
        assert!(out.contains("result: OK"), "{out}");
        let v = json("check-dh", &f);
        assert_eq!(v["ok"], true);
        assert_eq!(v["command"], "check-dh");
        let expected_format = if name.starts_with("ff") || name.starts_with("modp") { "pkcs3" } else { "x9.42" };
        assert_eq!(v["format"], expected_format, "{name}");
    }
}

#[test]
fn openssl_made_rsa_keys_pass_and_encrypted_or_non_rsa_are_refused() {
    if !have_openssl() {
        return;
    }
    let pkcs8 = openssl("rsa8.pem", &["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]);
    let in8 = pkcs8.to_str().unwrap();
    let pkcs1 = openssl("rsa1.pem", &["rsa", "-in", in8, "-traditional"]);
    assert!(std::fs::read_to_string(&pkcs1).unwrap().starts_with("-----BEGIN RSA PRIVATE KEY-----"));
    for f in [&pkcs8, &pkcs1] {
        expect("check-rsa", f, 0);
    }
    assert_eq!(json("check-rsa", &pkcs1)["format"], "pkcs1");
    assert_eq!(json("check-rsa", &pkcs8)["format"], "pkcs8");

    let enc8 = openssl("enc8.pem", &["pkcs8", "-topk8", "-in", in8, "-v2", "aes-256-cbc", "-passout", "pass:x"]);
    let enc1 = openssl("enc1.pem", &["rsa", "-in", in8, "-traditional", "-aes256", "-passout", "pass:x"]);
    for f in [&enc8, &enc1] {
        let out = expect("check-rsa", f, 2);
        assert!(out.contains("encrypted keys are unsupported"), "{out}");
    }
    let ec = openssl("ec.pem", &["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]);
    let out = expect("check-rsa", &ec, 2);
    assert!(out.contains("not an RSA key") && out.contains("EC"), "{out}");
    // An RSA key is not a DH parameter file.
    let out = expect("check-dh", &pkcs8, 2);
    assert!(out.contains("wrong PEM label"), "{out}");
}

#[test]
fn crafted_bad_dh_files_fail_with_exit_1() {
    let two = BigUint::from(2u32);
    let (p, g, q) = rfc5114();
    let modp = hex(MODP2048_P);
    let gamapa = safety_in_numbers_composites();
    // (file, contents, our message, OpenSSL's reason for rejecting it)
    let cases = [
        ("composite_p.pem", pkcs3(&(&modp * 3u32), &two), "FAIL  p_safe_prime: (p-1)/2 is composite", "p not prime"),
        ("gamapa19_p.pem", pkcs3(&gamapa[0], &two), "FAIL  p_safe_prime: (p-1)/2 is composite", "p not prime"),
        ("composite_q.pem", x942(&p, &g, &(&q * 2u32), None), "FAIL  q_prime: q is composite", "q not prime"),
        ("g_one.pem", pkcs3(&modp, &BigUint::from(1u32)), "FAIL  g_range", "not suitable generator"),
        ("g_wrong_order.pem", x942(&p, &two, &q, None), "FAIL  g_order", "not suitable generator"),
    ];
    let check_openssl = have_openssl();
    for (name, bytes, message, openssl_reason) in cases {
        let f = write(name, &bytes);
        let out = expect("check-dh", &f, 1);
        assert!(out.contains(message) && out.contains("result: FAILED"), "{name}: {out}");
        assert_eq!(json("check-dh", &f)["ok"], false);
        if check_openssl {
            // Oracle: OpenSSL's own check rejects each file, for the same reason.
            assert_openssl_rejects(&["pkeyparam", "-check", "-noout"], &f, openssl_reason);
        }
    }
}

#[test]
fn crafted_bad_rsa_keys_fail_with_exit_1() {
    let mut n_wrong = good_key();
    n_wrong.n += 2u32;
    let mut d_wrong = good_key();
    d_wrong.d += 2u32;
    let check_openssl = have_openssl();
    let cases = [
        ("n_wrong.pem", n_wrong, "FAIL  n_equals_pq", "n does not equal p q"),
        ("d_wrong.pem", d_wrong, "FAIL  ed_inverse", "d e not congruent to 1"),
    ];
    for (name, key, message, openssl_reason) in cases {
        let f = write(name, &pkcs1_pem(&key));
        let out = expect("check-rsa", &f, 1);
        assert!(out.contains(message), "{name}: {out}");
        if check_openssl {
            assert_openssl_rejects(&["pkey", "-check", "-noout"], &f, openssl_reason);
        }
    }
    // The unmodified key passes (n_size warns at 1128 bits: still exit 0), and openssl agrees.
    let f = write("good.pem", &pkcs1_pem(&good_key()));
    let out = expect("check-rsa", &f, 0);
    assert!(out.contains("WARN  n_size"), "{out}");
    if check_openssl {
        assert!(openssl_accepts(&["pkey", "-check", "-noout"], &f));
    }
}

#[test]
fn unreadable_or_malformed_input_exits_2() {
    let good = pkcs3(&hex(MODP2048_P), &BigUint::from(2u32));
    let der = pem_rfc7468::decode_vec(&good).unwrap().1;
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("truncated.pem", good[..good.len() / 2].to_vec(), "malformed PEM"),
        ("garbage_b64.pem", b"-----BEGIN DH PARAMETERS-----\n%%%%not base64%%%%\n-----END DH PARAMETERS-----\n".to_vec(), "malformed PEM"),
        ("wrong_label.pem", pem("PUBLIC KEY", &der), "wrong PEM label: found \"PUBLIC KEY\""),
        ("bad_der.pem", pem("DH PARAMETERS", &der[..64]), "malformed DER"),
        ("binary.der", der.clone(), "not a PEM file"),
        ("encrypted.pem", pem("ENCRYPTED PRIVATE KEY", &der), "encrypted keys are unsupported"),
    ];
    for (name, bytes, message) in cases {
        let f = write(name, &bytes);
        let cmd = if name == "encrypted.pem" { "check-rsa" } else { "check-dh" };
        let out = expect(cmd, &f, 2);
        assert!(out.contains(message), "{name}: {out}");
        let v = json(cmd, &f);
        assert_eq!(v["ok"], false);
        assert!(v["error"].as_str().unwrap().contains(message), "{v}");
        assert!(v["error_kind"].is_string());
    }
    let missing = tmp("does-not-exist.pem");
    let out = expect("check-rsa", &missing, 2);
    assert!(out.contains("cannot read file"), "{out}");
    assert_eq!(json("check-rsa", &missing)["error_kind"], "io");
}

#[test]
fn ten_megabyte_garbage_file_fails_fast() {
    let f = write("garbage.bin", &vec![0xA5u8; 10_000_000]);
    let t = std::time::Instant::now();
    let out = expect("check-dh", &f, 2);
    let secs = t.elapsed().as_secs_f64();
    assert!(out.contains("maximum accepted is 1048576 bytes"), "{out}");
    assert!(secs < 2.0, "took {secs} s");
    assert_eq!(json("check-rsa", &f)["error_kind"], "too_large");
}

/// A standard group is named in the report; `--prove` proves p and q of any group
/// (here a fresh 512-bit one) or reports them probable when time runs out.
#[test]
fn named_groups_and_proofs() {
    if have_openssl() {
        let f = openssl("ffdhe2048.pem", &["genpkey", "-genparam", "-algorithm", "DH", "-pkeyopt", "group:ffdhe2048"]);
        let report = expect("check-dh", &f, 0);
        assert!(report.contains("PASS  named_group: p is the RFC 7919 ffdhe2048 prime"), "{report}");
        assert!(report.contains("PASS  p_prime: p is prime: the RFC 7919 ffdhe2048 prime, proven"), "{report}");
        let out = Command::new(BIN).args(["check-dh", "--prove"]).arg(&f).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{}", text(&out));
        let report = text(&out);
        for name in ["p_proof", "q_proof"] {
            assert!(report.contains(&format!("PASS  {name}: proven: the certificate primekit ships for RFC 7919 ffdhe2048")), "{report}");
        }
    }
    let pem = tmp("dh512.pem");
    let out = Command::new(BIN).args(["dhparam", "--bits", "512", "--out"]).arg(&pem).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let out = Command::new(BIN).args(["check-dh", "--prove", "--json"]).arg(&pem).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    let status =
        |name: &str| v["checks"].as_array().unwrap().iter().find(|c| c["name"] == name).map(|c| (c["status"].clone(), c["detail"].clone()));
    let (s, d) = status("p_proof").expect("p_proof is reported");
    assert_eq!(s, "pass", "{d}");
    assert!(d.as_str().unwrap().starts_with("proven"), "{d}");
    assert_eq!(status("q_proof").expect("q_proof is reported").0, "pass");
    assert!(status("named_group").is_none());
    // No time to prove: probable, a warning (the audit still passes).
    let big = tmp("dh1536.pem");
    let out = Command::new(BIN).args(["dhparam", "--bits", "1536", "--out"]).arg(&big).output().unwrap();
    assert!(out.status.success(), "{}", text(&out));
    let out = Command::new(BIN).args(["check-dh", "--prove", "--max-seconds", "0.001"]).arg(&big).output().unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", text(&out));
    assert!(text(&out).contains("WARN  p_proof: probable prime, not proven"), "{}", text(&out));
    // --prove belongs to check-dh.
    assert_eq!(Command::new(BIN).args(["check-rsa", "--prove"]).arg(&big).output().unwrap().status.code(), Some(2));
}
