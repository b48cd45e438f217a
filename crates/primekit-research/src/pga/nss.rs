//! The NSS PGA (Dobrosavljević 2021, §3.2.1, Alg. 2–3): up to U rounds, each drawing a fresh trial
//! and testing sieved candidates while n - n0 <= L and n stays k bits.

use super::{Acceptance, Counters, Outcome, Sieve};
use primekit::Error;
use rand_core::CryptoRngCore;

/// Runs the NSS PGA; `u = None` means unbounded rounds (the safe variant, §4.3.2).
pub(super) fn run(
    sieve: &mut dyn Sieve,
    accept: &Acceptance,
    l: u64,
    u: Option<u64>,
    rng: &mut dyn CryptoRngCore,
) -> Result<Outcome, Error> {
    let mut c = Counters::default();
    while u.is_none_or(|u| c.rounds < u) {
        c.rounds += 1;
        sieve.start(rng)?;
        // NSS_iter: test candidates until the sieve, the interval or the k bits run out.
        while let Some(cand) = sieve.next() {
            if cand.offset > l {
                break;
            }
            match accept.test(&cand.n, &mut c, rng)? {
                None => break,
                Some(true) => return Ok(c.prime(cand.n)),
                Some(false) => {}
            }
        }
    }
    Ok(c.failure())
}
