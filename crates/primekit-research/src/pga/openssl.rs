//! The OpenSSL PGA (Dobrosavljević 2021, §3.2.3, Alg. 5–6): every round draws a fresh trial, takes
//! the sieve's first candidate only and restarts unless it is a probable prime.

use super::{Acceptance, Counters, Outcome, Sieve};
use primekit::Error;
use rand_core::CryptoRngCore;

pub(super) fn run(sieve: &mut dyn Sieve, accept: &Acceptance, rng: &mut dyn CryptoRngCore) -> Result<Outcome, Error> {
    let mut c = Counters::default();
    loop {
        c.rounds += 1;
        sieve.start(rng)?;
        let Some(cand) = sieve.next() else { continue };
        if accept.test(&cand.n, &mut c, rng)? == Some(true) {
            return Ok(c.prime(cand.n));
        }
    }
}
