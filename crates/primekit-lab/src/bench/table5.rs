//! `primekit-lab bench table5`: Massimo & Paterson 2020, Table 5 — OpenSSL's incremental
//! generator (the OpenSSL PGA of Dobrosavljević 2021 with its remainder-table sieve, r from
//! Massimo & Paterson 2020, Table 4) with
//! MR64 inside (64 random-base rounds per final candidate) against the same generator
//! with OpenSSL 1.1.1's MRAC rounds (Massimo & Paterson 2020, Table 1), on the same RNG stream, and the
//! overhead MR64 adds, beside the paper's (40 / 35 / 43 / 46 % at 512 / 1024 / 2048 /
//! 3072 bits). Times are thread CPU time per prime; `model_overhead_pct` is Appendix A's eq. 10
//! over eq. 9 with C_TD and C_MR measured in the same run.

use super::cpu_clock::thread_cpu_ms;
use super::timing::mean_median;
use clap::Args as ClapArgs;
use primekit_research::cost_model::{generation_cost_eq10, generation_cost_eq9, generation_cost_restarting, Costs};
use primekit_research::pga::{Arithmetic, Config, Generator, Pga, SieveKind};
use primekit_research::tests::mrac::mrac_rounds;
use rand_chacha::rand_core::SeedableRng;
use serde_json::json;
use std::process::ExitCode;

#[derive(ClapArgs)]
pub struct Args {
    #[arg(long, value_delimiter = ',', default_value = "512,1024,2048")]
    bits: Vec<u32>,
    /// Primes per arm (arms alternate, so load drift hits both alike).
    #[arg(long, default_value_t = 16)]
    count: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// The paper's setting: OpenSSL's sieve by s = 2047 primes in both arms, and the MR64
    /// arm's test starting with (redundant) trial division by Table 4's r (Appendix A,
    /// eq. 10). Without it: the sieve by Table 4's r, no trial division inside the test.
    #[arg(long)]
    as_published: bool,
    /// Arithmetic of the candidate tests and the sieve's remainders: `primekit`, or
    /// `openssl` (OpenSSL's BN primitives; needs `--features compare`).
    #[arg(long, default_value = "primekit")]
    engine: String,
}

/// Massimo & Paterson 2020, Table 4: trial-division primes recommended for MR64 at k bits.
fn table4_r(bits: u32) -> usize {
    // (largest size in bits, r) as printed in the table.
    const TABLE4: [(u32, usize); 5] = [(512, 64), (1024, 128), (2048, 384), (3072, 768), (u32::MAX, 1024)];
    TABLE4.iter().find(|&&(max, _)| bits <= max).map_or(1024, |&(_, r)| r)
}

/// The overhead in Massimo & Paterson 2020, Table 5, of MR64 inside over MRAC inside, in percent.
pub(crate) fn paper_overhead(bits: u32) -> Option<f64> {
    match bits {
        512 => Some(40.0),
        1024 => Some(35.0),
        2048 => Some(43.0),
        3072 => Some(46.0),
        _ => None,
    }
}

/// C_TD (per prime) and C_MR (one constant-time round; OpenSSL's, with its own
/// exponentiation) on 8 random primes of `bits`, on the arithmetic of `arith`.
fn model_costs(bits: u32, seed: u64, arith: Arithmetic) -> Option<Costs> {
    let primes = super::inputs::random_primes(seed ^ 0x7ab5, bits, 8);
    #[cfg(feature = "compare")]
    if arith == Arithmetic::Openssl {
        let c = super::suite::measure_costs_openssl(bits, &primes).ok()?;
        return Some(Costs { c_td: c["c_td_ms"].as_f64()?, c_mr: c["c_mr_ms"].as_f64()?, c_lucas: 0.0 });
    }
    let _ = arith;
    let c = super::suite::measure_costs(bits, &primes).ok()?;
    let mut rng = primekit::hazmat::random::os_seeded().ok()?;
    let pairs: Vec<_> = primes
        .iter()
        .map(|p| {
            let mr = primekit::hazmat::primality::MillerRabin::new(p).ok()?;
            let b = mr.random_base(&mut rng).ok()?;
            Some((mr, b))
        })
        .collect::<Option<_>>()?;
    let c_mr = mean_median(&(0..3).map(|_| super::cpu_clock::cpu_pass(&pairs, |(m, b)| assert!(m.passes_ct(b)))).collect::<Vec<_>>()).1;
    Some(Costs { c_td: c["c_td_ms"].as_f64()?, c_mr, c_lucas: 0.0 })
}

pub fn run(a: Args) -> ExitCode {
    if a.count == 0 || a.bits.iter().any(|&b| !(64..=8192).contains(&b)) {
        eprintln!("primekit-lab bench table5: --count must be positive and --bits within 64..=8192");
        return ExitCode::from(2);
    }
    let arith = match Arithmetic::parse(&a.engine) {
        Ok(x) => x,
        Err(e) => {
            eprintln!("primekit-lab bench table5: {e}");
            return ExitCode::from(2);
        }
    };
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(a.seed);
    eprintln!("| k | r | MR64 inside ms | MRAC inside ms (t) | overhead | paper overhead |");
    eprintln!("|---|---|---|---|---|---|");
    for &bits in &a.bits {
        let r = table4_r(bits);
        let s_sieve = if a.as_published { 2047 } else { r };
        let cfg = Config { pga: Pga::Openssl, sieve: SieveKind::Openssl, safe: false, bits, r: s_sieve, l: 16000, gamma: 128.0 };
        let t_mrac = mrac_rounds(bits as u64);
        let arms = [("mr64", 64u32), ("mrac", t_mrac)];
        let mut gens = Vec::new();
        for (name, t) in arms {
            let td = if a.as_published && name == "mr64" { r } else { 0 };
            match Generator::new(&cfg) {
                Ok(g) => gens.push(g.with_mr_rounds(t).with_redundant_trial_division(td).with_arithmetic(arith)),
                Err(e) => {
                    eprintln!("primekit-lab bench table5: {e}");
                    return ExitCode::from(2);
                }
            }
        }
        let mut samples = [Vec::new(), Vec::new()];
        for i in 0..a.count {
            for (k, g) in gens.iter_mut().enumerate() {
                let start = thread_cpu_ms();
                let out = match g.generate_retrying(&mut rng) {
                    Ok(o) => o,
                    Err(e) => {
                        eprintln!("primekit-lab bench table5: {e}");
                        return ExitCode::from(1);
                    }
                };
                samples[k].push(thread_cpu_ms() - start);
                if i == 0 {
                    assert!(primekit::is_prime(&out.prime), "composite output");
                }
            }
        }
        let means: Vec<f64> = samples.iter().map(|s| mean_median(s).0).collect();
        for (k, (name, t)) in arms.iter().enumerate() {
            super::emit::line(
                json!({"op": "table5", "engine": arith.name(), "inside": name, "bits": bits, "r": r, "sieve_primes": s_sieve, "t": t, "count": a.count, "mean_ms": means[k], "median_ms": mean_median(&samples[k]).1}),
            );
        }
        let overhead = 100.0 * (means[0] / means[1] - 1.0);
        // Appendix A's prediction from C_TD and C_MR measured here (eq. 10 over eq. 9); C_MR
        // is a constant-time round, as the generator runs them.
        let td = if a.as_published { r } else { 0 };
        let costs = model_costs(bits, a.seed, arith);
        let model = costs.map(|c| {
            let eq9 = generation_cost_eq9(bits as u64, s_sieve, t_mrac, &c);
            100.0 * (generation_cost_eq10(bits as u64, s_sieve, td, 64, &c) / eq9 - 1.0)
        });
        // The same with a fresh sieve per candidate (OpenSSL 1.1.1's restarts).
        let restarting = costs.map(|c| {
            let base = generation_cost_restarting(bits as u64, s_sieve, 0, t_mrac, &c);
            100.0 * (generation_cost_restarting(bits as u64, s_sieve, td, 64, &c) / base - 1.0)
        });
        super::emit::line(
            json!({"op": "table5", "engine": arith.name(), "bits": bits, "sieve_primes": s_sieve, "redundant_td": if a.as_published { r } else { 0 },
                                 "overhead_pct": overhead, "model_overhead_pct": model, "model_restarting_overhead_pct": restarting, "paper_overhead_pct": paper_overhead(bits)}),
        );
        let paper = paper_overhead(bits).map(|p| format!("{p:.0}%")).unwrap_or_else(|| "-".into());
        eprintln!("| {bits} | {r} | {:.2} | {:.2} ({t_mrac}) | {overhead:.0}% | {paper} |", means[0], means[1]);
    }
    ExitCode::SUCCESS
}
