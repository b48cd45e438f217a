//! Pocklington's criterion for safe primes: once q is known prime, one Fermat test
//! decides p = 2q + 1.
//!
//! # Theorem
//! Pocklington (Crandall & Pomerance, "Prime Numbers", 2nd ed., Thm 4.1.3): let
//! n - 1 = F R with the prime factorisation of F known and F >= sqrt(n). If for every
//! prime l | F some a has a^(n-1) = 1 (mod n) and gcd(a^((n-1)/l) - 1, n) = 1, then n
//! is prime.
//!
//! For p = 2q + 1 with q prime take F = q, R = 2. F > sqrt(p) holds exactly when
//! q^2 > 2q + 1, i.e. q >= 3 (p >= 7). So p is prime if for one base a
//!
//!   a^(p-1) = 1 (mod p)   and   gcd(a^2 - 1, p) = 1.
//!
//! Why: a prime r | p has a^(2q) = 1 and a^2 != 1 (mod r), so the order of a mod r is
//! q or 2q; q divides r - 1, so r > q > sqrt(p), and p has no prime factor up to
//! sqrt(p). Conversely a prime p >= 7 passes with a = 2 or 3 (Fermat, and a^2 - 1 =
//! 3 or 8 has no factor p), so for these bases the test decides primality:
//! - a = 2 (the generators' base-2 Fermat test): gcd(3, p) = 1, i.e. 3 does not divide
//!   p (the generators' sieve already removed multiples of 3);
//! - a = 3: gcd(8, p) = 1 holds for every odd p.
//!
//! The one error left is that of the test on q (none if q is proven prime). One
//! exponentiation replaces p's own Miller-Rabin rounds (Dobrosavljević 2021, §3.4, tests both p and
//! q by Miller-Rabin).

use num_bigint::BigUint;
use num_integer::Integer;

/// Whether p = 2q + 1 is prime, for odd p >= 7 whose q = (p-1)/2 is prime, given
/// `fermat`: whether base^(p-1) = 1 (mod p). The caller computes that exponentiation
/// (in constant time when p is secret); this adds the gcd condition of the module's
/// theorem. `base` 2 or 3 decides primality exactly; another base may reject a prime.
///
/// Time: one division of p by the word base^2 - 1, independent of `fermat`.
pub fn safe_prime_by_pocklington(p: &BigUint, base: u32, fermat: bool) -> bool {
    debug_assert!(p.bit(0) && *p >= BigUint::from(7u8), "p = 2q + 1 with q >= 3");
    let m = u64::from(base) * u64::from(base);
    let coprime = m > 1 && u64::try_from(p % (m - 1)).expect("below a word").gcd(&(m - 1)) == 1;
    fermat & coprime
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fermat(base: u32, p: u64) -> bool {
        BigUint::from(base).modpow(&BigUint::from(p - 1), &BigUint::from(p)) == BigUint::from(1u8)
    }

    #[test]
    fn decides_p_when_q_is_prime() {
        // Every p = 2q + 1 with q an odd prime below 2000: the criterion with base 2 or 3
        // agrees with trial division.
        let is_prime = |n: u64| n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| !n.is_multiple_of(d));
        let mut safe = 0;
        for q in (3..2000u64).filter(|&q| is_prime(q)) {
            let p = 2 * q + 1;
            for base in [2u32, 3] {
                assert_eq!(safe_prime_by_pocklington(&BigUint::from(p), base, fermat(base, p)), is_prime(p), "p = {p}, base {base}");
            }
            safe += is_prime(p) as u32;
        }
        assert!(safe > 50);
    }

    #[test]
    fn base_two_needs_three_not_to_divide_p() {
        // p = 2^128 - 1 = 2 (2^127 - 1) + 1 with 2^127 - 1 prime, and 3 | p. Even a
        // (wrongly) passed Fermat test must not make it prime.
        let p = (BigUint::from(1u8) << 128u32) - 1u8;
        assert!(!safe_prime_by_pocklington(&p, 2, true));
        assert!(!safe_prime_by_pocklington(&p, 3, false));
        assert!(!safe_prime_by_pocklington(&BigUint::from(1019u32), 1, true), "base 1 proves nothing");
    }
}
