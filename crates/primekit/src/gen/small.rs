//! Generation below 2^64, where primality is decided exactly (`is_prime_u64`), so no
//! error bound is needed. Small sizes are for tests and toys, not keys: the exact test is
//! variable time.

use super::options::Plan;
use crate::primality::is_prime_u64;
use crate::random::uniform_below;
use crate::Error;
use num_bigint::BigUint;
use rand_core::CryptoRngCore;

/// Ranges up to this many numbers are enumerated (exactly uniform over the qualifying
/// primes, and an empty set is reported instead of searched for forever).
const ENUMERATE_LIMIT: u64 = 1 << 16;
/// Random draws before declaring the constraints unsatisfiable in practice.
const MAX_DRAWS: u32 = 1 << 24;

fn qualifies(plan: &Plan, p: u64) -> bool {
    let step = u64::try_from(&plan.step).expect("step < 2^64 when bits <= 64");
    let residue = u64::try_from(&plan.residue).expect("residue < step");
    if p % step != residue % step || !is_prime_u64(p) {
        return false;
    }
    if plan.safe && !is_prime_u64(p / 2) {
        return false;
    }
    match plan.rsa_exponent {
        Some(e) => num_integer::gcd(p - 1, e) == 1,
        None => true,
    }
}

pub(crate) fn generate_small(plan: &Plan, rng: &mut impl CryptoRngCore) -> Result<BigUint, Error> {
    let lower = u64::try_from(&plan.lower).expect("bits <= 64");
    let upper_incl = u64::try_from(&(&plan.upper - 1u8)).expect("bits <= 64");
    let span = upper_incl - lower + 1;
    let none = || {
        Error::InvalidArgument(format!("no {}prime of {} bits satisfies the constraints", if plan.safe { "safe " } else { "" }, plan.bits))
    };
    if span <= ENUMERATE_LIMIT {
        let all: Vec<u64> = (lower..=upper_incl).filter(|&p| qualifies(plan, p)).collect();
        if all.is_empty() {
            return Err(none());
        }
        let k = uniform_below(rng, &BigUint::from(all.len()))?;
        return Ok(BigUint::from(all[usize::try_from(&k).expect("small")]));
    }
    let span_big = BigUint::from(span);
    for _ in 0..MAX_DRAWS {
        let x = lower + u64::try_from(&uniform_below(rng, &span_big)?).expect("< span");
        if qualifies(plan, x) {
            return Ok(BigUint::from(x));
        }
    }
    Err(none())
}
