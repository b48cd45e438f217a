//! The Lucas halves alone (Massimo & Paterson 2020, §2.1.2): the standard test U_{n+1} ≡ 0 and the
//! strong test, both with Selfridge's method A, after trial division by r odd primes.
//! Alone they accept the Lucas (OEIS A217120) and strong Lucas (A217255) pseudoprimes.

use super::bpsw::strong_lucas_stage;
use crate::instrument::{prefilter, Outcome};
use num_bigint::BigUint;
use primekit::hazmat::primality::{LucasLadder, SearchOptions};
use primekit::Error;

/// Strong Lucas test with trial division by the first `r` odd primes.
pub fn strong_lucas(n: &BigUint, r: usize) -> Result<Outcome, Error> {
    match prefilter(n, r) {
        Some(o) => Ok(o),
        None => strong_lucas_stage(n, 0),
    }
}

/// Standard Lucas test with trial division by the first `r` odd primes.
pub fn lucas(n: &BigUint, r: usize) -> Result<Outcome, Error> {
    super::stand_alone_lucas(n, r, SearchOptions::BPSW, |params| Ok(LucasLadder::new(n, params)?.standard_test()))
}
