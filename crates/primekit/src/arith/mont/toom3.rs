//! Toom-Cook 3-way products and squares (Toom 1963, Cook 1966): five products of a third
//! of the size instead of Karatsuba's three of half the size (n^1.465 instead of n^1.585).
//!
//! Split a = a0 + a1 x + a2 x^2 at x = B^k (k = ceil(n/3) limbs; a2 has r = n - 2k),
//! and b likewise. Then a*b = c0 + c1 x + c2 x^2 + c3 x^3 + c4 x^4 follows from the
//! products of a and b evaluated at x = 0, 1, -1, 2 and infinity:
//!
//!   W0 = a0 b0 = c0,   W1 = a(1) b(1),   Wm1 = a(-1) b(-1),   W2 = a(2) b(2),
//!   W4 = a2 b2 = c4,
//!
//! with a(1) = a0 + a1 + a2, a(-1) = a0 - a1 + a2, a(2) = a0 + 2 a1 + 4 a2 (b likewise),
//! by the interpolation sequence Bodrato & Zanoni (2007) give for these five points:
//!
//!   t  = (W2 - Wm1) / 3     = c1 + c2 + 3 c3 + 5 c4
//!   r1 = (W1 - Wm1) / 2     = c1 + c3
//!   r2 = W1 - W0            = c1 + c2 + c3 + c4
//!   c3 = (t - r2) / 2 - 2 c4
//!   c2 = r2 - r1 - c4
//!   c1 = r1 - c3
//!
//! Every c_i is a sum of products of non-negative pieces, so every value above is
//! non-negative; only Wm1 may be negative (a(-1) and b(-1) of opposite signs). It is
//! formed from |a(-1)| |b(-1)| and then negated modulo B^l when negative (l = 2k + 2
//! limbs hold every value here), after which the sequence runs modulo B^l unchanged:
//! each value it forms is a true non-negative value below B^l. For a square Wm1 is a
//! square, never negative. The divisions are exact: by 2 a shift, by 3 a Hensel
//! (low-to-high) pass.
//!
//! Timing: every branch, loop bound and memory index depends only on n, as in
//! [`super::karatsuba`]; the signs are applied with masks.

use super::karatsuba::{abs_diff, add_into, product, Base};
use crate::arith::carry::{self, borrow_through, carry_through};
use crate::arith::limbs::{add_assign, halve, sub_assign, Limb};

/// Below this size no base kernel uses Toom-3 (the smallest `Base::threshold_toom3`);
/// the scratch bound of [`super::karatsuba::scratch_len`] relies on it.
pub(crate) const MIN_LIMBS: usize = 96;

/// Piece size k and top piece size r of an n-limb operand.
const fn split(n: usize) -> (usize, usize) {
    let k = n.div_ceil(3);
    (k, n - 2 * k)
}

/// Scratch limbs [`product3`] needs itself for n limbs, besides the recursion's
/// `scratch_len(k + 1)`: seven values of k + 1 limbs (a partial sum and three
/// evaluations per operand, the sum shared) and three products of 2k + 2.
pub(crate) const fn own_scratch(n: usize) -> usize {
    let (k, _) = split(n);
    7 * (k + 1) + 3 * (2 * k + 2)
}

/// The evaluations of an n-limb operand at 1, -1 and 2 (k + 1 limbs each; `p` is
/// scratch): v1 = a0 + a1 + a2 (< 3B^k), vm1 = |a0 - a1 + a2| (< 2B^k), v2 = a0 + 2 a1
/// + 4 a2 (< 7B^k). Returns !0 when a0 - a1 + a2 > 0, else 0 (zero either way).
fn evaluate(a: &[Limb], k: usize, p: &mut [Limb], v1: &mut [Limb], vm1: &mut [Limb], v2: &mut [Limb]) -> Limb {
    let (a0, a1, a2) = (&a[..k], &a[k..2 * k], &a[2 * k..]);
    // p = a0 + a2, v1 = p + a1, vm1 = |p - a1|, v2 = 2(v1 + a2) - a0.
    p[..k].copy_from_slice(a0);
    p[k] = 0;
    add_into(p, a2);
    v1[..k].copy_from_slice(a1);
    v1[k] = 0;
    add_assign(v1, p);
    let positive = abs_diff(vm1, a1, p);
    v2.copy_from_slice(v1);
    add_into(v2, a2);
    carry::double(v2);
    sub_short(v2, a0);
    positive
}

/// `x /= 3` for x divisible by 3 (below B^len), low limb first. With D = (B - 1)/3 the
/// quotient q = x/3 satisfies `q B - q = x D`, so each limb of q is the running
/// difference `h - lo(x_i D)` and the next h subtracts `hi(x_i D)` and the borrow
/// (GMP's `mpn_bdiv_dbm1c` recurrence): the word products do not depend on one another,
/// so the serial chain is two subtractions per limb instead of a product, as the
/// inverse-of-3 recurrence `q_i = (x_i - c) 3^{-1}` has.
fn divexact_by3(x: &mut [Limb]) {
    const D: u128 = (Limb::MAX / 3) as u128;
    let mut h: Limb = 0;
    for xi in x.iter_mut() {
        let p = (*xi as u128) * D;
        let (q, borrow) = h.overflowing_sub(p as Limb);
        *xi = q;
        h = q.wrapping_sub((p >> 64) as Limb).wrapping_sub(borrow as Limb);
    }
}

/// `x -= y` with y zero-extended to x's length; the true difference is non-negative.
fn sub_short(x: &mut [Limb], y: &[Limb]) {
    let (lo, hi) = x.split_at_mut(y.len());
    let b = sub_assign(lo, y);
    borrow_through(hi, b);
}

/// `w[..2n] = a * b` (`square`: b is ignored and a^2 computed; n = a.len() = b.len() >=
/// 24: the pieces need r >= 1 and k + 2 <= 2r, so that c3 fits above 3k), the five
/// products through [`product`] (so recursively Toom-3, Karatsuba or the base kernel).
/// `s` holds at least `own_scratch(n) + scratch_len(k + 1)` limbs.
pub(crate) fn product3(base: Base, w: &mut [Limb], a: &[Limb], b: &[Limb], square: bool, s: &mut [Limb]) {
    let n = a.len();
    let (k, r) = split(n);
    let l = 2 * k + 2;
    assert!(n >= 24 && r >= 1 && l <= 2 * n - 3 * k, "n >= 24 keeps c3 inside w");
    let (p, s) = s.split_at_mut(k + 1);
    let (v1, s) = s.split_at_mut(k + 1);
    let (vm1, s) = s.split_at_mut(k + 1);
    let (v2, s) = s.split_at_mut(k + 1);
    let (v1b, s) = s.split_at_mut(k + 1);
    let (vm1b, s) = s.split_at_mut(k + 1);
    let (v2b, s) = s.split_at_mut(k + 1);
    let (sq1, s) = s.split_at_mut(l);
    let (sqm1, s) = s.split_at_mut(l);
    let (sq2, s) = s.split_at_mut(l);

    let sign_a = evaluate(a, k, p, v1, vm1, v2);
    // Wm1 < 0 exactly when the signs of a(-1) and b(-1) differ (masks: !0 = positive).
    let negative = if square { 0 } else { sign_a ^ evaluate(b, k, p, v1b, vm1b, v2b) };
    let (b0, b2, v1b, vm1b, v2b) =
        if square { (&a[..k], &a[2 * k..], &*v1, &*vm1, &*v2) } else { (&b[..k], &b[2 * k..], &*v1b, &*vm1b, &*v2b) };

    // The five products; c0 and c4 straight into place (w[2k..4k] is free until the end).
    let (c0, rest) = w[..2 * n].split_at_mut(2 * k);
    let c4 = &mut rest[2 * k..];
    product(base, c0, &a[..k], b0, square, s);
    product(base, c4, &a[2 * k..], b2, square, s);
    product(base, sq1, v1, v1b, square, s);
    product(base, sqm1, vm1, vm1b, square, s);
    product(base, sq2, v2, v2b, square, s);
    // Wm1 in two's complement modulo B^l (a square is never negative; `square` is public).
    if !square {
        for x in sqm1.iter_mut() {
            *x ^= negative;
        }
        carry_through(sqm1, negative & 1);
    }

    // Interpolation, in place: sq2 becomes c3, sq1 c2, sqm1 c1.
    sub_assign(sq2, sqm1); // W2 - Wm1
    divexact_by3(sq2); // t
    carry::sub_from(sqm1, sq1); // W1 - Wm1
    halve(sqm1); // r1
    sub_short(sq1, &w[..2 * k]); // r2 = W1 - W0
    sub_assign(sq2, sq1); // t - r2
    halve(sq2);
    let c4 = &w[4 * k..2 * n];
    sub_short(sq2, c4);
    sub_short(sq2, c4); // c3
    sub_assign(sq1, sqm1);
    sub_short(sq1, c4); // c2
    sub_assign(sqm1, sq2); // c1

    // w = c0 + c1 B^k + c2 B^2k + c3 B^3k + c4 B^4k: c2's low 2k limbs fill the gap,
    // its top two limbs and c1, c3 are added (each sum's carry runs to the top).
    w[2 * k..4 * k].copy_from_slice(&sq1[..2 * k]);
    add_into(&mut w[4 * k..2 * n], &sq1[2 * k..]);
    add_into(&mut w[k..2 * n], sqm1);
    add_into(&mut w[3 * k..2 * n], sq2);
}

#[cfg(test)]
mod tests {
    use super::super::karatsuba::scratch_len;
    use super::*;
    use crate::arith::limbs::from_limbs;
    use rand_core::{RngCore, SeedableRng};

    #[test]
    fn divexact_by3_matches_num_bigint() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(21);
        for n in 1..6usize {
            for kind in 0..3 {
                let x: Vec<Limb> = (0..n).map(|_| [rng.next_u64(), !0, 0][kind]).collect();
                // 3 * (x / 3), reduced below B^n: a multiple of 3 that fits.
                let v = from_limbs(&x) / 3u32 * 3u32;
                let mut y = crate::arith::limbs::to_limbs(&v, n).unwrap();
                divexact_by3(&mut y);
                assert_eq!(from_limbs(&y), v / 3u32, "n={n} kind={kind}");
            }
        }
    }

    /// Products and squares at and around the sizes where the split is uneven (r = k,
    /// k - 1, k - 2), with random, all-ones, half-ones and zero operands in every
    /// pairing (so a(-1) and b(-1) of either sign, and zero), against num-bigint.
    #[test]
    fn products_and_squares_match_num_bigint() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(22);
        let mut operand = |n: usize, kind: usize| -> Vec<Limb> {
            (0..n)
                .map(|i| [rng.next_u64(), !0, if i < n / 2 { !0 } else { 0 }, if i >= n / 3 && i < 2 * n / 3 { !0 } else { 0 }, 0][kind])
                .collect()
        };
        for n in [24, 25, 26, 96, 97, 98, 128, 190, 191, 192, 300, MIN_LIMBS, MIN_LIMBS + 1, MIN_LIMBS + 2] {
            for kind_a in 0..5 {
                for kind_b in 0..5 {
                    let (a, b) = (operand(n, kind_a), operand(n, kind_b));
                    for base in super::super::karatsuba::tests::tests_bases() {
                        let (k, _) = split(n);
                        let mut s = vec![0; own_scratch(n) + scratch_len(k + 1)];
                        let mut w = vec![0; 2 * n];
                        product3(base, &mut w, &a, &b, false, &mut s);
                        assert_eq!(from_limbs(&w), from_limbs(&a) * from_limbs(&b), "n={n} kinds={kind_a},{kind_b} {base:?}");
                        if kind_a == kind_b {
                            product3(base, &mut w, &a, &b, true, &mut s);
                            assert_eq!(from_limbs(&w), from_limbs(&a) * from_limbs(&a), "square n={n} kind={kind_a} {base:?}");
                        }
                    }
                }
            }
        }
    }
}
