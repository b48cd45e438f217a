//! `primekit bench table5`: Massimo & Paterson 2020, Table 5 — OpenSSL's incremental
//! generator (the OpenSSL PGA of Dobrosavljević 2021 with its remainder-table sieve, r from
//! Massimo & Paterson 2020, Table 4) with
//! MR64 inside (64 random-base rounds per final candidate) against the same generator
//! with OpenSSL 1.1.1's MRAC rounds (Massimo & Paterson 2020, Table 1), on the same RNG stream, and the
//! overhead MR64 adds, beside the paper's (40 / 35 / 43 / 46 % at 512 / 1024 / 2048 /
//! 3072 bits).

use super::timing::mean_median;
use clap::Args as ClapArgs;
use primekit_research::pga::{Config, Generator, Pga, SieveKind};
use primekit_research::tests::mrac::mrac_rounds;
use rand_chacha::rand_core::SeedableRng;
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

#[derive(ClapArgs)]
pub struct Args {
    #[arg(long, value_delimiter = ',', default_value = "512,1024,2048")]
    bits: Vec<u32>,
    /// Primes per arm (arms alternate, so load drift hits both alike).
    #[arg(long, default_value_t = 16)]
    count: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// Massimo & Paterson 2020, Table 4: trial-division primes recommended for MR64 at k bits.
fn table4_r(bits: u32) -> usize {
    // (largest size in bits, r) as printed in the table.
    const TABLE4: [(u32, usize); 5] = [(512, 64), (1024, 128), (2048, 384), (3072, 768), (u32::MAX, 1024)];
    TABLE4.iter().find(|&&(max, _)| bits <= max).map_or(1024, |&(_, r)| r)
}

/// The overhead in Massimo & Paterson 2020, Table 5, of MR64 inside over MRAC inside, in percent.
fn paper_overhead(bits: u32) -> Option<f64> {
    match bits {
        512 => Some(40.0),
        1024 => Some(35.0),
        2048 => Some(43.0),
        3072 => Some(46.0),
        _ => None,
    }
}

pub fn run(a: Args) -> ExitCode {
    if a.count == 0 || a.bits.iter().any(|&b| !(64..=8192).contains(&b)) {
        eprintln!("error: --count must be positive and --bits within 64..=8192");
        return ExitCode::from(2);
    }
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(a.seed);
    eprintln!("| k | r | MR64 inside ms | MRAC inside ms (t) | overhead | paper overhead |");
    eprintln!("|---|---|---|---|---|---|");
    for &bits in &a.bits {
        let r = table4_r(bits);
        let cfg = Config { pga: Pga::Openssl, sieve: SieveKind::Openssl, safe: false, bits, r, l: 16000, gamma: 128.0 };
        let t_mrac = mrac_rounds(bits as u64);
        let arms = [("mr64", 64u32), ("mrac", t_mrac)];
        let mut gens = Vec::new();
        for (_, t) in arms {
            match Generator::new(&cfg) {
                Ok(g) => gens.push(g.with_mr_rounds(t)),
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        let mut samples = [Vec::new(), Vec::new()];
        for i in 0..a.count {
            for (k, g) in gens.iter_mut().enumerate() {
                let start = Instant::now();
                let out = match g.generate_retrying(&mut rng) {
                    Ok(o) => o,
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::from(1);
                    }
                };
                samples[k].push(start.elapsed().as_secs_f64() * 1e3);
                if i == 0 {
                    assert!(primekit::is_prime(&out.prime), "composite output");
                }
            }
        }
        let means: Vec<f64> = samples.iter().map(|s| mean_median(s).0).collect();
        for (k, (name, t)) in arms.iter().enumerate() {
            super::emit::line(
                json!({"op": "table5", "engine": "primekit", "inside": name, "bits": bits, "r": r, "t": t, "count": a.count, "mean_ms": means[k], "median_ms": mean_median(&samples[k]).1}),
            );
        }
        let overhead = 100.0 * (means[0] / means[1] - 1.0);
        super::emit::line(json!({"op": "table5", "bits": bits, "overhead_pct": overhead, "paper_overhead_pct": paper_overhead(bits)}));
        let paper = paper_overhead(bits).map(|p| format!("{p:.0}%")).unwrap_or_else(|| "-".into());
        eprintln!("| {bits} | {r} | {:.2} | {:.2} ({t_mrac}) | {overhead:.0}% | {paper} |", means[0], means[1]);
    }
    ExitCode::SUCCESS
}
