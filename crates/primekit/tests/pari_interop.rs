//! Certificates exchanged with PARI/GP: PARI's `primecert` output read by `from_pari`
//! and accepted by `verify`, written back by `to_pari` and accepted by PARI's
//! `primecertisvalid`; every field of every step, altered, rejected on both sides.
//! Tests that need `gp` print a SKIP line and pass when it is not installed.

use num_bigint::BigUint;
use primekit::certificate::{from_pari, prove, prove_with, to_pari, verify, Certificate, CertificateError, ProveOptions, Step};
use rand_chacha::rand_core::SeedableRng;
use std::io::Write;
use std::process::{Command, Stdio};

fn have_gp(test: &str) -> bool {
    let ok = Command::new("gp").arg("--version-short").output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("SKIP {test}: gp not found");
    }
    ok
}

/// Runs `script` in `gp -q -f` and returns its output lines.
fn gp(script: &str) -> Vec<String> {
    let mut child = Command::new("gp")
        .args(["-q", "-f"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start gp");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(b"default(parisizemax, 2^30);\n").unwrap();
    stdin.write_all(script.as_bytes()).unwrap();
    stdin.write_all(b"\nquit\n").unwrap();
    drop(stdin);
    let out = child.wait_with_output().expect("run gp");
    let (stdout, stderr) = (String::from_utf8(out.stdout).unwrap(), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success() && !format!("{stdout}{stderr}").contains("at top-level"), "gp failed:\n{stdout}\n{stderr}");
    stdout.lines().map(str::to_owned).collect()
}

/// PARI's `primecertisvalid` on each GP expression, as booleans.
fn pari_accepts(certs: &[String]) -> Vec<bool> {
    if certs.is_empty() {
        return vec![];
    }
    let script: String = certs.iter().map(|c| format!("print(primecertisvalid({c}));\n")).collect();
    gp(&script)
        .iter()
        .map(|l| match l.trim() {
            "1" => true,
            "0" => false,
            other => panic!("primecertisvalid printed {other:?}"),
        })
        .collect()
}

/// `count` primes of each size from PARI (seeded), each with its ECPP certificate text.
fn pari_primes_and_certs(seed: u32, bits: &[u32]) -> Vec<(BigUint, String)> {
    let sizes = bits.iter().map(u32::to_string).collect::<Vec<_>>().join(",");
    let lines = gp(&format!("setrand({seed}); foreach([{sizes}], b, p = randomprime([2^(b-1), 2^b]); print(p); print(primecert(p)));"));
    assert_eq!(lines.len(), 2 * bits.len(), "{lines:?}");
    lines.chunks(2).map(|pair| (pair[0].parse().unwrap(), pair[1].clone())).collect()
}

#[test]
fn pari_certificates_verify_here_and_ours_verify_in_pari() {
    if !have_gp("pari_certificates_verify_here_and_ours_verify_in_pari") {
        return;
    }
    let mut exported = Vec::new();
    for (p, text) in pari_primes_and_certs(1, &[128, 256, 512, 1024]) {
        let c = from_pari(&text).unwrap_or_else(|e| panic!("{} bits: {e}", p.bits()));
        assert!(c.steps.iter().all(|s| matches!(s, Step::Ecpp(_))));
        assert_eq!(verify(&c, Some(&p)), Ok(p.clone()), "{} bits", p.bits());
        let back = to_pari(&c).unwrap();
        assert_eq!(from_pari(&back).unwrap(), c);
        exported.push(back);
    }
    assert_eq!(pari_accepts(&exported), vec![true; exported.len()]);
}

type Ecpp = primekit::certificate::EcppStep;

/// Each field of `s` moved (n by 2, a, b, x, y by 1 mod n, m by ±q so q still divides
/// it, q by 2), b left as it was.
fn alterations(s: &Ecpp) -> Vec<(&'static str, Ecpp)> {
    let bump = |v: &BigUint| (v + 1u8) % &s.n;
    let mut out = Vec::new();
    let mut e = s.clone();
    e.n += 2u8;
    out.push(("n", e));
    for (name, f) in [("a", 0), ("b", 1), ("x", 2), ("y", 3)] {
        let mut e = s.clone();
        let field = [&mut e.a, &mut e.b, &mut e.x, &mut e.y].into_iter().nth(f).unwrap();
        *field = bump(field);
        out.push((name, e));
    }
    let (mut up, mut down, mut q) = (s.clone(), s.clone(), s.clone());
    up.m += &s.q;
    down.m -= &s.q;
    q.q += 2u8;
    out.extend([("m + q", up), ("m - q", down), ("q", q)]);
    out
}

/// Our verdict on PARI's text: read and verified.
fn ours_accepts(text: &str, p: &BigUint) -> bool {
    from_pari(text).is_ok_and(|c| verify(&c, Some(p)).is_ok())
}

#[test]
fn altered_steps_are_rejected_here_and_by_pari() {
    if !have_gp("altered_steps_are_rejected_here_and_by_pari") {
        return;
    }
    let (p, text) = pari_primes_and_certs(2, &[256]).pop().unwrap();
    let c = from_pari(&text).unwrap();
    assert!(c.steps.len() >= 2);
    assert!(verify(&c, Some(&p)).is_ok());

    // Ours altered, b kept: verify rejects, and the export is refused (PARI's form has
    // no b: x, y, a or b altered alone no longer agree) or PARI rejects it.
    let mut for_pari = Vec::new();
    let mut labels = Vec::new();
    for i in 0..c.steps.len() {
        let Step::Ecpp(s) = &c.steps[i] else { unreachable!() };
        for (field, e) in alterations(s) {
            let mut bad = c.clone();
            bad.steps[i] = Step::Ecpp(e);
            assert!(verify(&bad, None).is_err(), "step {i}: {field} altered, still verifies");
            if let Ok(t) = to_pari(&bad) {
                for_pari.push(t);
                labels.push(format!("step {i} {field}"));
            }
        }
    }
    assert!(for_pari.len() >= 2 * c.steps.len(), "too few altered certificates reached PARI: {labels:?}");
    for (label, ok) in labels.iter().zip(pari_accepts(&for_pari)) {
        assert!(!ok, "PARI accepts ours with {label} altered");
    }

    // PARI's altered (N, t, s, a, x, y of each step, plus one; b follows P): PARI and we
    // agree on every one. Altering N, t, s or a is always fatal. Altering x or y gives
    // another curve through the new point; when j is 0 or 1728 (a or b zero) it is one
    // of the 6 or 4 twists, so with m points about a sixth or a quarter of the time, and
    // then the certificate is a valid proof on that curve: both must accept it.
    let lines = gp(&format!(
        "c = {text}; for(i = 1, #c, for(j = 1, 6, d = c; if(j <= 4, d[i][j] += 1, d[i][5][j-4] += 1); \
         print(primecertisvalid(d)); print(d)));"
    ));
    assert_eq!(lines.len(), 2 * 6 * c.steps.len());
    let mut still_valid = 0;
    for (k, pair) in lines.chunks(2).enumerate() {
        let (i, field) = (k / 6, ["N", "t", "s", "a", "x", "y"][k % 6]);
        let pari = pair[0] == "1";
        assert_eq!(ours_accepts(&pair[1], &p), pari, "step {i}, {field} + 1: PARI says {}", pair[0]);
        if pari {
            assert!(["x", "y"].contains(&field), "step {i}: {field} + 1 accepted");
            let Step::Ecpp(s) = &c.steps[i] else { unreachable!() };
            assert!(s.a == BigUint::ZERO || s.b == BigUint::ZERO, "step {i}: {field} + 1 on a curve with j != 0, 1728 accepted");
            still_valid += 1;
        }
    }
    assert!(still_valid < c.steps.len(), "{still_valid} of {} alterations still valid", lines.len() / 2);
}

#[test]
fn garbage_is_malformed() {
    for bad in ["", "0", "[[1, 2, 3]]", "[[7, 0, 1, 0, [0, 0]]", "Mod(3, 7)", "[[7, 0, 1, 0, [0, 0]]]\n[1]", "primecert(97)"] {
        assert!(matches!(from_pari(bad), Err(CertificateError::Malformed(_))), "{bad:?}");
    }
}

#[test]
fn pocklington_chains_export_to_paris_n_minus_1_form() {
    if !have_gp("pocklington_chains_export_to_paris_n_minus_1_form") {
        return;
    }
    // 2^100 + 277: N - 1 = 2^2 * 52203989 * 6070659658921032842417, a 73-bit prime
    // proved by a second Pocklington step.
    let p: BigUint = (BigUint::from(1u8) << 100u32) + 277u32;
    let c = prove(&p).expect("N - 1 is smooth enough");
    assert!(c.steps.len() >= 2 && c.steps.iter().all(|s| matches!(s, Step::Pocklington(_))));
    let text = to_pari(&c).unwrap();
    assert!(text.starts_with(&format!("[{p}, [")), "{text}");
    // The large factor's witness replaced by 1: ours rejects, and so does PARI.
    let mut bad = c.clone();
    let Step::Pocklington(s) = &mut bad.steps[0] else { unreachable!() };
    let f = s.factors.iter_mut().find(|f| f.q.bits() > 64).expect("a factor above 2^64");
    f.witness = BigUint::from(1u8);
    assert!(verify(&bad, None).is_err());
    assert_eq!(pari_accepts(&[text, to_pari(&bad).unwrap()]), vec![true, false]);
    // PARI's own N - 1 output is not read, with the reason.
    let lines = gp(&format!("print(primecert({p}, 1));"));
    let why = from_pari(&lines[0]).unwrap_err().to_string();
    assert!(why.contains("N-1 certificate"), "{why}");
}

#[test]
fn our_ecpp_chains_verify_in_pari() {
    let test = "our_ecpp_chains_verify_in_pari";
    if !have_gp(test) {
        return;
    }
    // N - 1 = 2 q1 q2 with q1, q2 primes of 127 and 128 bits: no N - 1 proof.
    let p: BigUint = "80953521711263782230960743696076698374083502729187467626492463668473356425299".parse().unwrap();
    let c: Certificate = prove(&p).expect("prove proves any prime");
    assert_eq!(verify(&c, Some(&p)), Ok(p.clone()));
    assert!(matches!(c.steps[0], Step::Ecpp(_)), "N - 1 = 2 q1 q2 cannot give a Pocklington step");
    // ECPP-only chains, PARI's shape, for that prime and random primes of 256 and 512
    // bits: every one exported and accepted by PARI.
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(37);
    let mut primes = vec![p];
    for bits in [256u32, 512] {
        primes.push(primekit::hazmat::gen::generate_prime_with_rng(&primekit::PrimeOptions::new(bits), &mut rng).unwrap());
    }
    let opts = ProveOptions { ecpp_only: true, ..ProveOptions::default() };
    let mut texts = Vec::new();
    for p in &primes {
        let c = prove_with(p, &opts).expect("an ECPP-only proof");
        assert!(c.steps.iter().all(|s| matches!(s, Step::Ecpp(_))));
        assert_eq!(verify(&c, Some(p)), Ok(p.clone()));
        texts.push(to_pari(&c).expect("an ECPP-only chain has PARI's form"));
    }
    assert_eq!(pari_accepts(&texts), vec![true; texts.len()]);
}
