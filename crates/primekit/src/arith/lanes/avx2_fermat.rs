//! Four base-2 Fermat tests at once with AVX2: four DIFFERENT odd moduli n_k, one per
//! 64-bit lane, each lane computing 2^(n_k - 1) mod n_k.
//!
//! The AVX2 counterpart of [`super::ifma_fermat`], on the radix-2^28 almost Montgomery
//! squaring of `avx2_columns` with a per-lane modulus and per-lane -m^{-1} mod 2^28.
//! Public candidates of different sizes share the instructions too (see
//! [`super::fermat_shape`]).
//!
//! Method per lane (left-to-right square-and-double): acc starts at R mod n (Montgomery
//! 1, computed by modular doublings of a public 2^top < n); for each exponent bit
//! from the top: acc = AMS(acc) (< 2n, for acc < 4n since R >= 16n), then acc = 2 acc
//! (< 4n, unreduced) in the lanes whose bit of n - 1 is 1 (a masked add). At the end acc
//! is reduced below n and compared to R mod n.
//!
//! Constant time: the instruction stream and every memory index depend only on the
//! public `bits` (which fixes the digit count l) and `top`; per-lane choices are masks computed
//! from borrows and exponent bits. Only the returned pass/fail bit mask depends on
//! secrets.

use super::avx2::neg_inv_mod_2_28;
use super::avx2_columns::{product, Digit, DIGIT_BITS, LANES, MASK28, MAX_DIGITS};
use crate::arith::cpu::Avx2;
use crate::arith::limbs::to_limbs;
use crate::arith::radix::digit;
use core::arch::x86_64::*;
use num_bigint::BigUint;

/// Largest candidate size accepted (`MAX_DIGITS` digits of 28 bits minus four guard bits:
/// R >= 16m lets a doubled square, < 4m, go into the next squaring unreduced).
pub(super) const MAX_BITS: usize = MAX_DIGITS * DIGIT_BITS - 4;

/// Digits per lane for candidates of `bits` bits (R >= 16m needs bits + 4, then rounded
/// up to a fixed-length kernel where that pays: [`super::avx2_columns::digits_for`]).
pub(super) fn digits(bits: usize) -> usize {
    super::avx2_columns::digits_for((bits + 4).div_ceil(DIGIT_BITS))
}

/// Digits per lane for a variable-time batch whose largest candidate has `bits` bits:
/// [`digits`] where that length pays ([`super::avx2_columns::lanes_pay`]), else the next
/// length with a kernel of its own (below 48 digits a generic kernel costs more than a
/// fixed one a few digits longer: see `digits_for`), else [`digits`].
pub(super) fn digits_vartime(bits: usize) -> usize {
    let l = digits(bits);
    if super::avx2_columns::lanes_pay(l) {
        return l;
    }
    super::avx2_columns::FIXED_DIGITS.iter().copied().find(|&f| f >= l).unwrap_or(l)
}

/// Base-2 Fermat test of 1 to 4 candidates at once.
///
/// Contract (checked by the caller, `FermatBatch::test_ct` / `test_vartime`, except
/// parity on the constant-time path): every candidate is odd with 2^top < n_k < 2^bits,
/// 3 <= bits <= [`MAX_BITS`], on `l` digits per lane (bits + 4 <= 28 l <= 28
/// `MAX_DIGITS`: [`digits`] or [`digits_vartime`]); `bits`, `top`, `l` and the number of
/// candidates are public. Returns a mask whose bit k is set exactly when
/// 2^(n_k - 1) = 1 (mod n_k). Missing lanes repeat candidate 0 and their bits are
/// cleared. Timing depends only on `bits`, `top` and `l` (see the module doc).
pub(super) fn fermat_base_two_lanes(cpu: Avx2, cands: &[BigUint], bits: usize, top: usize, l: usize) -> u8 {
    assert!(!cands.is_empty() && cands.len() <= LANES && (3..=MAX_BITS).contains(&bits) && top < bits);
    assert!(bits + 4 <= DIGIT_BITS * l && l <= MAX_DIGITS);
    let mut m = vec![[0u64; LANES]; l];
    let mut inv = [0u64; LANES];
    for k in 0..LANES {
        // Limbs of a fixed length, so no length reveals a candidate's size.
        let c = to_limbs(cands.get(k).unwrap_or(&cands[0]), bits.div_ceil(64)).expect("candidate of at most `bits` bits");
        for (j, d) in m.iter_mut().enumerate() {
            d[k] = digit(&c, DIGIT_BITS, j);
        }
        inv[k] = neg_inv_mod_2_28(m[0][k]);
    }
    let _proof: Avx2 = cpu;
    // SAFETY: `cpu` proves AVX2; `m` has l digits per lane with bits + 4 <= 28 l.
    let pass = unsafe { fermat_lanes(&m, &inv, bits, top) };
    pass & (super::lane_mask(cands.len()) as u8)
}

/// Lane-wise x -= md when x >= md, by the final borrow as a mask (no branch).
#[target_feature(enable = "avx2")]
fn reduce_once(x: &mut [__m256i], md: &[__m256i]) {
    let mask = _mm256_set1_epi64x(MASK28 as i64);
    let mut borrow = _mm256_setzero_si256();
    let sub: Vec<__m256i> = x
        .iter()
        .zip(md)
        .map(|(&xj, &mj)| {
            let u = _mm256_sub_epi64(_mm256_sub_epi64(xj, mj), borrow);
            borrow = _mm256_srli_epi64::<63>(u);
            _mm256_and_si256(u, mask)
        })
        .collect();
    // All ones in the lanes without a final borrow (x >= md).
    let keep_sub = _mm256_cmpeq_epi64(borrow, _mm256_setzero_si256());
    for (xj, sj) in x.iter_mut().zip(sub) {
        *xj = _mm256_blendv_epi8(*xj, sj, keep_sub);
    }
}

/// Lane-wise x = 2x mod md for x < md (2x must fit in the digits).
#[target_feature(enable = "avx2")]
fn double_mod(x: &mut [__m256i], md: &[__m256i]) {
    let mask = _mm256_set1_epi64x(MASK28 as i64);
    let mut carry = _mm256_setzero_si256();
    for d in x.iter_mut() {
        let t = _mm256_add_epi64(_mm256_slli_epi64::<1>(*d), carry);
        carry = _mm256_srli_epi64::<28>(t);
        *d = _mm256_and_si256(t, mask);
    }
    reduce_once(x, md);
}

/// The body of [`fermat_base_two_lanes`]: returns the lanes with 2^(m_k - 1) = 1
/// (mod m_k).
///
/// # Safety
/// The CPU must support AVX2. `m` has l digits < 2^28 per lane, each lane's modulus odd
/// with 2^top < m_k < 2^bits, 3 <= bits <= 28 l - 4 (so R >= 16 m_k).
#[target_feature(enable = "avx2")]
unsafe fn fermat_lanes(m: &[Digit], inv: &Digit, bits: usize, top: usize) -> u8 {
    let l = m.len();
    assert!(bits + 4 <= DIGIT_BITS * l && l <= MAX_DIGITS && top < bits);
    // SAFETY: each pointer addresses a whole [u64; 4] (32 bytes); unaligned access is fine.
    let ld = |p: &Digit| unsafe { _mm256_loadu_si256(p.as_ptr().cast()) };
    let st = |p: &mut Digit, v: __m256i| unsafe { _mm256_storeu_si256(p.as_mut_ptr().cast(), v) };
    let zero = _mm256_setzero_si256();
    let mask = _mm256_set1_epi64x(MASK28 as i64);
    let mv: Vec<__m256i> = m.iter().map(ld).collect();
    // 2m (< R/8), for the final reduction: a doubling that never reduces (all-ones
    // "modulus" above it).
    let mut m2 = mv.clone();
    double_mod(&mut m2, &vec![mask; l]);
    // R mod m: start from the public 2^top, below every lane's modulus, and double
    // 28 l - top times (each doubling keeps a value < m below m).
    let mut one = vec![zero; l];
    one[top / DIGIT_BITS] = _mm256_set1_epi64x(1i64 << (top % DIGIT_BITS));
    for _ in 0..(DIGIT_BITS * l - top) {
        double_mod(&mut one, &mv);
    }
    let mut acc = vec![[0u64; LANES]; l];
    let mut sq = vec![[0u64; LANES]; l];
    for (a, &o) in acc.iter_mut().zip(&one) {
        st(a, o);
    }
    // A lane whose modulus is shorter than `bits` has zero bits of m - 1 at the top: there
    // acc only goes through AMS, which keeps it congruent to R (R^2 R^-1 = R mod m) and
    // below 2m, so its own exponent starts at its top bit as in a shorter ladder.
    for i in (0..bits).rev() {
        // acc < 4m gives sq < 2m (R >= 16m: see `avx2_columns`).
        // SAFETY: the caller's contract includes AVX2; all slices have l digits.
        unsafe { product::<true>(&mut sq, &acc, &acc, m, inv) };
        // All ones in the lanes whose bit i of m - 1 is set (bit 0 of m - 1 is 0).
        let e = if i == 0 { zero } else { mv[i / DIGIT_BITS] };
        let bit = _mm256_and_si256(_mm256_srl_epi64(e, _mm_cvtsi64_si128((i % DIGIT_BITS) as i64)), _mm256_set1_epi64x(1));
        let take = _mm256_sub_epi64(zero, bit);
        // acc = 2 sq (< 4m, unreduced) in the lanes that take the bit, sq in the others.
        // One carry round normalises it exactly: a doubled digit's low 28 bits are even,
        // at most 2^28 - 2, so the carry in (0 or 1) cannot ripple further.
        let mut below = zero;
        for (a, s) in acc.iter_mut().zip(&sq) {
            let x = ld(s);
            let y = _mm256_add_epi64(x, _mm256_and_si256(x, take));
            st(a, _mm256_add_epi64(_mm256_and_si256(y, mask), below));
            below = _mm256_srli_epi64::<28>(y);
        }
    }
    // acc < 4m: two conditional subtractions bring it below m.
    let mut r: Vec<__m256i> = acc.iter().map(ld).collect();
    reduce_once(&mut r, &m2);
    reduce_once(&mut r, &mv);
    let mut diff = zero;
    for (&rj, &oj) in r.iter().zip(&one) {
        diff = _mm256_or_si256(diff, _mm256_xor_si256(rj, oj));
    }
    let eq = _mm256_cmpeq_epi64(diff, zero);
    _mm256_movemask_pd(_mm256_castsi256_pd(eq)) as u8
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{check_fermat, check_fermat_mixed_sizes, check_fermat_pseudoprimes, random_odd, random_prime};
    use super::*;
    use num_traits::One;
    use rand::SeedableRng;

    #[test]
    fn lanes_agree_with_modpow() {
        let Some(cpu) = crate::arith::cpu::avx2_or_skip("4-lane Fermat") else { return };
        let fermat = |cands: &[BigUint], bits: usize| fermat_base_two_lanes(cpu, cands, bits, bits - 2, digits(bits));
        let mut rng = rand::rngs::StdRng::seed_from_u64(62);
        for bits in [3u64, 20, 24, 25, 52, 64, 100, 512, 1024, 1536, 2048] {
            // A prime in lane 1 (bits >= 20), random odd numbers elsewhere, and the same
            // with lanes 0 and 2 one bit shorter (p and q of a safe-prime search mixed).
            let mut batch: Vec<BigUint> = (0..LANES).map(|_| random_odd(&mut rng, bits)).collect();
            if bits >= 20 {
                batch[1] = random_prime(&mut rng, bits);
            }
            check_fermat(fermat, &batch, bits as usize);
            check_fermat(fermat, &batch[1..3], bits as usize);
            if bits > 3 {
                batch[0] = random_odd(&mut rng, bits - 1);
                if bits >= 20 {
                    batch[2] = random_prime(&mut rng, bits - 1);
                }
                check_fermat(fermat, &batch, bits as usize);
                check_fermat(fermat, &batch[2..3], bits as usize);
            }
        }
        // Mersenne primes next to random odd numbers; the top of the digit range (bits =
        // 28 l - 4, R = 16 2^bits) with n - 1 almost all ones (a doubling at nearly every
        // step, each taking acc to its 4m bound); the largest size accepted.
        for e in [61u32, 89, 127, 521, 607, 1279, 2203, 2281, 3217] {
            check_fermat(
                fermat,
                &[random_odd(&mut rng, e as u64), (BigUint::one() << e) - 1u8, random_odd(&mut rng, e as u64)],
                e as usize,
            );
        }
        for bits in [52u64, 1032, 2068, 3104, 28 * 127 - 4, 28 * 128 - 4, MAX_BITS as u64] {
            let batch: Vec<BigUint> = (0..LANES as u32).map(|k| (BigUint::one() << bits) - 1u8 - 2u32 * k).collect();
            check_fermat(fermat, &batch, bits as usize);
        }
        // Primes at the top of a digit range (52 bits: two digits, R = 16 2^bits): the
        // last product is R mod m or that plus m, the second about one time in twenty, so
        // 64 of them show a final reduction left out.
        for _ in 0..16 {
            let batch: Vec<BigUint> = (0..LANES).map(|_| random_prime(&mut rng, 52)).collect();
            check_fermat(fermat, &batch, 52);
        }
    }

    #[test]
    fn pseudoprimes_pass_exactly_like_modpow() {
        let Some(cpu) = crate::arith::cpu::avx2_or_skip("4-lane Fermat") else { return };
        check_fermat_pseudoprimes(|cands: &[BigUint], bits: usize| fermat_base_two_lanes(cpu, cands, bits, bits - 2, digits(bits)), LANES);
    }

    /// Candidates of mixed sizes (public: variable time) at the shape of each batch.
    #[test]
    fn mixed_sizes_agree_with_modpow() {
        let Some(cpu) = crate::arith::cpu::avx2_or_skip("4-lane Fermat") else { return };
        check_fermat_mixed_sizes(
            |cands: &[BigUint]| {
                let (bits, top) = super::super::fermat_shape(cands);
                fermat_base_two_lanes(cpu, cands, bits, top, digits_vartime(bits))
            },
            LANES,
        );
    }
}
