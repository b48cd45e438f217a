//! Eight exponentiations w_k^e of word-sized bases (one per lane, one modulus, one public
//! exponent) without a table: left to right, a lane square per exponent bit and, on a
//! one bit, a product by the lane's word, which costs a few passes over the digits
//! instead of a Montgomery product.
//!
//! Why: ECPP's square roots of small integers (Tonelli–Shanks, one exponentiation per
//! prime discriminant) raise word-sized bases to one exponent modulo N. A sliding window
//! spends about one product in six bits on table entries; with a word base those
//! products become multiplications by the word.
//!
//! Contract of [`mul_words`] (L digits of 52 bits, R = 2^(52 L) > 4m, m's top nonzero
//! digit at index t >= 1):
//! - input x per lane: digits < 2^52, value < 2m; the words w_k < 2^32;
//! - output: x w_k mod m up to one extra m (< 2m), digits < 2^52 — the same form, and the
//!   same Montgomery factor (no R^-1 is taken);
//! - method: y = x w (L + 1 digits, < 2^33 m, left unnormalised), a quotient
//!   q = floor(y / m) or one less from the leading digits in floating point (the ratio's
//!   error is below 2^-17, q is taken from it minus 2^-10), then y - q m, which lies in
//!   [0, 2m), digit by digit with one carry pass at the end: every product is
//!   independent, so the only chain is the carries';
//! - timing depends only on L (public data here anyway: variable-time callers).

use super::ifma::LANES;
use crate::arith::radix::MASK52;
use core::arch::x86_64::*;

/// Most digits a lane value has (the largest fixed size).
pub(super) const MAX_DIGITS: usize = 80;

/// Per-modulus constants of [`mul_words`].
#[derive(Clone, Debug)]
pub(super) struct WordConsts {
    /// Index of m's top nonzero digit.
    top: usize,
    /// 1 / (m_t + m_(t-1) 2^-52 + m_(t-2) 2^-104), m's leading digits in units of
    /// 2^(52 t).
    inv_lead: f64,
}

impl WordConsts {
    /// For the modulus with 52-bit digits `m` (at least two digits up to the top one).
    pub(super) fn new(m: &[u64]) -> Self {
        let top = m.iter().rposition(|&d| d != 0).expect("m > 0");
        assert!(top >= 1, "a modulus of at least 53 bits");
        let at = |i: usize| m.get(i).copied().unwrap_or(0) as f64;
        let below2 = if top >= 2 { at(top - 2) } else { 0.0 };
        let lead = at(top) + at(top - 1) * 2f64.powi(-52) + below2 * 2f64.powi(-104);
        WordConsts { top, inv_lead: 1.0 / lead }
    }
}

/// The unnormalised product x w of [`mul_words`] (L + 1 vectors), made once per
/// exponentiation: zeroing a stack array of the largest size on every call cost more
/// than the call's own stores.
pub(super) struct Scratch(Vec<__m512i>);

impl Scratch {
    /// For values of `l` digits.
    pub(super) fn new(l: usize) -> Self {
        // SAFETY: an all-zero __m512i is a valid value (no feature is needed to make one
        // in memory).
        Scratch(vec![unsafe { core::mem::zeroed() }; l + 1])
    }
}

/// `x = x w mod m` lane-wise (see the module contract); `m` holds the modulus's digits
/// broadcast to every lane.
///
/// # Safety
/// The CPU must support AVX-512F, DQ and IFMA; `x` and `m` have L >= t + 1 digits
/// (L <= 80) with R = 2^(52 L) > 4m; `scratch` was made for L digits.
#[target_feature(enable = "avx512f,avx512dq,avx512ifma")]
pub(super) unsafe fn mul_words(x: &mut [[u64; LANES]], w: &[u64; LANES], m: &[[u64; LANES]], c: &WordConsts, scratch: &mut Scratch) {
    let l = x.len();
    assert!(m.len() == l && l <= MAX_DIGITS && c.top + 1 < l + 1 && scratch.0.len() == l + 1);
    // SAFETY: each pointer addresses a whole [u64; 8].
    let ld = |p: &[u64; LANES]| unsafe { _mm512_loadu_si512(p.as_ptr().cast()) };
    let st = |p: &mut [u64; LANES], v: __m512i| unsafe { _mm512_storeu_si512(p.as_mut_ptr().cast(), v) };
    let zero = _mm512_setzero_si512();
    let mask = _mm512_set1_epi64(MASK52 as i64);
    let wv = ld(w);
    // y = x w with unnormalised digits: digit j is lo(x_j w) + hi(x_(j-1) w) < 2^53, each
    // independent of the others.
    let y = &mut scratch.0;
    let mut hi_prev = zero;
    for j in 0..l {
        let xj = ld(&x[j]);
        y[j] = _mm512_madd52lo_epu64(hi_prev, xj, wv);
        hi_prev = _mm512_madd52hi_epu64(zero, xj, wv);
    }
    y[l] = hi_prev;
    // q from y's digits t + 1, t, t - 1 (units of 2^(52 t)) over m's leading digits; the
    // carries the digits below would add are below 2^-51 of the unit.
    let t = c.top;
    let f = |v: __m512i| _mm512_cvtepu64_pd(v);
    let y_lead =
        _mm512_fmadd_pd(f(y[t + 1]), _mm512_set1_pd(2f64.powi(52)), _mm512_fmadd_pd(f(y[t - 1]), _mm512_set1_pd(2f64.powi(-52)), f(y[t])));
    let ratio = _mm512_fmsub_pd(y_lead, _mm512_set1_pd(c.inv_lead), _mm512_set1_pd(2f64.powi(-10)));
    let q = _mm512_cvttpd_epu64(_mm512_max_pd(ratio, _mm512_setzero_pd()));
    // x = y - q m: digit j is y_j - lo(q m_j) - hi(q m_(j-1)), in (-2^53, 2^53), then
    // one signed carry pass (the only chain: an addition and a shift per digit).
    let mut hi_prev = zero;
    let mut carry = zero;
    for j in 0..l {
        let mj = ld(&m[j]);
        let d = _mm512_sub_epi64(_mm512_sub_epi64(y[j], _mm512_madd52lo_epu64(zero, q, mj)), hi_prev);
        hi_prev = _mm512_madd52hi_epu64(zero, q, mj);
        let v = _mm512_add_epi64(d, carry);
        st(&mut x[j], _mm512_and_si512(v, mask));
        carry = _mm512_srai_epi64::<52>(v);
    }
    debug_assert!({
        let top = _mm512_add_epi64(_mm512_sub_epi64(y[l], hi_prev), carry);
        _mm512_test_epi64_mask(top, top) == 0
    });
}
