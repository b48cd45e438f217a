//! The Jacobi symbol (a/n) for odd n > 0, two ways:
//! - [`jacobi_small`]: small signed `a` against a multi-limb `n` (Selfridge's D search),
//!   one word remainder then reciprocity on words;
//! - [`jacobi_binary`]: Le Masle et al.'s (2011) Alg. 3 (binary Jacobi with the sign handling for
//!   negative a; shifts, subtractions and comparisons only), used by the NIST Lucas test.

use crate::arith::limbs::Limb;
use crate::arith::word::rem_limbs;
use num_bigint::{BigInt, BigUint, Sign};
use num_traits::Zero;

/// (a/n) for odd words `n > 0`, `a` reduced or not. Classic binary-reciprocity loop.
pub fn jacobi_u64(mut a: u64, mut n: u64) -> i32 {
    debug_assert!(n % 2 == 1);
    a %= n;
    let mut t = 1;
    while a != 0 {
        let z = a.trailing_zeros();
        a >>= z;
        if z % 2 == 1 && (n % 8 == 3 || n % 8 == 5) {
            t = -t;
        }
        if a % 4 == 3 && n % 4 == 3 {
            t = -t;
        }
        std::mem::swap(&mut a, &mut n);
        a %= n;
    }
    if n == 1 {
        t
    } else {
        0
    }
}

/// (a/n) for a small signed `a` and odd `n > 0` given as limbs. Uses
/// (-1/n) = (-1)^((n-1)/2) and (|a|/n) = (n mod |a| / |a|) · sign from reciprocity.
pub fn jacobi_small(a: i64, n: &[Limb]) -> i32 {
    debug_assert!(n.first().is_some_and(|l| l & 1 == 1));
    let n0 = n[0];
    let mut t = 1;
    if a < 0 && n0 % 4 == 3 {
        t = -t;
    }
    let mut m = a.unsigned_abs();
    if m == 0 {
        // (0/n) = 1 only for n = 1.
        return if n.iter().skip(1).all(|&l| l == 0) && n0 == 1 { 1 } else { 0 };
    }
    let z = m.trailing_zeros();
    m >>= z;
    if z % 2 == 1 && (n0 % 8 == 3 || n0 % 8 == 5) {
        t = -t;
    }
    if m == 1 {
        return t;
    }
    // Reciprocity for odd m: (m/n) = (n/m) · (-1)^((m-1)/2 · (n-1)/2).
    if m % 4 == 3 && n0 % 4 == 3 {
        t = -t;
    }
    t * jacobi_u64(rem_limbs(n, m), m)
}

/// (a/b) for any integer `a` and odd `b > 0` by Le Masle et al.'s (2011) Alg. 3 (binary Jacobi, with
/// the negative-a step of lines 2-5). Variable time; public inputs.
pub fn jacobi_binary(a: &BigInt, b: &BigUint) -> i32 {
    assert!(b.bit(0), "jacobi_binary needs an odd b");
    let mut t = 1;
    let mut b = b.clone();
    let mut a = match a.sign() {
        Sign::Minus => {
            if mod4(&b) == 3 {
                t = -t;
            }
            a.magnitude().clone()
        }
        _ => a.magnitude().clone(),
    };
    while !a.is_zero() {
        // SHIFT
        let z = a.trailing_zeros().unwrap_or(0);
        a >>= z;
        let b8 = mod8(&b);
        if z % 2 == 1 && (b8 == 3 || b8 == 5) {
            t = -t;
        }
        // SWAP
        if a < b {
            std::mem::swap(&mut a, &mut b);
            if mod4(&a) == 3 && mod4(&b) == 3 {
                t = -t;
            }
        }
        // NEWA: a, b both odd here, so a - b is even.
        a -= &b;
        a >>= 1;
        let b8 = mod8(&b);
        if b8 == 3 || b8 == 5 {
            t = -t;
        }
    }
    if b == BigUint::from(1u8) {
        t
    } else {
        0
    }
}

fn mod4(x: &BigUint) -> u64 {
    x.iter_u64_digits().next().unwrap_or(0) & 3
}

fn mod8(x: &BigUint) -> u64 {
    x.iter_u64_digits().next().unwrap_or(0) & 7
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Euler's criterion on primes and multiplicativity in n give an independent oracle.
    fn legendre(a: i64, p: u64) -> i32 {
        let a = a.rem_euclid(p as i64) as u128;
        if a == 0 {
            return 0;
        }
        let (mut r, mut b, mut e) = (1u128, a, (p - 1) / 2);
        while e > 0 {
            if e & 1 == 1 {
                r = r * b % p as u128;
            }
            b = b * b % p as u128;
            e >>= 1;
        }
        if r == 1 {
            1
        } else {
            -1
        }
    }

    fn jacobi_oracle(a: i64, mut n: u64) -> i32 {
        let mut t = 1;
        let mut p = 3;
        while n > 1 {
            while n.is_multiple_of(p) {
                t *= legendre(a, p);
                n /= p;
            }
            p += 2;
        }
        t
    }

    #[test]
    fn all_three_agree_with_euler_criterion() {
        for n in (1u64..400).step_by(2) {
            for a in -60i64..60 {
                let want = jacobi_oracle(a, n);
                assert_eq!(jacobi_small(a, &[n]), want, "small a={a} n={n}");
                assert_eq!(jacobi_binary(&BigInt::from(a), &BigUint::from(n)), want, "binary a={a} n={n}");
                if a >= 0 {
                    assert_eq!(jacobi_u64(a as u64, n), want);
                }
            }
        }
    }

    #[test]
    fn multi_limb_moduli_agree() {
        let m = (BigUint::from(1u8) << 521u32) - 1u8;
        for a in [-15i64, -11, -7, -3, 5, 9, 13, 17, 1 << 40] {
            let limbs = m.to_u64_digits();
            assert_eq!(jacobi_small(a, &limbs), jacobi_binary(&BigInt::from(a), &m), "a={a}");
        }
    }
}
