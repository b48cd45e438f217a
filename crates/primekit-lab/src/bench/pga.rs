//! `primekit-lab bench pga`: one of Dobrosavljević's (2021) nine PGA × sieve combinations (optionally the
//! safe-prime variant) at given (r, L), t and U derived from (k, γ, r, L); with
//! `--features compare`, OpenSSL's native `BN_generate_prime_ex2` in the same run.
//!
//! What is timed: one complete PGA call (`generate_retrying`: trial draws, sieving,
//! Miller-Rabin, and any failed calls repeated), with the generator (sieve allocation,
//! m_r) built beforehand, as the thesis moves its allocations out of the PGA (§4.1.1).
//! Times are the calling thread's CPU time ([`super::cpu_clock`]), for both engines, so a
//! busy shared machine does not stretch one arm more than the other.

use super::cpu_clock::thread_cpu_ms;
use super::timing::mean_median;
use clap::Args as ClapArgs;
use primekit_research::pga::params::thesis_gamma;
use primekit_research::pga::{Config, Generator, Pga, SieveKind};
use rand_chacha::ChaCha20Rng;
use serde_json::{json, Value};
use std::process::ExitCode;

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
    /// r for the Dirichlet sieve (m_r must fit in k - 8 bits) [default: the largest r <= --r
    /// with m_r of at most k - 64 bits].
    #[arg(long)]
    r_dirichlet: Option<usize>,
    /// Search interval L (see `research::pga::Config::l`).
    #[arg(long = "L", default_value_t = 16000)]
    l: u64,
    /// Security level γ (error and failure probability <= 2^-γ); default as in the
    /// thesis: 128, and 100 for the safe OpenSSL PGA.
    #[arg(long)]
    gamma: Option<f64>,
    /// Primes generated per configuration.
    #[arg(long, default_value_t = 32)]
    count: usize,
}

/// Timing of one configuration.
pub struct Measured {
    pub mean_ms: f64,
    pub json: Value,
}

/// One configuration being measured: its generator and per-call timings.
pub struct Arm {
    cfg: Config,
    gen: Generator,
    samples: Vec<f64>,
    candidates: u64,
    rounds: u64,
}

impl Arm {
    /// Builds the generator and makes one untimed warm-up call.
    pub fn new(cfg: &Config, rng: &mut ChaCha20Rng) -> Result<Arm, primekit::Error> {
        let mut gen = Generator::new(cfg)?;
        gen.generate_retrying(rng)?;
        Ok(Arm { cfg: cfg.clone(), gen, samples: Vec::new(), candidates: 0, rounds: 0 })
    }

    /// Times one PGA call; checks size and top bits always, primality on the first two.
    pub fn step(&mut self, rng: &mut ChaCha20Rng) -> Result<(), primekit::Error> {
        let cfg = &self.cfg;
        let start = thread_cpu_ms();
        let out = self.gen.generate_retrying(rng)?;
        self.samples.push(thread_cpu_ms() - start);
        self.candidates += out.candidates;
        self.rounds += out.rounds;
        let p = &out.prime;
        assert!(p.bits() == cfg.bits as u64 && p.bit(cfg.bits as u64 - 2), "bad size/top bits: {cfg:?}");
        if self.samples.len() <= 2 {
            assert!(primekit::is_prime(p), "composite output: {cfg:?}");
            assert!(!cfg.safe || primekit::is_prime(&(p >> 1u32)), "(p-1)/2 composite: {cfg:?}");
        }
        Ok(())
    }

    pub fn finish(&self) -> Measured {
        let (cfg, samples, count) = (&self.cfg, &self.samples, self.samples.len().max(1));
        let (mean, median) = mean_median(samples);
        let d = self.gen.derived();
        let json = super::emit::tagged(json!({
            "op": "pga", "engine": "primekit", "pga": cfg.pga.name(), "sieve": cfg.sieve.name(), "safe": cfg.safe,
            "bits": cfg.bits, "r": cfg.r, "L": self.gen.config().l, "t": d.t, "U": d.u, "gamma": cfg.gamma,
            "count": samples.len(), "mean_ms": mean, "median_ms": median,
            "min_ms": samples.iter().cloned().fold(f64::INFINITY, f64::min),
            "max_ms": samples.iter().cloned().fold(0.0, f64::max),
            "mean_candidates": self.candidates as f64 / count as f64, "mean_rounds": self.rounds as f64 / count as f64,
        }));
        Measured { mean_ms: mean, json }
    }
}

/// Generates `count` primes with `cfg`, timing each call.
pub fn measure(cfg: &Config, count: usize, rng: &mut ChaCha20Rng) -> Result<Measured, primekit::Error> {
    let mut arm = Arm::new(cfg, rng)?;
    for _ in 0..count {
        arm.step(rng)?;
    }
    Ok(arm.finish())
}

/// OpenSSL's own generator (`BN_generate_prime_ex2`) in the same process.
#[cfg(feature = "compare")]
pub struct OpensslArm {
    bits: u32,
    safe: bool,
    ctx: primekit_research::peers::openssl::Ctx,
    samples: Vec<f64>,
}

#[cfg(feature = "compare")]
impl OpensslArm {
    pub fn new(bits: u32, safe: bool) -> Self {
        let ctx = primekit_research::peers::openssl::Ctx::new();
        primekit_research::peers::openssl::generate_prime(bits, safe, &ctx); // warm-up, untimed
        OpensslArm { bits, safe, ctx, samples: Vec::new() }
    }

    pub fn step(&mut self) {
        let start = thread_cpu_ms();
        let p = primekit_research::peers::openssl::generate_prime(self.bits, self.safe, &self.ctx);
        self.samples.push(thread_cpu_ms() - start);
        assert_eq!(p.bits(), self.bits as u64);
        if self.samples.len() <= 2 {
            assert!(primekit::is_prime(&p), "OpenSSL returned a composite?");
        }
    }

    pub fn finish(&self) -> Measured {
        let (mean, median) = mean_median(&self.samples);
        let json = super::emit::tagged(json!({"op": "pga", "engine": "openssl", "pga": "BN_generate_prime_ex2", "sieve": "openssl-native",
            "safe": self.safe, "bits": self.bits, "count": self.samples.len(), "mean_ms": mean, "median_ms": median}));
        Measured { mean_ms: mean, json }
    }
}

/// OpenSSL's generator timed `count` times.
#[cfg(feature = "compare")]
pub fn measure_openssl(bits: u32, safe: bool, count: usize) -> Measured {
    let mut arm = OpensslArm::new(bits, safe);
    for _ in 0..count {
        arm.step();
    }
    arm.finish()
}

pub fn os_rng() -> Result<ChaCha20Rng, primekit::Error> {
    primekit::hazmat::random::os_seeded()
}

pub fn run(a: Args) -> ExitCode {
    let parsed = (|| -> Result<_, primekit::Error> {
        if a.count == 0 {
            return Err(primekit::Error::InvalidArgument("--count must be positive".into()));
        }
        let pgas = a.pga.iter().map(|s| Pga::parse(s)).collect::<Result<Vec<_>, _>>()?;
        let sieves = a.sieve.iter().map(|s| SieveKind::parse(s)).collect::<Result<Vec<_>, _>>()?;
        Ok((pgas, sieves, os_rng()?))
    })();
    let (pgas, sieves, mut rng) = match parsed {
        Ok(x) => x,
        Err(e) => {
            eprintln!("primekit-lab bench pga: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(n) = super::peers_note() {
        super::emit::line(n);
    }
    // All listed combinations (and OpenSSL) take turns, one prime each per pass, so that
    // load drifting on a shared machine affects every arm alike.
    for &bits in &a.bits {
        let arms = pgas.iter().flat_map(|&pga| sieves.iter().map(move |&sieve| (pga, sieve))).map(|(pga, sieve)| {
            let r = if sieve == SieveKind::Dirichlet {
                a.r_dirichlet.unwrap_or_else(|| primekit_research::pga::sieve_dirichlet::default_r(bits, a.r))
            } else {
                a.r
            };
            Arm::new(
                &Config { pga, sieve, safe: a.safe, bits, r, l: a.l, gamma: a.gamma.unwrap_or_else(|| thesis_gamma(pga, a.safe)) },
                &mut rng,
            )
        });
        let mut arms = match arms.collect::<Result<Vec<_>, _>>() {
            Ok(v) => v,
            Err(e) => {
                eprintln!("primekit-lab bench pga: {e}");
                return ExitCode::from(2);
            }
        };
        #[cfg(feature = "compare")]
        let mut peer = OpensslArm::new(bits, a.safe);
        for _ in 0..a.count {
            for arm in arms.iter_mut() {
                if let Err(e) = arm.step(&mut rng) {
                    eprintln!("primekit-lab bench pga: {e}");
                    return ExitCode::from(2);
                }
            }
            #[cfg(feature = "compare")]
            peer.step();
        }
        for arm in &arms {
            primekit_cli::outln!("bench pga", "{}", arm.finish().json);
        }
        #[cfg(feature = "compare")]
        primekit_cli::outln!("bench pga", "{}", peer.finish().json);
    }
    ExitCode::SUCCESS
}
