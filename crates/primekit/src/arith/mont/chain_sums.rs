//! Sums of chain products reduced once: the lazy reduction of [`super::sums`] on chain
//! elements (`chain.rs`), in whichever form the context's chains take.
//!
//! Under the IFMA kernel a product is formed in the vector unit without its reduction and
//! the sum of products is reduced once (`ifma::sums`); otherwise these are the scalar
//! sums of `sums.rs` on Montgomery-form elements. Root finding's polynomial squares, whose
//! coefficients are sums of up to d products, pay one reduction per coefficient instead
//! of one per product either way.
//!
//! Contract:
//! - an accumulator is [`MontContext::chain_acc_len`] words, zero when created and after
//!   each [`MontContext::chain_reduce_acc_vartime`];
//! - between reductions it takes fewer than [`CHAIN_ACC_MAX_TERMS`] terms, a term being
//!   one product of chain elements or one joined element, counted twice for every
//!   doubling after it;
//! - products run in time that depends only on the size; the reduction branches on the
//!   value: public data only.

#[cfg(target_arch = "x86_64")]
use super::ifma;
use super::MontContext;
use crate::arith::carry;
use crate::arith::limbs::Limb;

/// Terms an accumulator takes between reductions (see the module contract).
pub const CHAIN_ACC_MAX_TERMS: usize = 1 << 10;

impl MontContext {
    /// Words of a chain accumulator.
    pub fn chain_acc_len(&self) -> usize {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return ifma::sums::acc_len(p);
        }
        self.acc_len()
    }

    /// Scratch limbs the chain sums need ([`Self::chain_mul_acc`], [`Self::chain_sqr_acc`],
    /// [`Self::chain_reduce_acc_vartime`]).
    pub fn chain_acc_scratch_len(&self) -> usize {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return ifma::sums::scratch_len(p).max(self.acc_scratch_len());
        }
        self.acc_scratch_len()
    }

    /// `acc += a b` for chain elements, unreduced; `t` of [`Self::chain_acc_scratch_len`].
    pub fn chain_mul_acc(&self, acc: &mut [u64], a: &[u64], b: &[u64], t: &mut [Limb]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return ifma::sums::mul_add(p, acc, a, b);
        }
        self.mul_acc(acc, a, b, t);
    }

    /// `acc += sum of x_i y_j` over `pairs` (i, j) for the chain elements x_i, y_j held one
    /// after another in `xs` and `ys` ([`Self::chain_len`] words each), unreduced: each pair
    /// one term of the contract. Under the IFMA kernel the products are summed in the
    /// vector registers and carried into `acc` once per few dozen, not once each.
    pub fn chain_mul_acc_pairs(&self, acc: &mut [u64], xs: &[u64], ys: &[u64], pairs: &[(u32, u32)], t: &mut [Limb]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return ifma::sums::mul_add_pairs(p, acc, xs, ys, pairs);
        }
        let w = self.chain_len();
        for &(i, j) in pairs {
            self.mul_acc(acc, &xs[i as usize * w..][..w], &ys[j as usize * w..][..w], t);
        }
    }

    /// `acc += a^2` for a chain element, unreduced.
    pub fn chain_sqr_acc(&self, acc: &mut [u64], a: &[u64], t: &mut [Limb]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return ifma::sums::mul_add(p, acc, a, a);
        }
        self.sqr_acc(acc, a, t);
    }

    /// `acc += a` for a chain element `a`, as a sum of products standing for it (a times
    /// the chain's Montgomery factor).
    pub fn chain_join_acc(&self, acc: &mut [u64], a: &[u64]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return ifma::sums::join(p, acc, a);
        }
        let n = self.len();
        let c = carry::add_assign(&mut acc[n..2 * n], a);
        acc[2 * n] += c;
    }

    /// `acc = 2 acc`.
    pub fn chain_dbl_acc(&self, acc: &mut [u64]) {
        #[cfg(target_arch = "x86_64")]
        if self.ifma.is_some() {
            return ifma::sums::double(acc);
        }
        let c = carry::double(acc);
        debug_assert_eq!(c, 0, "fewer than CHAIN_ACC_MAX_TERMS terms");
    }

    /// `out` = the chain element the accumulated sum stands for; `acc` is left zero; `t`
    /// of [`Self::chain_acc_scratch_len`].
    pub fn chain_reduce_acc_vartime(&self, out: &mut [u64], acc: &mut [u64], t: &mut [Limb]) {
        self.chain_reduce_accs_vartime(out, acc, t);
    }

    /// [`Self::chain_reduce_acc_vartime`] for several accumulators at once, held one after
    /// another in `accs` ([`Self::chain_acc_len`] words each), into as many chain
    /// elements one after another in `out`: independent reductions, which the IFMA
    /// kernel runs two at a time.
    pub fn chain_reduce_accs_vartime(&self, out: &mut [u64], accs: &mut [u64], t: &mut [Limb]) {
        #[cfg(target_arch = "x86_64")]
        if let Some(p) = &self.ifma {
            return ifma::sums::reduce_vartime(p, out, accs, t);
        }
        let _ = t;
        let (n, al) = (self.len(), self.acc_len());
        assert!(accs.len().is_multiple_of(al) && out.len() == accs.len() / al * n);
        for (o, acc) in out.chunks_exact_mut(n).zip(accs.chunks_exact_mut(al)) {
            self.reduce_acc_vartime(o, acc);
            acc.fill(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::chain::tests::Convert;
    use super::CHAIN_ACC_MAX_TERMS;
    use crate::arith::cpu::Kernel;
    use crate::arith::MontContext;
    use num_bigint::{BigUint, RandBigInt};
    use num_traits::One;
    use rand_core::SeedableRng;

    /// Sums of products, squares, joined elements and doublings, reduced once, agree with
    /// num-bigint on every kernel this CPU has: moduli of many sizes (both sides of the
    /// IFMA vector counts), the largest elements (m - 1, and under IFMA values between m
    /// and 2m), up to the term limit.
    #[test]
    fn chain_sums_match_biguint() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(12);
        for kernel in [Kernel::Portable, Kernel::Adx, Kernel::Avx2, Kernel::Ifma] {
            for bits in [64u64, 100, 416, 511, 512, 513, 1024, 1030, 2048, 2100, 4096] {
                let mut moduli = vec![(BigUint::one() << bits) - 1u8, (BigUint::one() << (bits - 1)) + 1u8];
                moduli.push(rng.gen_biguint(bits) | BigUint::one() | (BigUint::one() << (bits - 1)));
                for m in moduli {
                    let Ok(ctx) = MontContext::with_kernel(&m, kernel) else { continue };
                    let mut t = vec![0; ctx.chain_acc_scratch_len()];
                    let conv = Convert::new(&ctx, &m);
                    let (enter, leave) = (|x: &BigUint| conv.enter(x), |e: &[u64]| conv.leave(e));
                    // Elements near 2m under IFMA: m - 1 plus m in the chain form.
                    let mut elems = vec![enter(&(&m - 1u8)), enter(&BigUint::ZERO), enter(&BigUint::one())];
                    let mut sq = vec![0; ctx.chain_len()];
                    ctx.chain_sqr(&mut sq, &elems[0], &mut vec![0; ctx.scratch().len()]);
                    elems.push(sq);
                    for _ in 0..6 {
                        elems.push(enter(&rng.gen_biguint_below(&m)));
                    }
                    let values: Vec<BigUint> = elems.iter().map(|e| leave(e)).collect();
                    let mut acc = vec![0; ctx.chain_acc_len()];
                    let mut out = vec![0; ctx.chain_len()];
                    for terms in [1usize, 2, 7, 64, CHAIN_ACC_MAX_TERMS / 2 - 1] {
                        let mut want = BigUint::ZERO;
                        for i in 0..terms {
                            let (x, y) = (i % elems.len(), (3 * i + 1) % elems.len());
                            match i % 3 {
                                0 => {
                                    ctx.chain_mul_acc(&mut acc, &elems[x], &elems[y], &mut t);
                                    want += &values[x] * &values[y];
                                }
                                1 => {
                                    ctx.chain_sqr_acc(&mut acc, &elems[x], &mut t);
                                    want += &values[x] * &values[x];
                                }
                                _ => {
                                    ctx.chain_join_acc(&mut acc, &elems[y]);
                                    want += &values[y];
                                }
                            }
                        }
                        if terms == 7 {
                            ctx.chain_dbl_acc(&mut acc);
                            want *= 2u8;
                        }
                        ctx.chain_reduce_acc_vartime(&mut out, &mut acc, &mut t);
                        assert_eq!(leave(&out), want % &m, "{kernel:?} {bits} bits, {terms} terms");
                        assert!(acc.iter().all(|&w| w == 0), "accumulator left zero");
                    }
                    // Sums of listed pairs in one call, against the same products one by
                    // one: lists shorter and longer than a register chunk (at 4096 bits 25
                    // products), with the largest elements.
                    let flat: Vec<u64> = elems.concat();
                    for len in [1usize, 3, 30, 100, 400] {
                        let pairs: Vec<(u32, u32)> =
                            (0..len).map(|i| ((i % elems.len()) as u32, ((5 * i + 2) % elems.len()) as u32)).collect();
                        ctx.chain_mul_acc_pairs(&mut acc, &flat, &flat, &pairs, &mut t);
                        let want: BigUint = pairs.iter().map(|&(i, j)| &values[i as usize] * &values[j as usize]).sum();
                        ctx.chain_reduce_acc_vartime(&mut out, &mut acc, &mut t);
                        assert_eq!(leave(&out), want % &m, "{kernel:?} {bits} bits, {len} listed pairs");
                    }
                    // Three sums reduced together (a pair and a lone one on IFMA).
                    let (cl, al) = (ctx.chain_len(), ctx.chain_acc_len());
                    let mut accs = vec![0; 3 * al];
                    let mut wants = vec![BigUint::ZERO; 3];
                    for (s, w) in wants.iter_mut().enumerate() {
                        for i in 0..5 + 7 * s {
                            let (x, y) = ((i + s) % elems.len(), (2 * i + 3) % elems.len());
                            ctx.chain_mul_acc(&mut accs[s * al..][..al], &elems[x], &elems[y], &mut t);
                            *w += &values[x] * &values[y];
                        }
                    }
                    let mut outs = vec![0; 3 * cl];
                    ctx.chain_reduce_accs_vartime(&mut outs, &mut accs, &mut t);
                    for (s, w) in wants.iter().enumerate() {
                        assert_eq!(leave(&outs[s * cl..][..cl]), w % &m, "{kernel:?} {bits} bits, sum {s} of three");
                    }
                    assert!(accs.iter().all(|&w| w == 0), "accumulators left zero");
                }
            }
        }
    }
}
