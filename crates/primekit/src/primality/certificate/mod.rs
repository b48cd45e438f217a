//! Primality certificates: proofs anyone can check, as a chain of Pocklington and
//! elliptic-curve (ECPP) steps (docs/ecpp.md for the prover).
//!
//! Pocklington's theorem (Brillhart, Lehmer & Selfridge 1975, Theorem 4): let N - 1 = F R
//! with F's prime factorisation known. If for every prime q | F there is an a_q with
//!   a_q^(N-1) = 1 (mod N)  and  gcd(a_q^((N-1)/q) - 1, N) = 1,
//! then every prime factor p of N satisfies p = 1 (mod F), so p > F; if moreover
//! F^2 > N, N has no prime factor at most sqrt(N) and is prime.
//!
//! A certificate (format in docs/certificate-format.md) lists one such step for N and
//! for every prime factor of an F that is 2^64 or more; factors below 2^64 are checked
//! by the exact deterministic test. Checking needs only modular exponentiations and
//! gcds: no randomness, no trust in whoever made it. All inputs are public, so the
//! arithmetic here is variable time.

mod curve;
mod ecpp;
mod ecpp_check;
mod field;
mod json;
mod prove;
mod verify;

pub use ecpp::MAX_BACKTRACKS;
pub use json::{from_json, to_json, MAX_CERTIFICATE_BYTES};
pub use prove::{prove, prove_with, ProgressFn, ProveError, ProveOptions};
pub use verify::verify;

use num_bigint::BigUint;

/// Newest version of the format this code reads and writes (it reads 1 as well, and
/// writes 1 for a Pocklington-only chain, so readers of version 1 still read it).
pub const CERTIFICATE_VERSION: u64 = 2;
/// Largest number a certificate may prove, in bits (verification stays well under a
/// second per step up to there).
pub const MAX_CERTIFIED_BITS: u64 = 16_384;
/// Most steps a certificate may have (a chain from 16,384 bits down to 64 halving at
/// each level needs about 10; generous room for numbers proved with several factors).
pub const MAX_STEPS: usize = 4096;

/// One prime power q^k dividing the proven part F of N - 1, with its witness a_q.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Factor {
    pub q: BigUint,
    pub k: u32,
    pub witness: BigUint,
}

/// One Pocklington step: N - 1 is divisible by F = product of q^k over `factors`, and
/// F^2 > N.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PocklingtonStep {
    pub n: BigUint,
    pub factors: Vec<Factor>,
}

/// One elliptic-curve step (Goldwasser & Kilian 1986; Atkin & Morain 1993, Theorem 5.2):
/// E: y^2 = x^3 + a x + b over Z/NZ with 4a^3 + 27b^2 invertible mod N, a point
/// P = (x, y) on E, and m = k q with q prime, q > (N^(1/4) + 1)^2, m P = O and
/// (m / q) P != O (computed mod N, every inversion succeeding). Then N is prime.
/// `d` is the CM discriminant the curve was built from: information only, not checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EcppStep {
    pub n: BigUint,
    pub a: BigUint,
    pub b: BigUint,
    pub m: BigUint,
    pub q: BigUint,
    pub x: BigUint,
    pub y: BigUint,
    pub d: Option<i64>,
}

/// One link of a certificate's chain: it proves its `n` prime given that the larger
/// primes it relies on are proved by later steps.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    Pocklington(PocklingtonStep),
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

/// A certificate of the primality of `steps[0].n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    pub steps: Vec<Step>,
}

impl Certificate {
    /// The number it proves prime.
    pub fn prime(&self) -> Option<&BigUint> {
        self.steps.first().map(Step::n)
    }
}

/// Why a certificate is rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CertificateError {
    /// Not a certificate at all (bad JSON, missing field, wrong type, over a cap).
    Malformed(String),
    /// Well formed, but step `step` (0-based) does not prove what it claims.
    Invalid { step: usize, reason: String },
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
