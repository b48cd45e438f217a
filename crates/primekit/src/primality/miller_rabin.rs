//! Miller-Rabin rounds on one fixed odd modulus n (seed 001 §2.1).
//!
//! Write n - 1 = d * 2^s with d odd. Base a passes ("n is a strong probable prime to
//! base a") when a^d = 1 or a^(d 2^j) = -1 for some 0 <= j < s. Every prime passes every
//! base; a composite passes at most 1/4 of the bases in [1, n-1] (Monier-Rabin), so a
//! failing base is a proof of compositeness whatever its origin, while the 1/4 bound
//! applies only to bases chosen uniformly at random.

use crate::arith::limbs::{add_assign, eq_mask, from_limbs, lt_vartime, to_limbs, Limb};
use crate::arith::modexp::{pow_ct, pow_vartime};
use crate::arith::ifma::{Ifma8, LANES};
use crate::arith::pow2::pow2_vartime;
use std::cell::OnceCell;
use crate::arith::MontContext;
use crate::Error;
use num_bigint::BigUint;
use rand_core::CryptoRngCore;

/// Squarings `passes_ct` always performs after a^d (covers every s <= 64; about 6% of
/// a 1024-bit exponentiation).
pub const CT_SQUARINGS: usize = 63;

/// Precomputation for Miller-Rabin rounds modulo one odd n >= 5.
#[derive(Clone, Debug)]
pub struct MillerRabin {
    ctx: MontContext,
    /// n - 1 in Montgomery form.
    minus_one: Vec<Limb>,
    /// Odd part d of n - 1, and s with n - 1 = d * 2^s.
    d: Vec<Limb>,
    s: usize,
    /// n - 4: random bases are 2 + (uniform value in [0, n-4]).
    n_minus_4: Vec<Limb>,
    n_minus_4_bits: usize,
    /// Eight-lane IFMA context, built on first use (None without IFMA).
    lanes: OnceCell<Option<Ifma8>>,
}

impl MillerRabin {
    /// Precomputation for odd `n >= 5`.
    pub fn new(n: &BigUint) -> Result<Self, Error> {
        if n < &BigUint::from(5u8) || !n.bit(0) {
            return Err(Error::InvalidArgument("Miller-Rabin needs an odd n >= 5".into()));
        }
        let ctx = MontContext::new(n)?;
        let len = ctx.len();
        let nm1 = n - 1u8;
        let s = nm1.trailing_zeros().expect("n - 1 > 0") as usize;
        let d = &nm1 >> s;
        let mut t = ctx.scratch();
        let minus_one = ctx.to_mont(&to_limbs(&nm1, len).expect("fits"), &mut t);
        let nm4 = n - 4u8;
        Ok(MillerRabin {
            minus_one,
            d: to_limbs(&d, len).expect("fits"),
            s,
            n_minus_4_bits: nm4.bits() as usize,
            n_minus_4: to_limbs(&nm4, len).expect("fits"),
            lanes: OnceCell::new(),
            ctx,
        })
    }

    /// The Montgomery context of n.
    pub fn context(&self) -> &MontContext {
        &self.ctx
    }

    /// The modulus n.
    pub fn modulus(&self) -> BigUint {
        from_limbs(self.ctx.modulus())
    }

    /// One round with base `a` (ordinary form, `2 <= a <= n - 2`, limbs of n's length).
    /// Returns true if n is a strong probable prime to base a. Variable time in n and a.
    pub fn passes_vartime(&self, a: &[Limb]) -> bool {
        let mut t = self.ctx.scratch();
        let am = self.ctx.to_mont(a, &mut t);
        self.finish_round_vartime(pow_vartime(&self.ctx, &am, &self.d))
    }

    /// The rest of a round from x = a^d (Montgomery form): pass if x = 1, or if -1
    /// appears among x, x^2, ..., x^(2^(s-1)).
    fn finish_round_vartime(&self, mut x: Vec<Limb>) -> bool {
        let mut t = self.ctx.scratch();
        if x == self.ctx.one() || x == self.minus_one {
            return true;
        }
        let mut y = vec![0; x.len()];
        for _ in 1..self.s {
            self.ctx.sqr(&mut y, &x, &mut t);
            std::mem::swap(&mut x, &mut y);
            if x == self.minus_one {
                return true;
            }
            if x == self.ctx.one() {
                return false; // 1 reached without passing through -1
            }
        }
        false
    }

    /// True if n passes every base in `bases` (each as for [`Self::passes_vartime`]).
    /// With AVX-512 IFMA, eight bases share each instruction ([`Ifma8`]): the rounds
    /// are independent exponentiations with the same n and d. Stops at the first batch
    /// containing a witness.
    pub fn passes_all_vartime(&self, bases: &[Vec<Limb>]) -> bool {
        let lanes = self.lanes.get_or_init(|| if self.ctx.len() >= 4 { Ifma8::new(&self.modulus()) } else { None });
        let Some(c) = lanes else {
            return bases.iter().all(|a| self.passes_vartime(a));
        };
        let (one, minus_one) = c.one_and_minus_one();
        for batch in bases.chunks(LANES) {
            let xs: Vec<BigUint> = batch.iter().map(|a| from_limbs(a)).collect();
            let mut x = c.pow_vartime(&c.to_mont(&xs), &self.d);
            let vals = c.lanes_reduced(&x);
            let mut passed: Vec<bool> = (0..batch.len()).map(|k| vals[k] == one || vals[k] == minus_one).collect();
            for _ in 1..self.s {
                if passed.iter().all(|&p| p) {
                    break;
                }
                x = c.mul(&x, &x);
                let vals = c.lanes_reduced(&x);
                for (k, p) in passed.iter_mut().enumerate() {
                    *p |= vals[k] == minus_one;
                }
            }
            if !passed.iter().all(|&p| p) {
                return false;
            }
        }
        true
    }

    /// The same round in constant time for a secret n (prime generation): the
    /// exponentiation is [`pow_ct`] over all limbs of n, and the squarings that follow
    /// run a fixed [`CT_SQUARINGS`] times whatever s = v2(n - 1) is, those past s - 1
    /// masked out, so the running time reveals neither d's length nor s. Only the
    /// boolean result is revealed.
    ///
    /// One-sided cap: for the rare n with s > CT_SQUARINGS + 1 (probability 2^-64 for a
    /// random odd n) a -1 beyond the cap is not seen, so a prime may be reported as
    /// failing; a witness is never reported as passing. Generators only lose such a
    /// candidate, which leaves the error bound and the output distribution (up to
    /// 2^-64) unchanged.
    pub fn passes_ct(&self, a: &[Limb]) -> bool {
        let mut t = self.ctx.scratch();
        let am = self.ctx.to_mont(a, &mut t);
        let mut x = pow_ct(&self.ctx, &am, &self.d, self.d_bits_public());
        let mut pass = eq_mask(&x, self.ctx.one()) | eq_mask(&x, &self.minus_one);
        let mut y = vec![0; x.len()];
        for j in 1..=CT_SQUARINGS {
            self.ctx.sqr(&mut y, &x, &mut t);
            std::mem::swap(&mut x, &mut y);
            // !0 while j < s (a real step of the round), 0 after; black_box keeps LLVM
            // from turning the mask into a branch on s.
            let live = core::hint::black_box(((j as u64).wrapping_sub(self.s as u64) >> 63).wrapping_neg());
            pass |= eq_mask(&x, &self.minus_one) & live;
        }
        pass != 0
    }

    /// Exponent length processed by `passes_ct`: all limbs of n (public, unlike the
    /// length of d, which depends on the secret s).
    fn d_bits_public(&self) -> usize {
        self.ctx.len() * 64
    }

    /// One round with base 2, the cheap first filter: a failure proves compositeness.
    /// Uses [`pow2_vartime`] (doublings instead of products by the base).
    pub fn passes_base_two_vartime(&self) -> bool {
        self.finish_round_vartime(pow2_vartime(&self.ctx, &self.d))
    }

    /// A base drawn uniformly from [2, n - 2] by rejection sampling (each draw succeeds
    /// with probability > 1/2; after 128 straight rejections, probability < 2^-128, the
    /// generator is declared broken rather than looping on).
    pub fn random_base(&self, rng: &mut impl CryptoRngCore) -> Result<Vec<Limb>, Error> {
        let len = self.ctx.len();
        let bits = self.n_minus_4_bits;
        let mut bytes = vec![0u8; len * 8];
        for _ in 0..128 {
            rng.try_fill_bytes(&mut bytes).map_err(|e| Error::Rng(e.to_string()))?;
            let mut x: Vec<Limb> = bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().unwrap())).collect();
            // Keep the low `bits` bits.
            for (i, l) in x.iter_mut().enumerate() {
                let lo = 64 * i;
                if lo >= bits {
                    *l = 0;
                } else if bits - lo < 64 {
                    *l &= (1u64 << (bits - lo)) - 1;
                }
            }
            if !lt_vartime(&self.n_minus_4, &x) {
                // x <= n - 4, so x + 2 <= n - 2.
                let mut two = vec![0; len];
                two[0] = 2;
                add_assign(&mut x, &two); // no carry: x + 2 <= n - 2
                return Ok(x);
            }
        }
        Err(Error::Rng("random base rejection sampling failed 128 times".into()))
    }

    /// s, the exponent of 2 in n - 1.
    pub fn s(&self) -> usize {
        self.s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn random_bases_in_range() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        for n in [5u64, 7, 9, 1_000_003, u64::MAX - 58] {
            let n = BigUint::from(n);
            let mr = MillerRabin::new(&n).unwrap();
            for _ in 0..200 {
                let a = from_limbs(&mr.random_base(&mut rng).unwrap());
                assert!(a >= BigUint::from(2u8) && a <= &n - 2u8, "n={n} a={a}");
            }
        }
        // n = 5: the only base is 2 ... 3.
        let mr = MillerRabin::new(&BigUint::from(5u8)).unwrap();
        let seen: std::collections::BTreeSet<_> = (0..100).map(|_| from_limbs(&mr.random_base(&mut rng).unwrap())).collect();
        assert_eq!(seen.len(), 2);
    }

    #[test]
    fn vartime_and_ct_agree() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(8);
        // 2047 = 23 * 89 is a strong pseudoprime to base 2; 1373653 to bases 2 and 3.
        for (n, base, want) in [(2047u64, 2u64, true), (2047, 3, false), (1373653, 3, true), (1373653, 5, false), (1_000_003, 2, true)] {
            let mr = MillerRabin::new(&BigUint::from(n)).unwrap();
            let a = vec![base];
            assert_eq!(mr.passes_vartime(&a), want, "n={n} a={base}");
            assert_eq!(mr.passes_ct(&a), want, "ct n={n} a={base}");
        }
        let p = (BigUint::from(1u8) << 521u32) - 1u8; // Mersenne prime
        let mr = MillerRabin::new(&p).unwrap();
        for _ in 0..4 {
            let a = mr.random_base(&mut rng).unwrap();
            assert!(mr.passes_vartime(&a) && mr.passes_ct(&a));
        }
        assert!(MillerRabin::new(&BigUint::from(4u8)).is_err());
        assert!(MillerRabin::new(&BigUint::from(3u8)).is_err());
    }
}

#[cfg(test)]
mod batch_tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn batch_agrees_with_single_rounds() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
        // A prime (all pass), a Carmichael-like composite and a (2x+1)(4x+1)-style
        // product where many bases lie: the batch verdict equals the AND of single rounds.
        let p = (BigUint::from(1u8) << 607u32) - 1u8;
        let q = (BigUint::from(1u8) << 521u32) - 1u8;
        for n in [p.clone(), &p * &q, BigUint::from(3215031751u64) * &q] {
            if !n.bit(0) {
                continue;
            }
            let mr = MillerRabin::new(&n).unwrap();
            for count in [1usize, 7, 8, 9, 20] {
                let bases: Vec<_> = (0..count).map(|_| mr.random_base(&mut rng).unwrap()).collect();
                let want = bases.iter().all(|a| mr.passes_vartime(a));
                assert_eq!(mr.passes_all_vartime(&bases), want, "n bits {} count {count}", n.bits());
            }
        }
    }
}
