//! Primality certificates: proofs anyone can check, as a chain of Pocklington steps.
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

mod json;
mod prove;
mod verify;

pub use json::{from_json, to_json, MAX_CERTIFICATE_BYTES};
pub use prove::{prove, ProveError, RHO_ITERATIONS, TRIAL_BOUND};
pub use verify::verify;

use num_bigint::BigUint;

/// Version of the format this code writes and reads.
pub const CERTIFICATE_VERSION: u64 = 1;
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
pub struct Step {
    pub n: BigUint,
    pub factors: Vec<Factor>,
}

/// A certificate of the primality of `steps[0].n`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Certificate {
    pub steps: Vec<Step>,
}

impl Certificate {
    /// The number it proves prime.
    pub fn prime(&self) -> Option<&BigUint> {
        self.steps.first().map(|s| &s.n)
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
