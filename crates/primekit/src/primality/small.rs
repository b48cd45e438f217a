//! Exact primality below 2^64.
//!
//! Strong probable-prime tests to the 12 prime bases 2, 3, ..., 37 decide primality
//! exactly for every n < 3.18 * 10^23 (Sorenson & Webster, "Strong pseudoprimes to twelve
//! prime bases", Math. Comp. 86 (2017): the least composite passing all 12, psi_12, is
//! 318665857834031151167461), and 2^64 < 1.85 * 10^19 lies far below that.
//! No randomness is involved, so the answer below 2^64 is never wrong.

use crate::arith::mont::word::Mont64;

const BASES: [u64; 12] = [2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37];

/// Exact primality of a 64-bit number. Variable time (public input).
pub fn is_prime_u64(n: u64) -> bool {
    if n < 2 {
        return false;
    }
    for p in BASES {
        if n.is_multiple_of(p) {
            return n == p;
        }
    }
    if n < 41 * 41 {
        return true; // no prime factor <= 37 and n < 41^2
    }
    let ctx = Mont64::new(n).expect("odd n >= 3");
    let s = (n - 1).trailing_zeros();
    let d = (n - 1) >> s;
    let one = ctx.one();
    let minus_one = ctx.to_mont(n - 1);
    'bases: for a in BASES {
        let mut x = ctx.pow(ctx.to_mont(a), d);
        if x == one || x == minus_one {
            continue;
        }
        for _ in 1..s {
            x = ctx.mul(x, x);
            if x == minus_one {
                continue 'bases;
            }
        }
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    // Every n below 2^20 against a sieve: `tests/is_prime.rs` (through `is_prime`, which
    // decides n < 2^64 here).

    #[test]
    fn strong_pseudoprimes_to_many_bases_are_composite() {
        // OEIS A014233: smallest strong pseudoprimes to the first k prime bases (k = 1..9),
        // each composite and below 2^64.
        for n in [2047u64, 1373653, 25326001, 3215031751, 2152302898747, 3474749660383, 341550071728321, 3825123056546413051] {
            assert!(!is_prime_u64(n), "{n}");
        }
        // Largest primes below 2^64 and 2^63, and a few Carmichael numbers.
        assert!(is_prime_u64(18446744073709551557));
        assert!(is_prime_u64(9223372036854775783));
        for n in [561u64, 41041, 825265, 321197185, 5394826801, 232250619601, 9746347772161] {
            assert!(!is_prime_u64(n), "{n}");
        }
        assert!(!is_prime_u64(u64::MAX));
        assert!(!is_prime_u64(4294967297)); // F5 = 641 * 6700417
    }
}
