//! `primekit dist`: the distribution check of Dobrosavljević 2021, §5.2, of one PGA × sieve combination —
//! the most significant byte of `--count` generated primes in 64 bins against the band
//! μ ± 1.96√μ, a chi-square p-value, residues modulo small primes — printed as one JSON
//! line and drawn as a histogram (PNG, or SVG if `--out` ends in .svg).

use crate::bench::pga::os_rng;
use crate::plot;
use clap::Args as ClapArgs;
use num_bigint::BigUint;
use primekit_research::pga::distribution::{analyse, Fit};
use primekit_research::pga::params::thesis_gamma;
use primekit_research::pga::{Config, Generator, Pga, SieveKind};
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
    /// Histogram file (.png or .svg).
    #[arg(long, default_value = "dist.png")]
    out: PathBuf,
}

fn fit_json(f: &Fit) -> serde_json::Value {
    json!({"mu": f.mu, "band": [f.band.0, f.band.1], "bins": f.counts.len(), "outside": f.outside, "chi2": f.chi2, "dof": f.dof, "p_value": f.p_value})
}

fn generate(cfg: &Config, count: usize) -> Result<Vec<BigUint>, primekit::Error> {
    let chunks = rayon::current_num_threads().max(1);
    let per = count.div_ceil(chunks);
    let parts: Result<Vec<Vec<BigUint>>, _> = (0..chunks)
        .into_par_iter()
        .map(|c| {
            let n = per.min(count.saturating_sub(c * per));
            let mut g = Generator::new(cfg)?;
            let mut rng = os_rng()?;
            (0..n).map(|_| g.generate_retrying(&mut rng).map(|o| o.prime)).collect()
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
        let primes = generate(&cfg, a.count)?;
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
        plot::histogram(&a.out, &title, "most significant byte", &report.msb.labels, &report.msb.counts, report.msb.band)?;
        Ok(json!({
            "op": "dist", "pga": cfg.pga.name(), "sieve": cfg.sieve.name(), "safe": a.safe, "bits": a.bits, "r": a.r, "L": l_used,
            "count": report.samples, "msb": fit_json(&report.msb),
            "residues": report.residues.iter().map(|(p, f)| json!({"p": p, "classes": f.labels, "counts": f.counts, "chi2": f.chi2, "p_value": f.p_value})).collect::<Vec<_>>(),
            "plot": a.out.display().to_string(),
        }))
    })();
    match result {
        Ok(j) => {
            println!("{j}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}
