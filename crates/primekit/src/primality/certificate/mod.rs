//! Primality certificates: proofs anyone can check, as a chain of Pocklington and
//! elliptic-curve (ECPP) steps (docs/ecpp.md for the prover).
//!
//! Pocklington's theorem (Brillhart, Lehmer & Selfridge 1975, Theorem 4): let N - 1 = F R
//! with F's prime factorisation known. If for every prime q | F there is an a_q with
//!   a_q^(N-1) = 1 (mod N)  and  gcd(a_q^((N-1)/q) - 1, N) = 1,
//! then every prime factor p of N satisfies p = 1 (mod F), so p > F; if moreover
//! F^2 > N, N has no prime factor at most sqrt(N) and is prime.
//!
//! A certificate (format in docs/certificate-format.md) lists one such step (or an
//! elliptic-curve step, [`EcppStep`]) for N and for every prime it relies on that is 2^64
//! or more; primes below 2^64, and a certified prime below 2^64 itself (no steps), are
//! checked by the exact deterministic test. Checking needs only modular exponentiations,
//! point multiplications and gcds: no randomness, no trust in whoever made it. Its cost
//! is estimated from the sizes alone before any arithmetic ([`estimate_work`]) and
//! refused beyond a limit, so an untrusted certificate is checked in bounded time. All
//! inputs are public, so the arithmetic here is variable time.

mod curve;
mod ecpp;
mod ecpp_check;
mod field;
mod json;
mod pari;
mod primo;
mod prove;
mod verify;

pub use ecpp::MAX_BACKTRACKS;
pub use json::{from_json, to_json, MAX_CERTIFICATE_BYTES, MAX_EXPONENT, MAX_NESTING};
pub use pari::{from_pari, to_pari, PariExportError, MAX_PARI_BYTES};
pub use primo::{to_primo, PrimoExportError};
pub use prove::{prove, prove_with, ProgressFn, ProveError, ProveOptions};
use verify::verify_chain;
pub use verify::{estimate_work, verify, verify_with, verify_with_limit, DEFAULT_MAX_WORK};

use num_bigint::BigUint;

/// Newest version of the format this code reads and writes (it reads 1 as well, and
/// writes 1 for a Pocklington-only chain, so readers of version 1 still read it).
pub const CERTIFICATE_VERSION: u64 = 2;
/// Largest number a certificate may prove, in bits.
pub const MAX_CERTIFIED_BITS: u64 = 16_384;
/// Most decimal digits an integer of the format may have: those of 2^MAX_CERTIFIED_BITS - 1
/// (4,933).
pub const MAX_DECIMAL_DIGITS: usize = decimal_digits(MAX_CERTIFIED_BITS);

/// Decimal digits of 2^bits - 1 (bits >= 1), which is ceil(bits log10 2): 2^bits is
/// never a power of ten, so the digits of 2^bits - 1 and 2^bits agree, and bits log10 2 is
/// never an integer. log10 2 is taken to 20 decimals (truncated); the truncation error,
/// below bits 10^-20, cannot move the floor for the sizes used (tested against the exact
/// count up to beyond the cap).
pub const fn decimal_digits(bits: u64) -> usize {
    const LOG10_2_E20: u128 = 30_102_999_566_398_119_521;
    const E20: u128 = 100_000_000_000_000_000_000;
    (bits as u128 * LOG10_2_E20 / E20) as usize + 1
}
/// Most steps a certificate may have (a chain from 16,384 bits down to 64 halving at
/// each level needs about 10; generous room for numbers proved with several factors).
pub const MAX_STEPS: usize = 4096;

/// One prime power q^k dividing the proven part F of N - 1, with its witness a_q.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Factor {
    /// The prime q.
    pub q: BigUint,
    /// Its exponent k in F.
    pub k: u32,
    /// a_q: a^(N-1) = 1 mod N and gcd(a^((N-1)/q) - 1, N) = 1.
    pub witness: BigUint,
}

/// One Pocklington step: N - 1 is divisible by F = product of q^k over `factors`, and
/// F^2 > N.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PocklingtonStep {
    /// The number N this step proves prime.
    pub n: BigUint,
    /// The prime powers of F, each with its witness.
    pub factors: Vec<Factor>,
}

/// One elliptic-curve step (Goldwasser & Kilian 1986; Atkin & Morain 1993, Theorem 5.2):
/// E: y^2 = x^3 + a x + b over Z/NZ with 4a^3 + 27b^2 invertible mod N, a point
/// P = (x, y) on E, and m = k q with q prime, q > (N^(1/4) + 1)^2, m P = O and
/// (m / q) P != O (computed mod N, every inversion succeeding). Then N is prime.
/// `d` is the CM discriminant the curve was built from: information only, not checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EcppStep {
    /// The number N this step proves prime.
    pub n: BigUint,
    /// The curve's coefficient a.
    pub a: BigUint,
    /// The curve's coefficient b.
    pub b: BigUint,
    /// m = k q, with m P = O.
    pub m: BigUint,
    /// The prime q dividing m, proved by a later step.
    pub q: BigUint,
    /// The point's x coordinate.
    pub x: BigUint,
    /// The point's y coordinate.
    pub y: BigUint,
    /// The CM discriminant the curve came from (information only).
    pub d: Option<i64>,
}

/// One link of a certificate's chain: it proves its `n` prime given that the larger
/// primes it relies on are proved by later steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// An N - 1 step (Pocklington).
    Pocklington(PocklingtonStep),
    /// An elliptic-curve step (ECPP).
    Ecpp(EcppStep),
}

impl Step {
    /// The number this step proves prime.
    pub fn n(&self) -> &BigUint {
        match self {
            Step::Pocklington(s) => &s.n,
            Step::Ecpp(s) => &s.n,
        }
    }
}

/// A certificate of the primality of `prime`: a chain of steps whose first proves
/// `prime`, or no steps for a prime below 2^64 (the exact deterministic test decides it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    /// The number it proves prime (`steps[0].n` when there are steps).
    pub prime: BigUint,
    /// The chain, largest number first.
    pub steps: Vec<Step>,
}

impl Certificate {
    /// A certificate of `prime` by `steps` (empty for a prime below 2^64; otherwise
    /// `steps[0]` proves `prime`, which [`verify`] checks).
    pub fn new(prime: BigUint, steps: Vec<Step>) -> Self {
        Certificate { prime, steps }
    }

    /// The index of the first step after `after` proving `n` (the exports follow a
    /// chain through it).
    pub(crate) fn prover_after(&self, after: usize, n: &BigUint) -> Option<usize> {
        self.steps.iter().enumerate().skip(after + 1).find(|(_, s)| s.n() == n).map(|(j, _)| j)
    }
}

/// Why a certificate is rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CertificateError {
    /// Not a certificate at all (bad JSON, missing field, wrong type, over a cap).
    Malformed(String),
    /// Well formed, but step `step` (0-based) does not prove what it claims.
    Invalid {
        /// The failing step, 0-based.
        step: usize,
        /// What does not hold.
        reason: String,
    },
}

impl core::fmt::Display for CertificateError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CertificateError::Malformed(m) => write!(f, "malformed certificate: {m}"),
            CertificateError::Invalid { step, reason } => write!(f, "invalid: step {step}: {reason}"),
        }
    }
}

impl std::error::Error for CertificateError {}
