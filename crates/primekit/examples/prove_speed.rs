//! Time `certificate::prove_with` and `verify` on random primes (docs/ecpp.md).
//!
//! cargo run --release -p primekit --example prove_speed -- [bits ...] [--jobs J] [--ecpp-only] [--count C] [--print] [--json DIR] [--primes FILE]
//! (default: 256 512 1024 2048, one thread, one prime each; --print writes each prime
//! in decimal on stdout first, for timing other provers on the same numbers; --json
//! writes each certificate to DIR/cert-BITS.json; --primes proves the decimal numbers
//! of FILE, one per line, instead of random primes).

use num_bigint::{BigUint, RandBigInt};
use primekit::certificate::{prove_with, verify, ProveOptions, Step};
use rand::rngs::StdRng;
use rand::SeedableRng;
use std::time::Instant;

fn random_prime(bits: u64, rng: &mut StdRng) -> BigUint {
    let mut n = rng.gen_biguint(bits) | (BigUint::from(1u8) << (bits - 1)) | BigUint::from(1u8);
    while !primekit::is_prime(&n) {
        n += 2u8;
    }
    n
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut sizes = Vec::new();
    let mut opts = ProveOptions::default();
    let (mut count, mut print) = (1, false);
    let mut json_dir: Option<String> = None;
    let mut given: Vec<BigUint> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--jobs" => opts.jobs = it.next().and_then(|s| s.parse().ok()).expect("--jobs J"),
            "--count" => count = it.next().and_then(|s| s.parse().ok()).expect("--count C"),
            "--ecpp-only" => opts.ecpp_only = true,
            "--print" => print = true,
            "--json" => json_dir = it.next().cloned(),
            "--primes" => {
                let text = std::fs::read_to_string(it.next().expect("--primes FILE")).expect("readable");
                given = text.split_whitespace().map(|l| l.parse().expect("a decimal number")).collect();
            }
            s => sizes.push(s.parse::<u64>().expect("a size in bits")),
        }
    }
    if sizes.is_empty() && given.is_empty() {
        sizes = vec![256, 512, 1024, 2048];
    }
    println!(
        "kernel {:?}, jobs {}, ecpp_only {}",
        primekit::hazmat::mont::MontContext::new(&BigUint::from(7u8)).unwrap().kernel(),
        opts.jobs,
        opts.ecpp_only
    );
    let mut primes: Vec<BigUint> = given;
    for bits in sizes {
        let mut rng = StdRng::seed_from_u64(bits);
        primes.extend((0..count).map(|_| random_prime(bits, &mut rng)));
    }
    for p in primes {
        let bits = p.bits();
        if print {
            println!("prime {p}");
        }
        let t = Instant::now();
        let phase1 = std::sync::Arc::new(std::sync::Mutex::new(0.0f64));
        let ph = phase1.clone();
        let opts = ProveOptions {
            progress: Some(std::sync::Arc::new(move |_, _| *ph.lock().unwrap() = t.elapsed().as_secs_f64())),
            ..opts.clone()
        };
        let cert = prove_with(&p, &opts).unwrap_or_else(|e| panic!("{bits} bits: {e}"));
        let proved = t.elapsed();
        let t = Instant::now();
        verify(&cert, Some(&p)).expect("verifies");
        let checked = t.elapsed();
        if let Some(dir) = &json_dir {
            std::fs::write(format!("{dir}/cert-{bits}.json"), primekit::certificate::to_json(&cert)).expect("writes");
        }
        let ecpp = cert.steps.iter().filter(|s| matches!(s, Step::Ecpp(_))).count();
        println!(
            "{bits:5} bits: prove {:8.3} s (down-run {:.3} s)  verify {:7.3} s  steps {:3} ({ecpp} ecpp)",
            proved.as_secs_f64(),
            *phase1.lock().unwrap(),
            checked.as_secs_f64(),
            cert.steps.len()
        );
    }
}
