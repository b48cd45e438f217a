//! `primekit genrsa` end to end: files (mode 0600, atomic, no overwrite without
//! --force), both formats and the public key accepted by `check-rsa` and, where
//! installed, `openssl pkey -check`; bad requests refused with exit 2 and no file left.

use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_primekit");

fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("genrsa-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn primekit(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn have_openssl() -> bool {
    Command::new("openssl").arg("version").output().is_ok_and(|o| o.status.success())
}

#[test]
fn writes_keys_that_audits_accept() {
    let d = dir("ok");
    for format in ["pkcs8", "pkcs1"] {
        let (key, public) = (d.join(format!("{format}.pem")), d.join(format!("{format}.pub.pem")));
        let out = primekit(&[
            "genrsa",
            "--bits",
            "2048",
            "--format",
            format,
            "--out",
            key.to_str().unwrap(),
            "--pubout",
            public.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let text = std::fs::read_to_string(&key).unwrap();
        assert!(text.starts_with(if format == "pkcs8" { "-----BEGIN PRIVATE KEY-----" } else { "-----BEGIN RSA PRIVATE KEY-----" }));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(std::fs::metadata(&key).unwrap().permissions().mode() & 0o777, 0o600);
        }
        let audit = primekit(&["check-rsa", key.to_str().unwrap()]);
        assert_eq!(audit.status.code(), Some(0), "{}", String::from_utf8_lossy(&audit.stdout));
        if have_openssl() {
            let check = Command::new("openssl").args(["pkey", "-check", "-noout", "-in"]).arg(&key).output().unwrap();
            assert!(check.status.success(), "{}", String::from_utf8_lossy(&check.stderr));
            let derived = Command::new("openssl").args(["pkey", "-pubout", "-in"]).arg(&key).output().unwrap();
            assert_eq!(derived.stdout, std::fs::read(&public).unwrap());
        }
    }
    // Nothing but the keys: no temporary files left.
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 4);
}

#[test]
fn refuses_bad_requests_and_leaves_nothing() {
    let d = dir("bad");
    let key = d.join("k.pem");
    let k = key.to_str().unwrap();
    for args in [
        vec!["genrsa", "--bits", "1024", "--out", k],
        vec!["genrsa", "--bits", "2049", "--out", k],
        vec!["genrsa", "--bits", "32768", "--out", k],
        vec!["genrsa", "--bits", "2048", "--e", "65536", "--out", k],
        vec!["genrsa", "--bits", "2048", "--e", "3", "--out", k],
        vec!["genrsa", "--bits", "2048", "--e", "banana", "--out", k],
        vec!["genrsa", "--bits", "2048", "--jobs", "0", "--out", k],
    ] {
        let out = primekit(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8_lossy(&out.stderr).lines().count(), 1, "{args:?}: one clear line");
    }
    let missing = d.join("no/such/dir/k.pem");
    let out = primekit(&["genrsa", "--bits", "2048", "--out", missing.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0, "no file left behind");
    // An existing file is kept without --force, replaced with it.
    std::fs::write(&key, "precious").unwrap();
    let out = primekit(&["genrsa", "--bits", "1024", "--insecure", "--out", k]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--force"));
    assert_eq!(std::fs::read_to_string(&key).unwrap(), "precious");
    let out = primekit(&["genrsa", "--bits", "1024", "--insecure", "--force", "--out", k]);
    assert!(out.status.success());
    assert!(std::fs::read_to_string(&key).unwrap().starts_with("-----BEGIN PRIVATE KEY-----"));
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 1);
}
