//! `primekit bench provable`: provable primes (with certificates) beside primekit's
//! probable primes of the same size, plain and safe, and the time to verify a
//! certificate; under `--features compare` also Nettle's provable generator
//! (`nettle_random_prime`, no certificate). CPU time of the calling thread, the kinds
//! taking turns.

use super::cpu_clock::thread_cpu_ms;
use super::emit;
use clap::Args as ClapArgs;
use primekit::certificate::verify;
use serde_json::json;
use std::process::ExitCode;

#[derive(ClapArgs)]
pub struct Args {
    /// Sizes in bits, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1024,2048")]
    bits: Vec<u32>,
    /// Primes per kind and size.
    #[arg(long, default_value_t = 8)]
    count: usize,
    /// Also time safe primes (much slower).
    #[arg(long)]
    safe: bool,
}

pub fn run(a: Args) -> ExitCode {
    if let Err(code) = super::begin("provable", a.count, &a.bits, 128..=8192) {
        return code;
    }
    for &bits in &a.bits {
        let mut kinds: Vec<(&str, Vec<f64>)> = vec![("probable", vec![]), ("provable", vec![]), ("verify_certificate", vec![])];
        if cfg!(feature = "compare") {
            kinds.push(("provable_nettle", vec![]));
        }
        if a.safe {
            kinds.extend([("probable_safe", vec![]), ("provable_safe", vec![])]);
        }
        for _ in 0..a.count {
            for (kind, samples) in kinds.iter_mut() {
                let t = thread_cpu_ms();
                let ok = match *kind {
                    "probable" => primekit::generate_prime(bits).is_ok(),
                    "probable_safe" => primekit::generate_safe_prime(bits).is_ok(),
                    "provable_safe" => primekit::generate_provable_safe_prime(bits).is_ok(),
                    "provable_nettle" => {
                        // Timed alone; the size and primality check runs after the clock.
                        let p = nettle_prime(bits);
                        samples.push(thread_cpu_ms() - t);
                        if p.bits() != u64::from(bits) || !primekit::is_prime(&p) {
                            eprintln!("primekit bench provable: Nettle returned a wrong prime at {bits} bits");
                            return ExitCode::FAILURE;
                        }
                        continue;
                    }
                    _ => match primekit::generate_provable_prime(bits) {
                        Ok((p, cert)) if *kind == "verify_certificate" => {
                            let t = thread_cpu_ms();
                            let ok = verify(&cert, Some(&p)).is_ok();
                            samples.push(thread_cpu_ms() - t);
                            if !ok {
                                eprintln!("primekit bench provable: a generated certificate did not verify");
                                return ExitCode::FAILURE;
                            }
                            continue;
                        }
                        r => r.is_ok(),
                    },
                };
                if !ok {
                    eprintln!("primekit bench provable: {kind} generation failed at {bits} bits");
                    return ExitCode::FAILURE;
                }
                samples.push(thread_cpu_ms() - t);
            }
        }
        for (kind, s) in &kinds {
            let mut sorted = s.clone();
            sorted.sort_by(f64::total_cmp);
            let (op, engine) = match *kind {
                "provable_nettle" => ("provable", "nettle"),
                k => (k, "primekit"),
            };
            emit::line(json!({"op": op, "engine": engine, "bits": bits, "count": s.len(),
                "mean_ms": s.iter().sum::<f64>() / s.len() as f64, "median_ms": sorted[sorted.len() / 2], "time": "thread CPU"}));
        }
    }
    ExitCode::SUCCESS
}

#[cfg(feature = "compare")]
fn nettle_prime(bits: u32) -> num_bigint::BigUint {
    primekit_research::peers::nettle::random_prime(bits)
}

#[cfg(not(feature = "compare"))]
fn nettle_prime(_bits: u32) -> num_bigint::BigUint {
    unreachable!("the Nettle kind is only listed under --features compare")
}
