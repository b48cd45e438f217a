//! `next_prime` / `prev_prime`: the nearest prime above or below a public n. Each
//! candidate that survives a sieve window is decided by [`try_is_prime`], so the answer
//! carries its guarantee (exact below 2^64, error <= 2^-128 above, for every n).

use crate::primality::{is_prime_u64, try_is_prime, MAX_INPUT_BITS};
use crate::sieve::first_odd_primes;
use crate::sieve::segment::{survivors, SegmentSieve};
use crate::Error;
use num_bigint::BigUint;
use num_traits::ToPrimitive;

/// Odd candidates per sieve window, and sieve primes (all of them are < 2^17 < 2^63, so
/// below every candidate of the big-number path).
const WINDOW: usize = 1 << 12;
const SIEVE_PRIMES: usize = 2000;
/// The largest prime below 2^64.
const LAST_U64_PRIME: u64 = u64::MAX - 58;

fn check_size(n: &BigUint) -> Result<(), Error> {
    if n.bits() >= MAX_INPUT_BITS {
        return Err(Error::InputTooLarge { bits: n.bits(), max: MAX_INPUT_BITS - 1 });
    }
    Ok(())
}

/// The smallest prime greater than `n`. Errors only if `n` has `MAX_INPUT_BITS` bits or
/// more (the answer could exceed `is_prime`'s cap) or on an RNG failure.
pub fn next_prime(n: &BigUint) -> Result<BigUint, Error> {
    check_size(n)?;
    if let Some(small) = n.to_u64() {
        if small < 2 {
            return Ok(BigUint::from(2u8));
        }
        if small < LAST_U64_PRIME {
            let mut c = (small + 1) | 1; // odd and > small (small >= 2)
            while !is_prime_u64(c) {
                c += 2;
            }
            return Ok(BigUint::from(c));
        }
    }
    // Here the answer exceeds 2^64 - 59: walk odd candidates upwards.
    let mut start: BigUint = (n + 1u8) | BigUint::from(1u8);
    let primes = first_odd_primes(SIEVE_PRIMES);
    loop {
        let mut sieve = SegmentSieve::new(&start.to_u64_digits(), &[2], primes, false, WINDOW);
        let bits = sieve.next_segment().to_vec();
        for i in survivors(&bits) {
            let c = &start + 2u32 * i as u32;
            if try_is_prime(&c)? {
                return Ok(c);
            }
        }
        start += 2 * WINDOW;
    }
}

/// The largest prime smaller than `n`; `Error::InvalidArgument` for n <= 2 (no such
/// prime).
pub fn prev_prime(n: &BigUint) -> Result<BigUint, Error> {
    check_size(n)?;
    let two = BigUint::from(2u8);
    if *n <= two {
        return Err(Error::InvalidArgument(format!("there is no prime smaller than {n}")));
    }
    if n.bits() <= 64 || *n <= BigUint::from(LAST_U64_PRIME) + 1u8 {
        let mut c = (n - 1u8).to_u64().unwrap_or(LAST_U64_PRIME); // n <= 2^64 here
        if c == 2 {
            return Ok(two);
        }
        if c.is_multiple_of(2) {
            c -= 1;
        }
        while !is_prime_u64(c) {
            c -= 2; // c >= 3 always reaches 3 at worst
        }
        return Ok(BigUint::from(c));
    }
    // n > 2^64 - 58: candidates top, top - 2, ... sieved as an increasing progression
    // from the window's lowest member, scanned from the top down.
    let mut top: BigUint = n - 1u8;
    if !top.bit(0) {
        top -= 1u8;
    }
    let primes = first_odd_primes(SIEVE_PRIMES);
    loop {
        // The window never reaches below 2^63 (top > 2^64 - 60), so every candidate
        // exceeds the sieve primes.
        let low = &top - BigUint::from(2 * (WINDOW - 1));
        let mut sieve = SegmentSieve::new(&low.to_u64_digits(), &[2], primes, false, WINDOW);
        let bits = sieve.next_segment().to_vec();
        let alive: Vec<usize> = survivors(&bits).collect();
        for &i in alive.iter().rev() {
            let c = &low + 2u32 * i as u32;
            if c.bits() <= 64 {
                // Fell back into u64 range (only just below 2^64): exact test.
                if is_prime_u64(c.to_u64().expect("64 bits")) {
                    return Ok(c);
                }
                continue;
            }
            if try_is_prime(&c)? {
                return Ok(c);
            }
        }
        top = low - 2u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values() {
        let b = |x: u64| BigUint::from(x);
        assert_eq!(next_prime(&b(0)).unwrap(), b(2));
        assert_eq!(next_prime(&b(2)).unwrap(), b(3));
        assert_eq!(next_prime(&b(3)).unwrap(), b(5));
        assert_eq!(next_prime(&b(24)).unwrap(), b(29));
        assert_eq!(prev_prime(&b(3)).unwrap(), b(2));
        assert_eq!(prev_prime(&b(4)).unwrap(), b(3));
        assert_eq!(prev_prime(&b(30)).unwrap(), b(29));
        assert!(prev_prime(&b(2)).is_err() && prev_prime(&b(0)).is_err());
        // Around 2^64: the largest 64-bit prime and the smallest prime above 2^64 (2^64 + 13).
        let p64 = (BigUint::from(1u8) << 64u32) + 13u8;
        assert_eq!(next_prime(&b(LAST_U64_PRIME - 1)).unwrap(), b(LAST_U64_PRIME));
        assert_eq!(next_prime(&b(LAST_U64_PRIME)).unwrap(), p64);
        assert_eq!(prev_prime(&p64).unwrap(), b(LAST_U64_PRIME));
        assert_eq!(prev_prime(&(&p64 + 1u8)).unwrap(), p64);
    }

    #[test]
    fn mersenne_neighbours() {
        // 2^127 - 1 is prime; the next prime is 2^127 + 29 (OEIS A013603: 2^127 + 29? checked
        // below against is_prime on every number in between rather than trusted).
        let m = (BigUint::from(1u8) << 127u32) - 1u8;
        let nx = next_prime(&m).unwrap();
        assert!(crate::is_prime(&nx) && nx > m);
        let mut c = &m + 1u8;
        while c < nx {
            assert!(!crate::is_prime(&c));
            c += 1u8;
        }
        assert_eq!(prev_prime(&nx).unwrap(), m);
    }
}
