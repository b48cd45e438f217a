//! Trial division then up to t Miller-Rabin rounds with uniformly random bases in
//! [2, n-2], stopping at the first witness: MR64 and MR128 of Massimo & Paterson 2020, §3.2-3.3 (and,
//! with t from Table 1, MRAC). Error on any composite <= 4^-t.

use crate::instrument::{prefilter, Outcome, Stage};
use num_bigint::BigUint;
use primekit::hazmat::primality::MillerRabin;
use primekit::Error;
use rand_core::CryptoRngCore;

/// Trial division by the first `r` odd primes, then up to `t` random-base rounds.
pub fn mr_rounds_test(n: &BigUint, r: usize, t: u32, rng: &mut impl CryptoRngCore) -> Result<Outcome, Error> {
    if let Some(o) = prefilter(n, r) {
        return Ok(o);
    }
    mr_random_rounds(&MillerRabin::new(n)?, t, rng)
}

/// Up to `t` random-base rounds on a prepared modulus; counts the rounds run.
pub fn mr_random_rounds(mr: &MillerRabin, t: u32, rng: &mut impl CryptoRngCore) -> Result<Outcome, Error> {
    for i in 1..=t {
        let a = mr.random_base(rng)?;
        if !mr.passes_vartime(&a) {
            return Ok(Outcome::composite(Stage::MillerRabin, i));
        }
    }
    Ok(Outcome::passed(t))
}
