//! Incremental-search prime generation from Dobrosavljević 2021: three PGAs (NSS, Natural, OpenSSL; §3.2, Alg. 2–6) × three
//! sieves (NSS, OpenSSL, Dirichlet; §3.3, Alg. 7–12), each also for safe primes (§3.4,
//! Alg. 13–16), behind one interface, with t and U derived from (k, γ, r, L) by
//! [`params`]. Research tier: every knob is exposed; not the product's generator.
//!
//! ```
//! use primekit_research::pga::{Config, Generator, Pga, SieveKind};
//! let cfg = Config { pga: Pga::Natural, sieve: SieveKind::Nss, safe: false, bits: 256, r: 64, l: 4000, gamma: 128.0 };
//! let mut g = Generator::new(&cfg).unwrap();
//! let p = g.generate_retrying(&mut rand_core::OsRng).unwrap().prime;
//! assert!(p.bits() == 256 && p.bit(254) && primekit::is_prime(&p));
//! ```

pub mod distribution;
mod natural;
mod nss;
mod openssl;
pub mod params;
mod residues;
pub mod sieve_dirichlet;
pub mod sieve_nss;
pub mod sieve_openssl;

use num_bigint::BigUint;
use primekit::hazmat::primality::MillerRabin;
use primekit::Error;
use rand_core::CryptoRngCore;

/// The prime generation algorithm (how rounds restart).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pga {
    /// Up to U rounds, each searching at most L past a fresh trial (Alg. 2–3).
    Nss,
    /// One trial, search until a prime or the end of the k-bit interval (Alg. 4).
    Natural,
    /// A fresh trial for every candidate, unbounded rounds (Alg. 5–6).
    Openssl,
}

/// How the next candidate is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SieveKind {
    /// Bit array over L/2 candidates (Alg. 7–8).
    Nss,
    /// Remainder table of r entries (Alg. 9–10).
    Openssl,
    /// Arithmetic progression z·m_r + a (Alg. 11–12).
    Dirichlet,
}

impl Pga {
    pub const ALL: [Pga; 3] = [Pga::Nss, Pga::Natural, Pga::Openssl];
    pub fn name(self) -> &'static str {
        match self {
            Pga::Nss => "nss",
            Pga::Natural => "natural",
            Pga::Openssl => "openssl",
        }
    }
    pub fn parse(s: &str) -> Result<Self, Error> {
        parse_name(&Pga::ALL, Pga::name, "PGA", s)
    }
}

impl SieveKind {
    pub const ALL: [SieveKind; 3] = [SieveKind::Nss, SieveKind::Openssl, SieveKind::Dirichlet];
    pub fn name(self) -> &'static str {
        match self {
            SieveKind::Nss => "nss",
            SieveKind::Openssl => "openssl",
            SieveKind::Dirichlet => "dirichlet",
        }
    }
    pub fn parse(s: &str) -> Result<Self, Error> {
        parse_name(&SieveKind::ALL, SieveKind::name, "sieve", s)
    }
}

/// The one of `all` named `s`; otherwise an error naming `what` and the choices.
fn parse_name<T: Copy>(all: &[T], name: fn(T) -> &'static str, what: &str, s: &str) -> Result<T, Error> {
    all.iter().copied().find(|&x| name(x) == s).ok_or_else(|| {
        let names: Vec<&str> = all.iter().map(|&x| name(x)).collect();
        Error::InvalidArgument(format!("unknown {what} {s:?} ({})", names.join("|")))
    })
}

/// Whose big-number arithmetic tests the candidates (and, for the OpenSSL sieve, computes
/// the remainder table): primekit's, or OpenSSL's own `BN_mod_word` and `BN_mod_exp_mont`
/// (`peers::openssl_mr`, under the `compare` feature), the arithmetic Massimo & Paterson (2020, §5) measured
/// their Table 5 on. The sieves' per-candidate steps are word arithmetic either way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Arithmetic {
    #[default]
    Primekit,
    /// Needs the `compare` feature (the system libcrypto).
    #[cfg(feature = "compare")]
    Openssl,
}

impl Arithmetic {
    pub fn name(self) -> &'static str {
        match self {
            Arithmetic::Primekit => "primekit",
            #[cfg(feature = "compare")]
            Arithmetic::Openssl => "openssl",
        }
    }

    /// `primekit`, or `openssl` in a build with the `compare` feature.
    pub fn parse(s: &str) -> Result<Self, Error> {
        match s {
            "primekit" => Ok(Arithmetic::Primekit),
            #[cfg(feature = "compare")]
            "openssl" => Ok(Arithmetic::Openssl),
            #[cfg(not(feature = "compare"))]
            "openssl" => Err(Error::InvalidArgument("the openssl arithmetic needs a build with --features compare".into())),
            _ => Err(Error::InvalidArgument(format!("unknown arithmetic {s:?} (primekit|openssl)"))),
        }
    }
}

/// The free parameters of one combination.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    pub pga: Pga,
    pub sieve: SieveKind,
    /// Generate safe primes p = 2q + 1.
    pub safe: bool,
    /// k, the exact output size; the top two bits are always set.
    pub bits: u32,
    /// Number of first odd primes used by the sieve.
    pub r: usize,
    /// Search interval: NSS PGA bound on n - n0 (Dirichlet: on the number of m_r
    /// additions, §4.3.3); NSS sieve array covers L/2 candidates. Natural PGA raises it to
    /// eq. 3.8's minimum for the non-safe NSS sieve.
    pub l: u64,
    /// Security level: error and failure probability <= 2^-γ.
    pub gamma: f64,
}

/// Smallest accepted k (keeps candidates and (n-1)/2 above every sieving prime).
pub const MIN_BITS: u32 = 32;
/// Largest accepted k.
pub const MAX_BITS: u32 = 8192;

/// One candidate from a sieve: the number and its distance from the round's start
/// (n - n0 for the NSS and OpenSSL sieves, the number of m_r additions for Dirichlet).
pub struct Candidate {
    pub n: BigUint,
    pub offset: u64,
}

/// The interface of the three sieves: `start` begins a round (draws the trial), `next`
/// returns the next candidate free of the first r odd primes, or `None` when exhausted.
pub trait Sieve {
    fn start(&mut self, rng: &mut dyn CryptoRngCore) -> Result<(), Error>;
    fn next(&mut self) -> Option<Candidate>;
}

/// rand_num(k): a uniform odd k-bit number with the top two bits set (safe: also bit 1,
/// so that (n - 1)/2 is odd).
pub fn random_trial(k: u32, safe: bool, rng: &mut dyn CryptoRngCore) -> Result<BigUint, Error> {
    let mut bytes = vec![0u8; (k as usize).div_ceil(8)];
    rng.try_fill_bytes(&mut bytes).map_err(|e| Error::Rng(e.to_string()))?;
    let mut n = BigUint::from_bytes_be(&bytes) >> (bytes.len() * 8 - k as usize);
    n.set_bit(k as u64 - 1, true);
    n.set_bit(k as u64 - 2, true);
    n.set_bit(0, true);
    if safe {
        n.set_bit(1, true);
    }
    Ok(n)
}

/// A uniform value in [0, bound) by rejection sampling (`bound >= 1`).
pub fn random_below(bound: &BigUint, rng: &mut dyn CryptoRngCore) -> Result<BigUint, Error> {
    let bits = bound.bits() as usize;
    let mut bytes = vec![0u8; bits.div_ceil(8)];
    for _ in 0..256 {
        rng.try_fill_bytes(&mut bytes).map_err(|e| Error::Rng(e.to_string()))?;
        let x = BigUint::from_bytes_be(&bytes) >> (bytes.len() * 8 - bits);
        if &x < bound {
            return Ok(x);
        }
    }
    Err(Error::Rng("rejection sampling failed 256 times".into()))
}

/// t Miller-Rabin rounds with uniformly random bases, constant time in n.
fn mr_rounds(mr: &MillerRabin, t: u32, rng: &mut dyn CryptoRngCore) -> Result<bool, Error> {
    for _ in 0..t {
        let mut rng = &mut *rng;
        let a = mr.random_base(&mut rng)?;
        if !mr.passes_ct(&a) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// is_prime(n, t); for safe primes n and q = (n - 1)/2 both pass t rounds (one round on
/// each first, so a composite q or n is usually caught after one exponentiation).
/// Even n or even q (possible with the Dirichlet progressions) are rejected at no cost.
pub fn probable_prime(n: &BigUint, t: u32, safe: bool, rng: &mut dyn CryptoRngCore) -> Result<bool, Error> {
    if !n.bit(0) {
        return Ok(false);
    }
    let mr_n = MillerRabin::new(n)?;
    if !safe {
        return mr_rounds(&mr_n, t, rng);
    }
    let q = n >> 1u32;
    if !q.bit(0) {
        return Ok(false);
    }
    let mr_q = MillerRabin::new(&q)?;
    Ok(mr_rounds(&mr_q, 1, rng)? && mr_rounds(&mr_n, 1, rng)? && mr_rounds(&mr_q, t - 1, rng)? && mr_rounds(&mr_n, t - 1, rng)?)
}

/// A generated (safe) probable prime and what it cost.
#[derive(Clone, Debug)]
pub struct Generated {
    pub prime: BigUint,
    /// Rounds started (fresh trials drawn).
    pub rounds: u64,
    /// Candidates given to the primality test.
    pub candidates: u64,
}

/// A PGA either returns a probable prime or reports failure (search interval, round
/// limit or k-bit interval exhausted).
#[derive(Clone, Debug)]
pub enum Outcome {
    Prime(Generated),
    Failure { rounds: u64, candidates: u64 },
}

/// Cost counters shared by the PGA loops.
#[derive(Default)]
struct Counters {
    rounds: u64,
    candidates: u64,
}

/// What every PGA does with a candidate: it must still have k bits (else the loop ends or
/// restarts, as the PGA says), is counted, and is accepted when it passes t rounds.
struct Acceptance {
    k: u32,
    t: u32,
    safe: bool,
    /// Trial division by the first `td` odd primes before the rounds (0: none).
    td: usize,
    arith: Arithmetic,
}

impl Acceptance {
    /// `None` when `n` has left the k-bit interval; else whether it is a probable prime.
    fn test(&self, n: &BigUint, c: &mut Counters, rng: &mut dyn CryptoRngCore) -> Result<Option<bool>, Error> {
        if n.bits() != u64::from(self.k) {
            return Ok(None);
        }
        c.candidates += 1;
        match self.arith {
            Arithmetic::Primekit => {
                if self.td > 0 && primekit::hazmat::sieve::trial_divide_vartime(&n.to_u64_digits(), self.td).is_some() {
                    return Ok(Some(false));
                }
                probable_prime(n, self.t, self.safe, rng).map(Some)
            }
            #[cfg(feature = "compare")]
            Arithmetic::Openssl => crate::peers::openssl_mr::probable_prime(n, self.td, self.t, self.safe, rng).map(Some),
        }
    }
}

impl Counters {
    fn prime(self, prime: BigUint) -> Outcome {
        Outcome::Prime(Generated { prime, rounds: self.rounds, candidates: self.candidates })
    }
    fn failure(self) -> Outcome {
        Outcome::Failure { rounds: self.rounds, candidates: self.candidates }
    }
}

/// A configured combination with its derived t (and U), its sieve allocated once.
pub struct Generator {
    cfg: Config,
    derived: params::Derived,
    sieve: Box<dyn Sieve + Send>,
    redundant_td: usize,
    arith: Arithmetic,
}

impl Generator {
    /// Validates the configuration and derives t and U (see [`params`]).
    pub fn new(cfg: &Config) -> Result<Self, Error> {
        let k = cfg.bits;
        if !(MIN_BITS..=MAX_BITS).contains(&k) {
            return Err(Error::InvalidArgument(format!("bits must be in {MIN_BITS}..={MAX_BITS} (got {k})")));
        }
        let rmax = primekit::hazmat::sieve::NUM_SMALL_ODD_PRIMES;
        if cfg.r == 0 || cfg.r > rmax {
            return Err(Error::InvalidArgument(format!("r must be in 1..={rmax} (got {})", cfg.r)));
        }
        if cfg.l < 2 || cfg.l > 1 << 32 {
            return Err(Error::InvalidArgument(format!("L must be in 2..=2^32 (got {})", cfg.l)));
        }
        let derived = match cfg.pga {
            Pga::Nss => params::derive_nss(k, cfg.gamma, cfg.l)?,
            Pga::Natural => params::derive_natural(k, cfg.gamma, Some(cfg.l))?,
            Pga::Openssl => params::derive_openssl(k, cfg.gamma, cfg.r)?,
        };
        let mut cfg = cfg.clone();
        // Natural PGA, non-safe NSS sieve: the array is the whole search (eq. 3.8).
        if cfg.pga == Pga::Natural && cfg.sieve == SieveKind::Nss && !cfg.safe {
            cfg.l = derived.l_bound as u64;
        }
        let wrap = cfg.pga == Pga::Natural && cfg.safe; // §4.3.4
        let sieve: Box<dyn Sieve + Send> = match cfg.sieve {
            SieveKind::Nss => Box::new(sieve_nss::NssSieve::new(k, cfg.r, cfg.l, cfg.safe, wrap)),
            SieveKind::Openssl => Box::new(sieve_openssl::OpensslSieve::new(k, cfg.r, cfg.safe)),
            SieveKind::Dirichlet => Box::new(sieve_dirichlet::DirichletSieve::new(k, cfg.r, cfg.safe)?),
        };
        Ok(Generator { cfg, derived, sieve, redundant_td: 0, arith: Arithmetic::Primekit })
    }

    /// The effective configuration (L possibly raised, see [`Config::l`]).
    pub fn config(&self) -> &Config {
        &self.cfg
    }

    /// The derived t, U and error bound.
    pub fn derived(&self) -> &params::Derived {
        &self.derived
    }

    /// Replaces the derived t by a fixed number of rounds per candidate: the research
    /// knob behind Massimo & Paterson's (2020) Table 5 (OpenSSL's generator with MR64 inside vs its own
    /// MRAC rounds). The reported error bound no longer applies.
    pub fn with_mr_rounds(mut self, t: u32) -> Self {
        self.derived.t = t.max(1);
        self
    }

    /// Trial division by the first `r` odd primes inside the primality test, before its
    /// rounds: redundant after a sieve by at least r primes (every candidate passes it), as
    /// in Massimo & Paterson's (2020) Table 5 experiment, where OpenSSL's generator called their MR64
    /// test with its Table 4 trial division (Appendix A, eq. 10).
    pub fn with_redundant_trial_division(mut self, r: usize) -> Self {
        self.redundant_td = r;
        self
    }

    /// Runs the candidate tests, and the OpenSSL sieve's remainder table, on `arith`.
    pub fn with_arithmetic(mut self, arith: Arithmetic) -> Self {
        self.arith = arith;
        if self.cfg.sieve == SieveKind::Openssl {
            self.sieve = Box::new(sieve_openssl::OpensslSieve::new(self.cfg.bits, self.cfg.r, self.cfg.safe).with_arithmetic(arith));
        }
        self
    }

    /// The arithmetic the candidate tests run on.
    pub fn arithmetic(&self) -> Arithmetic {
        self.arith
    }

    /// One call of the PGA (may report failure, as the thesis's functions do).
    pub fn generate(&mut self, rng: &mut dyn CryptoRngCore) -> Result<Outcome, Error> {
        let (safe, l) = (self.cfg.safe, self.cfg.l);
        let accept = Acceptance { k: self.cfg.bits, t: self.derived.t, safe, td: self.redundant_td, arith: self.arith };
        let sieve = self.sieve.as_mut();
        match self.cfg.pga {
            // Safe NSS PGA: U = ∞ (§4.3.2).
            Pga::Nss => nss::run(sieve, &accept, l, if safe { None } else { self.derived.u }, rng),
            Pga::Natural => natural::run(sieve, &accept, rng),
            Pga::Openssl => openssl::run(sieve, &accept, rng),
        }
    }

    /// Calls the PGA until it succeeds (at most 1000 failures, then an error); the
    /// returned counters include the failed calls.
    pub fn generate_retrying(&mut self, rng: &mut dyn CryptoRngCore) -> Result<Generated, Error> {
        let (mut rounds, mut candidates) = (0, 0);
        for _ in 0..1000 {
            match self.generate(rng)? {
                Outcome::Prime(mut g) => {
                    g.rounds += rounds;
                    g.candidates += candidates;
                    return Ok(g);
                }
                Outcome::Failure { rounds: r, candidates: c } => {
                    rounds += r;
                    candidates += c;
                }
            }
        }
        Err(Error::InvalidArgument(format!("{:?}: 1000 consecutive failures; parameters too tight", self.cfg)))
    }
}
