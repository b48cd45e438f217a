//! Arithmetic in Z/NZ for the elliptic-curve prover and checker, on the Montgomery
//! engine (`arith::MontContext`): elements are limb vectors in Montgomery form.
//!
//! N need not be prime: every operation is a ring operation of Z/NZ, and an inversion
//! that fails returns gcd(x, N), which callers treat as a factor (or as a degenerate
//! computation). Everything here is public data: variable time throughout.

use crate::arith::inverse::inv_mod_vartime;
use crate::arith::lanes::{SharedModulus, Timing};
use crate::arith::limbs::{add_mod_vartime, from_limbs, sub_mod_vartime, to_limbs, Limb};
use crate::arith::modexp::pow_vartime;
use crate::arith::MontContext;
use num_bigint::{BigInt, BigUint};
use num_traits::{Signed, Zero};
use std::cell::{OnceCell, RefCell};

/// An element of Z/NZ in Montgomery form (exactly `len()` limbs, reduced).
pub(super) type El = Vec<Limb>;

/// An element of Z/NZ in the context's chain form (`arith::MontContext::chain_enter`):
/// defined mod N only, so compared after [`Ring::leave`].
pub(super) type Ch = Vec<u64>;

/// Z/NZ for odd N >= 3.
pub(super) struct Ring {
    ctx: MontContext,
    n: BigUint,
    zero: El,
    t: RefCell<Vec<Limb>>,
    /// Scratch of the unreduced products ([`Ring::ch_mul_acc`]).
    acc_t: RefCell<Vec<Limb>>,
    /// The widest shared-modulus lanes, built on first use by [`Ring::pow_many_small`].
    lanes: OnceCell<SharedModulus>,
}

impl Ring {
    pub(super) fn new(n: &BigUint) -> Option<Ring> {
        Self::from_context(n, MontContext::new_vartime(n).ok()?)
    }

    /// [`Ring::new`] on the given kernel (tests compare the kernels).
    #[cfg(test)]
    pub(super) fn with_kernel(n: &BigUint, kernel: crate::arith::Kernel) -> Option<Ring> {
        Self::from_context(n, MontContext::with_kernel(n, kernel).ok()?)
    }

    fn from_context(n: &BigUint, ctx: MontContext) -> Option<Ring> {
        let t = RefCell::new(ctx.scratch());
        let acc_t = RefCell::new(vec![0; ctx.chain_acc_scratch_len()]);
        Some(Ring { zero: vec![0; ctx.len()], ctx, n: n.clone(), t, acc_t, lanes: OnceCell::new() })
    }

    pub(super) fn modulus(&self) -> &BigUint {
        &self.n
    }

    pub(super) fn zero(&self) -> El {
        self.zero.clone()
    }

    pub(super) fn one(&self) -> El {
        self.ctx.one().to_vec()
    }

    pub(super) fn is_zero(&self, a: &El) -> bool {
        a.iter().all(|&w| w == 0)
    }

    /// The element `x mod N`.
    pub(super) fn elem(&self, x: &BigUint) -> El {
        let r = to_limbs(&(x % &self.n), self.ctx.len()).expect("reduced");
        self.ctx.to_mont(&r, &mut self.t.borrow_mut())
    }

    /// The element `x mod N` of a signed integer.
    pub(super) fn elem_signed(&self, x: &BigInt) -> El {
        let a = self.elem(x.magnitude());
        if x.is_negative() {
            self.neg(&a)
        } else {
            a
        }
    }

    pub(super) fn small(&self, x: i64) -> El {
        let a = self.elem(&BigUint::from(x.unsigned_abs()));
        if x < 0 {
            self.neg(&a)
        } else {
            a
        }
    }

    /// The residue in 0..N.
    pub(super) fn to_big(&self, a: &El) -> BigUint {
        from_limbs(&self.ctx.from_mont(a, &mut self.t.borrow_mut()))
    }

    pub(super) fn add(&self, a: &El, b: &El) -> El {
        let mut r = a.clone();
        add_mod_vartime(&mut r, b, self.ctx.modulus());
        r
    }

    pub(super) fn sub(&self, a: &El, b: &El) -> El {
        let mut r = a.clone();
        sub_mod_vartime(&mut r, b, self.ctx.modulus());
        r
    }

    pub(super) fn neg(&self, a: &El) -> El {
        self.sub(&self.zero, a)
    }

    pub(super) fn mul(&self, a: &El, b: &El) -> El {
        let mut r = self.zero.clone();
        self.ctx.mul(&mut r, a, b, &mut self.t.borrow_mut());
        r
    }

    pub(super) fn sqr(&self, a: &El) -> El {
        let mut r = self.zero.clone();
        self.ctx.sqr(&mut r, a, &mut self.t.borrow_mut());
        r
    }

    /// A zero chain element: the representation of the point arithmetic's long chains
    /// of products ([`Ch`]; `arith::MontContext::chain_enter`).
    pub(super) fn chain_zero(&self) -> Ch {
        vec![0; self.ctx.chain_len()]
    }

    /// The chain element of `a`.
    pub(super) fn enter(&self, a: &El) -> Ch {
        let mut out = self.chain_zero();
        self.ctx.chain_enter(&mut out, a);
        out
    }

    /// The element of the chain element `a`.
    pub(super) fn leave(&self, a: &[u64]) -> El {
        let mut out = self.zero();
        self.ctx.chain_leave(&mut out, a);
        out
    }

    /// `out = a b` on chain elements (out distinct from a and b).
    pub(super) fn ch_mul_to(&self, out: &mut Ch, a: &[u64], b: &[u64]) {
        self.ctx.chain_mul(out, a, b, &mut self.t.borrow_mut());
    }

    /// `out = a^2` on chain elements (out distinct from a).
    pub(super) fn ch_sqr_to(&self, out: &mut Ch, a: &Ch) {
        self.ctx.chain_sqr(out, a, &mut self.t.borrow_mut());
    }

    /// `a += b` on chain elements.
    pub(super) fn ch_add_to(&self, a: &mut Ch, b: &Ch) {
        self.ctx.chain_add_vartime(a, b);
    }

    /// `a -= b` on chain elements.
    pub(super) fn ch_sub_to(&self, a: &mut Ch, b: &Ch) {
        self.ctx.chain_sub_vartime(a, b);
    }

    /// `a = 2 a` on chain elements.
    pub(super) fn ch_dbl_to(&self, a: &mut Ch) {
        self.ctx.chain_dbl_vartime(a);
    }

    /// Words of an accumulator of unreduced chain products
    /// (`arith::MontContext::chain_acc_len`; zero when created and after each reduction).
    pub(super) fn ch_acc_len(&self) -> usize {
        self.ctx.chain_acc_len()
    }

    /// `acc += a b` on chain elements, unreduced; [`Ring::ch_reduce_acc`] takes the sum of
    /// fewer than `arith::mont::CHAIN_ACC_MAX_TERMS` terms, each counted twice per
    /// doubling after it.
    pub(super) fn ch_mul_acc(&self, acc: &mut [u64], a: &[u64], b: &[u64]) {
        self.ctx.chain_mul_acc(acc, a, b, &mut self.acc_t.borrow_mut());
    }

    /// `acc += sum of x_i y_j` over `pairs` (i, j), for the chain elements held one after
    /// another in `xs` and `ys`: [`Ring::ch_mul_acc`] for each pair, the products summed
    /// before they reach `acc` where the kernel can.
    pub(super) fn ch_mul_acc_pairs(&self, acc: &mut [u64], xs: &[u64], ys: &[u64], pairs: &[(u32, u32)]) {
        self.ctx.chain_mul_acc_pairs(acc, xs, ys, pairs, &mut self.acc_t.borrow_mut());
    }

    /// `acc += a^2` on a chain element, unreduced.
    pub(super) fn ch_sqr_acc(&self, acc: &mut [u64], a: &[u64]) {
        self.ctx.chain_sqr_acc(acc, a, &mut self.acc_t.borrow_mut());
    }

    /// `acc += a` for a chain element, as one term of the sum.
    pub(super) fn ch_join_acc(&self, acc: &mut [u64], a: &[u64]) {
        self.ctx.chain_join_acc(acc, a);
    }

    /// `acc = 2 acc`, unreduced.
    pub(super) fn ch_dbl_acc(&self, acc: &mut [u64]) {
        self.ctx.chain_dbl_acc(acc);
    }

    /// The chain elements the accumulated sums stand for, one after another in `out`
    /// ([`Ring::chain_zero`]'s length each), for the accumulators one after another in
    /// `accs` ([`Ring::ch_acc_len`] words each); the accumulators are left zero.
    pub(super) fn ch_reduce_accs(&self, out: &mut [u64], accs: &mut [u64]) {
        self.ctx.chain_reduce_accs_vartime(out, accs, &mut self.acc_t.borrow_mut());
    }

    /// `a * k` for a small integer k.
    pub(super) fn mul_small(&self, a: &El, k: u64) -> El {
        // Double-and-add on additions: k is tiny (at most a few dozen).
        let mut r = self.zero.clone();
        for i in (0..64 - k.leading_zeros()).rev() {
            r = self.add(&r, &r);
            if k >> i & 1 == 1 {
                r = self.add(&r, a);
            }
        }
        r
    }

    pub(super) fn pow(&self, a: &El, e: &BigUint) -> El {
        if e.is_zero() {
            return self.one();
        }
        pow_vartime(&self.ctx, a, &e.to_u64_digits())
    }

    /// How many exponentiations [`Ring::pow_many_small`] runs at once (1 on kernels without
    /// wide lanes, or where they do not pay for a full batch).
    pub(super) fn pow_lanes(&self) -> usize {
        if SharedModulus::wide_pays(&self.ctx, 8, Timing::Vartime) {
            self.lanes.get_or_init(|| SharedModulus::widest(&self.ctx)).lanes()
        } else {
            1
        }
    }

    /// `a^e` for each of the small integers `smalls` (|a| < 2^32), in order:
    /// [`Ring::pow_lanes`] bases per exponentiation of the shared-modulus lanes
    /// (`arith::lanes::SharedModulus::pow_words_vartime`, which may multiply by the words
    /// instead of by table entries), one at a time where a batch does not pay for the
    /// count. A negative a is raised as |a|, negated for odd e.
    pub(super) fn pow_many_small(&self, smalls: &[i64], e: &BigUint) -> Vec<El> {
        let lanes = self.pow_lanes();
        if lanes == 1 || !SharedModulus::wide_pays(&self.ctx, smalls.len(), Timing::Vartime) {
            return smalls.iter().map(|&a| self.pow(&self.small(a), e)).collect();
        }
        let batch = self.lanes.get().expect("set by pow_lanes");
        let odd = e.bit(0);
        let e = e.to_u64_digits();
        let mut out = Vec::with_capacity(smalls.len());
        for chunk in smalls.chunks(lanes) {
            let words: Vec<u64> = chunk.iter().map(|a| a.unsigned_abs()).collect();
            let y = batch.pow_words_vartime(&words, &e);
            for (v, &a) in batch.store_vartime(&y, chunk.len()).iter().zip(chunk) {
                let r = self.ctx.to_mont(v, &mut self.t.borrow_mut());
                out.push(if a < 0 && odd { self.neg(&r) } else { r });
            }
        }
        out
    }

    /// `a^-1`, or `Err(g)` with g = gcd(a, N) > 1 when a is not invertible.
    pub(super) fn inv(&self, a: &El) -> Result<El, BigUint> {
        // a = x R (R = 2^(64 len), prime to N): (x R)^-1 R^2 = x^-1 R, and
        // gcd(x R, N) = gcd(x, N).
        match inv_mod_vartime(a, self.ctx.modulus()) {
            Ok(i) => {
                let mut t = self.t.borrow_mut();
                let i_r = self.ctx.to_mont(&i, &mut t);
                Ok(self.ctx.to_mont(&i_r, &mut t))
            }
            Err(g) => Err(from_limbs(&g)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::One;

    /// Batched powers equal single ones, for full and partial batches, at a size where
    /// the lanes pay on kernels that have them.
    #[test]
    fn pow_many_small_matches_pow() {
        for bits in [200u32, 1024, 1279, 2048] {
            let n = (BigUint::from(1u8) << bits) - 1u8 - (BigUint::from(1u8) << 40u32);
            let f = Ring::new(&n).unwrap();
            let smalls: Vec<i64> = vec![-3, -4, 5, -7, 8, -11, 13, 17, -19, 2, (1 << 32) - 1, -(1 << 31)];
            for e in [BigUint::from(1u8), BigUint::from(2u8), (&n - 1u8) >> 1, (&n - 3u8) >> 1] {
                // Whole and partial batches.
                for count in [1, 5, 8, 11, smalls.len()] {
                    let got = f.pow_many_small(&smalls[..count], &e);
                    assert_eq!(got.len(), count);
                    for (g, &a) in got.iter().zip(&smalls) {
                        assert!(*g == f.pow(&f.small(a), &e), "bits {bits} a {a} count {count}");
                    }
                }
            }
        }
    }

    #[test]
    fn ring_matches_biguint() {
        let n = BigUint::parse_bytes(b"340282366920938463463374607431768211507", 10).unwrap();
        let r = Ring::new(&n).unwrap();
        let a = BigUint::parse_bytes(b"123456789012345678901234567890123", 10).unwrap();
        let b = BigUint::parse_bytes(b"987654321098765432109876543210987", 10).unwrap();
        let (ea, eb) = (r.elem(&a), r.elem(&b));
        assert_eq!(r.to_big(&r.mul(&ea, &eb)), (&a * &b) % &n);
        assert_eq!(r.to_big(&r.sqr(&ea)), (&a * &a) % &n);
        assert_eq!(r.to_big(&r.sub(&ea, &eb)), (&a + &n - &b) % &n);
        assert_eq!(r.to_big(&r.add(&ea, &eb)), (&a + &b) % &n);
        assert_eq!(r.to_big(&r.mul_small(&ea, 27)), (&a * 27u8) % &n);
        assert_eq!(r.to_big(&r.small(-5)), &n - 5u8);
        let i = r.inv(&ea).unwrap();
        assert!(r.to_big(&r.mul(&i, &ea)).is_one());
        assert_eq!(r.to_big(&r.pow(&ea, &BigUint::from(3u8))), a.modpow(&BigUint::from(3u8), &n));
        assert!(r.inv(&r.zero()).is_err());
    }
}
