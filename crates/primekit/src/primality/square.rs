//! Integer square roots and the perfect-square test (Selfridge's D search never ends on a
//! square, so BPSW and the NIST Lucas test must rule squares out; Le Masle et al. 2011, §II-B).
//!
//! [`isqrt`] is Newton's iteration from an over-estimate (each step at least halves the
//! error once below 2·sqrt); [`isqrt_rem_binary`] is the shift-and-subtract digit method
//! that Le Masle et al. 2011 cite for hardware ("only shifts, additions and subtractions"), kept as
//! the reference the tests compare against. [`is_perfect_square`] first rejects most
//! non-squares with quadratic-residue filters modulo 64, 63, 65 and 11.

use num_bigint::BigUint;
use num_traits::{One, Zero};

/// floor(sqrt(n)) by Newton's method.
pub fn isqrt(n: &BigUint) -> BigUint {
    if n.is_zero() {
        return BigUint::zero();
    }
    // 2^ceil(bits/2) >= sqrt(n): a start above the root, so the iterates decrease.
    let mut x = BigUint::one() << n.bits().div_ceil(2);
    loop {
        let y = (&x + n / &x) >> 1;
        if y >= x {
            return x;
        }
        x = y;
    }
}

/// (floor(sqrt(n)), n - floor(sqrt(n))^2) by the binary digit-by-digit method.
pub fn isqrt_rem_binary(n: &BigUint) -> (BigUint, BigUint) {
    let mut rem = n.clone();
    let mut root = BigUint::zero();
    // Highest power of 4 not above n.
    let mut bit = if n.is_zero() { BigUint::zero() } else { BigUint::one() << ((n.bits() - 1) & !1) };
    while !bit.is_zero() {
        let trial = &root + &bit;
        if rem >= trial {
            rem -= &trial;
            root = (root >> 1) + &bit;
        } else {
            root >>= 1;
        }
        bit >>= 2;
    }
    (root, rem)
}

/// Bitmask of the quadratic residues modulo `m` (m <= 128).
const fn residues(m: u32) -> u128 {
    let mut mask = 0u128;
    let mut i = 0;
    while i < m {
        mask |= 1u128 << ((i * i) % m);
        i += 1;
    }
    mask
}

const QR64: u128 = residues(64);
const QR63: u128 = residues(63);
const QR65: u128 = residues(65);
const QR11: u128 = residues(11);

/// True if n is a perfect square. Filters reject all but ~0.6% of non-squares before
/// the square root is taken.
pub fn is_perfect_square(n: &BigUint) -> bool {
    let low = n.iter_u64_digits().next().unwrap_or(0);
    if QR64 >> (low % 64) & 1 == 0 {
        return false;
    }
    // One multi-limb remainder by 63*65*11 = 45045 serves the three other filters.
    let r = (n % 45045u32).iter_u64_digits().next().unwrap_or(0);
    if QR63 >> (r % 63) & 1 == 0 || QR65 >> (r % 65) & 1 == 0 || QR11 >> (r % 11) & 1 == 0 {
        return false;
    }
    let s = isqrt(n);
    &s * &s == *n
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_values_match_exhaustive_oracle() {
        let mut squares = std::collections::HashSet::new();
        for i in 0u64..200 {
            squares.insert(i * i);
        }
        for n in 0u64..40000 {
            let b = BigUint::from(n);
            let s = isqrt(&b);
            assert!(&s * &s <= b && (&s + 1u8) * (&s + 1u8) > b, "n={n}");
            assert_eq!(isqrt_rem_binary(&b), (s.clone(), &b - &s * &s), "n={n}");
            assert_eq!(is_perfect_square(&b), squares.contains(&n), "n={n}");
        }
    }

    #[test]
    fn large_values_match_num_bigint() {
        let p = (BigUint::one() << 1279u32) - 1u8;
        for x in [p.clone(), &p * &p, &p * &p - 1u8, &p * &p + 1u8, (&p + 2u8) * (&p + 2u8)] {
            assert_eq!(isqrt(&x), x.sqrt());
            assert_eq!(isqrt_rem_binary(&x).0, x.sqrt());
            assert_eq!(is_perfect_square(&x), x.sqrt().pow(2) == x);
        }
    }
}
