//! Montgomery reduction by products, at well under the cost of two full products.
//!
//! Montgomery (1985) reduces a 2n-limb `T < m*R` (R = B^n, B = 2^64) with
//!
//!   q = (T mod R) * m' mod R,  m' = -m^{-1} mod R,   then   (T + q*m) / R < 2m.
//!
//! Done naively that is two n-limb products. Neither is needed in full:
//!
//! - q is the *low half* of a product. A short product (Mulders 2000, §2) splits it as
//!   `lo(a*b) = lo(a0*b0) + B^h (lo(a1*b0) + lo(a0*b1))` with a0, b0 of h limbs: one
//!   full h-limb product and two short ones of n - h limbs, bottoming out in schoolbook
//!   rows that stop at the diagonal (half the word products of a full schoolbook
//!   product). Over Karatsuba the balanced split (h = n/2) tends to the cost of a full
//!   product as the depth grows (S(n) = M(n/2) + 2 S(n/2) and M(n) = 3 M(n/2)); a larger
//!   h keeps it lower, see [`low_split`].
//! - Of `P = q*m = P_hi*R + P_lo` only `P_hi` is needed, and `P_lo` is known: `T + P`
//!   is divisible by R, so `P_lo = (R - T_lo) mod R` and the carry out of `T_lo + P_lo`
//!   is `c = [T_lo != 0]`. So `P mod (R - 1) = (P_hi + P_lo) mod (R - 1)` determines
//!   `P_hi`: since R = 1 (mod R - 1), in both cases of c
//!
//!     P_hi + c = (P mod (R - 1)) + T_lo   (mod R - 1),
//!
//!   and `P_hi + c <= m` (q < R gives P_hi <= m - 1), which is `< R - 1` unless m is
//!   R - 1 itself (all ones; such contexts keep the schoolbook reduction). The product
//!   modulo `B^n - 1` costs about half a full one: for n = 2h,
//!   `B^n - 1 = (B^h - 1)(B^h + 1)`, and one computes the product modulo each factor
//!   (a cyclic product, recursively, and a negacyclic one, one h-limb product) and joins
//!   them by the Chinese remainder theorem. GMP's `mpn_redc_n` and `mpn_mulmod_bnm1`
//!   rest on the same identities (Granlund & the GMP development team 2020).
//!
//! Result: `(T + q*m) / R = T_hi + P_hi + c`, followed by the usual final subtraction.
//!
//! Timing: every branch, loop bound and memory index depends only on n; the signs and
//! wrap-arounds of the modular sums are applied with masks and carries.

use super::karatsuba::{product, scratch_len as product_scratch, Base, BASE_LIMBS};
use crate::arith::carry::{self, borrow_through, carry_through};
use crate::arith::limbs::{add_assign, halve, sub_assign, sub_into, Limb};

// Residues modulo B^h + 1 are kept as h + 1 limbs with value in [0, B^h]: the top limb
// is 0 or 1, and 1 only when the low limbs are 0 ("normalized"). Each step below ends in
// a low part `lo` and one borrow `b` (worth -B^h = +1), so normalizing is one carry pass.

/// `x = a0 + a1 mod (B^h - 1)`, h = x.len() = a0.len() = a1.len(); the carry (worth
/// B^h = 1) is added back at the bottom, after which the value is in [0, B^h - 1] (both
/// ends standing for 0 when the sum is a multiple of B^h - 1).
fn fold_bm1(x: &mut [Limb], a0: &[Limb], a1: &[Limb]) {
    let carry = carry::add(x, a0, a1);
    // a0 + a1 <= 2B^h - 2: with a carry the low part is <= B^h - 2, so this cannot carry.
    carry_through(x, carry);
}

/// `y = a0 - a1 mod (B^h + 1)`, normalized (y.len() = h + 1): the difference wraps to
/// `d = a0 - a1 + b*B^h` with borrow b, and `d - b*B^h = d + b`, which is at most B^h.
fn diff_bp1(y: &mut [Limb], a0: &[Limb], a1: &[Limb]) {
    let h = a0.len();
    let b = sub_into(&mut y[..h], a0, a1);
    y[h] = carry_through(&mut y[..h], b);
}

/// `y = a*b mod (B^h + 1)` for normalized residues `a`, `b` (h + 1 limbs each), result
/// normalized. With `a = A + alpha*B^h`, `b = C + beta*B^h` and `B^h = -1`:
/// `a*b = A*C - alpha*C - beta*A + alpha*beta`, and `A*C = lo - hi`. Normalized inputs
/// with alpha = 1 have A = 0 (likewise beta, C), so at most one of the three
/// subtractions is non-zero and borrows, and alpha*beta = 1 only when all three are 0:
/// the result is `lo + (borrow or alpha*beta)`. Scratch: `2h + product_scratch(h)`.
fn mul_mod_bp1(base: Base, y: &mut [Limb], a: &[Limb], b: &[Limb], s: &mut [Limb]) {
    let h = y.len() - 1;
    let (p, s) = s.split_at_mut(2 * h);
    product(base, p, &a[..h], &b[..h], false, s);
    let (plo, phi) = p.split_at_mut(h);
    let lo = &mut y[..h];
    let b1 = sub_into(lo, plo, phi);
    // alpha*C + beta*A in one pass (at most one term is non-zero), selected by masks.
    let (ma, mb) = (a[h].wrapping_neg(), b[h].wrapping_neg());
    for ((t, &ai), &bi) in plo.iter_mut().zip(&a[..h]).zip(&b[..h]) {
        *t = (bi & ma) | (ai & mb);
    }
    let b2 = sub_assign(lo, plo);
    y[h] = carry_through(lo, b1 | b2 | (a[h] & b[h]));
}

/// Scratch limbs of [`mul_mod_bm1`] for n-limb operands, for any split threshold (and
/// product thresholds of at least [`BASE_LIMBS`]): every even size from 4 limbs is
/// counted both ways.
pub(crate) const fn bm1_scratch(n: usize) -> usize {
    let whole = 2 * n + product_scratch(n);
    if !n.is_multiple_of(2) || n < 4 {
        return whole;
    }
    let h = n / 2;
    let inner = if bm1_scratch(h) > 2 * h + product_scratch(h) { bm1_scratch(h) } else { 2 * h + product_scratch(h) };
    let split = 4 * h + 2 + inner;
    if split > whole {
        split
    } else {
        whole
    }
}

/// Whether [`mul_mod_bm1`] splits at n limbs.
fn splits_bm1(base: Base, n: usize) -> bool {
    n.is_multiple_of(2) && n >= base.threshold_bm1()
}

/// The residues of `b` that [`mul_mod_bm1`] splits on, computed once for an operand used
/// many times (the modulus, in [`redc`]): for each level of the split with h = n/2,
/// `b mod (B^h - 1)` (h limbs, [`fold_bm1`]) then `b mod (B^h + 1)` (h + 1 limbs,
/// [`diff_bp1`]), the next level splitting the former. Empty when n does not split.
pub(crate) fn bm1_residues(base: Base, b: &[Limb]) -> Vec<Limb> {
    let mut out = Vec::new();
    let mut cur = b.to_vec();
    while splits_bm1(base, cur.len()) {
        let h = cur.len() / 2;
        let mut fold = vec![0; h];
        let mut diff = vec![0; h + 1];
        fold_bm1(&mut fold, &cur[..h], &cur[h..]);
        diff_bp1(&mut diff, &cur[..h], &cur[h..]);
        out.extend_from_slice(&fold);
        out.extend_from_slice(&diff);
        cur = fold;
    }
    out
}

/// `w = a*b mod (B^n - 1)` (n = w.len() = a.len() = b.len()), value in [0, B^n - 1]
/// (B^n - 1 also standing for 0), with `b_res = bm1_residues(base, b)`. Splits while n
/// is even and at least [`Base::threshold_bm1`]: the residue modulo `B^h - 1`
/// recursively, the one modulo `B^h + 1` by [`mul_mod_bp1`], joined as
/// `w = x + (B^h - 1) * ((x - y) / 2 mod (B^h + 1))` (a solution in [0, B^n - 1] of
/// `w = x mod (B^h - 1)`, `w = y mod (B^h + 1)`, as `B^h - 1 = -2 mod (B^h + 1)`; unique
/// but for 0, which may come out as B^n - 1). Otherwise one full product, folded.
/// Scratch: [`bm1_scratch`]`(n)`.
pub(crate) fn mul_mod_bm1(base: Base, w: &mut [Limb], a: &[Limb], b: &[Limb], b_res: &[Limb], s: &mut [Limb]) {
    let n = w.len();
    if !splits_bm1(base, n) {
        let (p, s) = s.split_at_mut(2 * n);
        product(base, p, a, b, false, s);
        fold_bm1(w, &p[..n], &p[n..]);
        return;
    }
    let h = n / 2;
    let (xb, rest) = b_res.split_at(h);
    let (yb, b_res) = rest.split_at(h + 1);
    let (xa, s) = s.split_at_mut(h);
    let (x, s) = s.split_at_mut(h);
    let (ya, s) = s.split_at_mut(h + 1);
    let (y, s) = s.split_at_mut(h + 1);
    fold_bm1(xa, &a[..h], &a[h..]);
    mul_mod_bm1(base, x, xa, xb, b_res, s);
    diff_bp1(ya, &a[..h], &a[h..]);
    mul_mod_bp1(base, y, ya, yb, s);
    // z = (x - y) mod (B^h + 1), in ya: x - y_lo borrows b, and y_top = 1 forces y_lo = 0
    // (no borrow) and means -B^h = +1, so the normalized residue is z_lo + e with
    // e = b or y_top. Then z / 2 mod (B^h + 1): add the odd modulus B^h + 1 when that
    // residue is odd (its parity is z_0 xor e), which fits the top limb, and halve.
    let z = ya;
    let borrow = sub_into(&mut z[..h], x, &y[..h]);
    let e = borrow | y[h];
    let odd = (z[0] ^ e) & 1;
    let (z0, c) = z[0].overflowing_add(e + odd);
    z[0] = z0;
    z[h] = carry_through(&mut z[1..h], c as Limb) + odd;
    halve(z);
    // w = x + z*B^h - z, exact in [0, B^n - 1], so computed modulo B^n: the low half is
    // x - z_lo (borrow b'), the high half z_lo - z_top - b' (z_top = 1 forces z_lo = 0
    // and so b' = 0: at most one of them is 1).
    let (wlo, whi) = w.split_at_mut(h);
    let borrow = sub_into(wlo, x, &z[..h]);
    whi.copy_from_slice(&z[..h]);
    borrow_through(whi, borrow | z[h]);
}

/// The split of an n-limb short product: a full product of the low `h` limbs and two
/// short products of the top `k = n - h` (`h + k = n`, `h >= k`).
///
/// Why not halves: with M(n) = 3 M(n/2) the balanced split costs M(n/2) + 2 S(n/2),
/// which tends to a whole M(n) as the recursion deepens. Giving the full product the
/// larger share moves work from the two short products, which have no Karatsuba saving
/// of their own at the top of the recursion, into the one that has (Mulders 2000;
/// GMP's `mpn_mullo_n` takes h of about 0.69n over Karatsuba). Measured with `cargo test
/// --release -p primekit --lib short_product_split -- --ignored --nocapture` (Intel
/// Xeon Emerald Rapids, fastest of nine batches, four runs), k = 2n/5 against halves,
/// as fractions of a full product: ADX at 256 limbs 0.70-0.78 against 0.81-0.82, at
/// 160 limbs 0.68-0.74 against 0.76-0.77, at 384-512 limbs 1-4% faster, at 128 limbs a
/// tie; portable 3-12% faster from 128 limbs. Splits from 0.55n to 0.65n measured
/// within the noise of each other.
pub(crate) const fn low_split(n: usize) -> (usize, usize) {
    let k = 2 * n / 5;
    (n - k, k)
}

/// Scratch limbs of [`mul_low`] for n-limb operands, for any split threshold of at least
/// [`BASE_LIMBS`].
pub(crate) const fn low_scratch(n: usize) -> usize {
    if n < BASE_LIMBS {
        return 0;
    }
    let (h, k) = low_split(n);
    let inner = if product_scratch(h) > low_scratch(k) { product_scratch(h) } else { low_scratch(k) };
    2 * h + k + inner
}

/// `w = a*b mod B^n` (n = w.len() = a.len() = b.len()): with (h, k) = [`low_split`]`(n)`,
/// `lo(a0*b0)` in full plus `B^h * (lo_k(a1*b0) + lo_k(a0*b1))`, recursively above
/// [`Base::threshold_low`]. Scratch: [`low_scratch`]`(n)`.
pub(crate) fn mul_low(base: Base, w: &mut [Limb], a: &[Limb], b: &[Limb], s: &mut [Limb]) {
    mul_low_split(base, w, a, b, s, low_split)
}

/// [`mul_low`] with the split chosen by `split` at every level (for the measurement
/// behind [`low_split`]); `split(n)` must return `(h, k)` with `h + k = n`, `h >= k`.
fn mul_low_split(base: Base, w: &mut [Limb], a: &[Limb], b: &[Limb], s: &mut [Limb], split: fn(usize) -> (usize, usize)) {
    let n = w.len();
    if n < base.threshold_low() {
        return base.mul_low(w, a, b);
    }
    let (h, k) = split(n);
    let (full, s) = s.split_at_mut(2 * h);
    product(base, full, &a[..h], &b[..h], false, s);
    w.copy_from_slice(&full[..n]);
    let (t, s) = s.split_at_mut(k);
    mul_low_split(base, t, &a[h..], &b[..k], s, split);
    add_assign(&mut w[h..], t);
    mul_low_split(base, t, &a[..k], &b[h..], s, split);
    add_assign(&mut w[h..], t);
}

/// Scratch limbs of [`redc`] for an n-limb modulus.
pub(crate) const fn redc_scratch(n: usize) -> usize {
    let inner = if low_scratch(n) > bm1_scratch(n) { low_scratch(n) } else { bm1_scratch(n) };
    2 * n + inner
}

/// `out = t * R^{-1} mod m`, fully reduced, for `t < m*R` (t.len() = 2n), `m` odd and
/// not all ones, `m_prime = -m^{-1} mod R`, `m_res = bm1_residues(base, m)`. Scratch:
/// [`redc_scratch`]`(n)`.
pub(crate) fn redc(base: Base, out: &mut [Limb], t: &[Limb], m: &[Limb], m_prime: &[Limb], m_res: &[Limb], s: &mut [Limb]) {
    let n = m.len();
    debug_assert!(m.iter().any(|&l| l != !0), "m = R - 1 is excluded (see the module doc)");
    let (t_lo, t_hi) = t.split_at(n);
    let (q, s) = s.split_at_mut(n);
    let (x, s) = s.split_at_mut(n);
    mul_low(base, q, t_lo, m_prime, s);
    mul_mod_bm1(base, x, q, m, m_res, s);
    // x = P_hi + c (mod R - 1), brought to [0, R - 1] by the end-around carry.
    let c = add_assign(x, t_lo);
    carry_through(x, c);
    // Now x = P_hi + c exactly: P_hi + c <= m < R - 1, and x = R - 1 would need
    // P_hi + c = 0, i.e. T_lo = 0 and q = 0, where every path above yields x = 0.
    // (T + P) / R = T_hi + P_hi + c < 2m.
    let top = add_assign(x, t_hi);
    super::portable::final_sub(out, x, top, m);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::limbs::from_limbs;
    use num_bigint::BigUint;
    use num_traits::One;
    use rand_core::{RngCore, SeedableRng};

    fn bases() -> Vec<Base> {
        super::super::karatsuba::tests::tests_bases()
    }

    fn gen(rng: &mut rand_chacha::ChaCha20Rng, n: usize, kind: u32) -> Vec<Limb> {
        (0..n)
            .map(|i| match kind {
                0 => rng.next_u64(),
                1 => !0,
                2 => 0,
                _ => {
                    if i < n / 2 {
                        !0
                    } else {
                        0
                    }
                }
            })
            .collect()
    }

    /// The short product's split covers the operand with the larger part in full.
    #[test]
    fn low_split_is_a_split() {
        for n in 0..5000 {
            let (h, k) = low_split(n);
            assert!(h + k == n && h >= k, "n {n}: ({h}, {k})");
        }
    }

    /// Short and cyclic products across the split thresholds and the edges (all ones,
    /// zero, half ones), against num-bigint.
    #[test]
    fn short_and_cyclic_products_match_num_bigint() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(11);
        for n in [1, 2, 5, 23, 24, 25, 47, 48, 49, 64, 96, 100, 128, 192, 256] {
            let r = BigUint::one() << (64 * n);
            let rm1 = &r - 1u32;
            for kind in 0..4 {
                for kind_b in [0, kind] {
                    let (a, b) = (gen(&mut rng, n, kind), gen(&mut rng, n, kind_b));
                    let want = from_limbs(&a) * from_limbs(&b);
                    for base in bases() {
                        let mut w = vec![0; n];
                        let mut s = vec![0; low_scratch(n).max(bm1_scratch(n))];
                        mul_low(base, &mut w, &a, &b, &mut s);
                        assert_eq!(from_limbs(&w), &want % &r, "mul_low n={n} kinds={kind},{kind_b} {base:?}");
                        mul_mod_bm1(base, &mut w, &a, &b, &bm1_residues(base, &b), &mut s);
                        assert_eq!(from_limbs(&w) % &rm1, &want % &rm1, "bm1 n={n} kinds={kind},{kind_b} {base:?}");
                    }
                }
            }
        }
    }

    /// `diff_bp1` at its wrap-arounds: a0 - a1 = -1 (the residue B^h, top limb set),
    /// 0, 1 and the extremes, against num-bigint.
    #[test]
    fn diff_bp1_matches_num_bigint() {
        for h in [1usize, 2, 5] {
            let bh = BigUint::one() << (64 * h);
            let m = &bh + 1u32;
            let vals: Vec<BigUint> = vec![BigUint::from(0u32), BigUint::one(), BigUint::from(2u32), &bh - 2u32, &bh - 1u32];
            for u in &vals {
                for v in &vals {
                    let (a0, a1) = (crate::arith::limbs::to_limbs(u, h).unwrap(), crate::arith::limbs::to_limbs(v, h).unwrap());
                    let mut y = vec![0; h + 1];
                    diff_bp1(&mut y, &a0, &a1);
                    assert_eq!(from_limbs(&y), (u + &m - v) % &m, "h={h} {u} - {v}");
                    assert!(y[h] <= 1 && (y[h] == 0 || y[..h].iter().all(|&l| l == 0)));
                }
            }
        }
    }

    /// The negacyclic product on the residues that need the top limb (B^h = -1) and
    /// around it, against num-bigint.
    #[test]
    fn negacyclic_product_matches_num_bigint() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(12);
        for h in [1usize, 3, 24, 48, 64] {
            let m = (BigUint::one() << (64 * h)) + 1u32;
            let top: Vec<Limb> = (0..=h).map(|i| (i == h) as Limb).collect(); // B^h
            let mut cases = vec![top.clone(), vec![0; h + 1]];
            for kind in 0..4 {
                let mut v = gen(&mut rng, h, kind);
                v.push(0);
                cases.push(v);
            }
            for a in &cases {
                for b in &cases {
                    for base in bases() {
                        let mut y = vec![0; h + 1];
                        let mut s = vec![0; 2 * h + product_scratch(h)];
                        mul_mod_bp1(base, &mut y, a, b, &mut s);
                        let got = from_limbs(&y);
                        assert!(got <= (BigUint::one() << (64 * h)), "not normalized h={h}");
                        assert!(y[h] <= 1 && (y[h] == 0 || y[..h].iter().all(|&v| v == 0)));
                        assert_eq!(got, from_limbs(a) * from_limbs(b) % &m, "h={h} {base:?}");
                    }
                }
            }
        }
    }

    /// `redc` against num-bigint, including T = m*R - 1 (the largest input), T with a
    /// zero low half (c = 0) and moduli just below R - 1.
    #[test]
    fn redc_matches_num_bigint() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(13);
        for n in [2usize, 25, 48, 64, 96, 128, 130, 256] {
            let r = BigUint::one() << (64 * n);
            let mut moduli = vec![&r - 3u32, (&r >> 1) + 1u32];
            let mut rnd = from_limbs(&gen(&mut rng, n, 0)) | BigUint::one();
            rnd |= BigUint::one() << (64 * n - 1);
            moduli.push(rnd);
            for m in moduli {
                let ml = crate::arith::limbs::to_limbs(&m, n).unwrap();
                let inv = m.modinv(&r).unwrap();
                let m_prime = crate::arith::limbs::to_limbs(&(&r - inv), n).unwrap();
                let r_inv = r.modinv(&m).unwrap();
                let mut ts = vec![&m * &r - 1u32, &m * (&m - 1u32), BigUint::from(0u32), &m << (64 * n - 64)];
                ts.push(num_bigint::RandBigInt::gen_biguint_below(&mut rng, &(&m * &r)));
                for t in ts {
                    let tl = crate::arith::limbs::to_limbs(&t, 2 * n).unwrap();
                    for base in bases() {
                        let mut out = vec![0; n];
                        let mut s = vec![0; redc_scratch(n)];
                        redc(base, &mut out, &tl, &ml, &m_prime, &bm1_residues(base, &ml), &mut s);
                        assert_eq!(from_limbs(&out), &t * &r_inv % &m, "n={n} {base:?}");
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod timing {
    use super::super::karatsuba::Reduction;
    use super::*;
    use crate::arith::limbs::{neg_inv_mod_word, to_limbs};
    use num_bigint::BigUint;
    use num_traits::One;

    /// Nanoseconds per call: the fastest of nine batches, so that a burst of load from
    /// other tenants of a shared host does not count.
    fn time(reps: usize, mut f: impl FnMut()) -> f64 {
        f();
        let batch = reps / 9 + 1;
        (0..9)
            .map(|_| {
                let t = std::time::Instant::now();
                for _ in 0..batch {
                    f();
                }
                t.elapsed().as_nanos() as f64 / batch as f64
            })
            .fold(f64::INFINITY, f64::min)
    }

    /// Measurement behind [`low_split`] (not a pass/fail test): the short product with
    /// halves against the chosen split, as a fraction of a full product. `cargo test
    /// --release -p primekit --lib short_product_split -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn short_product_split() {
        let halves: fn(usize) -> (usize, usize) = |n| (n - n / 2, n / 2);
        for base in super::super::karatsuba::tests::tests_bases() {
            for n in [96usize, 128, 160, 256, 384, 512] {
                let a: Vec<Limb> = (0..n as u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1).collect();
                let b: Vec<Limb> = (0..n as u64).map(|i| i.wrapping_mul(0x6a09_e667_f3bc_c909)).collect();
                let reps = 200_000_000 / (n * n) + 10;
                let mut s = vec![0; 2 * low_scratch(n) + product_scratch(n)];
                let mut w = vec![0; 2 * n];
                let full = time(reps, || product(base, &mut w, &a, &b, false, &mut s));
                let even = time(reps, || mul_low_split(base, &mut w[..n], &a, &b, &mut s, halves));
                let chosen = time(reps, || mul_low(base, &mut w[..n], &a, &b, &mut s));
                eprintln!(
                    "{base:?} n={n}: product {full:.0} ns; short product, halves {even:.0} ({:.2}), k = 2n/5 {chosen:.0} ({:.2})",
                    even / full,
                    chosen / full
                );
            }
        }
    }

    /// Crossover measurement behind [`Base::threshold_low`], [`Base::threshold_bm1`] and
    /// the reduction choice of `karatsuba::plan` (not a pass/fail test): `cargo test
    /// --release -p primekit --lib reduction_crossover -- --ignored --nocapture`.
    #[test]
    #[ignore]
    fn reduction_crossover() {
        for base in super::super::karatsuba::tests::tests_bases() {
            for n in [32usize, 48, 64, 96, 97, 128, 129, 192, 193, 256] {
                let r = BigUint::one() << (64 * n);
                let m = &r - 12345u32 * 2 - 1u32;
                let ml = to_limbs(&m, n).unwrap();
                let m_prime = to_limbs(&(&r - m.modinv(&r).unwrap()), n).unwrap();
                let a: Vec<Limb> = (0..n as u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1).collect();
                let t: Vec<Limb> = (0..2 * n as u64).map(|i| i.wrapping_mul(0x6a09_e667_f3bc_c909)).collect();
                let reps = 200_000_000 / (n * n) + 10;
                let mut s = vec![0; redc_scratch(n) + bm1_scratch(n) + 4 * n];
                let mut w = vec![0; 2 * n];
                let mut out = vec![0; n];
                let full = time(reps, || product(base, &mut w, &a, &ml, false, &mut s));
                let low = time(reps, || mul_low(base, &mut w[..n], &a, &ml, &mut s));
                let m_res = bm1_residues(base, &ml);
                let bm1 = time(reps, || mul_mod_bm1(base, &mut w[..n], &a, &ml, &m_res, &mut s));
                let by_products = time(reps, || redc(base, &mut out, &t, &ml, &m_prime, &m_res, &mut s));
                let m0 = neg_inv_mod_word(ml[0]);
                let mut tt = t.clone();
                let school = time(reps, || {
                    tt.copy_from_slice(&t);
                    match base {
                        Base::Portable => super::super::portable::redc(&mut out, &mut tt, &ml, m0),
                        #[cfg(target_arch = "x86_64")]
                        Base::Adx(cpu) => super::super::adx::redc(cpu, &mut out, &mut tt, &ml, m0),
                    }
                });
                let sq = time(reps, || product(base, &mut w, &a, &a, true, &mut s));
                let mut mont = |red| {
                    let bm = super::super::karatsuba::BigMont::new(base, red, &ml, m0);
                    let mut sc = vec![0; bm.scratch_len()];
                    time(reps, || bm.sqr(&mut out, &a[..n], &mut sc))
                };
                let (ms, mp) = (mont(Reduction::Schoolbook), mont(Reduction::Products));
                eprintln!(
                    "{base:?} n={n}: product {full:.0} ns, square {sq:.0}, low {low:.0}, mod B^n-1 {bm1:.0}; reduction schoolbook {school:.0}, by products {by_products:.0}; Montgomery square {ms:.0} / {mp:.0}"
                );
            }
        }
    }
}
