//! The Natural PGA (Dobrosavljević 2021, §3.2.2, Alg. 4): one trial, then every sieved candidate in
//! order until a probable prime, failing only when the sieve or the k-bit interval ends.

use super::{Acceptance, Counters, Outcome, Sieve};
use primekit::Error;
use rand_core::CryptoRngCore;

pub(super) fn run(sieve: &mut dyn Sieve, accept: &Acceptance, rng: &mut dyn CryptoRngCore) -> Result<Outcome, Error> {
    let mut c = Counters { rounds: 1, candidates: 0 };
    sieve.start(rng)?;
    while let Some(cand) = sieve.next() {
        match accept.test(&cand.n, &mut c, rng)? {
            None => break,
            Some(true) => return Ok(c.prime(cand.n)),
            Some(false) => {}
        }
    }
    Ok(c.failure())
}
