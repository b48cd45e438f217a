//! Sums of Montgomery products reduced once ("lazy reduction").
//!
//! A polynomial product over Z/mZ forms each coefficient as a sum of many products of
//! elements. Reducing every product costs a full Montgomery reduction (about as much as
//! the product itself); adding the unreduced 2n-limb products and reducing the sum once
//! costs one reduction per coefficient instead. With elements in Montgomery form
//! (X = x R mod m), `sum X_i Y_i = (sum x_i y_i) R^2`, so one reduction by R gives the
//! Montgomery form of `sum x_i y_i`: the accumulator needs no form of its own.
//!
//! Contract (n = limb count of m, B = 2^64, R = B^n):
//! - an accumulator is [`MontContext::acc_len`] = 2n + 1 limbs holding a plain integer;
//! - [`MontContext::mul_acc`] / [`MontContext::sqr_acc`] add the full product of elements
//!   `< m` (each below m^2 < B^2n, so the top limb grows by at most one per product);
//! - before [`MontContext::reduce_acc_vartime`], the top limb must be below B - 1: a
//!   sum of K products has a top limb below K, and a doubling doubles that bound, so
//!   the products counted with their doublings (a product doubled j times counts 2^j)
//!   must stay below 2^64 - 1; the result is fully reduced;
//! - products and additions run in time that depends only on n; the reduction's final
//!   correction loop depends on the value (hence `_vartime`): callers use it on public
//!   data only.

use super::karatsuba::{product, scratch_len, Base};
use super::MontContext;
use crate::arith::carry;
use crate::arith::limbs::{lt_vartime, sub_assign, Limb};

impl MontContext {
    /// Limbs of an accumulator: 2n + 1.
    pub fn acc_len(&self) -> usize {
        2 * self.len() + 1
    }

    /// Scratch limbs [`Self::mul_acc`] and [`Self::sqr_acc`] need.
    pub fn acc_scratch_len(&self) -> usize {
        2 * self.len() + scratch_len(self.len())
    }

    /// The schoolbook kernel the products bottom out in.
    fn product_base(&self) -> Base {
        match self.adx() {
            #[cfg(target_arch = "x86_64")]
            Some(cpu) => Base::Adx(cpu),
            _ => Base::Portable,
        }
    }

    fn add_product(&self, acc: &mut [Limb], a: &[Limb], b: &[Limb], square: bool, t: &mut [Limb]) {
        let n = self.len();
        assert!(a.len() == n && b.len() == n && acc.len() == 2 * n + 1 && t.len() >= self.acc_scratch_len());
        let (w, s) = t.split_at_mut(2 * n);
        product(self.product_base(), w, a, b, square, s);
        let c = carry::add_assign(&mut acc[..2 * n], w);
        acc[2 * n] = acc[2 * n].wrapping_add(c);
    }

    /// `acc += a b` as integers (see the module contract). `t`: [`Self::acc_scratch_len`].
    pub fn mul_acc(&self, acc: &mut [Limb], a: &[Limb], b: &[Limb], t: &mut [Limb]) {
        self.add_product(acc, a, b, false, t)
    }

    /// `acc += a^2` as integers, by the dedicated squaring.
    pub fn sqr_acc(&self, acc: &mut [Limb], a: &[Limb], t: &mut [Limb]) {
        self.add_product(acc, a, a, true, t)
    }

    /// `out = acc R^-1 mod m`, fully reduced; `acc` (top limb below B - 1) is destroyed.
    ///
    /// Write acc = V R + L with L < R and V of n + 1 limbs. Replacing V by V mod m
    /// changes acc by a multiple of m R, so not its value times R^-1 mod m, and leaves it
    /// below m R: the kernel's Montgomery reduction then applies as to any product.
    pub fn reduce_acc_vartime(&self, out: &mut [Limb], acc: &mut [Limb]) {
        let n = self.len();
        assert!(out.len() == n && acc.len() == 2 * n + 1 && acc[2 * n] < Limb::MAX);
        reduce_short_vartime(&mut acc[n..], &self.m);
        let t = &mut acc[..2 * n];
        match self.adx() {
            #[cfg(target_arch = "x86_64")]
            Some(cpu) => super::adx::redc(cpu, out, t, &self.m, self.m0inv),
            _ => super::portable::redc(out, t, &self.m, self.m0inv),
        }
    }
}

/// `v mod m` in place, for v of n + 1 limbs and m of n (top limb nonzero). The
/// quotient estimate q = floor(V_top / (m_top + 1)), from the top two limbs of v and the
/// top limb of m, never exceeds v / m (m < (m_top + 1) B^(n-1)); it may take two limbs,
/// and is subtracted as q_hi m B + q_lo m. Since m_top + 1 <= 2 m_top, a trip leaves
/// at most v / 2 + m, so the loop ends within about log2(v / m) + 2 trips. On return
/// v[n] = 0.
fn reduce_short_vartime(v: &mut [Limb], m: &[Limb]) {
    let n = m.len();
    debug_assert_eq!(v.len(), n + 1);
    let m_top = m[n - 1] as u128 + 1;
    while v[n] != 0 || !lt_vartime(&v[..n], m) {
        let v_top = (v[n] as u128) << 64 | v[n - 1] as u128;
        let q = v_top / m_top;
        let (q_hi, q_lo) = ((q >> 64) as Limb, q as Limb);
        if q == 0 {
            // v[n] = 0 and v >= m: one subtraction, no borrow.
            sub_assign(&mut v[..n], m);
            continue;
        }
        // q_hi m B <= q m <= v < B^(n+1): q_hi m fits the n limbs above the lowest.
        sub_mul_word(&mut v[1..], m, q_hi);
        sub_mul_word(v, m, q_lo);
    }
}

/// `v -= q m` for v.len() in {m.len(), m.len() + 1}, q m <= v (so nothing is borrowed
/// out of v).
fn sub_mul_word(v: &mut [Limb], m: &[Limb], q: Limb) {
    if q == 0 {
        return;
    }
    let (mut c, mut borrow): (Limb, Limb) = (0, 0);
    for (vj, &mj) in v.iter_mut().zip(m) {
        let p = q as u128 * mj as u128 + c as u128;
        c = (p >> 64) as Limb;
        let (d, b1) = vj.overflowing_sub(p as Limb);
        let (d, b2) = d.overflowing_sub(borrow);
        *vj = d;
        borrow = (b1 | b2) as Limb;
    }
    if let Some(top) = v.get_mut(m.len()) {
        *top = top.wrapping_sub(c).wrapping_sub(borrow);
    } else {
        debug_assert!(c == 0 && borrow == 0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::cpu::Kernel;
    use crate::arith::limbs::{from_limbs, to_limbs};
    use num_bigint::BigUint;
    use num_traits::One;

    /// Random-looking limbs from a counter (splitmix64).
    fn limbs(seed: &mut u64, n: usize) -> Vec<Limb> {
        (0..n)
            .map(|_| {
                *seed = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
                let mut z = *seed;
                z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
                z ^ (z >> 31)
            })
            .collect()
    }

    /// Sums of k products (and squares, and doublings) reduced once agree with num-bigint,
    /// on every kernel this CPU has, across the Karatsuba and Toom-3 edges, for moduli with
    /// a full and a nearly empty top limb and the largest odd modulus of n limbs.
    #[test]
    fn sums_reduced_once_match_biguint() {
        let mut seed = 7;
        for kernel in [Kernel::Portable, Kernel::Adx, Kernel::Avx2, Kernel::Ifma] {
            for n in [1usize, 2, 7, 8, 9, 23, 24, 31, 32, 33, 64, 130] {
                let mut tops = vec![!0u64, 1, 1 << 40];
                tops.truncate(if n == 130 { 1 } else { 3 });
                for (which, top) in tops.into_iter().enumerate() {
                    let mut ml = limbs(&mut seed, n);
                    ml[0] |= 1;
                    ml[n - 1] = top;
                    if which == 0 && n <= 8 {
                        ml.iter_mut().for_each(|l| *l = !0);
                    }
                    let m = from_limbs(&ml);
                    if m.bits() < 2 {
                        continue;
                    }
                    let Ok(ctx) = MontContext::with_kernel(&m, kernel) else { continue };
                    let r = BigUint::one() << (64 * n);
                    let r_inv = r.modinv(&m).unwrap();
                    let mut t = vec![0; ctx.acc_scratch_len()];
                    for k in [1usize, 2, 5, 40] {
                        let mut acc = vec![0; ctx.acc_len()];
                        let mut want = BigUint::default();
                        for i in 0..k {
                            let a = from_limbs(&limbs(&mut seed, n)) % &m;
                            let b = from_limbs(&limbs(&mut seed, n)) % &m;
                            let (al, bl) = (to_limbs(&a, n).unwrap(), to_limbs(&b, n).unwrap());
                            if i % 3 == 2 {
                                ctx.sqr_acc(&mut acc, &al, &mut t);
                                want += &a * &a;
                            } else {
                                ctx.mul_acc(&mut acc, &al, &bl, &mut t);
                                want += &a * &b;
                            }
                            if i == 3 {
                                let c = carry::double(&mut acc);
                                assert_eq!(c, 0);
                                want *= 2u8;
                            }
                        }
                        assert_eq!(from_limbs(&acc), want, "n {n} k {k} {kernel:?}");
                        let mut out = vec![0; n];
                        ctx.reduce_acc_vartime(&mut out, &mut acc);
                        assert_eq!(from_limbs(&out), (&want * &r_inv) % &m, "n {n} k {k} {kernel:?}");
                    }
                }
            }
        }
    }

    /// A modulus with a small top limb and the largest top limb of v the contract allows:
    /// the quotient takes two limbs, and the reduction ends at once with the right value.
    #[test]
    fn two_limb_quotients_end_quickly() {
        let m = [13u64, 1];
        let mut v = [!0u64, 5, !0 - 1];
        let want = from_limbs(&v) % from_limbs(&m);
        reduce_short_vartime(&mut v, &m);
        assert_eq!(v[2], 0);
        assert_eq!(from_limbs(&v[..2]), want);
    }

    /// The largest accumulator the contract allows (top limb B - 2) still reduces.
    #[test]
    fn largest_accumulator_reduces() {
        let m = (BigUint::one() << 255) + 19u8;
        let ctx = MontContext::with_kernel(&m, Kernel::Portable).unwrap();
        let mut acc = vec![!0; ctx.acc_len()];
        acc[8] = !0 - 1;
        let r: BigUint = BigUint::one() << 256;
        let want = from_limbs(&acc) * r.modinv(&m).unwrap() % &m;
        let mut out = vec![0; 4];
        ctx.reduce_acc_vartime(&mut out, &mut acc);
        assert_eq!(from_limbs(&out), want);
    }
}
