//! Certificates in Primo's format 4: `to_primo` exports of proved primes pass
//! tools/verify_primo.py (a checker written from Primo's published guide), every value of
//! a section altered is rejected, and the checker accepts PARI's own Primo exports
//! (`primecertexport(c, 1)`), so it reads the format as another producer writes it.
//! Tests print a SKIP line and pass when python3 (or, for PARI's exports, gp) is missing.

use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::Zero;
use primekit::certificate::{prove_with, to_primo, verify, ProveOptions};
use rand_chacha::rand_core::SeedableRng;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn have(cmd: &str, arg: &str, test: &str) -> bool {
    let ok = Command::new(cmd).arg(arg).output().is_ok_and(|o| o.status.success());
    if !ok {
        eprintln!("SKIP {test}: {cmd} not found");
    }
    ok
}

/// Exit status of tools/verify_primo.py on `text`, expecting the number `n`.
fn primo_verdict(text: &str, n: Option<&BigUint>) -> i32 {
    static FILES: AtomicUsize = AtomicUsize::new(0);
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tools/verify_primo.py");
    let f = std::env::temp_dir().join(format!("primekit-primo-{}-{}.out", std::process::id(), FILES.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&f, text).unwrap();
    let mut cmd = Command::new("python3");
    cmd.arg(&script).arg(&f);
    if let Some(n) = n {
        cmd.args(["--expect", &n.to_string()]);
    }
    let out = cmd.output().unwrap();
    let _ = std::fs::remove_file(&f);
    out.status.code().expect("exit status")
}

fn random_prime(bits: u64, seed: u64) -> BigUint {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    primekit::hazmat::gen::generate_prime_with_rng(&primekit::PrimeOptions::new(bits as u32), &mut rng).unwrap()
}

#[test]
fn our_primo_exports_pass_and_every_altered_value_fails() {
    if !have("python3", "--version", "our_primo_exports_pass_and_every_altered_value_fails") {
        return;
    }
    let opts = ProveOptions { ecpp_only: true, ..ProveOptions::default() };
    for (bits, seed) in [(160u64, 1u64), (256, 2), (384, 3)] {
        let n = random_prime(bits, seed);
        let cert = prove_with(&n, &opts).unwrap();
        assert!(verify(&cert, Some(&n)).is_ok());
        let text = to_primo(&cert).unwrap();
        assert_eq!(primo_verdict(&text, Some(&n)), 0, "{bits} bits:\n{text}");
        assert_ne!(primo_verdict(&text, Some(&(&n + 2u8))), 0, "the wrong N expected");
        if bits != 256 {
            continue;
        }
        // Every value of the first, second and last sections, and the candidate, altered.
        let lines: Vec<&str> = text.lines().collect();
        let secs = parse_sections(&lines, &n);
        let last = secs.len() - 1;
        let mut altered = 0;
        for (k, sec) in secs.iter().enumerate().filter(|(k, _)| [0, 1, last].contains(k)) {
            for (key, &line_no) in &sec.lines {
                for delta in [1u8, 2] {
                    let mut copy = lines.clone();
                    let new_value = &sec.value(key) + BigInt::from(delta);
                    let new = format!("{key}={}", hex(&new_value));
                    copy[line_no] = &new;
                    let verdict = primo_verdict(&copy.join("\n"), None);
                    let valid = sec.still_valid(key, &new_value);
                    assert_eq!(verdict == 0, valid, "section {} {key} + {delta}: verdict {verdict}", k + 1);
                    altered += 1;
                }
            }
        }
        let candidate = lines.iter().position(|l| l.starts_with("N=")).unwrap();
        let mut copy = lines.clone();
        let new = format!("N={}", hex(&(BigInt::from(n.clone()) + 2)));
        copy[candidate] = &new;
        assert_ne!(primo_verdict(&copy.join("\n"), None), 0, "N + 2 accepted");
        assert_eq!(altered, 30, "three sections, five values, two changes each");
    }
}

fn hex(v: &BigInt) -> String {
    let sign = if v.sign() == Sign::Minus { "-" } else { "" };
    format!("{sign}0x{}", v.magnitude().to_str_radix(16).to_uppercase())
}

fn parse_hex(v: &str) -> BigInt {
    let m = BigInt::parse_bytes(v.trim_start_matches('-').trim_start_matches("0x").as_bytes(), 16).unwrap();
    if v.starts_with('-') {
        -m
    } else {
        m
    }
}

/// One section of a Primo certificate, with the N it proves (from the candidate and the
/// R = (N + 1 - W) / S of the sections before it).
struct Section {
    n: BigUint,
    values: BTreeMap<String, BigInt>,
    lines: BTreeMap<String, usize>,
}

fn parse_sections(lines: &[&str], candidate: &BigUint) -> Vec<Section> {
    let mut out: Vec<Section> = Vec::new();
    let mut n = candidate.clone();
    for (i, l) in lines.iter().enumerate() {
        if l.starts_with('[') && l[1..l.len() - 1].parse::<u32>().is_ok() {
            if let Some(prev) = out.last() {
                n = prev.next();
            }
            out.push(Section { n: n.clone(), values: BTreeMap::new(), lines: BTreeMap::new() });
        } else if let (Some(sec), Some((k, v))) = (out.last_mut(), l.split_once('=')) {
            sec.values.insert(k.to_string(), parse_hex(v));
            sec.lines.insert(k.to_string(), i);
        }
    }
    out
}

impl Section {
    fn value(&self, key: &str) -> BigInt {
        self.values[key].clone()
    }

    fn next(&self) -> BigUint {
        let m: BigInt = BigInt::from(self.n.clone()) + 1 - self.value("W");
        (m / self.value("S")).to_biguint().expect("R > 0")
    }

    /// x mod N as a residue.
    fn res(&self, x: &BigInt) -> BigUint {
        x.mod_floor(&BigInt::from(self.n.clone())).to_biguint().unwrap()
    }

    /// Whether x (non-zero mod the prime N) is a k-th power mod N.
    fn is_power(&self, x: &BigUint, k: u64) -> bool {
        let n1 = &self.n - 1u8;
        let g = n1.gcd(&BigUint::from(k));
        x.modpow(&(n1 / g), &self.n) == BigUint::from(1u8)
    }

    /// Primo's curve (A L^2, B L^3) with L = T^3 + A T + B, for these A, B, T.
    fn curve(&self, a: &BigInt, b: &BigInt, t: &BigInt) -> (BigUint, BigUint) {
        let l = self.res(&(t * t * t + a * t + b));
        (self.res(a) * &l * &l % &self.n, self.res(b) * &l * &l * &l % &self.n)
    }

    /// Whether the certificate stays valid with `key` set to `v`: the curve Primo's
    /// checker forms must be isomorphic to the original one (then the new point has the
    /// same order m up to a negligible chance). S and W change m: never. Another T twists
    /// by u = L'/L: isomorphic iff u is a square for j != 0, 1728 (exactly: the ratio of
    /// the B L^3 a sixth power for j = 0, of the A L^2 a fourth power for j = 1728). A and B: when both are non-zero
    /// (j != 0, 1728), or the zero one is changed, j changes: never; for j = 0 (A = 0)
    /// another B is isomorphic iff the ratio of the curves' B L^3 is a sixth power, for
    /// j = 1728 (B = 0) another A iff the ratio of the A L^2 is a fourth power.
    fn still_valid(&self, key: &str, v: &BigInt) -> bool {
        let (a, b, t) = (self.value("A"), self.value("B"), self.value("T"));
        let (a0, b0) = self.curve(&a, &b, &t);
        let ratio = |new: &BigUint, old: &BigUint| new * old.modinv(&self.n).unwrap() % &self.n;
        match key {
            "T" => {
                let (a1, b1) = self.curve(&a, &b, v);
                if a.is_zero() {
                    self.is_power(&ratio(&b1, &b0), 6)
                } else if b.is_zero() {
                    self.is_power(&ratio(&a1, &a0), 4)
                } else {
                    // A quadratic twist by u = L'/L (the a's ratio is u^2, always a square).
                    let l = |t: &BigInt| self.res(&(t * t * t + &a * t + &b));
                    self.is_power(&ratio(&l(v), &l(&t)), 2)
                }
            }
            "A" if b.is_zero() && !a.is_zero() => {
                let (a1, b1) = self.curve(v, &b, &t);
                !self.res(v).is_zero() && b1.is_zero() && self.is_power(&ratio(&a1, &a0), 4)
            }
            "B" if a.is_zero() && !b.is_zero() => {
                let (a1, b1) = self.curve(&a, v, &t);
                !self.res(v).is_zero() && a1.is_zero() && self.is_power(&ratio(&b1, &b0), 6)
            }
            _ => false,
        }
    }
}

#[test]
fn pari_primo_exports_pass_the_checker() {
    if !have("python3", "--version", "pari_primo_exports_pass_the_checker")
        || !have("gp", "--version-short", "pari_primo_exports_pass_the_checker")
    {
        return;
    }
    let script = "default(parisizemax, 2^30);\nsetrand(5); foreach([200, 320], b, p = randomprime([2^(b-1), 2^b]); print(p); print(primecertexport(primecert(p), 1)); print(\"--END--\"));\nquit\n";
    let out =
        Command::new("gp").args(["-q", "-f"]).stdin(std::process::Stdio::piped()).stdout(std::process::Stdio::piped()).spawn().and_then(
            |mut c| {
                use std::io::Write;
                c.stdin.take().unwrap().write_all(script.as_bytes())?;
                c.wait_with_output()
            },
        );
    let out = String::from_utf8(out.unwrap().stdout).unwrap();
    let mut blocks = out.split("--END--").filter(|b| !b.trim().is_empty());
    let mut checked = 0;
    for block in blocks.by_ref() {
        let block = block.trim_start();
        let (p, cert) = block.split_once('\n').unwrap();
        let p: BigUint = p.trim().parse().unwrap();
        assert!(cert.contains("[PRIMO - Primality Certificate]"), "{cert}");
        assert_eq!(primo_verdict(cert, Some(&p)), 0, "PARI's Primo export of {p}:\n{cert}");
        // One altered T in PARI's export is caught too.
        let t = cert.lines().find(|l| l.starts_with("T=")).unwrap();
        let changed = cert.replacen(t, &format!("{t}1"), 1);
        assert_ne!(primo_verdict(&changed, Some(&p)), 0);
        checked += 1;
    }
    assert_eq!(checked, 2, "{out}");
}
