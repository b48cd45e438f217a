//! Cornacchia's algorithm for 4N = t^2 + |D| s^2 (Cornacchia 1908; Cohen 1993,
//! Algorithm 1.5.3), and the curve orders N + 1 - trace it gives (Atkin & Morain 1993,
//! §3 and §8.1: six traces for D = -3, four for D = -4, two otherwise).

use num_bigint::{BigInt, BigUint};
use num_traits::{Signed, Zero};

/// (t, s) with 4N = t^2 + |D| s^2, from a square root `r0` of D mod N (0 <= r0 < N);
/// `None` if there is none (for prime N: when N is not the norm of an element of the
/// order of discriminant D).
pub(super) fn cornacchia(n: &BigUint, d: i64, r0: &BigUint) -> Option<(BigUint, BigUint)> {
    let dabs = BigUint::from(d.unsigned_abs());
    // r0 with the parity of D (so that t = r0 mod 2 matches t^2 = D mod 4).
    let r0 = if r0.bit(0) == (d & 1 == 1) { r0.clone() } else { n - r0 };
    let four_n: BigUint = n << 2;
    let l = four_n.sqrt();
    let (mut a, mut b) = (n << 1, r0);
    while b > l {
        let r = &a % &b;
        a = b;
        b = r;
    }
    let rest = &four_n - &b * &b;
    if !(&rest % &dabs).is_zero() {
        return None;
    }
    let c = rest / &dabs;
    let s = c.sqrt();
    (&s * &s == c).then_some((b, s))
}

/// The traces of the curves with CM by D over F_N, from 4N = t^2 + |D| s^2: the orders
/// are N + 1 - trace.
pub(super) fn traces(d: i64, t: &BigUint, s: &BigUint) -> Vec<BigInt> {
    let (t, s) = (BigInt::from(t.clone()), BigInt::from(s.clone()));
    let mut base = vec![t.clone()];
    match d {
        -3 => {
            base.push((&t + 3 * &s) / 2);
            base.push((&t - 3 * &s) / 2);
        }
        -4 => base.push(2 * &s),
        _ => {}
    }
    base.iter().flat_map(|u| [u.clone(), -u]).collect()
}

/// N + 1 - trace (positive by Hasse's bound).
pub(super) fn order(n: &BigUint, trace: &BigInt) -> BigUint {
    let m = BigInt::from(n + 1u8) - trace;
    debug_assert!(m.is_positive());
    m.magnitude().clone()
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_integer::Roots;

    #[test]
    fn cornacchia_solves_and_refuses() {
        // p = 1000003: -3 is a square mod p iff p = 1 mod 3 (1000003 = 1 mod 3).
        let p = BigUint::from(1_000_003u32);
        for d in [-3i64, -4, -7, -8, -11, -19, -20, -23, -163] {
            let dm = (d + 1_000_003) as u64;
            let Some(r) = (0u64..1_000_003).find(|r| r * r % 1_000_003 == dm) else { continue };
            match cornacchia(&p, d, &BigUint::from(r)) {
                Some((t, s)) => assert_eq!(&t * &t + BigUint::from(d.unsigned_abs()) * &s * &s, &p << 2, "D = {d}"),
                None => {
                    // Then 4p = t^2 + |D| s^2 has no solution at all (brute force).
                    let four_p = 4u64 * 1_000_003;
                    let solvable = (0u64..=2000).any(|t| {
                        let r = four_p.checked_sub(t * t);
                        r.is_some_and(|r| {
                            r % d.unsigned_abs() == 0 && {
                                let c = r / d.unsigned_abs();
                                c.sqrt() * c.sqrt() == c
                            }
                        })
                    });
                    assert!(!solvable, "D = {d}: a solution exists but was not found");
                }
            }
        }
    }

    #[test]
    fn traces_match_the_norm_equation() {
        // 4 * 7 = 1 + 3 * 9: traces ±1, ±(1 + 9)/2 = ±5, ±(1 - 9)/2 = ∓4. The curves
        // y^2 = x^3 + b over F_7 have orders 3, 4, 7, 9, 12, 13.
        let tr = traces(-3, &BigUint::from(1u8), &BigUint::from(3u8));
        let mut orders: Vec<BigUint> = tr.iter().map(|u| order(&BigUint::from(7u8), u)).collect();
        orders.sort();
        let want: Vec<BigUint> = [3u8, 4, 7, 9, 12, 13].iter().map(|&v| BigUint::from(v)).collect();
        assert_eq!(orders, want);
        assert_eq!(traces(-4, &BigUint::from(2u8), &BigUint::from(2u8)).len(), 4);
        assert_eq!(traces(-7, &BigUint::from(2u8), &BigUint::from(2u8)).len(), 2);
    }
}
