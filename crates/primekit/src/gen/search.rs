//! One incremental search (Dobrosavljević 2021, §3.2.2, Natural PGA with the NSS bit-array sieve,
//! §3.3.1; restart on an exhausted window as the NSS PGA, eq. 3.4): a uniform random
//! start, then the candidates start + step*i in increasing order, sieved a segment at a
//! time, each survivor tested in constant time.

use super::candidate::{fermat_base_two_batch_ct, random_base_rounds_ct, Verdict};
use super::options::Plan;
use crate::arith::lanes::FermatBatch;
use crate::arith::word::rem_limbs;
use crate::primality::pocklington::safe_prime_by_pocklington;
use crate::random::uniform_below;
use crate::sieve::first_odd_primes;
use crate::sieve::segment::{survivors, SegmentSieve, StepInverses};
use crate::Error;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::Zero;
use rand_core::CryptoRngCore;
use std::sync::atomic::{AtomicBool, Ordering};

/// Windows tried before giving up: each finds a prime with probability >= 1/2, so
/// reaching this many means a broken generator (or arithmetic), not bad luck.
const MAX_WINDOWS: u32 = 256;

/// Runs one search; `Ok(None)` when `stop` was raised by another search.
pub(crate) fn search(plan: &Plan, rng: &mut impl CryptoRngCore, stop: &AtomicBool) -> Result<Option<BigUint>, Error> {
    // Every sieve prime must be below every candidate (>= 2^(bits-1) >= 2^64 here).
    let primes = first_odd_primes(plan.sieve_primes);
    let seg_len = plan.seg_len;
    let window = 1usize << plan.log2_window;
    let range = &plan.upper - &plan.lower;
    // `options::lower_end` keeps lower below 2^bits for every bits `check_bits` accepts.
    debug_assert!(!range.is_zero(), "empty range");
    let inverses = StepInverses::new(&plan.step.to_u64_digits(), primes);
    // Candidates in flight: as many as one Fermat batch tests at once.
    let in_flight = FermatBatch::new(plan.bits as usize)?.lanes();
    let mut race = Race { stop, owned: false, lost: false };
    for _ in 0..MAX_WINDOWS {
        // Uniform start, moved up to the first number of the right residue class.
        let x = &plan.lower + uniform_below(rng, &range)?;
        let start = &x + (&plan.residue + &plan.step - (&x % &plan.step)) % &plan.step;
        let mut sieve = SegmentSieve::with_inverses(&start.to_u64_digits(), &inverses, primes, plan.safe, seg_len, window);
        let mut base = 0usize;
        // Survivors waiting for their Fermat test, in increasing order (several candidates
        // in flight: the lanes test several at once), and (safe primes) earlier candidates
        // whose p passed, waiting for the Fermat test of q in the next batch. Accepting
        // the first passing one in order keeps the output exactly that of a one-by-one
        // search: every candidate before a waiting q was already rejected.
        let mut batch: Vec<BigUint> = Vec::with_capacity(in_flight);
        let mut q_wait: Vec<BigUint> = Vec::with_capacity(in_flight);
        'window: while base < window {
            let bits = sieve.next_segment().to_vec();
            for i in survivors(&bits) {
                let p = &start + &plan.step * (base + i);
                if p >= plan.upper {
                    // Window ran off the top: test what is queued, then restart.
                    break 'window;
                }
                if let Some(e) = plan.rsa_exponent {
                    let r = rem_limbs(&p.to_u64_digits(), e);
                    let p_minus_1 = if r == 0 { e - 1 } else { r - 1 };
                    if p_minus_1.gcd(&e) != 1 {
                        continue;
                    }
                }
                batch.push(p);
                if batch.len() + q_wait.len() >= in_flight {
                    if !race.owned && stop.load(Ordering::Relaxed) {
                        return Ok(None);
                    }
                    if let Some(p) = test_batch(plan, &mut q_wait, &mut batch, rng, &mut race)? {
                        return Ok(Some(p));
                    }
                    if race.lost {
                        return Ok(None);
                    }
                }
            }
            base += seg_len;
        }
        while !(batch.is_empty() && q_wait.is_empty()) {
            if let Some(p) = test_batch(plan, &mut q_wait, &mut batch, rng, &mut race)? {
                return Ok(Some(p));
            }
            if race.lost {
                return Ok(None);
            }
        }
    }
    Err(Error::InvalidArgument(format!("no prime found in {MAX_WINDOWS} search windows; the constraints may be (nearly) impossible")))
}

/// This search's standing among searches racing for one prime (`stop` is shared).
///
/// A search claims the race when a candidate reaches its random-base rounds (it passed
/// every cheap test, so it is almost surely the answer): the others stop at their next
/// batch instead of running on while those rounds take their time (1.8 ms at 2048 bits,
/// a tenth of a random prime's search). If the rounds do reject it, the owner just
/// searches on alone; its output is still a candidate that passed every test.
struct Race<'a> {
    stop: &'a AtomicBool,
    /// This search raised `stop` and ignores it from then on.
    owned: bool,
    /// Another search claimed the race first: stop now.
    lost: bool,
}

impl Race<'_> {
    /// Claims the race before a candidate's random-base rounds; false when another search
    /// owns it.
    fn claim(&mut self) -> bool {
        if !self.owned {
            self.owned = self.stop.compare_exchange(false, true, Ordering::Relaxed, Ordering::Relaxed).is_ok();
            self.lost = !self.owned;
        }
        self.owned
    }
}

/// Fermat base 2 on the queued numbers together (as many per call as the lanes hold): the q
/// of each candidate in `q_wait` (safe primes, p already passed), then each candidate p in
/// `batch`; then the random-base rounds of each passing one in order: on q for a waiting
/// safe-prime candidate (p is then proven prime by Pocklington), on p for a plain prime.
/// A safe-prime candidate whose p passes waits in `q_wait` for the next call. Empties
/// `batch`; returns the first candidate accepted.
fn test_batch(
    plan: &Plan,
    q_wait: &mut Vec<BigUint>,
    batch: &mut Vec<BigUint>,
    rng: &mut impl CryptoRngCore,
    race: &mut Race,
) -> Result<Option<BigUint>, Error> {
    if batch.is_empty() && q_wait.is_empty() {
        return Ok(None);
    }
    if let Some(tested) = plan.tested {
        tested.fetch_add(batch.len() as u64, Ordering::Relaxed);
    }
    let waiting = std::mem::take(q_wait);
    let mut numbers: Vec<BigUint> = waiting.iter().map(|p| p >> 1u8).collect();
    numbers.extend(batch.iter().cloned());
    let passes = fermat_base_two_batch_ct(&numbers, plan.bits as usize)?;
    let (q_passes, p_passes) = passes.split_at(waiting.len());
    for ((p, q), &pass) in waiting.into_iter().zip(&numbers).zip(q_passes) {
        if pass {
            if !race.claim() {
                return Ok(None);
            }
            // p passed its base-2 Fermat test when it was queued; with q prime,
            // Pocklington makes that a proof for p (base 2 also needs 3 not dividing p,
            // which the sieve guarantees and the criterion re-checks).
            if let Verdict::ProbablePrime = random_base_rounds_ct(q, plan.rounds, rng)? {
                if safe_prime_by_pocklington(&p, 2, true) {
                    return Ok(Some(p));
                }
            }
        }
    }
    for (p, &pass) in batch.drain(..).zip(p_passes) {
        if !pass {
            continue;
        }
        if plan.safe {
            q_wait.push(p);
        } else {
            if !race.claim() {
                return Ok(None);
            }
            if let Verdict::ProbablePrime = random_base_rounds_ct(&p, plan.rounds, rng)? {
                return Ok(Some(p));
            }
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_claim_owns_the_race() {
        let stop = AtomicBool::new(false);
        let mut a = Race { stop: &stop, owned: false, lost: false };
        let mut b = Race { stop: &stop, owned: false, lost: false };
        assert!(a.claim());
        assert!(!b.claim() && b.lost, "a later search loses");
        // The owner keeps its claim (its rounds may reject a candidate: it searches on).
        assert!(a.claim() && !a.lost);
        assert!(stop.load(Ordering::Relaxed));
    }

    #[test]
    fn racing_searches_return_exactly_one_prime_each_time() {
        use rand_core::SeedableRng;
        for (bits, safe) in [(256u32, false), (512, false), (256, true)] {
            let opts = crate::gen::PrimeOptions::new(bits).safe(safe).jobs(2);
            for seed in 0..6u64 {
                let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
                let p = crate::gen::generate_prime_with_rng(&opts, &mut rng).expect("a prime");
                assert_eq!(p.bits(), bits as u64);
                assert!(crate::is_prime(&p));
                if safe {
                    assert!(crate::is_prime(&(&p >> 1u8)));
                }
            }
        }
    }
}
