//! Chains of products outside exponentiations, in the context's fastest representation
//! ("chain elements"): elliptic-curve point arithmetic, whose products come one at a
//! time between additions and subtractions.
//!
//! Under the IFMA kernel (a context with an IFMA domain) a chain element is an IFMA-domain
//! element: `width()` words of 52-bit digits, value `< 2m`, Montgomery factor R' =
//! 2^(52k). Otherwise it is the scalar Montgomery form: n limbs, value `< m`, factor R.
//! Entering and leaving cost one product each, paid once per chain; in between, every
//! product is an almost-Montgomery product in the vector unit instead of a scalar one.
//!
//! Contract:
//! - every chain input is an output of [`MontContext::chain_enter`] or of another chain
//!   function of the same context, [`MontContext::chain_len`] words long;
//! - outputs have the same form; `out` is distinct from the inputs;
//! - products run in time that depends only on the size; `_vartime` additions and
//!   subtractions branch on the values: public data only;
//! - the value of a chain element is only defined mod m (under IFMA, x and x + m both
//!   occur): compare or test for zero after [`MontContext::chain_leave`].

#[cfg(target_arch = "x86_64")]
use super::ifma;
use super::MontContext;
use crate::arith::carry;
use crate::arith::limbs::{add_mod_vartime, lt_vartime, sub_assign, sub_mod_vartime, Limb};

impl MontContext {
    /// Words of a chain element.
    pub fn chain_len(&self) -> usize {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return p.width();
        }
        self.len()
    }

    /// The chain element of the Montgomery-form element `a < m` (n limbs).
    pub fn chain_enter(&self, out: &mut [u64], a: &[Limb]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return p.enter(out, a);
        }
        out.copy_from_slice(a);
    }

    /// The Montgomery-form element (n limbs, fully reduced) of the chain element `a`.
    pub fn chain_leave(&self, out: &mut [Limb], a: &[u64]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return p.leave(out, a, &self.m);
        }
        out.copy_from_slice(a);
    }

    /// `out = a b` in the chain's form; `t` from [`MontContext::scratch`].
    pub fn chain_mul(&self, out: &mut [u64], a: &[u64], b: &[u64], t: &mut [Limb]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return ifma::amm(p, out, a, b);
        }
        self.mul(out, a, b, t);
    }

    /// `out = a^2` in the chain's form; `t` from [`MontContext::scratch`].
    pub fn chain_sqr(&self, out: &mut [u64], a: &[u64], t: &mut [Limb]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return ifma::amm(p, out, a, a);
        }
        self.sqr(out, a, t);
    }

    /// `a = a + b`.
    pub fn chain_add_vartime(&self, a: &mut [u64], b: &[u64]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return ifma::add_vartime(p, a, b);
        }
        add_mod_vartime(a, b, &self.m);
    }

    /// `a = 2 a`.
    pub fn chain_dbl_vartime(&self, a: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return ifma::dbl_vartime(p, a);
        }
        if carry::double(a) != 0 || !lt_vartime(a, &self.m) {
            sub_assign(a, &self.m);
        }
    }

    /// `a = a - b`.
    pub fn chain_sub_vartime(&self, a: &mut [u64], b: &[u64]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return ifma::sub_vartime(p, a, b);
        }
        sub_mod_vartime(a, b, &self.m);
    }
}

#[cfg(test)]
pub(super) mod tests {
    use crate::arith::cpu::Kernel;
    use crate::arith::limbs::{from_limbs, to_limbs};
    use crate::arith::MontContext;
    use num_bigint::{BigUint, RandBigInt};
    use num_traits::One;
    use rand_core::SeedableRng;

    /// Integers below m to chain elements of `ctx` and back (the tests' oracle side).
    pub(in crate::arith::mont) struct Convert<'a> {
        ctx: &'a MontContext,
        m: &'a BigUint,
        r: BigUint,
        r_inv: BigUint,
    }

    impl<'a> Convert<'a> {
        pub(in crate::arith::mont) fn new(ctx: &'a MontContext, m: &'a BigUint) -> Self {
            let r = BigUint::one() << (64 * ctx.len());
            let r_inv = r.modinv(m).unwrap();
            Convert { ctx, m, r, r_inv }
        }

        pub(in crate::arith::mont) fn enter(&self, x: &BigUint) -> Vec<u64> {
            let mont = to_limbs(&(x * &self.r % self.m), self.ctx.len()).unwrap();
            let mut e = vec![0; self.ctx.chain_len()];
            self.ctx.chain_enter(&mut e, &mont);
            e
        }

        pub(in crate::arith::mont) fn leave(&self, e: &[u64]) -> BigUint {
            let mut out = vec![0; self.ctx.len()];
            self.ctx.chain_leave(&mut out, e);
            from_limbs(&out) * &self.r_inv % self.m
        }
    }

    /// Chains of products, squares, sums and differences agree with num-bigint on every
    /// kernel this CPU has, for moduli on both sides of the IFMA domain's threshold,
    /// with the largest and smallest elements (sums and differences that wrap, values
    /// that stay between m and 2m under IFMA).
    #[test]
    fn chains_match_biguint() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(11);
        for kernel in [Kernel::Portable, Kernel::Adx, Kernel::Avx2, Kernel::Ifma] {
            for bits in [64u64, 511, 512, 513, 576, 1024, 1279, 2048, 3001] {
                let mut moduli = vec![(BigUint::one() << bits) - 1u8, (BigUint::one() << (bits - 1)) + 1u8];
                moduli.push(rng.gen_biguint(bits) | BigUint::one() | (BigUint::one() << (bits - 1)));
                for m in moduli {
                    let Ok(ctx) = MontContext::with_kernel(&m, kernel) else { continue };
                    let mut t = ctx.scratch();
                    let conv = Convert::new(&ctx, &m);
                    let (enter, leave) = (|x: &BigUint| conv.enter(x), |e: &[u64]| conv.leave(e));
                    let values = [BigUint::ZERO, BigUint::one(), &m - 1u8, &m - 2u8, rng.gen_biguint_below(&m), rng.gen_biguint_below(&m)];
                    for x in &values {
                        assert_eq!(leave(&enter(x)), *x, "round trip {kernel:?} {bits}");
                    }
                    // acc runs through a chain of every operation, compared after each.
                    let mut acc = enter(&values[4]);
                    let mut want = values[4].clone();
                    let mut out = vec![0; ctx.chain_len()];
                    for (i, x) in values.iter().cycle().take(40).enumerate() {
                        let e = enter(x);
                        match i % 4 {
                            0 => {
                                ctx.chain_mul(&mut out, &acc, &e, &mut t);
                                std::mem::swap(&mut acc, &mut out);
                                want = &want * x % &m;
                            }
                            1 => {
                                ctx.chain_add_vartime(&mut acc, &e);
                                want = (&want + x) % &m;
                            }
                            2 => {
                                ctx.chain_sub_vartime(&mut acc, &e);
                                want = (&want + &m - x) % &m;
                            }
                            _ => {
                                ctx.chain_sqr(&mut out, &acc, &mut t);
                                std::mem::swap(&mut acc, &mut out);
                                want = &want * &want % &m;
                                ctx.chain_dbl_vartime(&mut acc);
                                want = &want * 2u8 % &m;
                            }
                        }
                        assert_eq!(leave(&acc), want, "step {i} {kernel:?} {bits} bits");
                    }
                    // Long runs of sums and of differences stay reduced (unreduced, 2^20 x
                    // would overflow the IFMA domain's R' >= 16m).
                    let big = enter(&(&m - 1u8));
                    for i in 0..20 {
                        let copy = acc.clone();
                        ctx.chain_add_vartime(&mut acc, &copy);
                        ctx.chain_dbl_vartime(&mut acc);
                        ctx.chain_add_vartime(&mut acc, &big);
                        want = (&want * 4u8 + &m - 1u8) % &m;
                        assert_eq!(leave(&acc), want, "sum {i} {kernel:?} {bits} bits");
                    }
                    for i in 0..20 {
                        ctx.chain_sub_vartime(&mut acc, &big);
                        want = (&want + 1u8) % &m;
                        assert_eq!(leave(&acc), want, "difference {i} {kernel:?} {bits} bits");
                    }
                }
            }
        }
    }
}
