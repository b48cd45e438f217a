//! One incremental search (seed 002 §3.2.2 Natural PGA with the NSS bit-array sieve,
//! §3.3.1; restart on an exhausted window as the NSS PGA, eq. 3.4): a uniform random
//! start, then the candidates start + step*i in increasing order, sieved a segment at a
//! time, each survivor tested in constant time.

use super::candidate::{miller_rabin_ct, safe_prime_ct, Verdict};
use super::options::Plan;
use super::residues::first_odd_primes;
use super::segment::{survivors, SegmentSieve};
use crate::arith::word::rem_limbs;
use crate::Error;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::Zero;
use rand_core::CryptoRngCore;
use std::sync::atomic::{AtomicBool, Ordering};

/// Windows tried before giving up: each finds a prime with probability >= 1/2, so
/// reaching this many means a broken generator (or arithmetic), not bad luck.
const MAX_WINDOWS: u32 = 256;

/// A uniform integer in [0, bound), bound > 0, by rejection sampling.
pub(crate) fn uniform_below(rng: &mut impl CryptoRngCore, bound: &BigUint) -> Result<BigUint, Error> {
    let bits = bound.bits() as usize;
    let mut bytes = vec![0u8; bits.div_ceil(8)];
    for _ in 0..256 {
        rng.try_fill_bytes(&mut bytes).map_err(|e| Error::Rng(e.to_string()))?;
        let x = BigUint::from_bytes_le(&bytes) >> (bytes.len() * 8 - bits);
        if &x < bound {
            return Ok(x);
        }
    }
    Err(Error::Rng("uniform sampling rejected 256 draws in a row".into()))
}

/// Number of odd primes sieved for a `bits`-bit (safe) prime. Measured with
/// `primekit bench gen` (README, "Prime generation"): more primes cost one word division
/// each per window and save exponentiations, which grow ~cubically with size.
pub fn sieve_primes(bits: u32, safe: bool) -> usize {
    if safe {
        match bits {
            0..=256 => 2000,
            257..=768 => 60_000,
            _ => 295_000,
        }
    } else {
        match bits {
            0..=256 => 500,
            257..=640 => 2000,
            641..=1536 => 9999,
            1537..=2560 => 30_000,
            _ => 100_000,
        }
    }
}

/// Runs one search; `Ok(None)` when `stop` was raised by another search.
pub(crate) fn search(plan: &Plan, rng: &mut impl CryptoRngCore, stop: &AtomicBool) -> Result<Option<BigUint>, Error> {
    // Every sieve prime must be below every candidate (>= 2^(bits-1) >= 2^64 here).
    let primes = first_odd_primes(sieve_primes(plan.bits, plan.safe));
    let seg_len: usize = if plan.safe { 1 << 16 } else { 1 << 12 };
    let window = 1usize << plan.log2_window;
    let range = &plan.upper - &plan.lower;
    let step_limbs = plan.step.to_u64_digits();
    for _ in 0..MAX_WINDOWS {
        // Uniform start, moved up to the first number of the right residue class.
        let x = &plan.lower + uniform_below(rng, &range)?;
        let start = &x + (&plan.residue + &plan.step - (&x % &plan.step)) % &plan.step;
        let mut sieve = SegmentSieve::new(&start.to_u64_digits(), &step_limbs, primes, plan.safe, seg_len);
        let mut base = 0usize;
        'window: while base < window {
            let bits = sieve.next_segment().to_vec();
            for i in survivors(&bits) {
                if stop.load(Ordering::Relaxed) {
                    return Ok(None);
                }
                let p = &start + &plan.step * (base + i);
                if p >= plan.upper {
                    break 'window; // window ran off the top: restart
                }
                if let Some(e) = plan.rsa_exponent {
                    let r = rem_limbs(&p.to_u64_digits(), e);
                    let p_minus_1 = if r == 0 { e - 1 } else { r - 1 };
                    if p_minus_1.gcd(&e) != 1 {
                        continue;
                    }
                }
                let verdict = if plan.safe { safe_prime_ct(&p, plan.rounds, rng)? } else { miller_rabin_ct(&p, plan.rounds, rng)? };
                if let Verdict::ProbablePrime = verdict {
                    return Ok(Some(p));
                }
            }
            base += seg_len;
        }
    }
    if range.is_zero() {
        return Err(Error::InvalidArgument("empty range".into()));
    }
    Err(Error::InvalidArgument(format!("no prime found in {MAX_WINDOWS} search windows; the constraints may be (nearly) impossible")))
}
