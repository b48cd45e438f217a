//! The one-lane backend: each "batch" is one exponentiation on a Montgomery context's
//! own kernels (portable or BMI2/ADX, and the context's IFMA exponentiation domain when
//! it has one). It runs on every CPU and is the reference the wide backends are tested
//! against.

use crate::arith::cpu::{Kernel, Tokens};
use crate::arith::limbs::{eq_mask, to_limbs, Limb};
use crate::arith::modexp::{pow_ct, pow_vartime};
use crate::arith::pow2::{pow2_ct, pow2_vartime};
use crate::arith::{ArithError, MontContext};
use num_bigint::BigUint;

/// One lane: the context and nothing else.
#[derive(Clone, Debug)]
pub(super) struct Single {
    ctx: MontContext,
}

impl Single {
    pub(super) fn new(ctx: &MontContext) -> Self {
        Single { ctx: ctx.clone() }
    }

    pub(super) fn kernel(&self) -> Kernel {
        self.ctx.kernel()
    }

    /// Montgomery form of `x < m` (limbs of m's length).
    pub(super) fn load(&self, x: &[Limb]) -> Vec<Limb> {
        self.ctx.to_mont(x, &mut self.ctx.scratch())
    }

    pub(super) fn pow_vartime(&self, x: &[Limb], e: &[Limb]) -> Vec<Limb> {
        pow_vartime(&self.ctx, x, e)
    }

    pub(super) fn pow_ct(&self, x: &[Limb], e: &[Limb], exp_bits: usize) -> Vec<Limb> {
        pow_ct(&self.ctx, x, e, exp_bits)
    }

    /// Ordinary form of `x` (this backend's values are fully reduced).
    pub(super) fn store(&self, x: &[Limb]) -> Vec<Limb> {
        self.ctx.from_mont(x, &mut self.ctx.scratch())
    }

    pub(super) fn sqr(&self, x: &[Limb]) -> Vec<Limb> {
        let mut out = vec![0; x.len()];
        self.ctx.sqr(&mut out, x, &mut self.ctx.scratch());
        out
    }

    /// Montgomery form of `v < m` (fully reduced, as every value of this backend); `v` is
    /// taken as m's limb count of limbs without a reduction, so the time depends on that
    /// count only.
    pub(super) fn target(&self, v: &BigUint) -> Vec<Limb> {
        self.load(&to_limbs(v, self.ctx.len()).expect("v < m"))
    }
}

/// Lane mask (bit 0) of `x == t`, both fully reduced; constant time.
pub(super) fn eq_ct(x: &[Limb], t: &[Limb]) -> u64 {
    eq_mask(x, t) & 1
}

/// 2^(n−1) ≡ 1 (mod n) for odd n >= 3 on the kernel of `cpu`, with the constant-time
/// square-and-double over all limbs of n.
pub(super) fn fermat_base_two_ct(cpu: Tokens, n: &BigUint) -> Result<bool, ArithError> {
    let ctx = MontContext::with_tokens(n, cpu)?;
    let nm1 = to_limbs(&(n - 1u8), ctx.len()).expect("n - 1 < n fits");
    let r = pow2_ct(&ctx, &nm1, ctx.len() * 64);
    Ok(eq_mask(&r, ctx.one()) != 0)
}

/// 2^(n−1) ≡ 1 (mod n) for a public odd n >= 3 on the kernel of `cpu`, by the
/// variable-time base-2 exponentiation (a doubling ladder, or the sliding window in the
/// IFMA domain).
pub(super) fn fermat_base_two_vartime(cpu: Tokens, n: &BigUint) -> Result<bool, ArithError> {
    let ctx = MontContext::with_tokens(n, cpu)?;
    let nm1 = to_limbs(&(n - 1u8), ctx.len()).expect("n - 1 < n fits");
    Ok(pow2_vartime(&ctx, &nm1) == ctx.one())
}
