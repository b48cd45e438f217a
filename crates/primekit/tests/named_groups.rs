//! The named-group table against OpenSSL's built-in groups (an independent source of
//! the same RFC primes), and the table against its generator script.

use primekit::keys::dh::parse_dh_pem;
use primekit::keys::named_groups::{named_group, named_groups};
use std::process::Command;

#[test]
fn every_named_group_matches_openssl() {
    let mut compared = 0;
    for g in named_groups() {
        let out = Command::new("openssl")
            .args(["genpkey", "-genparam", "-algorithm", "DH", "-pkeyopt"])
            .arg(format!("group:{}", g.name))
            .output();
        let Some(out) = out.ok().filter(|o| o.status.success()) else {
            eprintln!("SKIP named group {}: openssl cannot produce it here", g.name);
            continue;
        };
        let params = parse_dh_pem(&out.stdout).expect("OpenSSL's PEM parses");
        assert_eq!(params.p, g.p, "{} differs from OpenSSL's", g.name);
        assert_eq!(named_group(&params.p).map(|h| h.name), Some(g.name));
        compared += 1;
    }
    eprintln!("named groups compared with OpenSSL: {compared} of {}", named_groups().len());
}

#[test]
fn table_is_what_the_script_writes() {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tools/named_groups.py");
    match Command::new("python3").arg(script).arg("--check").output() {
        Ok(o) if o.status.success() => {}
        Ok(o) if String::from_utf8_lossy(&o.stderr).contains("No module named 'mpmath'") => {
            eprintln!("SKIP named_groups.py --check: python3 has no mpmath")
        }
        Ok(o) => panic!("tools/named_groups.py --check: {o:?}"),
        Err(e) => eprintln!("SKIP named_groups.py --check: no python3 ({e})"),
    }
}

/// Every shipped certificate proves its group's p and q, in the shape `check-dh`
/// relies on (the first step on p with F = q, then q's elliptic-curve chain).
#[test]
fn shipped_certificates_prove_p_and_q() {
    use primekit::certificate::{from_json, verify, Step};
    let mut shipped = Vec::new();
    for g in named_groups() {
        let Some(text) = g.certificate() else { continue };
        let cert = from_json(text.as_bytes()).unwrap_or_else(|e| panic!("{}: {e}", g.name));
        assert_eq!(verify(&cert, Some(&g.p)), Ok(g.p.clone()), "{}", g.name);
        assert_eq!(cert.steps[1].n(), &g.q(), "{}", g.name);
        assert!(cert.steps[1..].iter().all(|s| matches!(s, Step::Ecpp(_))), "{}", g.name);
        shipped.push(g.name);
    }
    for name in ["modp_1536", "modp_2048", "ffdhe2048"] {
        assert!(shipped.contains(&name), "no certificate shipped for {name}");
    }
    eprintln!("shipped certificates: {shipped:?}");
}
