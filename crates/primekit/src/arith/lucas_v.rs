//! The Lucas V-sequence ladder with Q = 1: V_0 = 2, V_1 = P, and
//!   V_{2k} = V_k^2 - 2,   V_{2k+1} = V_k V_{k+1} - P,
//! so (V_k, V_{k+1}) -> (V_{2k}, V_{2k+1}) or (V_{2k+1}, V_{2k+2}) costs one product and
//! one squaring per bit of the index (the Lucas analogue of a Montgomery ladder; V_k(P, 1)
//! is the trace of a norm-1 element raised to the k-th power). Any Lucas sequence can be
//! brought to Q = 1 by a change of variables, which is how the primality layer uses it.
//!
//! Both products of a step depend only on (V_k, V_{k+1}), so they are independent: with
//! the IFMA kernel they run interleaved in one [`ifma::amm2`] call, and the
//! subtractions stay unreduced (adding 2m - c keeps values below 4m, which AMM accepts).
//!
//! Variable time in the index (its bits choose the branch): for public inputs.

use super::limbs::{add_mod_vartime, bit, bit_len_vartime, sub_mod_vartime, Limb};
#[cfg(target_arch = "x86_64")]
use super::mont::ifma;
use super::mont::MontContext;

/// One ladder step in some domain: `mul = lo*hi - P` and `sqr = y^2 - 2` with y = hi when
/// `up`, else lo.
trait LadderStep {
    fn step(&mut self, mul: &mut [Limb], sqr: &mut [Limb], lo: &[Limb], hi: &[Limb], up: bool);
}

/// `(V_k, V_{k+1})` for k = `index`, from `(two, p)` = (V_0, V_1) in the domain's form.
fn ladder<S: LadderStep>(s: &mut S, two: Vec<Limb>, p: Vec<Limb>, index: &[Limb]) -> (Vec<Limb>, Vec<Limb>) {
    let w = two.len();
    let (mut lo, mut hi) = (two, p);
    let (mut mul, mut sqr) = (vec![0; w], vec![0; w]);
    for i in (0..bit_len_vartime(index)).rev() {
        let up = bit(index, i) == 1;
        s.step(&mut mul, &mut sqr, &lo, &hi, up);
        // up: (V_{2k+1}, V_{2k+2}) = (mul, sqr); else (V_{2k}, V_{2k+1}) = (sqr, mul).
        if up {
            std::mem::swap(&mut lo, &mut mul);
            std::mem::swap(&mut hi, &mut sqr);
        } else {
            std::mem::swap(&mut lo, &mut sqr);
            std::mem::swap(&mut hi, &mut mul);
        }
    }
    (lo, hi)
}

/// The context's scalar kernels; values fully reduced.
struct Scalar<'a> {
    ctx: &'a MontContext,
    p: &'a [Limb],
    two: Vec<Limb>,
    t: Vec<Limb>,
}

impl LadderStep for Scalar<'_> {
    fn step(&mut self, mul: &mut [Limb], sqr: &mut [Limb], lo: &[Limb], hi: &[Limb], up: bool) {
        self.ctx.mul(mul, lo, hi, &mut self.t);
        sub_mod_vartime(mul, self.p, self.ctx.modulus());
        self.ctx.sqr(sqr, if up { hi } else { lo }, &mut self.t);
        sub_mod_vartime(sqr, &self.two, self.ctx.modulus());
    }
}

/// The IFMA domain; values < 4m, each subtraction an addition of 2m - c.
#[cfg(target_arch = "x86_64")]
struct Ifma<'a> {
    params: &'a ifma::IfmaParams,
    minus_p: Vec<u64>,
    minus_two: Vec<u64>,
}

#[cfg(target_arch = "x86_64")]
impl LadderStep for Ifma<'_> {
    fn step(&mut self, mul: &mut [Limb], sqr: &mut [Limb], lo: &[Limb], hi: &[Limb], up: bool) {
        let y = if up { hi } else { lo };
        ifma::amm2(self.params, mul, lo, hi, sqr, y, y);
        ifma::add(self.params, mul, &self.minus_p);
        ifma::add(self.params, sqr, &self.minus_two);
    }
}

/// `(V_k(P, 1), V_{k+1}(P, 1)) mod m` in Montgomery form, fully reduced, for k = `index`
/// and `p` = P in Montgomery form (`< m`, `ctx.len()` limbs). One product and one
/// squaring per bit of k. Variable time in k.
pub fn lucas_v_vartime(ctx: &MontContext, p: &[Limb], index: &[Limb]) -> (Vec<Limb>, Vec<Limb>) {
    assert_eq!(p.len(), ctx.len());
    let mut two = ctx.one().to_vec();
    add_mod_vartime(&mut two, ctx.one(), ctx.modulus());
    let mut s = Scalar { ctx, p, two, t: ctx.scratch() };
    #[cfg(target_arch = "x86_64")]
    if let Some(params) = ctx.ifma() {
        let enter = |x: &[Limb]| {
            let mut d = vec![0; params.width()];
            params.enter(&mut d, x);
            d
        };
        let (two_i, p_i) = (enter(&s.two), enter(p));
        let mut f = Ifma { params, minus_p: ifma::twice_modulus_minus(params, &p_i), minus_two: ifma::twice_modulus_minus(params, &two_i) };
        let (lo, hi) = ladder(&mut f, two_i, p_i, index);
        let leave = |x: &[u64]| {
            let mut out = vec![0; ctx.len()];
            params.leave(&mut out, x, ctx.modulus());
            out
        };
        return (leave(&lo), leave(&hi));
    }
    let two = s.two.clone();
    ladder(&mut s, two, p.to_vec(), index)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::limbs::{from_limbs, to_limbs};
    use crate::arith::Kernel;
    use num_bigint::BigUint;

    /// V_k(P, 1) mod m by the definition V_{j+1} = P V_j - V_{j-1}.
    fn v_naive(pv: &BigUint, k: u64, m: &BigUint) -> BigUint {
        let (mut a, mut b) = (BigUint::from(2u8) % m, pv % m);
        for _ in 0..k {
            let c = (pv * &b + m * 2u8 - &a) % m;
            (a, b) = (b, c);
        }
        a
    }

    #[test]
    fn matches_the_recurrence_on_every_kernel() {
        let mut seed = 0x1234_5678_9abc_def1u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for bits in [3u64, 64, 65, 130, 521, 1024, 1100] {
            for kernel in Kernel::available() {
                let mut m = BigUint::from(next()) << (bits.saturating_sub(64) as usize);
                m = (m % (BigUint::from(1u8) << bits)) | (BigUint::from(1u8) << (bits - 1)) | BigUint::from(1u8);
                let ctx = MontContext::with_kernel(&m, kernel).unwrap();
                let n = ctx.len();
                let mut t = ctx.scratch();
                for pv in [BigUint::from(0u8), BigUint::from(3u8), &m - 1u8, BigUint::from(next()) % &m] {
                    let pm = ctx.to_mont(&to_limbs(&pv, n).unwrap(), &mut t);
                    for k in [0u64, 1, 2, 5, 64, 1000, next() % 3000] {
                        let (lo, hi) = lucas_v_vartime(&ctx, &pm, &to_limbs(&BigUint::from(k), n.max(1)).unwrap());
                        let lo = from_limbs(&ctx.from_mont(&lo, &mut t));
                        let hi = from_limbs(&ctx.from_mont(&hi, &mut t));
                        assert_eq!(lo, v_naive(&pv, k, &m), "{kernel:?} bits {bits} k {k}");
                        assert_eq!(hi, v_naive(&pv, k + 1, &m), "{kernel:?} bits {bits} k {k}");
                    }
                }
            }
        }
    }
}
