//! Eight Montgomery exponentiations at once with AVX-512 IFMA: eight different bases,
//! one modulus, one exponent, one base per 64-bit lane, numbers in radix 2^52.
//!
//! Why: after the first Miller-Rabin round passes, the remaining rounds are
//! independent exponentiations with the same n and the same exponent d, so they can
//! share every instruction. `vpmadd52luq`/`vpmadd52huq` add the low/high 52 bits of
//! eight 52x52-bit products to eight 64-bit accumulators per instruction.
//!
//! Contract of the kernel [`amm`] (almost Montgomery multiplication, R = 2^(52 l)):
//! - the modulus m is odd with 4m < R (so l = ceil((bits + 2) / 52)); `m` and `m0inv`
//!   (-m^{-1} mod 2^52) are per lane, so lanes may use different moduli of one size
//!   (`Ifma8` broadcasts one; `ifma_fermat` gives each lane its own candidate);
//! - inputs are lane-wise values < 2m held in l limbs each < 2^52;
//! - output: a*b*R^{-1} mod m up to one extra m, i.e. a value < 2m, limbs < 2^52;
//! - every accumulator receives at most 4l terms < 2^52 plus carries < 2^12, so it stays
//!   below 2^64 for l < 1024 (sizes up to ~53,000 bits);
//! - `out` must not alias the inputs. Timing depends only on l (no data-dependent
//!   branch or index).
//!
//! At the fixed sizes the products run on the column-pair kernel of
//! `ifma_columns` (same contract). Above them: [`Ifma8::pow_vartime`] is
//! variable time in its public exponent (is_prime's rounds); [`Ifma8::pow_ct`] and
//! [`Ifma8::eq_lanes_ct`] are constant time in the exponent and the lanes (prime
//! generation's rounds on a secret candidate).

use super::wide::{broadcast, radix_of_limbs, select_mask, LaneTarget, WideSetup};
use super::Timing;
use crate::arith::cpu::Avx512Ifma;
use crate::arith::limbs::{neg_inv_mod_2_52, Limb};
use crate::arith::radix::MASK52;
use core::arch::x86_64::*;
use num_bigint::BigUint;

/// Lanes processed together.
pub(super) const LANES: usize = 8;

/// One number per lane: `limbs[j][k]` is 52-bit limb j of lane k.
#[derive(Clone, Debug)]
pub(super) struct Lanes {
    limbs: Vec<[u64; LANES]>,
}

/// Precomputation for one odd modulus m (its size public, its value possibly secret:
/// the set-up is [`WideSetup`]'s, constant time in m's value).
#[derive(Clone, Debug)]
pub(super) struct Ifma8 {
    /// Proof that the CPU runs AVX-512F and IFMA.
    cpu: Avx512Ifma,
    l: usize,
    setup: WideSetup,
    m52: Vec<[u64; LANES]>,
    m0inv: u64,
    r2: Lanes,
    /// 1 in Montgomery form in every lane, flattened (for the shared window routine).
    one: Vec<u64>,
    /// Constants of the products by words ([`Self::pow_words_vartime`]); `None` below 53
    /// bits and above the fixed sizes.
    words: Option<super::ifma_words::WordConsts>,
}

/// The number whose radix-2^52 digits are `d`.
#[cfg(test)]
fn from_radix52(d: impl Iterator<Item = u64>) -> BigUint {
    use crate::arith::{limbs::from_limbs, radix::digits52_to_limbs};
    let d: Vec<u64> = d.collect();
    let mut limbs = vec![0; (52 * d.len()).div_ceil(64)];
    digits52_to_limbs(&mut limbs, &d, d.len());
    from_limbs(&limbs)
}

impl Ifma8 {
    /// Context for odd `m >= 3` of at most 50,000 bits (the accumulator bound of the
    /// module contract), else `None`; the set-up is [`WideSetup::new`]'s with `timing`.
    pub(super) fn new(cpu: Avx512Ifma, m: &BigUint, timing: Timing) -> Option<Ifma8> {
        if !m.bit(0) || m.bits() < 2 || m.bits() > 50_000 {
            return None;
        }
        // Round l up to a size with a fully unrolled kernel (zero top limbs are harmless:
        // a larger R keeps 4m < R).
        let l = (m.bits() as usize + 2).div_ceil(52);
        let l = FIXED_SIZES.iter().copied().find(|&f| f >= l).unwrap_or(l);
        let m0inv = neg_inv_mod_2_52(m.iter_u64_digits().next().expect("m >= 3"));
        let (setup, r2) = WideSetup::new(m, 52, l, timing, Some(cpu.adx()));
        let m52 = broadcast(m, 52, l);
        let m_digits: Vec<u64> = m52.iter().map(|d| d[0]).collect();
        let words = (m.bits() > 52 && l <= super::ifma_words::MAX_DIGITS).then(|| super::ifma_words::WordConsts::new(&m_digits));
        let mut ctx = Ifma8 { cpu, l, setup, m52, m0inv, r2: Lanes { limbs: r2 }, one: Vec::new(), words };
        ctx.one = ctx.to_mont(&[]).limbs.as_flattened().to_vec();
        Some(ctx)
    }

    /// Lanes holding `xs` (up to 8 values `< m`, not checked; missing lanes get 1), in
    /// Montgomery form.
    pub(super) fn to_mont(&self, xs: &[Vec<Limb>]) -> Lanes {
        assert!(xs.len() <= LANES);
        let mut lanes = Lanes { limbs: vec![[0; LANES]; self.l] };
        for k in 0..LANES {
            // No reduction by m: values are < m by contract, and a num-bigint `%` would
            // take time depending on the (secret) modulus. Limbs, not a `BigUint`: the
            // conversion's time then depends on the limb count only.
            let x = xs.get(k).map_or(&[1][..], |x| &x[..]);
            for (j, v) in radix_of_limbs(x, 52, self.l).into_iter().enumerate() {
                lanes.limbs[j][k] = v;
            }
        }
        self.mul(&lanes, &self.r2)
    }

    /// The first `count` lanes in ordinary form, reduced, as limbs of m's length (a
    /// Montgomery product by 1, then [`WideSetup::reduced_limbs_vartime`]). Variable time.
    pub(super) fn store_vartime(&self, x: &Lanes, count: usize) -> Vec<Vec<Limb>> {
        let mut one = Lanes { limbs: vec![[0; LANES]; self.l] };
        one.limbs[0] = [1; LANES];
        self.setup.reduced_limbs_vartime(&self.mul(x, &one).limbs, count)
    }

    /// Lane-wise Montgomery square (values < 2m in, < 2m out).
    pub(super) fn sqr(&self, a: &Lanes) -> Lanes {
        let mut out = Lanes { limbs: vec![[0; LANES]; self.l] };
        self.product::<true>(&mut out.limbs, &a.limbs, &a.limbs);
        out
    }

    /// Lane-wise Montgomery product (values < 2m in, < 2m out).
    pub(super) fn mul(&self, a: &Lanes, b: &Lanes) -> Lanes {
        let mut out = Lanes { limbs: vec![[0; LANES]; self.l] };
        self.mul_into(&mut out.limbs, &a.limbs, &b.limbs);
        out
    }

    fn mul_into(&self, out: &mut [[u64; LANES]], a: &[[u64; LANES]], b: &[[u64; LANES]]) {
        self.product::<false>(out, a, b)
    }

    /// `out = a b R^{-1}` (or `a^2 R^{-1}` when `SQUARE`, `b` ignored): the column-pair
    /// kernel of `ifma_columns` at the fixed sizes, the generic [`amm`] otherwise.
    fn product<const SQUARE: bool>(&self, out: &mut [[u64; LANES]], a: &[[u64; LANES]], b: &[[u64; LANES]]) {
        assert!(out.len() == self.l && a.len() == self.l && b.len() == self.l);
        let inv = [self.m0inv; LANES];
        {
            macro_rules! fixed {
                ($($l:literal)*) => {
                    match self.l {
                        $($l => {
                            let o: &mut [[u64; LANES]; $l] = out.try_into().expect("l digits");
                            let (a, b, m): (&[[u64; LANES]; $l], &[[u64; LANES]; $l], &[[u64; LANES]; $l]) =
                                (a.try_into().expect("l digits"), b.try_into().expect("l digits"), self.m52.as_slice().try_into().expect("l digits"));
                            let _proof: Avx512Ifma = self.cpu;
                            // SAFETY: `self.cpu` proves AVX-512F and IFMA; inputs < 2m
                            // with 4m < R give a b < R m.
                            unsafe { super::ifma_columns::amm_column_pairs::<$l, SQUARE>(o, a, b, m, _mm512_set1_epi64(self.m0inv as i64)) };
                            return;
                        })*
                        _ => {}
                    }
                };
            }
            with_fixed_sizes!(fixed);
        }
        let _proof: Avx512Ifma = self.cpu;
        // SAFETY: `self.cpu` proves AVX-512F and IFMA; all slices have the lengths the
        // kernel expects (checked above).
        unsafe { amm(out, a, b, &self.m52, &inv) }
    }

    /// Each lane's value as the canonical Montgomery residue in [0, m).
    #[cfg(test)]
    fn lanes_reduced(&self, x: &Lanes) -> Vec<BigUint> {
        (0..LANES)
            .map(|k| {
                let v = from_radix52(x.limbs.iter().map(|l| l[k]));
                let m = self.setup.modulus();
                if v >= m {
                    v - m
                } else {
                    v
                }
            })
            .collect()
    }

    /// `R mod m` and `(m-1) R mod m`: 1 and -1 in this context's Montgomery form.
    #[cfg(test)]
    fn one_and_minus_one(&self) -> (BigUint, BigUint) {
        let m = self.setup.modulus();
        let r = (BigUint::from(1u8) << (52 * self.l)) % &m;
        let mr = (&m - &r) % &m;
        (r, mr)
    }

    /// Lane-wise `base^e` (Montgomery form in and out) over exactly `exp_bits` bits of `e`
    /// (higher bits must be zero), in constant time for a secret exponent and secret
    /// lanes, by the crate's one fixed-window routine ([`super::modexp`]); its table
    /// lookup reads every entry under masks, here a whole vector at a time.
    pub(super) fn pow_ct(&self, base: &Lanes, e: &[u64], exp_bits: usize) -> Lanes {
        let flat = crate::arith::modexp::pow_ct_in(&mut { self }, base.limbs.as_flattened(), e, exp_bits);
        Lanes { limbs: flat.as_chunks::<LANES>().0.to_vec() }
    }

    /// `v` (ordinary form, < m) prepared for [`Self::eq_lanes_ct`] as v R mod m, in time
    /// set by the sizes ([`WideSetup::target`]).
    pub(super) fn target(&self, v: &BigUint) -> LaneTarget {
        self.setup.target(v)
    }

    /// `target` (Montgomery form, < m) prepared for [`Self::eq_lanes_ct`]: its digits
    /// and those of target + m, the two values a lane (< 2m) congruent to it can hold.
    #[cfg(test)]
    fn lane_target(&self, target: &BigUint) -> LaneTarget {
        LaneTarget::new(target, &self.setup.modulus(), 52, self.l)
    }

    /// Lanes (bit k for lane k) whose value (< 2m) is congruent to `target` modulo m, in
    /// constant time: compared digit by digit with both forms, with no early exit.
    pub(super) fn eq_lanes_ct(&self, x: &Lanes, target: &LaneTarget) -> u8 {
        super::wide::eq_lanes_ct(&x.limbs, target)
    }

    /// Lane-wise `w_k^e` (Montgomery form out) for words `w_k < 2^32` (up to 8; missing
    /// lanes get 1): from [`WORDS_MIN_DIGITS`] on, left to right, a square per bit of e and
    /// a product by the word ([`super::ifma_words::mul_words`]) per one bit; below, by the
    /// sliding window. Variable time in the public exponent.
    pub(super) fn pow_words_vartime(&self, words: &[u64], e: &[u64]) -> Lanes {
        assert!(words.len() <= LANES && words.iter().all(|&w| w < 1 << 32));
        let bases: Vec<Vec<u64>> = words.iter().map(|&w| vec![w]).collect();
        let base = self.to_mont(&bases);
        let Some(consts) = self.words.as_ref().filter(|_| self.l >= WORDS_MIN_DIGITS) else { return self.pow_vartime(&base, e) };
        let bits = e.iter().rposition(|&w| w != 0).map_or(0, |i| 64 * i + 64 - e[i].leading_zeros() as usize);
        if bits == 0 {
            return Lanes { limbs: self.one.as_chunks::<LANES>().0.to_vec() };
        }
        let w: [u64; LANES] = core::array::from_fn(|k| words.get(k).copied().unwrap_or(1));
        // Two buffers squared into each other, and the word products' scratch, made once:
        // a fresh vector per bit cost about 1% of a 2048-bit proof in allocation and zeroing.
        let mut acc = base;
        let mut next = Lanes { limbs: vec![[0; LANES]; self.l] };
        let mut scratch = super::ifma_words::Scratch::new(self.l);
        for i in (0..bits - 1).rev() {
            self.product::<true>(&mut next.limbs, &acc.limbs, &acc.limbs);
            core::mem::swap(&mut acc, &mut next);
            if e[i / 64] >> (i % 64) & 1 == 1 {
                let _proof: Avx512Ifma = self.cpu;
                // SAFETY: `self.cpu` proves AVX-512F, DQ and IFMA; acc and m52 have l
                // digits, and m has at least two (words is Some).
                unsafe { super::ifma_words::mul_words(&mut acc.limbs, &w, &self.m52, consts, &mut scratch) };
            }
        }
        acc
    }

    /// Lane-wise `base^e` (Montgomery form in and out) by the crate's one sliding-window
    /// routine ([`super::modexp`]); variable time in the public exponent.
    pub(super) fn pow_vartime(&self, base: &Lanes, e: &[u64]) -> Lanes {
        let flat = crate::arith::modexp::pow_vartime_in(&mut { self }, base.limbs.as_flattened(), e);
        Lanes { limbs: flat.as_chunks::<LANES>().0.to_vec() }
    }
}

/// `out = table[idx]` for entries of `out.len()` words, reading every entry: entry i is
/// masked in when i == idx, so the accesses do not depend on the (secret) index. Vector
/// by vector, the entries' vectors are OR-ed in a register and stored once (the
/// entry-by-entry loop of the scalar lookup cost as much as the products here).
///
/// # Safety
/// The CPU must support AVX-512F (every [`Ifma8`] holds a token proving it);
/// `out.len()` is a multiple of 8 and `table.len()` a multiple of `out.len()`.
#[target_feature(enable = "avx512f")]
unsafe fn select_ct(out: &mut [u64], table: &[u64], idx: usize) {
    let w = out.len();
    assert!(w.is_multiple_of(LANES) && table.len().is_multiple_of(w));
    let masks: Vec<__m512i> = (0..table.len() / w).map(|i| _mm512_set1_epi64(select_mask(i, idx))).collect();
    for (j, o) in out.chunks_exact_mut(LANES).enumerate() {
        let mut v = _mm512_setzero_si512();
        for (i, &m) in masks.iter().enumerate() {
            // SAFETY: i * w + 8 j + 8 <= table.len() (checked above).
            let e = unsafe { _mm512_loadu_si512(table.as_ptr().add(i * w + LANES * j).cast()) };
            v = _mm512_or_si512(v, _mm512_and_si512(e, m));
        }
        // SAFETY: o holds 8 words.
        unsafe { _mm512_storeu_si512(o.as_mut_ptr().cast(), v) };
    }
}

/// Eight lanes as one element of `8 l` words, so the window routine is shared.
impl crate::arith::modexp::Domain for &Ifma8 {
    fn width(&self) -> usize {
        self.l * LANES
    }
    fn one(&self) -> &[u64] {
        &self.one
    }
    fn mul(&mut self, out: &mut [u64], a: &[u64], b: &[u64]) {
        self.mul_into(out.as_chunks_mut::<LANES>().0, a.as_chunks::<LANES>().0, b.as_chunks::<LANES>().0)
    }
    fn sqr(&mut self, out: &mut [u64], a: &[u64]) {
        let a = a.as_chunks::<LANES>().0;
        self.product::<true>(out.as_chunks_mut::<LANES>().0, a, a)
    }
    fn lookup_ct(&self, out: &mut [u64], table: &[u64], idx: usize) {
        let _proof: Avx512Ifma = self.cpu;
        // SAFETY: `self.cpu` proves AVX-512F; elements are 8 l words and the table holds
        // whole elements.
        unsafe { select_ct(out, table, idx) }
    }
}

/// Smallest size (in 52-bit limbs) at which [`Ifma8::pow_words_vartime`] skips the table:
/// on an AMD EPYC Zen 4 eight exponentiations by a 1023-bit exponent took 497 against
/// 483 us with the table (20 limbs: no gain) and 3,185 against 3,456 us at 2,047 bits
/// (40 limbs), so from 1,500 bits on.
const WORDS_MIN_DIGITS: usize = 30;

/// Calls the macro `$m` with the sizes (in 52-bit limbs) that have fixed-size kernels
/// (`ifma_columns`, `ifma_fermat`): every even size from 4 to 40 (up to 2,076 bits), then
/// steps of 4 to 64 and 8 to 80 (4,156 bits).
///
/// Why so many: a number of b bits runs at the next size up, at a cost about the square
/// of the size. ECPP's down-run tests numbers of every size below the one it proves;
/// with only the sizes of 512, 1024, 1536, 2048, 3072 and 4096 bits (10 to 80 limbs) the
/// lanes' work summed over a 1024-bit proof's levels was about 1.65 times what the
/// exact sizes would cost, 1.14 times with every even size (1.35 and 1.08 for 2048 bits).
macro_rules! with_fixed_sizes {
    ($m:ident) => {
        $m!(4 6 8 10 12 14 16 18 20 22 24 26 28 30 32 34 36 38 40 44 48 52 56 60 64 72 80)
    };
}
pub(super) use with_fixed_sizes;

/// The sizes of [`with_fixed_sizes`], ascending.
macro_rules! size_list {
    ($($l:literal)*) => {
        &[$($l),*]
    };
}
pub(super) const FIXED_SIZES: &[usize] = with_fixed_sizes!(size_list);

/// The IFMA kernel for any size; see the module contract.
///
/// # Safety
/// The CPU must support AVX-512F and AVX-512 IFMA. `out`, `a`, `b`, `m` have l entries,
/// `acc` has 2l + 1.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn amm(out: &mut [[u64; LANES]], a: &[[u64; LANES]], b: &[[u64; LANES]], m: &[[u64; LANES]], m0inv: &[u64; LANES]) {
    let l = m.len();
    assert!(a.len() == l && b.len() == l && out.len() == l);
    let ld = |p: &[u64; LANES]| unsafe { _mm512_loadu_si512(p.as_ptr() as *const _) };
    let zero = _mm512_setzero_si512();
    let mut av: Vec<__m512i> = a.iter().map(ld).collect();
    let mv: Vec<__m512i> = m.iter().map(ld).collect();
    let mut t: Vec<__m512i> = vec![zero; 2 * l + 1];
    let inv = ld(m0inv);
    let mask = _mm512_set1_epi64(MASK52 as i64);
    for i in 0..l {
        let bi = ld(&b[i]);
        for j in 0..l {
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], av[j], bi);
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], av[j], bi);
        }
        // q = t_i * (-m^{-1}) mod 2^52 per lane (IFMA reads only the low 52 bits of t_i).
        let q = _mm512_madd52lo_epu64(zero, t[i], inv);
        for j in 0..l {
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], mv[j], q);
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], mv[j], q);
        }
        // t_i is now 0 mod 2^52; move its carry up.
        t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64::<52>(t[i]));
    }
    // Normalise t[l..2l] to 52-bit limbs (the value is < 2m < R, so no carry remains).
    let mut carry = zero;
    for j in 0..l {
        let v = _mm512_add_epi64(t[l + j], carry);
        carry = _mm512_srli_epi64::<52>(v);
        av[j] = _mm512_and_si512(v, mask);
        unsafe { _mm512_storeu_si512(out[j].as_mut_ptr() as *mut _, av[j]) };
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::random_odd;
    use super::super::wide::limbs_of;
    use super::*;
    use num_bigint::RandBigInt;
    use num_traits::One;
    use rand::{Rng, SeedableRng};

    #[test]
    fn pow_ct_matches_modpow_per_lane() {
        let Some(cpu) = crate::arith::cpu::avx512_ifma_or_skip("lane kernel") else { return };
        let mut rng = rand::rngs::StdRng::seed_from_u64(6);
        for bits in [200u64, 1024, 2048, 3072] {
            let m = random_odd(&mut rng, bits);
            let ctx = Ifma8::new(cpu, &m, Timing::ConstantTime).unwrap();
            let xs: Vec<BigUint> = (0..LANES).map(|k| if k == 0 { &m - 1u8 } else { rng.gen_biguint_below(&m) }).collect();
            // Exponent lengths not a multiple of the window, and all ones.
            for e in [rng.gen_biguint(bits - 3), (BigUint::one() << (bits - 1)) - 1u8] {
                let exp_bits = bits as usize;
                let got = ctx.lanes_reduced(&ctx.pow_ct(&ctx.to_mont(&limbs_of(&xs)), &e.to_u64_digits(), exp_bits));
                let r = BigUint::one() << (52 * ctx.l);
                for k in 0..LANES {
                    assert_eq!(got[k], xs[k].modpow(&e, &m) * &r % &m, "bits={bits} lane={k}");
                }
            }
            // Lane comparison: lanes equal to 1 (in Montgomery form) or not.
            let (one, minus_one) = ctx.one_and_minus_one();
            let x = ctx.to_mont(&limbs_of(&[BigUint::one(), &m - 1u8, BigUint::from(2u8)]));
            assert_eq!(ctx.eq_lanes_ct(&x, &ctx.lane_target(&one)), 0b1111_1001, "missing lanes hold 1");
            assert_eq!(ctx.eq_lanes_ct(&x, &ctx.lane_target(&minus_one)), 0b10);
        }
    }

    #[test]
    fn word_powers_match_modpow_per_lane() {
        let Some(cpu) = crate::arith::cpu::avx512_ifma_or_skip("lane kernel") else { return };
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        let tops = FIXED_SIZES.iter().map(|&l| 52 * l as u64 - 3);
        for bits in [53u64, 64, 104, 105, 200, 511, 1024, 1500, 2048].into_iter().chain(tops) {
            // Moduli with a small top digit and a full one, and a random one.
            for m in [(BigUint::one() << (bits - 1)) + 1u8, (BigUint::one() << bits) - 1u8, random_odd(&mut rng, bits)] {
                let ctx = Ifma8::new(cpu, &m, Timing::Vartime).unwrap();
                let words: Vec<u64> = [1u64, 2, 3, (1 << 32) - 1, 97_283, 65_537, rng.gen_range(1..1u64 << 32)].to_vec();
                for e in [BigUint::one(), BigUint::from(2u8), rng.gen_biguint(bits.min(600)), (&m - 1u8) >> 1] {
                    if e.bits() > 600 && bits > 1100 {
                        continue;
                    }
                    let got = ctx.lanes_reduced(&ctx.pow_words_vartime(&words, &e.to_u64_digits()));
                    let r = BigUint::one() << (52 * ctx.l);
                    for (k, g) in got.iter().enumerate() {
                        let w = BigUint::from(words.get(k).copied().unwrap_or(1));
                        assert_eq!(*g, w.modpow(&e, &m) * &r % &m, "bits={bits} lane={k} m={m:x}");
                    }
                }
            }
        }
    }

    #[test]
    fn pow_matches_modpow_per_lane() {
        let Some(cpu) = crate::arith::cpu::avx512_ifma_or_skip("lane kernel") else { return };
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        // The key sizes, then the top of every fixed-size kernel's range.
        let tops = FIXED_SIZES.iter().map(|&l| 52 * l as u64 - 3);
        for bits in [3u64, 52, 53, 64, 100, 511, 1024, 1500, 2048, 3072, 4096].into_iter().chain(tops) {
            let mut m = random_odd(&mut rng, bits);
            if m.bits() < 2 {
                m = BigUint::from(3u8);
            }
            let ctx = Ifma8::new(cpu, &m, Timing::ConstantTime).unwrap();
            let xs: Vec<BigUint> = (0..LANES).map(|k| if k == 0 { &m - 1u8 } else { rng.gen_biguint_below(&m) }).collect();
            let e = rng.gen_biguint(bits.min(1100));
            let got = ctx.lanes_reduced(&ctx.pow_vartime(&ctx.to_mont(&limbs_of(&xs)), &e.to_u64_digits()));
            let r = BigUint::one() << (52 * ctx.l);
            for k in 0..LANES {
                let want = xs[k].modpow(&e, &m) * &r % &m;
                assert_eq!(got[k], want, "bits={bits} lane={k}");
            }
        }
    }
}
