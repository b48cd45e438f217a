//! Certificates exchanged with PARI/GP: PARI's `primecert` output read by `from_pari`
//! and accepted by `verify`, written back by `to_pari` and accepted by PARI's
//! `primecertisvalid`; every field of every step, altered, rejected on both sides.
//! Tests that need `gp` print a SKIP line and pass when it is not installed.

use num_bigint::BigUint;
use primekit::certificate::{from_json, from_pari, prove, prove_with, to_pari, verify, Certificate, CertificateError, ProveOptions, Step};
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
    // A 200-bit provable prime: Maurer's construction gives a chain of Pocklington steps
    // whose top factor (about 100 bits) has a step of its own.
    let (p, c) = primekit::generate_provable_prime(200).unwrap();
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

/// The certificates shipped for the standard DH groups, checked by PARI: the chain of q
/// (elliptic-curve steps only) by `primecertisvalid`, and the first step (Pocklington
/// for p = 2q + 1 with F = q, witness 3) by PARI's own arithmetic.
#[test]
fn shipped_group_certificates_check_in_pari() {
    let test = "shipped_group_certificates_check_in_pari";
    if !have_gp(test) {
        return;
    }
    let mut checked = 0;
    for g in primekit::keys::named_groups::named_groups() {
        let Some(text) = g.certificate() else { continue };
        let cert = from_json(text.as_bytes()).unwrap();
        let q = g.q();
        assert_eq!(cert.steps[1].n(), &q, "{}: q's chain follows p's step", g.name);
        let q_cert = Certificate::new(q.clone(), cert.steps[1..].to_vec());
        let gp_text = to_pari(&q_cert).expect("q's chain has PARI's form");
        assert_eq!(pari_accepts(&[gp_text]), vec![true], "{}: PARI rejects q's chain", g.name);
        let Step::Pocklington(top) = &cert.steps[0] else { panic!("{}: the first step is Pocklington's", g.name) };
        let [f] = &top.factors[..] else { panic!("{}: one factor, q", g.name) };
        assert_eq!((&f.q, f.k), (&q, 1));
        let p = &g.p;
        let a = &f.witness;
        let script =
            format!("p={p}; q={q}; a={a}; print(p == 2*q + 1 && q^2 > p && Mod(a,p)^(p-1) == 1 && gcd(lift(Mod(a,p)^2) - 1, p) == 1);");
        assert_eq!(gp(&script), vec!["1".to_string()], "{}: PARI rejects p's step", g.name);
        checked += 1;
    }
    eprintln!("{test}: {checked} shipped certificates checked by PARI");
    assert!(checked >= 3, "primekit ships certificates for at least modp_1536, modp_2048 and ffdhe2048");
}
