//! Writes the certificates primekit ships for the standard DH groups
//! (`crates/primekit/src/keys/named_groups/NAME.json`, used by `check-dh`):
//!
//!     cargo run --release -p primekit --example named_group_certificates -- DIR [NAME...]
//!
//! Each certificate proves p and q = (p - 1)/2: its first step is Pocklington's with
//! F = q (q^2 > p = 2q + 1) and witness 3, and the rest is an elliptic-curve-only chain
//! for q (PARI/GP's shape, so `primecertisvalid` can check it; see
//! tests/named_groups.rs). Variable time; everything is public.

use primekit::certificate::{prove_with, to_json, verify, Certificate, Factor, PocklingtonStep, ProveOptions, Step};
use primekit::keys::named_groups::named_groups;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(dir) = args.first() else {
        eprintln!("usage: named_group_certificates DIR [NAME...]");
        std::process::exit(2);
    };
    let wanted = &args[1..];
    for g in named_groups().iter().filter(|g| wanted.is_empty() || wanted.iter().any(|w| w == g.name)) {
        let start = Instant::now();
        let q = g.q();
        let opts = ProveOptions { ecpp_only: true, jobs: 2, ..ProveOptions::default() };
        let q_cert = match prove_with(&q, &opts) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("{}: no proof of q: {e}", g.name);
                continue;
            }
        };
        let top = PocklingtonStep { n: g.p.clone(), factors: vec![Factor { q: q.clone(), k: 1, witness: 3u8.into() }] };
        let steps: Vec<Step> = std::iter::once(Step::Pocklington(top)).chain(q_cert.steps).collect();
        let cert = Certificate::new(g.p.clone(), steps);
        if let Err(e) = verify(&cert, Some(&g.p)) {
            eprintln!("{}: the certificate does not verify: {e}", g.name);
            std::process::exit(1);
        }
        let path = format!("{dir}/{}.json", g.name);
        std::fs::write(&path, to_json(&cert) + "\n").expect("write the certificate");
        eprintln!("{}: {} steps, {:.1} s -> {path}", g.name, cert.steps.len(), start.elapsed().as_secs_f64());
    }
}
