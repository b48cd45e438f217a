//! `primekit-lab dist`: the distribution check of Dobrosavljević 2021, §5.2, of one PGA × sieve combination —
//! the most significant byte of `--count` generated primes in 64 bins against the band
//! μ ± 1.96√μ, a chi-square p-value, residues modulo small primes — printed as one JSON
//! line and drawn as a histogram (PNG, or SVG if `--out` ends in .svg).
//!
//! Paper scale (the thesis's 2,240,000 primes) is a job array: `primekit-lab bench dist ...
//! --seed S --shard i/n` per task (no plot unless `--out` is given), then `primekit-lab bench
//! merge`, which sums the histograms and re-judges them. With `--seed`, prime j of the run
//! comes from its own ChaCha20 stream j of the seed, so any split into shards and threads
//! gives the same primes as one process.

use crate::bench::inputs::Shard;
use crate::bench::pga::os_rng;
use crate::plot;
use clap::Args as ClapArgs;
use num_bigint::BigUint;
use primekit_research::pga::distribution::{analyse, Fit};
use primekit_research::pga::params::thesis_gamma;
use primekit_research::pga::{Config, Generator, Pga, SieveKind};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(ClapArgs)]
pub struct Args {
    /// Prime size k in bits.
    #[arg(long, default_value_t = 512)]
    bits: u32,
    /// nss | natural | openssl
    #[arg(long, default_value = "natural")]
    pga: String,
    /// nss | openssl | dirichlet
    #[arg(long, default_value = "nss")]
    sieve: String,
    #[arg(long)]
    safe: bool,
    #[arg(long, default_value_t = 2048)]
    r: usize,
    #[arg(long = "L", default_value_t = 16000)]
    l: u64,
    /// Security level γ (error and failure probability <= 2^-γ); default as in the
    /// thesis: 128, and 100 for the safe OpenSSL PGA.
    #[arg(long)]
    gamma: Option<f64>,
    /// Primes to generate (the thesis used 2,240,000 = 35,000 per bin).
    #[arg(long, default_value_t = 6400)]
    count: usize,
    /// Histogram file (.png or .svg); default dist.png, and none for a shard.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Reproducible primes: prime j from ChaCha20 stream j of this seed (default: the OS
    /// generator).
    #[arg(long)]
    seed: Option<u64>,
    /// Run part i of n (0-based) of the --count primes; combine with `bench merge`.
    #[arg(long, default_value = "0/1")]
    shard: Shard,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    jobs: usize,
}

/// The MSB fit as JSON, with its bin counts (what `bench merge` sums).
pub fn msb_json(f: &Fit) -> serde_json::Value {
    json!({"mu": f.mu, "band": [f.band.0, f.band.1], "bins": f.counts.len(), "counts": f.counts, "outside": f.outside, "chi2": f.chi2, "dof": f.dof, "p_value": f.p_value})
}

/// One residue fit as JSON (modulo `p`).
pub fn residue_json(p: u32, f: &Fit) -> serde_json::Value {
    json!({"p": p, "classes": f.labels, "counts": f.counts, "chi2": f.chi2, "p_value": f.p_value})
}

/// The primes with global indices `first..first + count`: with a seed, prime j from
/// ChaCha20 stream j (independent of the split); else from per-chunk OS-seeded generators.
fn generate(cfg: &Config, first: usize, count: usize, seed: Option<u64>) -> Result<Vec<BigUint>, primekit::Error> {
    let chunks = rayon::current_num_threads().max(1);
    let per = count.div_ceil(chunks).max(1);
    let parts: Result<Vec<Vec<BigUint>>, _> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let lo = (c * per).min(count);
            let hi = ((c + 1) * per).min(count);
            let mut g = Generator::new(cfg)?;
            let mut os = os_rng()?;
            (lo..hi)
                .map(|j| match seed {
                    Some(s) => {
                        let mut rng = ChaCha20Rng::seed_from_u64(s);
                        rng.set_stream((first + j) as u64);
                        g.generate_retrying(&mut rng).map(|o| o.prime)
                    }
                    None => g.generate_retrying(&mut os).map(|o| o.prime),
                })
                .collect()
        })
        .collect();
    Ok(parts?.into_iter().flatten().collect())
}

pub fn run(a: Args) -> ExitCode {
    let result = (|| -> Result<serde_json::Value, Box<dyn std::error::Error>> {
        if a.count == 0 {
            return Err("--count must be positive".into());
        }
        let pga = Pga::parse(&a.pga)?;
        let cfg = Config {
            pga,
            sieve: SieveKind::parse(&a.sieve)?,
            safe: a.safe,
            bits: a.bits,
            r: a.r,
            l: a.l,
            gamma: a.gamma.unwrap_or_else(|| thesis_gamma(pga, a.safe)),
        };
        let l_used = Generator::new(&cfg)?.config().l; // validates before spawning work
        let share = a.shard.share(a.count);
        if share == 0 {
            return Err(format!("shard {}/{} has no primes of --count {}", a.shard.index, a.shard.total, a.count).into());
        }
        // Global index of this shard's first prime: the shares of the shards before it.
        let first = (0..a.shard.index).map(|i| Shard { index: i, total: a.shard.total }.share(a.count)).sum();
        let pool = rayon::ThreadPoolBuilder::new().num_threads(a.jobs).build()?;
        let primes = pool.install(|| generate(&cfg, first, share, a.seed))?;
        let report = analyse(&primes, a.bits, a.safe);
        let title = format!(
            "{}{} PGA, {} sieve, k = {}, r = {}: {} primes, chi2 p = {:.3}",
            if a.safe { "safe " } else { "" },
            cfg.pga.name(),
            cfg.sieve.name(),
            a.bits,
            a.r,
            primes.len(),
            report.msb.p_value
        );
        let out = a.out.clone().or_else(|| (a.shard.total == 1).then(|| PathBuf::from("dist.png")));
        if let Some(out) = &out {
            plot::histogram(out, &title, "most significant byte", &report.msb.labels, &report.msb.counts, report.msb.band)?;
        }
        let mut j = json!({
            "op": "dist", "pga": cfg.pga.name(), "sieve": cfg.sieve.name(), "safe": a.safe, "bits": a.bits, "r": a.r, "L": l_used,
            "gamma": cfg.gamma, "count": report.samples, "msb": msb_json(&report.msb),
            "residues": report.residues.iter().map(|(p, f)| residue_json(*p, f)).collect::<Vec<_>>(),
        });
        if let Some(out) = out {
            j["plot"] = json!(out.display().to_string());
        }
        if let Some(s) = a.seed {
            j["seed"] = json!(s);
        }
        if a.shard.total > 1 {
            // What `bench merge` checks: each shard of the run exactly once.
            j["shard"] = json!(format!("{}/{}", a.shard.index, a.shard.total));
            j["total_count"] = json!(a.count);
        }
        Ok(j)
    })();
    match result {
        Ok(j) => {
            primekit_cli::outln!("dist", "{j}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("primekit-lab dist: {e}");
            ExitCode::from(2)
        }
    }
}
