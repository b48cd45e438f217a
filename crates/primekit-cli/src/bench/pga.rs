//! `primekit bench pga`: one of seed 002's nine PGA × sieve combinations (optionally the
//! safe-prime variant) at given (r, L), t and U derived from (k, γ, r, L); with
//! `--features compare`, OpenSSL's native `BN_generate_prime_ex2` in the same run.
//!
//! What is timed: one complete PGA call (`generate_retrying`: trial draws, sieving,
//! Miller-Rabin, and any failed calls repeated), with the generator (sieve allocation,
//! m_r) built beforehand, as the thesis moves its allocations out of the PGA (§4.1.1).

use super::timing::mean_median;
use clap::Args as ClapArgs;
use primekit::research::pga::{Config, Generator, Pga, SieveKind};
use rand_chacha::rand_core::{OsRng, SeedableRng};
use rand_chacha::ChaCha20Rng;
use serde_json::{json, Value};
use std::process::ExitCode;
use std::time::Instant;

#[derive(ClapArgs)]
pub struct Args {
    /// Prime sizes k in bits, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1024")]
    bits: Vec<u32>,
    /// nss | natural | openssl (comma-separated: every listed PGA is run)
    #[arg(long, value_delimiter = ',', default_value = "natural")]
    pga: Vec<String>,
    /// nss | openssl | dirichlet (comma-separated: every listed sieve is run)
    #[arg(long, value_delimiter = ',', default_value = "nss")]
    sieve: Vec<String>,
    /// Generate safe primes (slow: about a second each at 1024 bits).
    #[arg(long)]
    safe: bool,
    /// Number of first odd primes sieved.
    #[arg(long, default_value_t = 2048)]
    r: usize,
    /// r for the Dirichlet sieve when several sieves are listed (m_r must fit in k - 8 bits).
    #[arg(long)]
    r_dirichlet: Option<usize>,
    /// Search interval L (see `research::pga::Config::l`).
    #[arg(long = "L", default_value_t = 16000)]
    l: u64,
    /// Security level γ: error and failure probability <= 2^-γ.
    #[arg(long, default_value_t = 128.0)]
    gamma: f64,
    /// Primes generated per configuration.
    #[arg(long, default_value_t = 32)]
    count: usize,
}

/// Timing of one configuration.
pub struct Measured {
    pub mean_ms: f64,
    pub json: Value,
}

/// Generates `count` primes with `cfg`, timing each call; every output is checked for
/// size and top bits, and the first two with `primekit::is_prime`.
pub fn measure(
    cfg: &Config,
    count: usize,
    rng: &mut ChaCha20Rng,
) -> Result<Measured, primekit::Error> {
    let mut g = Generator::new(cfg)?;
    let mut samples = Vec::with_capacity(count);
    let (mut candidates, mut rounds) = (0u64, 0u64);
    g.generate_retrying(rng)?; // warm-up, untimed
    for i in 0..count {
        let start = Instant::now();
        let out = g.generate_retrying(rng)?;
        samples.push(start.elapsed().as_secs_f64() * 1e3);
        candidates += out.candidates;
        rounds += out.rounds;
        let p = &out.prime;
        assert!(
            p.bits() == cfg.bits as u64 && p.bit(cfg.bits as u64 - 2),
            "bad size/top bits: {cfg:?}"
        );
        if i < 2 {
            assert!(primekit::is_prime(p), "composite output: {cfg:?}");
            assert!(
                !cfg.safe || primekit::is_prime(&(p >> 1u32)),
                "(p-1)/2 composite: {cfg:?}"
            );
        }
    }
    let (mean, median) = mean_median(&samples);
    let d = g.derived();
    let json = json!({
        "op": "pga", "engine": "primekit", "pga": cfg.pga.name(), "sieve": cfg.sieve.name(), "safe": cfg.safe,
        "bits": cfg.bits, "r": cfg.r, "L": g.config().l, "t": d.t, "U": d.u, "gamma": cfg.gamma,
        "count": count, "mean_ms": mean, "median_ms": median,
        "min_ms": samples.iter().cloned().fold(f64::INFINITY, f64::min),
        "max_ms": samples.iter().cloned().fold(0.0, f64::max),
        "mean_candidates": candidates as f64 / count as f64, "mean_rounds": rounds as f64 / count as f64,
    });
    Ok(Measured {
        mean_ms: mean,
        json,
    })
}

/// OpenSSL's own generator (`BN_generate_prime_ex2`) on the same machine and process.
#[cfg(feature = "compare")]
pub fn measure_openssl(bits: u32, safe: bool, count: usize) -> Measured {
    use primekit::research::peers::openssl;
    let ctx = openssl::Ctx::new();
    let mut samples = Vec::with_capacity(count);
    openssl::generate_prime(bits, safe, &ctx); // warm-up, untimed
    for i in 0..count {
        let start = Instant::now();
        let p = openssl::generate_prime(bits, safe, &ctx);
        samples.push(start.elapsed().as_secs_f64() * 1e3);
        assert_eq!(p.bits(), bits as u64);
        if i < 2 {
            assert!(primekit::is_prime(&p), "OpenSSL returned a composite?");
        }
    }
    let (mean, median) = mean_median(&samples);
    let json = json!({"op": "pga", "engine": "openssl", "pga": "BN_generate_prime_ex2", "sieve": "openssl-native", "safe": safe,
        "bits": bits, "count": count, "mean_ms": mean, "median_ms": median});
    Measured {
        mean_ms: mean,
        json,
    }
}

pub fn os_rng() -> Result<ChaCha20Rng, primekit::Error> {
    ChaCha20Rng::from_rng(OsRng).map_err(|e| primekit::Error::Rng(e.to_string()))
}

pub fn run(a: Args) -> ExitCode {
    let parsed = (|| -> Result<_, primekit::Error> {
        if a.count == 0 {
            return Err(primekit::Error::InvalidArgument(
                "--count must be positive".into(),
            ));
        }
        let pgas = a.pga.iter().map(|s| Pga::parse(s)).collect::<Result<Vec<_>, _>>()?;
        let sieves = a.sieve.iter().map(|s| SieveKind::parse(s)).collect::<Result<Vec<_>, _>>()?;
        Ok((pgas, sieves, os_rng()?))
    })();
    let (pgas, sieves, mut rng) = match parsed {
        Ok(x) => x,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(n) = super::peers_note() {
        println!("{n}");
    }
    for &bits in &a.bits {
        for &pga in &pgas {
            for &sieve in &sieves {
                let r = if sieve == SieveKind::Dirichlet { a.r_dirichlet.unwrap_or(a.r) } else { a.r };
                let cfg = Config { pga, sieve, safe: a.safe, bits, r, l: a.l, gamma: a.gamma };
                match measure(&cfg, a.count, &mut rng) {
                    Ok(m) => println!("{}", m.json),
                    Err(e) => {
                        eprintln!("error: {e}");
                        return ExitCode::from(2);
                    }
                }
            }
        }
        #[cfg(feature = "compare")]
        println!("{}", measure_openssl(bits, a.safe, a.count).json);
    }
    ExitCode::SUCCESS
}
