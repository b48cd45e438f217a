//! Proving a given number prime: elliptic-curve primality proving (ECPP, Atkin &
//! Morain 1993) with Pocklington steps where N - 1 factors (module [`super::ecpp`] and
//! docs/ecpp.md).
//!
//! Guarantees. A certificate returned here has passed [`super::verify`]'s checks, so it
//! proves its number prime whatever went on inside the prover; the prover itself only
//! decides how fast one is found. The elliptic-curve steps' scalar multiplications are
//! the one part not run again at the end: the prover accepts a curve and point only
//! through the checker's own point test on the values the step holds, and repeating it
//! would cost 6-18% of a proof (docs/ecpp.md, Guarantees). `Composite` comes with how
//! compositeness showed (a failed probable-prime test: BPSW first, the random-base
//! rounds of `is_prime` when no proof is found; a Fermat witness; or a proper factor met
//! in a gcd), each of which is a proof. All data here is public: the arithmetic is
//! variable time, and the
//! time taken depends on the number proved.

use super::{ecpp, verify_chain, Certificate, DEFAULT_MAX_WORK, MAX_CERTIFIED_BITS};
use crate::primality::is_prime_u64;
use crate::{try_is_prime, Error};
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use std::sync::Arc;
use std::time::Instant;

/// Called after each level of the down-run with (levels done, bits of the next number).
pub type ProgressFn = Arc<dyn Fn(usize, u64) + Send + Sync>;

/// How [`prove_with`] works.
#[derive(Clone)]
pub struct ProveOptions {
    /// Threads that split the discriminant search and the curve construction (0 counts
    /// as 1). The certificate does not depend on it.
    pub jobs: usize,
    /// Give up with [`ProveError::TimedOut`] once this instant has passed (checked
    /// between discriminants and between steps).
    pub deadline: Option<Instant>,
    /// Only elliptic-curve steps, one per level (the shape of PARI/GP's `primecert`
    /// certificates: a linear chain N -> q -> ... down to below 2^64).
    pub ecpp_only: bool,
    /// Progress reports (see [`ProgressFn`]).
    pub progress: Option<ProgressFn>,
}

impl Default for ProveOptions {
    fn default() -> Self {
        ProveOptions { jobs: 1, deadline: None, ecpp_only: false, progress: None }
    }
}

impl core::fmt::Debug for ProveOptions {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("ProveOptions")
            .field("jobs", &self.jobs)
            .field("deadline", &self.deadline)
            .field("ecpp_only", &self.ecpp_only)
            .field("progress", &self.progress.as_ref().map(|_| "callback"))
            .finish()
    }
}

/// Why [`prove`] gave no certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProveError {
    /// N is composite (so nothing can prove it prime); the text says how that showed.
    Composite(String),
    /// N is probably prime, but no proof was found within the prover's limits (every
    /// discriminant of the table and the bounded backtracking exhausted).
    NoProof,
    /// The deadline passed first.
    TimedOut,
    /// Too large, or an arithmetic / RNG failure.
    Error(Error),
}

impl core::fmt::Display for ProveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ProveError::Composite(how) => write!(f, "N is composite: {how}"),
            ProveError::NoProof => write!(f, "no proof found within the prover's limits (N is probably prime)"),
            ProveError::TimedOut => write!(f, "no proof found before the deadline (N is probably prime)"),
            ProveError::Error(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for ProveError {}

impl From<Error> for ProveError {
    fn from(e: Error) -> Self {
        ProveError::Error(e)
    }
}

/// A certificate for the prime `n`, with the default options: one thread, no deadline,
/// Pocklington steps allowed. Below 2^64 the exact test is the proof: a prime gets a
/// certificate without steps.
pub fn prove(n: &BigUint) -> Result<Certificate, ProveError> {
    prove_with(n, &ProveOptions::default())
}

/// [`prove`] with options.
pub fn prove_with(n: &BigUint, o: &ProveOptions) -> Result<Certificate, ProveError> {
    if n.bits() > MAX_CERTIFIED_BITS {
        return Err(Error::InvalidArgument(format!("prove takes numbers of at most {MAX_CERTIFIED_BITS} bits")).into());
    }
    if let Some(small) = n.to_u64() {
        return if is_prime_u64(small) {
            Ok(Certificate::new(n.clone(), Vec::new()))
        } else {
            Err(ProveError::Composite("the exact test below 2^64 (strong tests to the first 12 prime bases) fails".into()))
        };
    }
    // BPSW (a base-2 strong test, then a strong Lucas test) screens N: a prime pays no
    // more here, its chain being its proof. Only when no proof is found does N get the
    // random-base rounds of `is_prime`, so that a composite passing BPSW (none is known)
    // is still reported as composite, not as unproved. On a 256-bit prime those rounds
    // had been about a sixth of the proof (0.9 of 6 ms).
    if !ecpp::probable_prime(n) {
        return Err(ProveError::Composite("it fails the base-2 strong test or the strong Lucas test (BPSW)".into()));
    }
    let steps = match ecpp::prove_chain(n, o) {
        Err(ProveError::NoProof) if !try_is_prime(n)? => {
            return Err(ProveError::Composite("it passes BPSW but fails a Miller-Rabin test to random bases".into()));
        }
        r => r?,
    };
    let cert = Certificate::new(n.clone(), steps);
    verify_chain(&cert, Some(n), DEFAULT_MAX_WORK, o.jobs, false)
        .map_err(|e| Error::SelfTestFailed(format!("the prover's certificate does not verify: {e}")))?;
    Ok(cert)
}
