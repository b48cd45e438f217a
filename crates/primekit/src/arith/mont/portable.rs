//! Portable Montgomery kernels on `u128` products; always built, always tested.
//!
//! Contract shared by every kernel in this module (n = `m.len()` limbs, R = 2^(64n)):
//! - `m` is odd and `m[n-1] != 0`; `m0inv = -m^{-1} mod 2^64`;
//! - inputs `a`, `b` are `< m`; the output is `a*b*R^{-1} mod m`, fully reduced (`< m`);
//! - `out` must not alias an input; `t` is scratch of at least `2n + 2` limbs
//!   (its contents on entry are ignored);
//! - time and memory accesses depend only on `n`, never on limb values.

use crate::arith::limbs::{sub_into, Limb};

#[inline(always)]
fn mac(t: Limb, a: Limb, b: Limb, carry: Limb) -> (Limb, Limb) {
    // t + a*b + carry < 2^128, so it cannot overflow.
    let s = (t as u128) + (a as u128) * (b as u128) + (carry as u128);
    (s as Limb, (s >> 64) as Limb)
}

/// Conditional final subtraction: `out = t - m` if `t >= m` else `t`, where the value is
/// `t[..n] + top*2^(64n)` with `top` in {0, 1} and the value `< 2m`.
#[inline]
pub(crate) fn final_sub(out: &mut [Limb], t: &[Limb], top: Limb, m: &[Limb]) {
    let borrow = sub_into(out, t, m);
    // Keep t only when the subtraction borrowed beyond the top limb. black_box hides that
    // the mask is 0 or !0: without it LLVM turns the select into a branch that skips the
    // copy loop, a secret-dependent jump that .ci/ctgrind.sh caught.
    let keep_t = core::hint::black_box((borrow & !top & 1).wrapping_neg());
    for (o, &x) in out.iter_mut().zip(t) {
        *o = (x & keep_t) | (*o & !keep_t);
    }
}

/// Montgomery product by CIOS (coarsely integrated operand scanning):
/// 2n^2 + n word products (Hamburg 2014).
pub fn mont_mul(out: &mut [Limb], a: &[Limb], b: &[Limb], m: &[Limb], m0inv: Limb, t: &mut [Limb]) {
    let n = m.len();
    assert!(a.len() == n && b.len() == n && out.len() == n && t.len() >= n + 2);
    let t = &mut t[..n + 2];
    t.fill(0);
    for &ai in a {
        let mut c = 0;
        for j in 0..n {
            (t[j], c) = mac(t[j], ai, b[j], c);
        }
        let (s, c1) = t[n].overflowing_add(c);
        t[n] = s;
        t[n + 1] = c1 as Limb;

        let q = t[0].wrapping_mul(m0inv);
        let (_, mut c) = mac(t[0], q, m[0], 0);
        for j in 1..n {
            (t[j - 1], c) = mac(t[j], q, m[j], c);
        }
        let (s, c1) = t[n].overflowing_add(c);
        t[n - 1] = s;
        t[n] = t[n + 1] + c1 as Limb;
    }
    final_sub(out, &t[..n], t[n], m);
}

/// Montgomery reduction of the 2n-limb value in `t[..2n]` (must be `< m*R`):
/// n^2 + n word products.
pub fn redc(out: &mut [Limb], t: &mut [Limb], m: &[Limb], m0inv: Limb) {
    let n = m.len();
    let mut top = 0; // carry out of t[2n-1], 0 or 1
    for i in 0..n {
        let q = t[i].wrapping_mul(m0inv);
        let mut c = 0;
        for j in 0..n {
            (t[i + j], c) = mac(t[i + j], q, m[j], c);
        }
        let s = (t[i + n] as u128) + (c as u128) + (top as u128);
        t[i + n] = s as Limb;
        top = (s >> 64) as Limb;
    }
    final_sub(out, &t[n..2 * n], top, m);
}

/// `w[..n] = a*b mod 2^(64n)` (n = a.len() = b.len()): the low half of the product by
/// rows of decreasing length, n(n+1)/2 word products.
pub(crate) fn mul_low(w: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = a.len();
    let w = &mut w[..n];
    w.fill(0);
    for (i, &ai) in a.iter().enumerate() {
        let mut c = 0;
        for (j, &bj) in b[..n - i].iter().enumerate() {
            (w[i + j], c) = mac(w[i + j], ai, bj, c);
        }
    }
}

/// Full square of `a` into `t[..2n]`: the n(n-1)/2 cross products once, doubled,
/// then the n diagonal squares, so about n^2/2 + n word products instead of n^2.
pub fn square_wide(t: &mut [Limb], a: &[Limb]) {
    let n = a.len();
    let t = &mut t[..2 * n];
    t.fill(0);
    for i in 0..n {
        let mut c = 0;
        for j in i + 1..n {
            (t[i + j], c) = mac(t[i + j], a[i], a[j], c);
        }
        t[i + n] = c;
    }
    double_add_diagonal(t, a);
}

/// `t = 2*t + sum a_i^2 * 2^(128 i)`: turns the cross products of `a` into its square.
#[inline]
pub(crate) fn double_add_diagonal(t: &mut [Limb], a: &[Limb]) {
    let n = a.len();
    let mut hi_bit = 0;
    for x in t.iter_mut() {
        let nb = *x >> 63;
        *x = (*x << 1) | hi_bit;
        hi_bit = nb;
    }
    // Add the diagonal a_i^2 at position 2i.
    let mut c = 0u128;
    for i in 0..n {
        let sq = (a[i] as u128) * (a[i] as u128);
        let s0 = (t[2 * i] as u128) + (sq as u64 as u128) + c;
        t[2 * i] = s0 as Limb;
        let s1 = (t[2 * i + 1] as u128) + (sq >> 64) + (s0 >> 64);
        t[2 * i + 1] = s1 as Limb;
        c = s1 >> 64;
    }
}

/// Montgomery square: `square_wide` then `redc`; about 1.5n^2 word products.
pub fn mont_sqr(out: &mut [Limb], a: &[Limb], m: &[Limb], m0inv: Limb, t: &mut [Limb]) {
    let n = m.len();
    assert!(a.len() == n && out.len() == n && t.len() >= 2 * n + 2);
    square_wide(t, a);
    redc(out, t, m, m0inv);
}

#[cfg(test)]
mod tests {
    use super::super::kernel_tests::{check_every_small_length, Kernels};

    /// The kernels against num-bigint at every small length (`kernel_tests`).
    #[test]
    fn kernels_match_num_bigint_at_every_small_length() {
        check_every_small_length(
            &Kernels {
                mul_full: None,
                sqr_full: &super::square_wide,
                mul_low: &super::mul_low,
                mont_mul: &super::mont_mul,
                mont_sqr: &super::mont_sqr,
            },
            1990,
        );
    }
}
