//! Eight-lane almost Montgomery multiplication and squaring with AVX-512 IFMA by product
//! scanning, two output columns at a time: the kernel behind both 8-lane users, the
//! Miller-Rabin rounds of [`super::ifma`] (eight bases, one modulus) and the Fermat tests
//! of [`super::ifma_fermat`] (eight candidates, eight moduli).
//!
//! Contract of [`amm_column_pairs`] (L digits of 52 bits per lane, R = 2^(52 L)):
//! - the CPU supports AVX-512F and IFMA; L is even and at least 4;
//! - `m` holds an odd modulus per lane, `inv` its -m^{-1} mod 2^52 per lane;
//! - inputs have digits < 2^52 and, per lane, values with a b < R m (a, b < 2m when
//!   4m <= R; a, b < 4m when 16m <= R);
//! - the output is a b R^{-1} mod m up to one extra m: (a b + Q m) / R < 2m, digits
//!   < 2^52;
//! - `out` is distinct from the inputs (the borrow checker enforces it);
//! - timing and memory accesses depend only on L: fixed trip counts, no branch or index
//!   on digit values.
//!
//! Method. Column k (0 <= k < 2L) sums lo(a_i b_j) over i + j = k (for a square: twice
//! the cross terms i < j plus the diagonal a_(k/2)^2), lo(q_i m_j) over i + j = k, the
//! high halves of the same products of column k - 1, and the carry out of column k - 1.
//! For k < L, q_k = S_k (-m^{-1}) mod 2^52 makes S_k + lo(q_k m_0) = 0 mod 2^52, so that
//! term is never computed: the carry out is ceil(S_k / 2^52) = (S_k + 2^52 - 1) >> 52.
//! For k >= L the column's low 52 bits are output digit k - L. A column receives at most
//! 2L product halves and 2L reduction halves, each < 2^52, plus a carry: below 2^61 for
//! L <= 80.
//!
//! Why this shape (`examples/fermat_lanes_speed`, squaring, per 2048-bit candidate):
//! - A column's partial sums stay in registers and leave them once, as one digit. The
//!   row-by-row (operand scanning) form this replaced kept 2L + 1 accumulators in memory,
//!   read and written by every multiply-add: 470 us, against 236 us for one column at a
//!   time.
//! - Two columns at a time ([`mac_column_pair`]) halve the loads per multiply-add: 175
//!   us, about two IFMA per cycle, the unit's throughput here.
//! - A square computes each cross product a_i a_j (i < j) once and doubles the sum:
//!   L(L+1) + 2L^2 - L multiply-adds instead of 4L^2.
//! - The chain q_(k-1) -> q_k goes through lo(q_(k-1) m_1) and hi(q_(k-1) m_0) only,
//!   added side by side at the column's end ([`with_late_terms`]); q_(k-1) stays in a
//!   register for them, older q are stored and reloaded, and nothing else waits for it.

use super::ifma::LANES;
use crate::arith::radix::MASK52;
use core::arch::x86_64::*;

/// Sum of four vectors.
#[inline]
#[target_feature(enable = "avx512f")]
fn sum4(v: &[__m512i; 4]) -> __m512i {
    _mm512_add_epi64(_mm512_add_epi64(v[0], v[1]), _mm512_add_epi64(v[2], v[3]))
}

/// For i in [i0, i1), the products x_i y_(k-i) (column k) and x_i y_(k+1-i) (column
/// k + 1), lane-wise: lo(x_i y_(k-i)) into `c0`, its hi and lo(x_i y_(k+1-i)) into `c1`,
/// hi(x_i y_(k+1-i)) into `c2`; y_(k+1-i0) counts as zero when k + 1 - i0 = y.len().
/// Going up in i, y_(k+1-i) is the previous step's y_(k-i), so each step loads two
/// vectors for four multiply-adds (one load each would bound the kernel: `vmovdqu64`
/// issues about once per cycle here, IFMA twice). Two steps at a time keep eight
/// independent multiply-add chains in flight.
///
/// `x` is a pointer, not a slice, so that the quotient digits can be read while later
/// ones are still unwritten ([`amm_column_pairs`] leaves them uninitialised rather than
/// zeroing L vectors per product).
///
/// # Safety
/// The CPU must support AVX-512F and IFMA; for i in [i0, i1): x + i points at an
/// initialised [u64; 8], i <= k and k + 1 - i <= y.len().
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
#[allow(clippy::too_many_arguments)]
unsafe fn mac_column_pair(
    c0: &mut [__m512i; 2],
    c1: &mut [__m512i; 4],
    c2: &mut [__m512i; 2],
    x: *const [u64; LANES],
    y: &[[u64; LANES]],
    k: usize,
    i0: usize,
    i1: usize,
) {
    if i0 >= i1 {
        return;
    }
    debug_assert!(i1 - 1 <= k && k + 1 - i0 <= y.len());
    // SAFETY: the indices stay inside x's initialised digits and y by the caller's
    // contract (y's bound checked above in debug builds); each pointer addresses a whole
    // [u64; 8].
    let ld = |p: *const [u64; LANES]| unsafe { _mm512_loadu_si512(p.cast()) };
    let (xp, yp) = (x, y.as_ptr());
    // SAFETY: index k + 1 - i0 < y.len() when it is loaded. The index is public.
    let mut y_next = if k + 1 - i0 < y.len() { unsafe { ld(yp.add(k + 1 - i0)) } } else { _mm512_setzero_si512() };
    let mut i = i0;
    while i + 2 <= i1 {
        for u in 0..2 {
            // SAFETY: i + u < i1 <= x.len() and k - i - u <= k - i0 < y.len().
            let (xv, yv) = unsafe { (ld(xp.add(i + u)), ld(yp.add(k - i - u))) };
            c0[u] = _mm512_madd52lo_epu64(c0[u], xv, yv);
            c1[2 * u] = _mm512_madd52hi_epu64(c1[2 * u], xv, yv);
            c1[2 * u + 1] = _mm512_madd52lo_epu64(c1[2 * u + 1], xv, y_next);
            c2[u] = _mm512_madd52hi_epu64(c2[u], xv, y_next);
            y_next = yv;
        }
        i += 2;
    }
    if i < i1 {
        // SAFETY: as above.
        let (xv, yv) = unsafe { (ld(xp.add(i)), ld(yp.add(k - i))) };
        c0[0] = _mm512_madd52lo_epu64(c0[0], xv, yv);
        c1[0] = _mm512_madd52hi_epu64(c1[0], xv, yv);
        c1[1] = _mm512_madd52lo_epu64(c1[1], xv, y_next);
        c2[0] = _mm512_madd52hi_epu64(c2[0], xv, y_next);
    }
}

/// The sum of a column given its terms but the last ones, those of q_(k-1):
/// `early + lo(q m_1) + hi(q m_0) + carry`, the two products side by side so that q's
/// chain is two multiply-adds and one addition long.
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn with_late_terms(early: __m512i, carry: __m512i, q: __m512i, m0: __m512i, m1: __m512i) -> __m512i {
    _mm512_add_epi64(_mm512_madd52lo_epu64(early, q, m1), _mm512_madd52hi_epu64(carry, q, m0))
}

/// Almost Montgomery product `out = a b R^{-1} mod m` (< 2m) lane-wise, or the square of
/// `a` when `SQUARE` (then `b` is ignored); see the module contract.
///
/// Per pair of columns (k even): the products (for a square: the cross terms with
/// i < k/2, then a_h a_(h+1) and a_h^2 with h = k/2), the reduction terms with index
/// i <= k - 2 (memory), then q_(k-1)'s (register: lo(q_(k-1) m_1) and hi(q_(k-1) m_0)
/// close column k, hi(q_(k-1) m_1) and lo(q_(k-1) m_2) go to column k + 1, hi(q_(k-1)
/// m_2) to k + 2), then q_k, whose terms close column k + 1 (lo(q_k m_1), hi(q_k m_0))
/// and start k + 2 (hi(q_k m_1)), then q_(k+1). For k >= L the columns are output
/// digits instead.
///
/// Callers without the target features must check the CPU (`unsafe` call).
#[target_feature(enable = "avx512f,avx512ifma")]
pub(super) fn amm_column_pairs<const L: usize, const SQUARE: bool>(
    out: &mut [[u64; LANES]; L],
    a: &[[u64; LANES]; L],
    b: &[[u64; LANES]; L],
    m: &[[u64; LANES]; L],
    inv: __m512i,
) {
    const { assert!(L.is_multiple_of(2) && L >= 4) };
    // SAFETY: each pointer addresses a whole [u64; 8] (64 bytes); unaligned access is fine.
    let ld = |p: &[u64; LANES]| unsafe { _mm512_loadu_si512(p.as_ptr().cast()) };
    let st = |p: &mut [u64; LANES], v: __m512i| unsafe { _mm512_storeu_si512(p.as_mut_ptr().cast(), v) };
    let zero = _mm512_setzero_si512();
    let mask = _mm512_set1_epi64(MASK52 as i64);
    let (m0, m1, m2) = (ld(&m[0]), ld(&m[1]), ld(&m[2]));
    // Quotient digits, each written (at column k) before any read (columns k + 2 on).
    let mut q = [const { core::mem::MaybeUninit::<[u64; LANES]>::uninit() }; L];
    // Product terms (doubled when a square's column is summed: cross terms) and the
    // rest, for columns k, k + 1 and k + 2.
    let (mut x0, mut x1, mut x2) = ([zero; 2], [zero; 4], [zero; 2]);
    let (mut r0, mut r1, mut r2) = ([zero; 2], [zero; 4], [zero; 2]);
    let mut carry = zero;
    let mut q_prev = zero;
    let column = |x: __m512i, r: __m512i| if SQUARE { _mm512_add_epi64(_mm512_add_epi64(x, x), r) } else { _mm512_add_epi64(x, r) };
    for k in (0..2 * L).step_by(2) {
        let lo = (k + 1).saturating_sub(L);
        if SQUARE {
            let h = k / 2;
            // SAFETY: i < h < L and k + 1 - i <= L for i in [lo, h).
            unsafe { mac_column_pair(&mut x0, &mut x1, &mut x2, a.as_ptr(), a, k, lo, h) };
            // a_h a_(h+1) (column k + 1; none when h + 1 = L) and the square a_h^2.
            let ah = ld(&a[h]);
            let ah1 = if h + 1 < L { ld(&a[h + 1]) } else { zero };
            x1[0] = _mm512_madd52lo_epu64(x1[0], ah, ah1);
            x2[0] = _mm512_madd52hi_epu64(x2[0], ah, ah1);
            r0[0] = _mm512_madd52lo_epu64(r0[0], ah, ah);
            r1[0] = _mm512_madd52hi_epu64(r1[0], ah, ah);
        } else {
            // Every i with both columns' partners in range, then a_(k+1) b_0 (column
            // k + 1 only).
            // SAFETY: i <= min(k, L - 1) and k + 1 - i <= L for i in [lo, min(k + 1, L)).
            unsafe { mac_column_pair(&mut x0, &mut x1, &mut x2, a.as_ptr(), b, k, lo, (k + 1).min(L)) };
            if k + 1 < L {
                let (ak1, b0) = (ld(&a[k + 1]), ld(&b[0]));
                x1[0] = _mm512_madd52lo_epu64(x1[0], ak1, b0);
                x2[0] = _mm512_madd52hi_epu64(x2[0], ak1, b0);
            }
        }
        // SAFETY: i <= k - 2 < L and k + 1 - i <= L for i in [lo, min(k - 1, L)); q_i
        // for i <= k - 1 was written by an earlier column pair.
        unsafe { mac_column_pair(&mut r0, &mut r1, &mut r2, q.as_ptr().cast(), m, k, lo, k.saturating_sub(1).min(L)) };
        let early0 = column(_mm512_add_epi64(x0[0], x0[1]), _mm512_add_epi64(r0[0], r0[1]));
        let s0 = if (2..=L).contains(&k) {
            r1[1] = _mm512_madd52hi_epu64(r1[1], q_prev, m1);
            r1[2] = _mm512_madd52lo_epu64(r1[2], q_prev, m2);
            r2[1] = _mm512_madd52hi_epu64(r2[1], q_prev, m2);
            with_late_terms(early0, carry, q_prev, m0, m1)
        } else {
            _mm512_add_epi64(early0, carry)
        };
        let early1 = column(sum4(&x1), sum4(&r1));
        if k < L {
            // k + 1 < L too (L even).
            let qk = _mm512_madd52lo_epu64(zero, s0, inv);
            carry = _mm512_srli_epi64::<52>(_mm512_add_epi64(s0, mask));
            // SAFETY: q[k] is a whole [u64; 8] of storage.
            unsafe { _mm512_storeu_si512(q[k].as_mut_ptr().cast(), qk) };
            r2[0] = _mm512_madd52hi_epu64(r2[0], qk, m1);
            let s1 = with_late_terms(early1, carry, qk, m0, m1);
            let qk1 = _mm512_madd52lo_epu64(zero, s1, inv);
            carry = _mm512_srli_epi64::<52>(_mm512_add_epi64(s1, mask));
            // SAFETY: as above (k + 1 < L).
            unsafe { _mm512_storeu_si512(q[k + 1].as_mut_ptr().cast(), qk1) };
            q_prev = qk1;
        } else {
            st(&mut out[k - L], _mm512_and_si512(s0, mask));
            let s1 = _mm512_add_epi64(early1, _mm512_srli_epi64::<52>(s0));
            st(&mut out[k + 1 - L], _mm512_and_si512(s1, mask));
            carry = _mm512_srli_epi64::<52>(s1);
        }
        (x0, x1, x2) = (x2, [zero; 4], [zero; 2]);
        (r0, r1, r2) = (r2, [zero; 4], [zero; 2]);
    }
}
