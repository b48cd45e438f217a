//! Miller-Rabin rounds on one fixed odd modulus n (Massimo & Paterson 2020, §2.1).
//!
//! Write n - 1 = d * 2^s with d odd. Base a passes ("n is a strong probable prime to
//! base a") when a^d = 1 or a^(d 2^j) = -1 for some 0 <= j < s. Every prime passes every
//! base; a composite passes at most 1/4 of the bases in [1, n-1] (Monier-Rabin), so a
//! failing base is a proof of compositeness whatever its origin, while the 1/4 bound
//! applies only to bases chosen uniformly at random.

use crate::arith::lanes::{lane_mask, LaneTarget, LaneValues, SharedModulus, Timing};
use crate::arith::limbs::{add_assign, from_limbs, mul_into, shr_ct, sub_assign, to_limbs, trailing_zeros_ct, Limb};
use crate::arith::modexp::pow_vartime;
use crate::arith::pow2::pow2_vartime;
use crate::arith::{Kernel, MontContext};
use crate::Error;
use num_bigint::BigUint;
use rand_core::CryptoRngCore;
use std::ops::ControlFlow;
use std::sync::OnceLock;

/// Squarings the constant-time rounds always perform after a^d (covers every s <= 64;
/// about 6% of a 1024-bit exponentiation).
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
    /// n - 3, the number of bases in [2, n - 2] ([`Self::random_base`]).
    n_minus_3: Vec<Limb>,
    /// One lane on the context, with its targets: built with the context, so a round's
    /// time does not include num-bigint work on n.
    single: Lanes,
    /// The widest lane batch of the context's kernel, built on first use.
    wide: OnceLock<Lanes>,
}

/// A lane batch with 1 and -1 prepared for comparisons.
#[derive(Clone, Debug)]
struct Lanes {
    batch: SharedModulus,
    one: LaneTarget,
    minus_one: LaneTarget,
}

impl Lanes {
    /// The batch with its targets 1 and n - 1 (`nm1`, limbs of n's length).
    fn new(batch: SharedModulus, nm1: &[Limb]) -> Self {
        let mut one = vec![0; nm1.len()];
        one[0] = 1;
        let (one, minus_one) = (batch.target_limbs(&one), batch.target_limbs(nm1));
        Lanes { batch, one, minus_one }
    }

    /// Lanes of `x` equal to 1 or -1.
    fn plus_minus_one(&self, x: &LaneValues) -> u64 {
        self.batch.eq_ct(x, &self.one) | self.batch.eq_ct(x, &self.minus_one)
    }
}

/// n - 1 (limbs of n's length) for odd n: bit 0 cleared, no borrow.
fn minus_one_of_odd(n: &[Limb]) -> Vec<Limb> {
    let mut nm1 = n.to_vec();
    nm1[0] &= !1;
    nm1
}

/// An error unless n is odd with at least 3 bits, i.e. odd and >= 5. Reads only the bit
/// length and bit 0, public for a secret candidate (every candidate is odd).
fn check_odd_at_least_five(bits: u64, odd: bool) -> Result<(), Error> {
    if bits < 3 || !odd {
        return Err(Error::InvalidArgument("Miller-Rabin needs an odd n >= 5".into()));
    }
    Ok(())
}

impl MillerRabin {
    /// Precomputation for odd `n >= 5` on the process kernel, constant time in n's value
    /// (for secret candidates): the context's and the lanes' set-up
    /// ([`MontContext::new`]), and s = v2(n - 1), d = (n - 1) / 2^s, n - 1 and n - 3 on
    /// limbs of n's limb count ([`trailing_zeros_ct`], [`shr_ct`]); time depends on that
    /// count and n's bit length only. Checked under valgrind by `tools/ctgrind`.
    pub fn new(n: &BigUint) -> Result<Self, Error> {
        Self::with_context(n, MontContext::new)
    }

    /// [`Self::new`] with num-bigint's set-up of the context ([`MontContext::new_vartime`]),
    /// variable time in n: for public n (is_prime, certificates).
    pub fn new_vartime(n: &BigUint) -> Result<Self, Error> {
        Self::with_context(n, MontContext::new_vartime)
    }

    /// [`Self::new`] on a chosen kernel (tests compare kernels).
    pub fn with_kernel(n: &BigUint, kernel: Kernel) -> Result<Self, Error> {
        Self::with_context(n, |n| MontContext::with_kernel(n, kernel))
    }

    /// Precomputation for the modulus n of an existing context (odd, `n >= 5`); constant
    /// time in n as [`Self::new`] when the context was built so.
    pub fn from_context(ctx: MontContext) -> Result<Self, Error> {
        let m = ctx.modulus();
        let top = *m.last().expect("a context has limbs");
        check_odd_at_least_five(64 * m.len() as u64 - u64::from(top.leading_zeros()), m[0] & 1 == 1)?;
        Ok(Self::on_context(ctx))
    }

    fn with_context(n: &BigUint, ctx: impl FnOnce(&BigUint) -> Result<MontContext, crate::arith::ArithError>) -> Result<Self, Error> {
        check_odd_at_least_five(n.bits(), n.bit(0))?;
        Ok(Self::on_context(ctx(n)?))
    }

    /// The precomputation on the context of an odd n >= 5, all on limbs of n's length:
    /// constant time in n (the helpers' contracts), whatever the context's set-up was.
    fn on_context(ctx: MontContext) -> Self {
        let len = ctx.len();
        let nm1 = minus_one_of_odd(ctx.modulus());
        // s in [1, 64 len) since n - 1 is even and non-zero; d = (n - 1) >> s is odd.
        let s = trailing_zeros_ct(&nm1);
        let mut d = nm1.clone();
        shr_ct(&mut d, s);
        let mut t = ctx.scratch();
        let minus_one = ctx.to_mont(&nm1, &mut t);
        let mut n_minus_3 = nm1.clone();
        let mut two = vec![0; len];
        two[0] = 2;
        sub_assign(&mut n_minus_3, &two);
        let single = Lanes::new(SharedModulus::single(&ctx), &nm1);
        MillerRabin { single, minus_one, d, s, n_minus_3, wide: OnceLock::new(), ctx }
    }

    /// The Montgomery context of n.
    pub fn context(&self) -> &MontContext {
        &self.ctx
    }

    /// The modulus n.
    pub fn modulus(&self) -> BigUint {
        from_limbs(self.ctx.modulus())
    }

    /// The batch for `rounds` rounds of the given timing: the context's widest lanes when
    /// they pay for that many ([`SharedModulus::wide_pays`]; built on first use, its
    /// set-up timed as the context's), else one lane (also when
    /// the modulus is beyond the wide backend's size and `widest` gave one lane).
    fn lanes_for(&self, rounds: usize, timing: Timing) -> &Lanes {
        if SharedModulus::wide_pays(&self.ctx, rounds, timing) {
            let wide = self.wide.get_or_init(|| Lanes::new(SharedModulus::widest(&self.ctx), &minus_one_of_odd(self.ctx.modulus())));
            if wide.batch.lanes() > 1 {
                return wide;
            }
        }
        &self.single
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
    /// The rounds are independent exponentiations with the same n and d, so they run in
    /// the context kernel's lanes ([`SharedModulus`]), several bases per instruction where
    /// the CPU allows. Stops at the first batch containing a witness.
    pub fn passes_all_vartime(&self, bases: &[Vec<Limb>]) -> bool {
        self.passes_all_vartime_between(bases, |_| ControlFlow::Continue(())).unwrap_or(false)
    }

    /// [`Self::passes_all_vartime`], calling `between(rounds_done)` before each batch of
    /// rounds (a batch is as many rounds as the kernel's lanes: 1 to 8); `Break` stops
    /// and returns `None`. `Some(verdict)` is the same verdict as `passes_all_vartime`.
    pub fn passes_all_vartime_between(&self, bases: &[Vec<Limb>], mut between: impl FnMut(usize) -> ControlFlow<()>) -> Option<bool> {
        let lanes = self.lanes_for(bases.len(), Timing::Vartime);
        for (i, batch) in bases.chunks(lanes.batch.lanes()).enumerate() {
            if between(i * lanes.batch.lanes()).is_break() {
                return None;
            }
            let used = lane_mask(batch.len());
            let mut x = lanes.batch.pow_vartime(&lanes.batch.load(batch), &self.d);
            let mut passed = lanes.plus_minus_one(&x) & used;
            for _ in 1..self.s {
                if passed == used {
                    break;
                }
                x = lanes.batch.sqr(&x);
                passed |= lanes.batch.eq_ct(&x, &lanes.minus_one) & used;
            }
            if passed != used {
                return Some(false);
            }
        }
        Some(true)
    }

    /// [`Self::passes_all_vartime_between`] on `threads` threads: the bases go in groups
    /// of `threads` lane batches, each batch on its own thread, and `between(rounds_done)`
    /// runs on the calling thread before each group. The verdict is the same (every
    /// round of a group runs; the first failing group ends the test); the wall time is
    /// about the rounds' time divided by `threads` once there are rounds enough. Threads
    /// are started per group (tens of microseconds each), which rounds of large moduli
    /// repay many times over.
    pub fn passes_all_vartime_threads(
        &self,
        bases: &[Vec<Limb>],
        threads: usize,
        mut between: impl FnMut(usize) -> ControlFlow<()>,
    ) -> Option<bool> {
        // More threads than rounds would idle (and could overflow the group size below).
        let threads = threads.min(bases.len());
        if threads <= 1 {
            return self.passes_all_vartime_between(bases, between);
        }
        // The batch each thread runs: as the lanes a thread's share of the rounds gets.
        let per_thread = self.lanes_for(bases.len().div_ceil(threads), Timing::Vartime).batch.lanes();
        let group = per_thread * threads;
        for (i, g) in bases.chunks(group).enumerate() {
            if between(i * group).is_break() {
                return None;
            }
            let all_pass = std::thread::scope(|s| {
                let handles: Vec<_> = g.chunks(per_thread).map(|batch| s.spawn(move || self.passes_all_vartime(batch))).collect();
                let verdicts: Vec<bool> = handles.into_iter().map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e))).collect();
                verdicts.into_iter().all(|v| v)
            });
            if !all_pass {
                return Some(false);
            }
        }
        Some(true)
    }

    /// The same round in constant time for a secret n (prime generation); see
    /// [`Self::passes_all_ct`], of which this is the one-base case.
    pub fn passes_ct(&self, a: &[Limb]) -> bool {
        self.passes_all_ct(std::slice::from_ref(&a.to_vec()))
    }

    /// True if n passes every base in `bases` (each as [`Self::passes_vartime`]), in
    /// constant time for a secret n: each batch of bases is one constant-time
    /// exponentiation ([`SharedModulus::pow_ct`], over all limbs of n), then a fixed
    /// `CT_SQUARINGS` squarings whatever s = v2(n - 1) is, those past s - 1 masked out,
    /// so the running time reveals neither d's length nor s. Lane results are combined
    /// without branches; only the final boolean is revealed.
    ///
    /// One-sided cap: for the rare n with s > CT_SQUARINGS + 1 (probability 2^-64 for a
    /// random odd n) a -1 beyond the cap is not seen, so a prime may be reported as
    /// failing; a witness is never reported as passing. Generators only lose such a
    /// candidate, which leaves the error bound and the output distribution (up to
    /// 2^-64) unchanged.
    pub fn passes_all_ct(&self, bases: &[Vec<Limb>]) -> bool {
        let lanes = self.lanes_for(bases.len(), Timing::ConstantTime);
        let mut all = true;
        for batch in bases.chunks(lanes.batch.lanes()) {
            let mut x = lanes.batch.pow_ct(&lanes.batch.load(batch), &self.d, self.d_bits_public());
            let mut pass = lanes.plus_minus_one(&x);
            for j in 1..=CT_SQUARINGS {
                x = lanes.batch.sqr(&x);
                // All lanes while j < s (a real step of the round), none after; black_box
                // keeps LLVM from turning the mask into a branch on s.
                let live = core::hint::black_box(((j as u64).wrapping_sub(self.s as u64) >> 63).wrapping_neg());
                pass |= lanes.batch.eq_ct(&x, &lanes.minus_one) & live;
            }
            let used = lane_mask(batch.len());
            all &= pass & used == used;
        }
        all
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
    /// generator is declared broken rather than looped on). Variable time: the number of
    /// draws follows n's magnitude, so for public n only (is_prime); [`Self::random_base`]
    /// for a secret one.
    pub fn random_base_vartime(&self, rng: &mut impl CryptoRngCore) -> Result<Vec<Limb>, Error> {
        let x = crate::random::uniform_below(rng, &from_limbs(&self.n_minus_3))? + 2u8;
        Ok(to_limbs(&x, self.ctx.len()).expect("x <= n - 2 fits n's limbs"))
    }

    /// A base in [2, n - 2], within statistical distance 2^-64 of uniform, as limbs of n's
    /// length. Constant time: one random draw of n's limb count plus one limb, a product
    /// and an addition, whatever n's value (the only error is the generator's).
    pub fn random_base(&self, rng: &mut impl CryptoRngCore) -> Result<Vec<Limb>, Error> {
        // 2 + floor(x M / 2^(64(len+1))) for M = n - 3 and x uniform below 2^(64(len+1)):
        // each value j in [0, M) has floor(2^(64(len+1)) / M) or one more preimages x, so
        // every probability is within 2^-(64(len+1)) of 1/M and the statistical distance
        // from uniform on [2, n - 2] is below M / 2^(64(len+1)) < 2^-64 (a round's error
        // bound for a composite is 1/4 + 2^-64). One draw of a fixed length, one product
        // and one addition: the time depends on n's limb count only, unlike rejection
        // sampling below n - 3, whose number of draws follows n's magnitude.
        let len = self.ctx.len();
        let mut bytes = vec![0u8; 8 * (len + 1)];
        rng.try_fill_bytes(&mut bytes).map_err(|e| Error::Rng(e.to_string()))?;
        let x: Vec<Limb> = bytes.chunks_exact(8).map(|c| u64::from_le_bytes(c.try_into().expect("8 bytes"))).collect();
        let mut product = vec![0; 2 * len + 1];
        mul_into(&mut product, &x, &self.n_minus_3);
        let mut base = product[len + 1..].to_vec();
        let mut two = vec![0; len];
        two[0] = 2;
        add_assign(&mut base, &two);
        Ok(base)
    }

    /// s, the exponent of 2 in n - 1 (computed in constant time; as secret as n, so a
    /// caller with a secret n must not branch on it; the constant-time rounds use it only
    /// in masks).
    pub fn s(&self) -> usize {
        self.s
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;

    /// Each of the 8 bases of n = 11 comes up about 1/8 of the time (16,000 draws: 2,000
    /// expected each, standard deviation 42; the bound is six of them), and the bases of
    /// a 2-limb n just above 2^64 fill both halves of [2, n - 2].
    #[test]
    fn random_bases_are_uniform() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(8);
        let mr = MillerRabin::new(&BigUint::from(11u8)).unwrap();
        let mut counts = [0u32; 8];
        for _ in 0..16_000 {
            let a = from_limbs(&mr.random_base(&mut rng).unwrap());
            counts[usize::try_from(&a).unwrap() - 2] += 1;
        }
        assert!(counts.iter().all(|&c| c.abs_diff(2000) < 250), "{counts:?}");
        let n = (BigUint::from(1u8) << 64u32) + 13u8;
        let mr = MillerRabin::new(&n).unwrap();
        let half = &n >> 1u32;
        let low = (0..1000).filter(|_| from_limbs(&mr.random_base(&mut rng).unwrap()) < half).count();
        assert!((400..600).contains(&low), "{low} of 1000 below n/2");
    }

    #[test]
    fn random_bases_in_range() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        for n in [5u64, 7, 9, 1_000_003, u64::MAX - 58] {
            let n = BigUint::from(n);
            let mr = MillerRabin::new(&n).unwrap();
            for _ in 0..200 {
                for a in [mr.random_base(&mut rng).unwrap(), mr.random_base_vartime(&mut rng).unwrap()] {
                    let a = from_limbs(&a);
                    assert!(a >= BigUint::from(2u8) && a <= &n - 2u8, "n={n} a={a}");
                }
            }
        }
        // n = 5: the only base is 2 ... 3.
        let mr = MillerRabin::new(&BigUint::from(5u8)).unwrap();
        let seen: std::collections::BTreeSet<_> = (0..100).map(|_| from_limbs(&mr.random_base(&mut rng).unwrap())).collect();
        assert_eq!(seen.len(), 2);
        let seen: std::collections::BTreeSet<_> = (0..100).map(|_| from_limbs(&mr.random_base_vartime(&mut rng).unwrap())).collect();
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
mod setup_tests {
    use super::*;
    use num_bigint::RandBigInt;
    use rand::{Rng, SeedableRng};

    /// n = k 2^s + 1 with k odd: n - 1 has exactly s trailing zeros.
    fn with_s(rng: &mut impl Rng, bits: u64, s: u64) -> BigUint {
        let k = rng.gen_biguint(bits - s) | BigUint::from(1u8) | (BigUint::from(1u8) << (bits - s - 1));
        (k << s) + 1u8
    }

    /// The limb set-up (s, d, n - 1, n - 3) against num-bigint on 600 random odd n of 3
    /// to 1,100 bits, s from 1 to several limbs (up to 300 bits), through `new`,
    /// `new_vartime` and `from_context`.
    #[test]
    fn limb_setup_matches_num_bigint() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(31);
        for i in 0..600 {
            let bits = rng.gen_range(3..=1100u64);
            let n = match i % 3 {
                0 => rng.gen_biguint(bits) | BigUint::from(1u8) | (BigUint::from(1u8) << (bits - 1)),
                _ if bits >= 8 => {
                    let s = rng.gen_range(1..=(bits - 2).min(300));
                    with_s(&mut rng, bits, s)
                }
                _ => BigUint::from(5u8),
            };
            let nm1 = &n - 1u8;
            let s = nm1.trailing_zeros().unwrap() as usize;
            for mr in [
                MillerRabin::new(&n).unwrap(),
                MillerRabin::new_vartime(&n).unwrap(),
                MillerRabin::from_context(MontContext::new(&n).unwrap()).unwrap(),
            ] {
                assert_eq!(mr.s, s, "n = {n:x}");
                assert_eq!(from_limbs(&mr.d), &nm1 >> s, "n = {n:x}");
                assert_eq!(from_limbs(&mr.n_minus_3), &n - 3u8);
                assert_eq!(from_limbs(&mr.ctx.from_mont(&mr.minus_one, &mut mr.ctx.scratch())), nm1);
            }
        }
    }

    /// `new` (constant-time set-up) and `new_vartime` give the same verdicts, constant-time
    /// and variable-time rounds alike, on primes with s from 1 to 70 and on composites
    /// (random odd numbers and quarter-liar products, where both verdicts occur).
    #[test]
    fn new_agrees_with_new_vartime() {
        use num_traits::One;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(32);
        let probable = |p: &BigUint| [2u8, 3, 5, 7].iter().all(|&b| BigUint::from(b).modpow(&(p - 1u8), p).is_one());
        let mut primes = vec![(BigUint::from(1u8) << 521u32) - 1u8, (BigUint::from(1u8) << 576u32) - 789u32];
        for s in [1u64, 2, 13, 64, 65, 70] {
            primes.push(loop {
                let n = with_s(&mut rng, 576, s);
                if probable(&n) {
                    break n;
                }
            });
        }
        let mut composites: Vec<BigUint> = (0..6).map(|_| rng.gen_biguint(576) | BigUint::one() | (BigUint::one() << 575u32)).collect();
        composites.push(BigUint::from(2047u32) * ((BigUint::from(1u8) << 521u32) - 1u8));
        composites.push(BigUint::from(1_373_653u32));
        let (mut pass, mut fail) = (0, 0);
        for (n, prime) in primes.iter().map(|n| (n, true)).chain(composites.iter().map(|n| (n, false))) {
            if !prime && probable(n) {
                continue;
            }
            let (ct, vt) = (MillerRabin::new(n).unwrap(), MillerRabin::new_vartime(n).unwrap());
            assert_eq!(ct.s(), vt.s());
            for _ in 0..6 {
                let a = ct.random_base(&mut rng).unwrap();
                let want = vt.passes_vartime(&a);
                assert_eq!(ct.passes_vartime(&a), want, "n = {n:x}");
                // passes_ct is one-sided for s > 65 (CT_SQUARINGS): a prime may fail there.
                if ct.s() <= CT_SQUARINGS + 1 {
                    assert_eq!(ct.passes_ct(&a), want, "n = {n:x}");
                } else {
                    assert!(!ct.passes_ct(&a) || want, "never a witness accepted, n = {n:x}");
                }
                assert!(want || !prime, "a prime passes every base");
                if want {
                    pass += 1;
                } else {
                    fail += 1;
                }
            }
        }
        assert!(pass >= 48 && fail >= 30, "{pass} passing and {fail} failing rounds");
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
            for kernel in Kernel::available() {
                let mr = MillerRabin::with_kernel(&n, kernel).unwrap();
                for count in [1usize, 7, 8, 9, 20] {
                    let bases: Vec<_> = (0..count).map(|_| mr.random_base(&mut rng).unwrap()).collect();
                    let want = bases.iter().all(|a| mr.passes_vartime(a));
                    assert_eq!(mr.passes_all_vartime(&bases), want, "n bits {} count {count} {kernel}", n.bits());
                }
            }
        }
    }

    /// n = (2x + 1)(4x + 1) with x odd and both factors prime: exactly a quarter of the
    /// bases are strong liars (Monier), so random bases give both verdicts.
    fn quarter_liar_composite(rng: &mut impl rand_core::RngCore, bits: u64) -> BigUint {
        use num_traits::One;
        let probable = |p: &BigUint| BigUint::from(2u8).modpow(&(p - 1u8), p).is_one() && BigUint::from(3u8).modpow(&(p - 1u8), p).is_one();
        loop {
            let mut bytes = vec![0u8; bits as usize / 8];
            rng.fill_bytes(&mut bytes);
            let x = BigUint::from_bytes_le(&bytes) | BigUint::one() | (BigUint::one() << (bits - 1));
            let (p, q) = (&x * 2u8 + 1u8, &x * 4u8 + 1u8);
            if probable(&p) && probable(&q) {
                return p * q;
            }
        }
    }

    /// Rounds spread over threads give the AND of the single rounds, with the witness
    /// in any group and any thread's share, and report progress in order.
    #[test]
    fn threads_agree_with_single_rounds() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(11);
        let n = quarter_liar_composite(&mut rng, 300);
        let mr = MillerRabin::new(&n).unwrap();
        let bases: Vec<_> = (0..80).map(|_| mr.random_base(&mut rng).unwrap()).collect();
        let lying: Vec<_> = bases.iter().filter(|a| mr.passes_vartime(a)).cloned().collect();
        let witness = bases.iter().find(|a| !mr.passes_vartime(a)).unwrap().clone();
        assert!(lying.len() >= 24, "{} liars of 80", lying.len());
        for threads in [1usize, 2, 3, 5, usize::MAX] {
            let mut seen = Vec::new();
            let all = mr.passes_all_vartime_threads(&lying[..24], threads, |done| {
                seen.push(done);
                ControlFlow::Continue(())
            });
            assert_eq!(all, Some(true), "liars only, {threads} threads");
            assert!(seen.first() == Some(&0) && seen.windows(2).all(|w| w[0] < w[1]) && seen.last() < Some(&24), "{seen:?}");
            for at in [0usize, 7, 13, 23] {
                let mut batch = lying[..24].to_vec();
                batch[at] = witness.clone();
                assert_eq!(
                    mr.passes_all_vartime_threads(&batch, threads, |_| ControlFlow::Continue(())),
                    Some(false),
                    "witness at {at}, {threads} threads"
                );
            }
            let stopped = mr.passes_all_vartime_threads(&lying[..24], threads, |done| {
                if done > 0 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            // One group holds every round only when the threads' batches cover them.
            let group = threads.min(24) * mr.lanes_for(24usize.div_ceil(threads), Timing::Vartime).batch.lanes();
            assert_eq!(stopped, if group >= 24 { Some(true) } else { None }, "{threads} threads");
        }
    }

    #[test]
    fn ct_batch_agrees_with_single_rounds() {
        use rand_core::RngCore;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(10);
        let liars = quarter_liar_composite(&mut rng, 140);
        // Mersenne primes have s = 1, so a prime k 2^40 + 1 (s = 40) exercises the
        // squarings after a^d: most bases reach -1 there, not at a^d.
        let high_s = {
            use num_traits::One;
            let mut k = BigUint::from(rng.next_u64()) << 200u32 | BigUint::one();
            loop {
                let n = (&k << 40u32) + 1u8;
                if [2u8, 3, 5].iter().all(|&b| BigUint::from(b).modpow(&(&n - 1u8), &n).is_one()) {
                    break n;
                }
                k += 2u8;
            }
        };
        let primes = [(BigUint::from(1u8) << 521u32) - 1u8, (BigUint::from(1u8) << 1279u32) - 1u8, high_s];
        let mut n_liars = 0;
        // Every kernel this CPU has: one-lane and wide batches alike.
        for (n, kernel) in std::iter::once(&liars).chain(&primes).flat_map(|n| Kernel::available().into_iter().map(move |k| (n, k))) {
            let mr = MillerRabin::with_kernel(n, kernel).unwrap();
            let bases: Vec<_> = (0..64).map(|_| mr.random_base(&mut rng).unwrap()).collect();
            let single: Vec<bool> = bases.iter().map(|a| mr.passes_ct(a)).collect();
            for (a, &want) in bases.iter().zip(&single) {
                assert_eq!(mr.passes_vartime(a), want, "vartime vs ct, n bits {}", n.bits());
                assert_eq!(mr.passes_all_ct(std::slice::from_ref(a)), want, "lanes vs ct, n bits {}", n.bits());
            }
            // Batches of several sizes, starting at different offsets: the verdict is
            // the AND of the single rounds.
            for (start, count) in [(0usize, 8usize), (3, 5), (8, 9), (0, 40), (rng.next_u32() as usize % 30, 3)] {
                let batch = &bases[start..start + count];
                assert_eq!(
                    mr.passes_all_ct(batch),
                    single[start..start + count].iter().all(|&p| p),
                    "n bits {} batch {start}+{count}",
                    n.bits()
                );
            }
            if n == &liars {
                // Eight liars pass together in the lanes; one witness among them (in
                // any lane) makes the batch fail.
                let lying: Vec<_> = bases.iter().zip(&single).filter(|(_, &p)| p).map(|(a, _)| a.clone()).collect();
                let witness = bases.iter().zip(&single).find(|(_, &p)| !p).map(|(a, _)| a.clone()).unwrap();
                n_liars = lying.len();
                assert!(n_liars >= 8, "{n_liars} liars of 64");
                assert!(mr.passes_all_ct(&lying[..8]), "eight liars");
                for lane in 0..8 {
                    let mut batch = lying[..8].to_vec();
                    batch[lane] = witness.clone();
                    assert!(!mr.passes_all_ct(&batch), "witness in lane {lane}");
                }
            }
        }
        // Both verdicts occurred on the composite (about 16 of 64 expected to lie).
        assert!((8..=40).contains(&n_liars), "{n_liars} liars of 64");
    }
}
