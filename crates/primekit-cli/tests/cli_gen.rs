//! The generation subcommands end to end: output format, exit statuses on bad input,
//! and `openssl dhparam -check` accepting our DH parameters (when openssl exists).

use std::process::Command;

fn primekit(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_primekit")).args(args).output().expect("run primekit")
}

fn openssl_available() -> bool {
    Command::new("openssl").arg("version").output().map(|o| o.status.success()).unwrap_or(false)
}

#[test]
fn gen_prints_one_prime_per_line() {
    let out = primekit(&["gen", "--bits", "256", "--count", "3", "--jobs", "2", "--hex"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 3);
    for l in &lines {
        let hex = l.strip_prefix("0x").expect("0x prefix");
        assert_eq!(hex.len(), 64, "{l}");
        assert!(matches!(hex.as_bytes()[0], b'c'..=b'f'), "top two bits set: {l}");
    }
    assert!(out.stderr.is_empty(), "nothing extra when piped");
    if openssl_available() {
        let hex: Vec<&str> = lines.iter().map(|l| &l[2..]).collect();
        let o = Command::new("openssl").arg("prime").arg("-hex").args(&hex).output().unwrap();
        let t = String::from_utf8_lossy(&o.stdout);
        assert_eq!(t.matches(" is prime").count(), 3, "{t}");
    } else {
        eprintln!("note: openssl CLI absent; skipping the independent check");
    }
    let out = primekit(&["gen", "--bits", "130", "--safe"]);
    assert!(out.status.success());
    let p = num_bigint::BigUint::parse_bytes(String::from_utf8(out.stdout).unwrap().trim().as_bytes(), 10).unwrap();
    assert_eq!(p.bits(), 130);
}

#[test]
fn next_and_prev() {
    let out = primekit(&["next", "0x10"]);
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "17");
    let out = primekit(&["prev", "1000000000000000000000"]);
    let got = String::from_utf8(out.stdout).unwrap().trim().to_string();
    assert_eq!(got, "999999999999999999899"); // 10^21 - 101
    if openssl_available() {
        // Independent check: it is prime and no odd number above it below 10^21 is.
        let nums: Vec<String> = (0..50u32).map(|i| format!("{}", 999999999999999999899u128 + 2 * i as u128)).collect();
        let o = Command::new("openssl").arg("prime").args(&nums).output().unwrap();
        let t = String::from_utf8_lossy(&o.stdout);
        let verdicts: Vec<bool> = t.lines().map(|l| l.ends_with(" is prime")).collect();
        assert_eq!(verdicts.len(), 50);
        assert!(verdicts[0] && verdicts[1..].iter().all(|v| !v), "{t}");
    }
    let out = primekit(&["next", "18446744073709551557"]); // largest 64-bit prime
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "18446744073709551629");
    // 2^64 + 13
}

#[test]
fn bad_input_exits_2() {
    for args in [
        &["gen", "--bits", "1"][..],
        &["gen", "--bits", "2", "--safe"],
        &["gen", "--bits", "9000"],
        &["gen", "--bits", "64", "--count", "0"],
        &["gen", "--bits", "64", "--jobs", "0"],
        &["next", "12x"],
        &["next", "0x"],
        &["prev", "2"],
        &["prev", "0"],
        &["dhparam", "--bits", "16"],
        &["dhparam", "--bits", "100000"],
    ] {
        let out = primekit(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?} should explain itself");
    }
}

#[test]
fn dhparam_is_accepted_by_openssl() {
    let dir = std::env::temp_dir().join(format!("primekit-dh-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("dh.pem");
    let out = primekit(&["dhparam", "--bits", "512", "--out", file.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let pem = std::fs::read_to_string(&file).unwrap();
    assert!(pem.starts_with("-----BEGIN DH PARAMETERS-----\n") && pem.trim_end().ends_with("-----END DH PARAMETERS-----"));
    if !openssl_available() {
        eprintln!("note: openssl CLI absent; skipping `openssl dhparam -check`");
        return;
    }
    let o = Command::new("openssl").args(["dhparam", "-in", file.to_str().unwrap(), "-check", "-noout"]).output().unwrap();
    let all = format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "openssl dhparam -check failed: {all}");
    assert!(all.contains("DH parameters appear to be ok"), "{all}");
    // And openssl reads the same p and g = 2 back.
    let o = Command::new("openssl").args(["dhparam", "-in", file.to_str().unwrap(), "-text", "-noout"]).output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("(512 bit)") && text.contains("G:    2 (0x2)") || text.contains("generator: 2 (0x2)"), "{text}");
    std::fs::remove_dir_all(&dir).ok();
}
