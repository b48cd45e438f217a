//! `primekit bench gen --bits K [--safe] --count N [--jobs J]`: mean time per generated
//! prime, primekit and (under `--features compare`) OpenSSL's `BN_generate_prime_ex2`
//! in the same process, one JSON line per engine and size. OpenSSL always runs on one
//! core; primekit with `--jobs J` races J searches per prime.
//!
//! Each output is checked: exactly K bits, top two bits set, and (safe) (p-1)/2 passes
//! `is_prime`; a failed check aborts the benchmark rather than reporting a time.

use clap::Args as ClapArgs;
use num_bigint::BigUint;
use primekit::gen::{candidates_tested, PrimeOptions};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

#[derive(ClapArgs)]
pub struct Args {
    /// Prime sizes in bits, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1024")]
    bits: Vec<u32>,
    /// Safe primes.
    #[arg(long)]
    safe: bool,
    /// Primes generated per engine and size.
    #[arg(long, default_value_t = 16)]
    count: usize,
    /// primekit threads per prime.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Skip the OpenSSL peer even when compiled in.
    #[arg(long)]
    no_peer: bool,
    /// Also measure primekit with these numbers of sieve primes (research knob; one
    /// core), reported as engine "primekit-sieve".
    #[arg(long, value_delimiter = ',')]
    sieve_primes: Vec<usize>,
}

fn check(p: &BigUint, bits: u32, safe: bool) -> Result<(), String> {
    let top2 = BigUint::from(3u8) << (bits - 2);
    if p.bits() != bits as u64 || p < &top2 {
        return Err(format!("output {p:x} is not a {bits}-bit number with the top two bits set"));
    }
    if safe && !primekit::is_prime(&(p >> 1u8)) {
        return Err(format!("(p-1)/2 of {p:x} is composite"));
    }
    Ok(())
}

pub fn run(a: Args) -> ExitCode {
    if let Err(code) = super::begin(a.count, &a.bits, 64..=8192) {
        return code;
    }
    for &bits in &a.bits {
        let opts = PrimeOptions::new(bits).safe(a.safe).jobs(a.jobs);
        // Warm-up: builds the process-wide prime tables outside the timing.
        primekit::research::gen_tuning::warm_up(bits, a.safe);
        let cands0 = candidates_tested();
        let start = Instant::now();
        let mut samples = Vec::with_capacity(a.count);
        for _ in 0..a.count {
            let t = Instant::now();
            let p = match primekit::generate_prime_with(&opts) {
                Ok(p) => p,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            samples.push(t.elapsed().as_secs_f64() * 1e3);
            if let Err(e) = check(&p, bits, a.safe) {
                eprintln!("self-check failed: {e}");
                return ExitCode::from(1);
            }
        }
        let mean = start.elapsed().as_secs_f64() * 1e3 / a.count as f64;
        let cands = (candidates_tested() - cands0) as f64 / a.count as f64;
        let (_, median) = super::timing::mean_median(&samples);
        println!(
            "{}",
            json!({"op": "gen", "engine": "primekit", "bits": bits, "safe": a.safe, "count": a.count, "mean_ms": mean,
                   "median_ms": median, "jobs": a.jobs, "candidates_per_prime": cands,
                   "sieve_primes": primekit::research::gen_tuning::default_sieve_primes(bits, a.safe)})
        );
        for &r in &a.sieve_primes {
            let o = PrimeOptions::new(bits).safe(a.safe);
            let c0 = candidates_tested();
            let start = Instant::now();
            for _ in 0..a.count {
                match primekit::research::gen_tuning::generate_with_sieve_primes(&o, r) {
                    Ok(p) => {
                        if let Err(e) = check(&p, bits, a.safe) {
                            eprintln!("self-check failed: {e}");
                            return ExitCode::from(1);
                        }
                    }
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
            let mean = start.elapsed().as_secs_f64() * 1e3 / a.count as f64;
            let cands = (candidates_tested() - c0) as f64 / a.count as f64;
            println!(
                "{}",
                json!({"op": "gen", "engine": "primekit-sieve", "sieve_primes": r, "bits": bits, "safe": a.safe, "count": a.count,
                       "mean_ms": mean, "jobs": 1, "candidates_per_prime": cands})
            );
        }
        #[cfg(feature = "compare")]
        if !a.no_peer {
            if let Err(e) = openssl(bits, a.safe, a.count) {
                eprintln!("self-check failed: {e}");
                return ExitCode::from(1);
            }
        }
    }
    ExitCode::SUCCESS
}

#[cfg(feature = "compare")]
fn openssl(bits: u32, safe: bool, count: usize) -> Result<(), String> {
    use primekit::research::peers::openssl::{generate_prime, Ctx};
    let ctx = Ctx::new();
    let _ = generate_prime(128, safe, &ctx);
    let start = Instant::now();
    let mut samples = Vec::with_capacity(count);
    for _ in 0..count {
        let t = Instant::now();
        let p = generate_prime(bits, safe, &ctx);
        samples.push(t.elapsed().as_secs_f64() * 1e3);
        check(&p, bits, safe)?;
    }
    let mean = start.elapsed().as_secs_f64() * 1e3 / count as f64;
    let (_, median) = super::timing::mean_median(&samples);
    println!(
        "{}",
        json!({"op": "gen", "engine": "openssl", "bits": bits, "safe": safe, "count": count, "mean_ms": mean, "median_ms": median, "jobs": 1})
    );
    Ok(())
}
