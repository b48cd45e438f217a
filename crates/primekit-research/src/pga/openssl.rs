//! The OpenSSL PGA (Dobrosavljević 2021, §3.2.3, Alg. 5–6): every round draws a fresh trial, takes
//! the sieve's first candidate only and restarts unless it is a probable prime.

use super::{probable_prime, Counters, Outcome, Sieve};
use primekit::Error;
use rand_core::CryptoRngCore;

pub(super) fn run(
    sieve: &mut dyn Sieve,
    k: u32,
    t: u32,
    safe: bool,
    rng: &mut dyn CryptoRngCore,
) -> Result<Outcome, Error> {
    let mut c = Counters::default();
    loop {
        c.rounds += 1;
        sieve.start(rng)?;
        let Some(cand) = sieve.next() else { continue };
        if cand.n.bits() != k as u64 {
            continue;
        }
        c.candidates += 1;
        if probable_prime(&cand.n, t, safe, rng)? {
            return Ok(c.prime(cand.n));
        }
    }
}
