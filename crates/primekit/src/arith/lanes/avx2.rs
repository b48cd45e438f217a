//! Four Montgomery exponentiations at once with AVX2: four different bases, one modulus,
//! one exponent, one base per 64-bit lane, numbers in radix 2^28.
//!
//! The AVX2 counterpart of [`super::ifma`] for CPUs without AVX-512 IFMA: products by the
//! kernel of `avx2_columns` (contract there: values < 2m in and out with 4m <= R =
//! 2^(28 l), digits < 2^28, timing a function of l alone), exponentiations by the
//! crate's shared window routines in [`crate::arith::modexp`] through the `Domain`
//! implementation below. [`Avx2x4::pow_vartime`] is variable time in its public
//! exponent (is_prime's rounds); [`Avx2x4::pow_ct`], [`Avx2x4::sqr`] and
//! [`Avx2x4::eq_lanes_ct`] are constant time in the exponent and the lanes' values
//! (prime generation's rounds on a secret candidate): table reads are masked full
//! scans, comparisons OR every digit.

use super::avx2_columns::{Digit, DIGIT_BITS, LANES, MAX_DIGITS};
use super::wide::{broadcast, radix_of_limbs, select_mask, LaneTarget, WideSetup};
use super::Timing;
use crate::arith::cpu::Avx2;
use crate::arith::limbs::{neg_inv_mod_word, Limb};
use core::arch::x86_64::*;
use num_bigint::BigUint;

/// One number per lane: `d[j][k]` is digit j of lane k.
#[derive(Clone, Debug)]
pub(super) struct Lanes {
    d: Vec<Digit>,
}

/// Precomputation for one odd modulus m (its size public, its value possibly secret:
/// the set-up is [`WideSetup`]'s, constant time in m's value).
#[derive(Clone, Debug)]
pub(super) struct Avx2x4 {
    /// Proof that the CPU runs AVX2.
    cpu: Avx2,
    l: usize,
    setup: WideSetup,
    md: Vec<Digit>,
    inv: Digit,
    r2: Lanes,
    /// 1 in Montgomery form in every lane, flattened (for the shared window routines).
    one: Vec<u64>,
}

/// -m^{-1} mod 2^28 for odd `m0` (the low digit of m).
pub(super) fn neg_inv_mod_2_28(m0: u64) -> u64 {
    neg_inv_mod_word(m0) & super::avx2_columns::MASK28
}

/// Digits per lane for a modulus of `bits` bits (4m <= R needs bits + 2, then rounded up
/// to a fixed-length kernel where that pays: [`super::avx2_columns::digits_for`]).
pub(super) fn digits(bits: usize) -> usize {
    super::avx2_columns::digits_for((bits + 2).div_ceil(DIGIT_BITS))
}

impl Avx2x4 {
    /// Context for odd `m >= 3` with 4m <= 2^(28 MAX_DIGITS) (about 7,100 bits), else
    /// `None`; the set-up is [`WideSetup::new`]'s with `timing`.
    pub(super) fn new(cpu: Avx2, m: &BigUint, timing: Timing) -> Option<Avx2x4> {
        let l = digits(m.bits() as usize);
        if !m.bit(0) || m.bits() < 2 || l > MAX_DIGITS {
            return None;
        }
        let inv = [neg_inv_mod_2_28(m.iter_u64_digits().next().expect("m >= 3")); LANES];
        let md = broadcast(m, DIGIT_BITS, l);
        let (setup, r2) = WideSetup::new(m, DIGIT_BITS, l, timing, Some(cpu.adx()));
        let mut ctx = Avx2x4 { cpu, l, setup, md, inv, r2: Lanes { d: r2 }, one: Vec::new() };
        ctx.one = ctx.to_mont(&[]).d.as_flattened().to_vec();
        Some(ctx)
    }

    /// Lanes holding `xs` (up to 4 values `< m`, not checked; missing lanes get 1), in
    /// Montgomery form.
    pub(super) fn to_mont(&self, xs: &[Vec<Limb>]) -> Lanes {
        assert!(xs.len() <= LANES);
        let mut lanes = Lanes { d: vec![[0; LANES]; self.l] };
        for k in 0..LANES {
            // No reduction by m: values are < m by contract, and a num-bigint `%` would
            // take time depending on the (secret) modulus. Limbs, not a `BigUint`: the
            // conversion's time then depends on the limb count only.
            let x = xs.get(k).map_or(&[1][..], |x| &x[..]);
            for (j, v) in radix_of_limbs(x, DIGIT_BITS, self.l).into_iter().enumerate() {
                lanes.d[j][k] = v;
            }
        }
        let mut out = Lanes { d: vec![[0; LANES]; self.l] };
        self.product::<false>(&mut out.d, &lanes.d, &self.r2.d);
        out
    }

    /// The first `count` lanes in ordinary form, reduced, as limbs of m's length (a
    /// Montgomery product by 1, then [`WideSetup::reduced_limbs_vartime`]). Variable time.
    pub(super) fn store_vartime(&self, x: &Lanes, count: usize) -> Vec<Vec<Limb>> {
        let mut one = vec![[0; LANES]; self.l];
        one[0] = [1; LANES];
        let mut out = vec![[0; LANES]; self.l];
        self.product::<false>(&mut out, &x.d, &one);
        self.setup.reduced_limbs_vartime(&out, count)
    }

    /// Lane-wise Montgomery square (values < 2m in, < 2m out). Constant time.
    pub(super) fn sqr(&self, a: &Lanes) -> Lanes {
        let mut out = Lanes { d: vec![[0; LANES]; self.l] };
        self.product::<true>(&mut out.d, &a.d, &a.d);
        out
    }

    /// `out = a b R^{-1}` (or `a^2 R^{-1}` when `SQUARE`, `b` ignored).
    fn product<const SQUARE: bool>(&self, out: &mut [Digit], a: &[Digit], b: &[Digit]) {
        let _proof: Avx2 = self.cpu;
        // SAFETY: `self.cpu` proves AVX2; `amm` checks the lengths; inputs < 2m with
        // 4m <= R give a b < R m.
        unsafe { super::avx2_columns::product::<SQUARE>(out, a, b, &self.md, &self.inv) }
    }

    /// Lane-wise `base^e` (Montgomery form in and out) over exactly `exp_bits` bits of `e`
    /// (higher bits zero), in constant time, by the shared fixed-window routine.
    pub(super) fn pow_ct(&self, base: &Lanes, e: &[u64], exp_bits: usize) -> Lanes {
        let flat = crate::arith::modexp::pow_ct_in(&mut { self }, base.d.as_flattened(), e, exp_bits);
        Lanes { d: flat.as_chunks::<LANES>().0.to_vec() }
    }

    /// Lane-wise `base^e` by the shared sliding-window routine; variable time in the
    /// public exponent.
    pub(super) fn pow_vartime(&self, base: &Lanes, e: &[u64]) -> Lanes {
        let flat = crate::arith::modexp::pow_vartime_in(&mut { self }, base.d.as_flattened(), e);
        Lanes { d: flat.as_chunks::<LANES>().0.to_vec() }
    }

    /// `v` (ordinary form, < m) prepared for [`Self::eq_lanes_ct`] as v R mod m, in time
    /// set by the sizes ([`WideSetup::target`]).
    pub(super) fn target(&self, v: &BigUint) -> LaneTarget {
        self.setup.target(v)
    }

    /// Lanes (bit k for lane k) whose value (< 2m) is congruent to the target modulo m,
    /// in constant time: every digit compared with both forms, no early exit.
    pub(super) fn eq_lanes_ct(&self, x: &Lanes, target: &LaneTarget) -> u8 {
        super::wide::eq_lanes_ct(&x.d, target)
    }

    /// Each lane's value as the canonical Montgomery residue in [0, m).
    #[cfg(test)]
    fn lanes_reduced(&self, x: &Lanes) -> Vec<BigUint> {
        (0..LANES)
            .map(|k| {
                let v = x.d.iter().rev().fold(BigUint::ZERO, |acc, d| (acc << DIGIT_BITS) + d[k]);
                v % self.setup.modulus()
            })
            .collect()
    }
}

/// `out = table[idx]` for entries of `out.len()` words, reading every entry under a mask
/// (all ones for entry idx only), a vector at a time: the accesses do not depend on the
/// secret index.
///
/// # Safety
/// The CPU must support AVX2; `out.len()` is a multiple of 4 and `table.len()` a multiple
/// of `out.len()` (checked).
#[target_feature(enable = "avx2")]
unsafe fn select_ct(out: &mut [u64], table: &[u64], idx: usize) {
    let w = out.len();
    assert!(w.is_multiple_of(LANES) && table.len().is_multiple_of(w));
    let masks: Vec<__m256i> = (0..table.len() / w).map(|i| _mm256_set1_epi64x(select_mask(i, idx))).collect();
    for (j, o) in out.chunks_exact_mut(LANES).enumerate() {
        let mut v = _mm256_setzero_si256();
        for (i, &m) in masks.iter().enumerate() {
            // SAFETY: i * w + 4 j + 4 <= table.len() (checked above).
            let e = unsafe { _mm256_loadu_si256(table.as_ptr().add(i * w + LANES * j).cast()) };
            v = _mm256_or_si256(v, _mm256_and_si256(e, m));
        }
        // SAFETY: o holds 4 words.
        unsafe { _mm256_storeu_si256(o.as_mut_ptr().cast(), v) };
    }
}

/// Four lanes as one element of `4 l` words, so the window routines are shared.
impl crate::arith::modexp::Domain for &Avx2x4 {
    fn width(&self) -> usize {
        self.l * LANES
    }
    fn one(&self) -> &[u64] {
        &self.one
    }
    fn mul(&mut self, out: &mut [u64], a: &[u64], b: &[u64]) {
        self.product::<false>(out.as_chunks_mut::<LANES>().0, a.as_chunks::<LANES>().0, b.as_chunks::<LANES>().0)
    }
    fn sqr(&mut self, out: &mut [u64], a: &[u64]) {
        let a = a.as_chunks::<LANES>().0;
        self.product::<true>(out.as_chunks_mut::<LANES>().0, a, a)
    }
    fn lookup_ct(&self, out: &mut [u64], table: &[u64], idx: usize) {
        let _proof: Avx2 = self.cpu;
        // SAFETY: `self.cpu` proves AVX2; elements are 4 l words and the table holds whole
        // elements.
        unsafe { select_ct(out, table, idx) }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::random_odd;
    use super::super::wide::limbs_of;
    use super::*;
    use num_bigint::RandBigInt;
    use num_traits::One;
    use rand::SeedableRng;

    /// Products, both exponentiations and the comparison, lane by lane against modpow,
    /// at sizes around digit and limb boundaries and the largest modulus accepted.
    #[test]
    fn pow_matches_modpow_per_lane() {
        let Some(cpu) = crate::arith::cpu::avx2_or_skip("AVX2 lanes") else { return };
        let mut rng = rand::rngs::StdRng::seed_from_u64(28);
        for bits in [2u64, 5, 26, 27, 28, 29, 54, 64, 100, 511, 1024, 1500, 2048, 3072, 28 * 127 - 2, 28 * 127 - 1, 4096, 28 * 255 - 2] {
            // Random odd moduli and the top of the range (all ones: 2^bits - 1).
            let m = random_odd(&mut rng, bits);
            for m in [m, (BigUint::one() << bits) - 1u8] {
                if m < BigUint::from(3u8) {
                    continue;
                }
                let ctx = Avx2x4::new(cpu, &m, Timing::ConstantTime).unwrap();
                let xs: Vec<BigUint> = (0..LANES).map(|k| if k == 0 { &m - 1u8 } else { rng.gen_biguint_below(&m) }).collect();
                let r = BigUint::one() << (DIGIT_BITS * ctx.l);
                let x = ctx.to_mont(&limbs_of(&xs));
                let e_bits = bits.min(700);
                for e in [rng.gen_biguint(e_bits), (BigUint::one() << e_bits) - 1u8] {
                    let ed = e.to_u64_digits();
                    for got in [ctx.pow_vartime(&x, &ed), ctx.pow_ct(&x, &ed, e_bits as usize + 3)] {
                        let got = ctx.lanes_reduced(&got);
                        for k in 0..LANES {
                            assert_eq!(got[k], xs[k].modpow(&e, &m) * &r % &m, "bits={bits} lane={k}");
                        }
                    }
                }
                let sq = ctx.lanes_reduced(&ctx.sqr(&x));
                for k in 0..LANES {
                    assert_eq!(sq[k], &xs[k] * &xs[k] * &r % &m, "square bits={bits} lane={k}");
                }
                let y = ctx.to_mont(&limbs_of(&[BigUint::one(), &m - 1u8]));
                assert_eq!(ctx.eq_lanes_ct(&y, &ctx.target(&BigUint::one())), 0b1101, "missing lanes hold 1");
                assert_eq!(ctx.eq_lanes_ct(&y, &ctx.target(&(&m - 1u8))), 0b0010);
            }
        }
        assert!(Avx2x4::new(cpu, &((BigUint::one() << (28 * 255 - 1)) - 1u8), Timing::ConstantTime).is_none(), "4m > R at the largest l");
    }
}
