//! The Lucas halves alone (Massimo & Paterson 2020, §2.1.2): the standard test U_{n+1} ≡ 0 and the
//! strong test, both with Selfridge's method A, after trial division by r odd primes.
//! Alone they accept the Lucas (OEIS A217120) and strong Lucas (A217255) pseudoprimes.

use super::bpsw::strong_lucas_stage;
use crate::instrument::{prefilter, Outcome, Stage};
use num_bigint::BigUint;
use primekit::hazmat::primality::{selfridge_method_a, LucasLadder, NoParams, SearchOptions};
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
    if let Some(o) = prefilter(n, r) {
        return Ok(o);
    }
    let params = match selfridge_method_a(n, SearchOptions::BPSW) {
        Ok(p) => p,
        Err(NoParams::Square) => return Ok(Outcome::composite(Stage::SquareCheck, 0)),
        Err(NoParams::Factor) => return Ok(Outcome::composite(Stage::ParameterSearch, 0)),
    };
    Ok(if LucasLadder::new(n, &params)?.standard_test() { Outcome::passed(0) } else { Outcome::composite(Stage::Lucas, 0) })
}
