//! The IFMA backend of the residue kernel: eight moduli per `vpmadd52` instruction, two
//! groups interleaved (see the parent module for the method and its bounds).

use super::GROUP as LANES;
use crate::arith::cpu::Avx512Ifma;
use core::arch::x86_64::*;

/// Safe entry: the token proves AVX-512F and IFMA.
pub(super) fn residues(_: Avx512Ifma, digits: &[u64], m: &[u64], minv: &[u64], c: &[u64], groups: usize, out: &mut [u64]) {
    // SAFETY: the token proves the CPU features; `residues_ifma` checks the lengths.
    unsafe { residues_ifma(digits, m, minv, c, groups, out) }
}

/// # Safety
/// The CPU must support AVX-512F and IFMA; `m`, `minv`, `c` and `out` hold at least
/// `groups * 8` entries.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn residues_ifma(digits: &[u64], m: &[u64], minv: &[u64], c: &[u64], groups: usize, out: &mut [u64]) {
    assert!(m.len() >= groups * LANES && minv.len() >= groups * LANES && c.len() >= groups * LANES && out.len() >= groups * LANES);
    let zero = _mm512_setzero_si512();
    let one = _mm512_set1_epi64(1);
    // SAFETY (all loads/stores below): index g * 8 + 8 <= groups * 8 <= each length.
    let ld = |v: &[u64], g: usize| unsafe { _mm512_loadu_si512(v.as_ptr().add(g * LANES) as *const _) };
    // Two groups at a time so that two independent dependency chains interleave.
    let mut g = 0;
    while g < groups {
        let pair = g + 1 < groups;
        let h = if pair { g + 1 } else { g };
        let (ma, mb) = (ld(m, g), ld(m, h));
        let (ia, ib) = (ld(minv, g), ld(minv, h));
        let (ca, cb) = (ld(c, g), ld(c, h));
        let mut sa = _mm512_set1_epi64(digits[0] as i64);
        let mut sb = sa;
        for &d in &digits[1..] {
            let dv = _mm512_set1_epi64(d as i64);
            let loa = _mm512_madd52lo_epu64(zero, sa, ca);
            let lob = _mm512_madd52lo_epu64(zero, sb, cb);
            let hia = _mm512_madd52hi_epu64(dv, sa, ca);
            let hib = _mm512_madd52hi_epu64(dv, sb, cb);
            let qa = _mm512_madd52lo_epu64(zero, loa, ia);
            let qb = _mm512_madd52lo_epu64(zero, lob, ib);
            sa = _mm512_madd52hi_epu64(hia, qa, ma);
            sb = _mm512_madd52hi_epu64(hib, qb, mb);
            // lo + low52(q m) = 0 (mod 2^52) with both < 2^52: the sum carries exactly
            // when lo != 0.
            sa = _mm512_mask_add_epi64(sa, _mm512_test_epi64_mask(loa, loa), sa, one);
            sb = _mm512_mask_add_epi64(sb, _mm512_test_epi64_mask(lob, lob), sb, one);
        }
        // SAFETY: as for the loads, out holds groups * 8 entries.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(g * LANES) as *mut _, sa) };
        if pair {
            // SAFETY: as above.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(h * LANES) as *mut _, sb) };
        }
        g += if pair { 2 } else { 1 };
    }
}

/// The vector loop of [`super::pair_tests::PairTests::dividing`] over whole groups of
/// eight pairs (sixteen moduli); returns the number of pairs done (the caller finishes
/// the rest).
#[allow(clippy::too_many_arguments)]
pub(super) fn pair_dividing(
    _: Avx512Ifma,
    a: &[u64],
    b: &[u64],
    lift: &[u64],
    add: bool,
    inv: &[u64],
    lim: &[u64],
    pairs: usize,
    out: &mut Vec<u32>,
) -> usize {
    let groups = pairs / LANES;
    assert!(a.len() >= groups * LANES && b.len() >= groups * LANES && (add || lift.len() >= groups * LANES));
    assert!(inv.len() >= 2 * groups * LANES && lim.len() >= 2 * groups * LANES);
    // SAFETY: the token proves AVX-512F and DQ; the lengths are checked above.
    unsafe { pair_dividing_avx512(a, b, lift, add, inv, lim, groups, out) };
    groups * LANES
}

/// # Safety
/// The CPU must support AVX-512F and DQ; `a`, `b` (and `lift` unless `add`) hold at
/// least `8 groups` entries, `inv` and `lim` `16 groups`.
#[allow(clippy::too_many_arguments)]
#[target_feature(enable = "avx512f,avx512dq")]
unsafe fn pair_dividing_avx512(a: &[u64], b: &[u64], lift: &[u64], add: bool, inv: &[u64], lim: &[u64], groups: usize, out: &mut Vec<u32>) {
    // SAFETY (all loads): index 8 g + 8 <= 8 groups for a, b, lift; 16 g + 16 <= 16
    // groups for inv and lim (the caller's contract).
    let ld = |v: &[u64], i: usize| unsafe { _mm512_loadu_si512(v.as_ptr().add(i) as *const _) };
    // Pair k's word goes to the lanes of moduli 2k and 2k + 1.
    let low_pairs = _mm512_set_epi64(3, 3, 2, 2, 1, 1, 0, 0);
    let high_pairs = _mm512_set_epi64(7, 7, 6, 6, 5, 5, 4, 4);
    for g in 0..groups {
        let (x, y) = (ld(a, LANES * g), ld(b, LANES * g));
        let words = if add { _mm512_add_epi64(x, y) } else { _mm512_sub_epi64(_mm512_add_epi64(x, ld(lift, LANES * g)), y) };
        let i = 2 * LANES * g;
        let lo = _mm512_cmple_epu64_mask(_mm512_mullo_epi64(_mm512_permutexvar_epi64(low_pairs, words), ld(inv, i)), ld(lim, i));
        let hi = _mm512_cmple_epu64_mask(
            _mm512_mullo_epi64(_mm512_permutexvar_epi64(high_pairs, words), ld(inv, i + LANES)),
            ld(lim, i + LANES),
        );
        let mut hits = u32::from(lo) | u32::from(hi) << 8;
        while hits != 0 {
            out.push(i as u32 + hits.trailing_zeros());
            hits &= hits - 1;
        }
    }
}
