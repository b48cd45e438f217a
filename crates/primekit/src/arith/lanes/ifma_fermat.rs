//! Eight base-2 Fermat tests at once with AVX-512 IFMA: eight DIFFERENT odd moduli n_k,
//! one per 64-bit lane, each lane computing 2^(n_k - 1) mod n_k.
//!
//! Why: in prime generation the base-2 Fermat test of each sieve survivor dominates the
//! cost; survivors of one search have the same
//! bit length, so eight of them can share every instruction of the radix-2^52 almost
//! Montgomery squaring of `ifma_columns`, with a per-lane modulus and per-lane
//! -m^{-1} mod 2^52. Public candidates of different sizes share them too (see
//! [`super::fermat_shape`]).
//!
//! Method per lane (left-to-right square-and-double, as the scalar `pow2_ct`): acc starts
//! at R mod n (Montgomery 1, computed by modular doublings of a public 2^top < n); for
//! each exponent bit from the top: acc = AMS(acc) (< 2n, for acc < 4n since R >= 16n),
//! then acc = 2 acc (< 4n, unreduced) in the lanes whose bit of n - 1 is 1 (a masked
//! add). At the end acc is reduced below n and compared to R mod n.
//!
//! Constant time: the instruction stream and every memory index depend only on the
//! public `bits` and `top` and the limb count; per-lane choices are `vpblendmq` masks
//! computed from borrows and exponent bits. Only the returned pass/fail bit mask depends
//! on secrets.

use super::ifma::{with_fixed_sizes, FIXED_SIZES, LANES};
use super::ifma_columns::amm_column_pairs;
use crate::arith::cpu::Avx512Ifma;
use crate::arith::limbs::{neg_inv_mod_2_52, to_limbs};
use crate::arith::radix::{digit, MASK52};
use core::arch::x86_64::*;
use num_bigint::BigUint;

/// Largest candidate size accepted (80 limbs of 52 bits minus four guard bits: R >= 16m
/// lets a doubled square, < 4m, go into the next squaring unreduced).
pub(super) const MAX_BITS: usize = 80 * 52 - 4;

/// Base-2 Fermat test of 1 to 8 candidates at once.
///
/// Contract (checked by the caller, `FermatBatch::test_ct` / `test_vartime`, except
/// parity on the constant-time path): every candidate is odd with 2^top < n_k < 2^bits,
/// 3 <= bits <= [`MAX_BITS`]; `bits`, `top` and the number of candidates are public.
/// Returns a mask whose bit k is set exactly when 2^(n_k - 1) = 1 (mod n_k). Missing
/// lanes repeat candidate 0 and their bits are cleared. Timing depends only on `bits`
/// and `top` (see the module doc).
pub(super) fn fermat_base_two_lanes(cpu: Avx512Ifma, cands: &[BigUint], bits: usize, top: usize) -> u8 {
    assert!(!cands.is_empty() && cands.len() <= LANES && (3..=MAX_BITS).contains(&bits) && top < bits);
    let l = (bits + 4).div_ceil(52);
    let l = FIXED_SIZES.iter().copied().find(|&f| f >= l).expect("bits <= MAX_BITS");
    let mut m = vec![[0u64; LANES]; l];
    let mut m0inv = [0u64; LANES];
    for k in 0..LANES {
        // Limbs of a fixed length, so no length reveals a candidate's size.
        let c = to_limbs(cands.get(k).unwrap_or(&cands[0]), bits.div_ceil(64)).expect("candidate of at most `bits` bits");
        for (j, limb) in m.iter_mut().enumerate() {
            limb[k] = digit(&c, 52, j);
        }
        m0inv[k] = neg_inv_mod_2_52(m[0][k]);
    }
    let _proof: Avx512Ifma = cpu;
    // SAFETY: `cpu` proves AVX-512F + IFMA; `m` has exactly L limbs for the matching
    // instantiation and bits <= 52 L - 4.
    let pass = unsafe {
        macro_rules! dispatch {
            ($($n:literal)*) => {
                match l {
                    $($n => fermat_fixed::<$n>(&m, &m0inv, bits, top),)*
                    _ => unreachable!("l is one of FIXED_SIZES"),
                }
            };
        }
        with_fixed_sizes!(dispatch)
    };
    pass & (super::lane_mask(cands.len()) as u8)
}

/// Lane-wise x = 2x, then x -= md when 2x >= md (x < md on entry, so x < md on exit;
/// 2x must fit in L limbs). Masks only.
#[target_feature(enable = "avx512f")]
fn double_mod<const L: usize>(x: &mut [__m512i; L], md: &[__m512i; L]) {
    let mask = _mm512_set1_epi64(MASK52 as i64);
    let mut carry = _mm512_setzero_si512();
    for limb in x.iter_mut() {
        let t = _mm512_add_epi64(_mm512_slli_epi64::<1>(*limb), carry);
        carry = _mm512_srli_epi64::<52>(t);
        *limb = _mm512_and_si512(t, mask);
    }
    reduce_once(x, md);
}

/// Lane-wise x -= md when x >= md (masks only).
#[target_feature(enable = "avx512f")]
fn reduce_once<const L: usize>(x: &mut [__m512i; L], md: &[__m512i; L]) {
    let mask = _mm512_set1_epi64(MASK52 as i64);
    let mut borrow = _mm512_setzero_si512();
    let mut sub = [_mm512_setzero_si512(); L];
    for j in 0..L {
        let u = _mm512_sub_epi64(_mm512_sub_epi64(x[j], md[j]), borrow);
        borrow = _mm512_srli_epi64::<63>(u);
        sub[j] = _mm512_and_si512(u, mask);
    }
    let keep_sub = _mm512_cmpeq_epi64_mask(borrow, _mm512_setzero_si512());
    for j in 0..L {
        x[j] = _mm512_mask_blend_epi64(keep_sub, x[j], sub[j]);
    }
}

/// The fixed-size body of [`fermat_base_two_lanes`]: returns the lanes with
/// 2^(m_k - 1) = 1 (mod m_k).
///
/// # Safety
/// The CPU must support AVX-512F and IFMA. `m` has L limbs < 2^52 per lane, each lane's
/// modulus odd with 2^top < m_k < 2^bits, 3 <= bits <= 52 L - 4 (so R >= 16 m_k).
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn fermat_fixed<const L: usize>(m: &[[u64; LANES]], m0inv: &[u64; LANES], bits: usize, top: usize) -> u8 {
    assert!(m.len() == L && bits + 4 <= 52 * L && top < bits);
    let m: &[[u64; LANES]; L] = m.try_into().expect("L limbs");
    // SAFETY: each pointer addresses a whole [u64; 8] (64 bytes); unaligned access is fine.
    let ld = |p: &[u64; LANES]| unsafe { _mm512_loadu_si512(p.as_ptr() as *const _) };
    let zero = _mm512_setzero_si512();
    let mv: [__m512i; L] = core::array::from_fn(|j| ld(&m[j]));
    let inv = ld(m0inv);
    // 2m (< R/8), for the final reduction.
    let mut m2 = mv;
    double_mod(&mut m2, &[_mm512_set1_epi64(MASK52 as i64); L]); // 2m < R - 1: never reduced

    // R mod m: start from the public 2^top, below every lane's modulus, and double
    // 52 L - top times (each doubling keeps a value < m below m).
    let mut one = [zero; L];
    one[top / 52] = _mm512_set1_epi64(1i64 << (top % 52));
    for _ in 0..(52 * L - top) {
        double_mod(&mut one, &mv);
    }
    // SAFETY: as for `ld`, a store into a borrowed [u64; 8].
    let st = |p: &mut [u64; LANES], v: __m512i| unsafe { _mm512_storeu_si512(p.as_mut_ptr() as *mut _, v) };
    let mut acc = [[0u64; LANES]; L];
    let mut sq = [[0u64; LANES]; L];
    for j in 0..L {
        st(&mut acc[j], one[j]);
    }
    let mask = _mm512_set1_epi64(MASK52 as i64);
    // A lane whose modulus is shorter than `bits` has zero bits of m - 1 at the top: there
    // acc only goes through AMS, which keeps it congruent to R (R^2 R^-1 = R mod m) and
    // below 2m, so its own exponent starts at its top bit as in a shorter ladder.
    for i in (0..bits).rev() {
        // acc < 4m gives sq < 2m (R >= 16m: see `ifma_columns`).
        amm_column_pairs::<L, true>(&mut sq, &acc, &acc, m, inv);
        // Bit i of m - 1 (= bit i of m except bit 0, which is 0 in m - 1).
        let e = if i == 0 { zero } else { mv[i / 52] };
        let take = _mm512_test_epi64_mask(e, _mm512_set1_epi64(1i64 << (i % 52)));
        // acc = 2 sq (< 4m, no reduction needed) in the lanes that take the bit, sq in
        // the others. One carry round normalises it exactly: a doubled digit's low 52
        // bits are even, at most 2^52 - 2, so the carry in (0 or 1) cannot ripple; and
        // the carries do not chain from digit to digit, unlike a subtraction's borrows.
        let mut below = zero;
        for j in 0..L {
            let x = ld(&sq[j]);
            let y = _mm512_mask_add_epi64(x, take, x, x);
            st(&mut acc[j], _mm512_add_epi64(_mm512_and_si512(y, mask), below));
            below = _mm512_srli_epi64::<52>(y);
        }
    }
    // acc < 4m: two conditional subtractions bring it below m.
    let mut r: [__m512i; L] = core::array::from_fn(|j| ld(&acc[j]));
    reduce_once(&mut r, &m2);
    reduce_once(&mut r, &mv);
    let mut diff = zero;
    for j in 0..L {
        diff = _mm512_or_si512(diff, _mm512_xor_si512(r[j], one[j]));
    }
    _mm512_cmpeq_epi64_mask(diff, zero)
}

#[cfg(test)]
mod tests {
    use super::super::test_support::{check_fermat, check_fermat_mixed_sizes, check_fermat_pseudoprimes, random_odd, random_prime};
    use super::*;
    use num_traits::One;
    use rand::SeedableRng;

    #[test]
    fn lanes_agree_with_modpow() {
        let Some(cpu) = crate::arith::cpu::avx512_ifma_or_skip("8-lane Fermat") else { return };
        let fermat = |cands: &[BigUint], bits: usize| fermat_base_two_lanes(cpu, cands, bits, bits - 2);
        let mut rng = rand::rngs::StdRng::seed_from_u64(61);
        let mut batches: Vec<Vec<BigUint>> = Vec::new();
        let mut mixed_batches: Vec<(Vec<BigUint>, usize)> = Vec::new();
        for bits in [64u64, 100, 511, 512, 513, 1024, 1536, 2048, 3072, 4096] {
            // Mixed batches: random primes at some lanes (Mersenne primes above 2048
            // bits, where random ones cost too much to find), random composites elsewhere.
            let nprimes = match bits {
                0..=1024 => 3,
                1025..=2048 => 1,
                _ => 0,
            };
            let mut batch: Vec<BigUint> = (0..nprimes).map(|_| random_prime(&mut rng, bits)).collect();
            while batch.len() < LANES {
                batch.push(random_odd(&mut rng, bits));
            }
            batch.swap(0, LANES / 2);
            // The same batch with lanes 1, 4, 5 one bit shorter (p and q mixed).
            let mut mixed = batch.clone();
            for k in [1, 4, 5] {
                mixed[k] = if k == 4 { random_prime(&mut rng, bits - 1) } else { random_odd(&mut rng, bits - 1) };
            }
            batches.push(batch);
            mixed_batches.push((mixed, bits as usize));
        }
        for e in [61u32, 89, 127, 521, 607, 1279, 2203, 2281, 3217] {
            let mut batch = vec![random_odd(&mut rng, e as u64), (BigUint::one() << e) - 1u8];
            batch.push(random_odd(&mut rng, e as u64));
            batches.push(batch);
        }
        // The top of each size's range (bits = 52 L - 4, so R = 16 * 2^bits): moduli just
        // below 2^bits, whose n - 1 has almost every bit set (a doubling at nearly every
        // step, each taking acc up to its 4m bound), next to random ones.
        for bits in [516u64, 1036, 1556, 2076, 3116] {
            let mut batch: Vec<BigUint> = (0..5u32).map(|k| (BigUint::one() << bits) - 1u8 - 2u32 * k).collect();
            batch.extend((0..3).map(|_| random_odd(&mut rng, bits)));
            batches.push(batch);
        }
        for batch in &batches {
            let bits = batch[0].bits() as usize;
            check_fermat(fermat, batch, bits);
            // Partial batches.
            check_fermat(fermat, &batch[..3], bits);
            check_fermat(fermat, &batch[1..2], bits);
        }
        for (batch, bits) in &mixed_batches {
            check_fermat(fermat, batch, *bits);
            check_fermat(fermat, &batch[4..5], *bits);
        }
        // Every fixed-size kernel, at the top of its range: 2^p - 1 for the largest primes
        // p that fit (each passes: 2^p = 1 and p | 2^p - 2), next to random odd numbers;
        // the lanes' lower bound 2^top below the shortest.
        let is_prime_u64 = |p: u64| p > 1 && (2..).take_while(|d| d * d <= p).all(|d| !p.is_multiple_of(d));
        for &l in FIXED_SIZES {
            let bits = 52 * l as u64 - 4;
            let mut batch: Vec<BigUint> =
                (2..=bits).rev().filter(|&p| is_prime_u64(p)).take(3).map(|p| (BigUint::one() << p) - 1u8).collect();
            batch.extend((0..5).map(|_| random_odd(&mut rng, bits)));
            let top = batch.iter().map(|n| n.bits() as usize).min().expect("nonempty") - 1;
            check_fermat(|cands: &[BigUint], bits: usize| fermat_base_two_lanes(cpu, cands, bits, top), &batch, bits as usize);
        }
    }

    #[test]
    fn pseudoprimes_pass_exactly_like_modpow() {
        let Some(cpu) = crate::arith::cpu::avx512_ifma_or_skip("8-lane Fermat") else { return };
        check_fermat_pseudoprimes(|cands: &[BigUint], bits: usize| fermat_base_two_lanes(cpu, cands, bits, bits - 2), LANES);
    }

    /// Candidates of mixed sizes (public: variable time) at the shape of each batch.
    #[test]
    fn mixed_sizes_agree_with_modpow() {
        let Some(cpu) = crate::arith::cpu::avx512_ifma_or_skip("8-lane Fermat") else { return };
        check_fermat_mixed_sizes(
            |cands: &[BigUint]| {
                let (bits, top) = super::super::fermat_shape(cands);
                fermat_base_two_lanes(cpu, cands, bits, top)
            },
            LANES,
        );
    }
}
