//! The Natural PGA (Dobrosavljević 2021, §3.2.2, Alg. 4): one trial, then every sieved candidate in
//! order until a probable prime, failing only when the sieve or the k-bit interval ends.

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
    let mut c = Counters {
        rounds: 1,
        candidates: 0,
    };
    sieve.start(rng)?;
    while let Some(cand) = sieve.next() {
        if cand.n.bits() != k as u64 {
            break;
        }
        c.candidates += 1;
        if probable_prime(&cand.n, t, safe, rng)? {
            return Ok(c.prime(cand.n));
        }
    }
    Ok(c.failure())
}
