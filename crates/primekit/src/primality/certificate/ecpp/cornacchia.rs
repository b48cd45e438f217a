//! Cornacchia's algorithm for 4N = t^2 + |D| s^2 (Cornacchia 1908; Cohen 1993,
//! Algorithm 1.5.3), and the curve orders N + 1 - trace it gives (Atkin & Morain 1993,
//! §3 and §8.1: six traces for D = -3, four for D = -4, two otherwise).

use num_bigint::{BigInt, BigUint};
use num_traits::{Signed, ToPrimitive, Zero};

/// [`cornacchia_with`], its bound computed here (for tests).
#[cfg(test)]
pub(super) fn cornacchia(n: &BigUint, d: i64, r0: &BigUint) -> Option<(BigUint, BigUint)> {
    cornacchia_with(n, &(n << 2u8).sqrt(), d, r0)
}

/// (t, s) with 4N = t^2 + |D| s^2, from a square root `r0` of D mod N (0 <= r0 < N)
/// and `l` = floor(sqrt(4N)) (which a caller trying many D for one N computes once);
/// `None` if there is none (for prime N: when N is not the norm of an element of the
/// order of discriminant D).
pub(super) fn cornacchia_with(n: &BigUint, l: &BigUint, d: i64, r0: &BigUint) -> Option<(BigUint, BigUint)> {
    let dabs = BigUint::from(d.unsigned_abs());
    // r0 with the parity of D (so that t = r0 mod 2 matches t^2 = D mod 4).
    let r0 = if r0.bit(0) == (d & 1 == 1) { r0.clone() } else { n - r0 };
    let four_n: BigUint = n << 2;
    let b = first_remainder_below(n << 1, r0, l);
    let rest = &four_n - &b * &b;
    if !(&rest % &dabs).is_zero() {
        return None;
    }
    let c = rest / &dabs;
    let s = c.sqrt();
    (&s * &s == c).then_some((b, s))
}

/// The first remainder `<= l` of the Euclidean sequence a, b, a mod b, ... (a > b), or b
/// itself if `b <= l`.
///
/// Lehmer's method (Knuth, TAOCP vol. 2, §4.5.2, Algorithm L): the quotients are read
/// off the leading 64 bits of a and b for as long as both bounds x̂ + A over ŷ + C and
/// x̂ + B over ŷ + D give the same quotient, so a run of division steps costs four
/// products of a big number by a word-size cofactor instead of a long division each
/// (num-bigint's division of two 2048-bit numbers dominated Cornacchia). A run ends
/// with b at least 70 bits above `l`: it shortens b by at most 65 bits, so every
/// remainder it skips is above `l`, and the last ones are found by plain division.
fn first_remainder_below(mut a: BigUint, mut b: BigUint, l: &BigUint) -> BigUint {
    let lehmer_above = l.bits() + 70;
    while b > *l {
        if b.bits() > lehmer_above {
            let shift = a.bits() - 64;
            let mut x = i128::from((&a >> shift).to_u64().expect("64 bits"));
            let mut y = i128::from((&b >> shift).to_u64().expect("64 bits"));
            // Cofactors: the run maps (a, b) to (ca a + cb b, cc a + cd b); they stay
            // below 2^64 in magnitude (x, y < 2^64 and each is bounded by them).
            let (mut ca, mut cb, mut cc, mut cd) = (1i128, 0i128, 0i128, 1i128);
            while y + cc != 0 && y + cd != 0 {
                let q = (x + ca) / (y + cc);
                if q != (x + cb) / (y + cd) {
                    break;
                }
                (ca, cc) = (cc, ca - q * cc);
                (cb, cd) = (cd, cb - q * cd);
                (x, y) = (y, x - q * y);
            }
            if cb != 0 {
                let (a0, b0) = (BigInt::from(a), BigInt::from(b));
                let na = &a0 * ca + &b0 * cb;
                let nb = &a0 * cc + &b0 * cd;
                debug_assert!(!na.is_negative() && !nb.is_negative() && na > nb);
                (a, b) = (na.into_parts().1, nb.into_parts().1);
                continue;
            }
        }
        let r = &a % &b;
        a = b;
        b = r;
    }
    b
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

    /// Lehmer's runs give the same remainder as plain division steps, for random pairs
    /// of 100 to 4100 bits and bounds at every depth (some within a run's reach of b).
    #[test]
    fn lehmer_matches_plain_euclid() {
        use num_bigint::RandBigInt;
        use rand_chacha::rand_core::SeedableRng;
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for i in 0..400u64 {
            let bits = 100 + (i * 97) % 4000;
            let a = rng.gen_biguint(bits) | (BigUint::from(1u8) << (bits - 1));
            let b = rng.gen_biguint(bits - 1 - i % 3) % &a;
            let l = match i % 4 {
                0 => (&a << 2u8).sqrt(),
                1 => BigUint::from(i),
                2 => BigUint::from(1u8) << ((bits / 2).saturating_sub(71 + i % 5)),
                _ => &b >> (i % 90),
            };
            let (mut x, mut y) = (a.clone(), b.clone());
            while y > l {
                let r = &x % &y;
                x = y;
                y = r;
            }
            assert_eq!(first_remainder_below(a, b, &l), y, "case {i}");
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
