//! Four-lane almost Montgomery multiplication and squaring with AVX2 by product
//! scanning: the kernel behind both AVX2 lane users, the Miller-Rabin rounds of
//! [`super::avx2`] (four bases, one modulus) and the Fermat tests of
//! [`super::avx2_fermat`] (four candidates, four moduli).
//!
//! Numbers are held in radix 2^28: digit j of the four lanes is one `[u64; 4]` (one
//! `__m256i`), and `vpmuludq` multiplies the low 32 bits of each 64-bit element into a
//! full 64-bit product, four lanes per instruction.
//!
//! Contract of [`amm`] (l digits of 28 bits per lane, R = 2^(28 l)):
//! - the CPU supports AVX2; 1 <= l <= [`MAX_DIGITS`];
//! - `m` holds an odd modulus per lane, `inv` its -m^{-1} mod 2^28 per lane;
//! - inputs have digits < 2^28 and, per lane, values with a b < R m (a, b < 2m when
//!   4m <= R; a, b < 4m when 16m <= R);
//! - the output is a b R^{-1} mod m up to one extra m: (a b + Q m) / R < 2m, digits
//!   < 2^28;
//! - `out` is distinct from the inputs (the borrow checker enforces it);
//! - timing and memory accesses depend only on l: trip counts follow l alone, no branch
//!   or index depends on a digit value.
//!
//! Method. Column c (0 <= c <= 2l - 2) sums a_i b_(c-i) (the product terms X_c) and
//! q_i m_(c-i) (the reduction terms Y_c) over the i with both indices in [0, l), plus
//! the carry out of column c - 1. For c < l, q_c = (column sum without q_c m_0)
//! (-m^{-1}) mod 2^28 makes the column 0 mod 2^28; for c >= l its low 28 bits are output
//! digit c - l. The carry out of column 2l - 2 is digit l - 1 (the result is < R).
//!
//! Overflow bound. Every term is < 2^56 (digits < 2^28), and X_c and Y_c each have at
//! most l terms, so each stays below l 2^56 <= 255 2^56 < 2^64 (for a square, X_c is
//! the same sum computed as twice the cross terms plus the diagonal one). They are kept
//! in separate accumulators and combined by halves: with lo = low28(X_c) + low28(Y_c) +
//! carry_in + q_c m_0 (< 2^29 + 2^37 + 2^56) and hi = (X_c >> 28) + (Y_c >> 28)
//! (< 2^37), the column is hi 2^28 + lo and the carry out is hi + (lo >> 28) < 2^38,
//! far inside 64 bits; hence `MAX_DIGITS` = 255.

use core::arch::x86_64::*;
use core::mem::MaybeUninit;

/// Lanes per vector.
pub(super) const LANES: usize = 4;

/// Bits per digit.
pub(super) const DIGIT_BITS: usize = 28;

/// Mask of a digit.
pub(super) const MASK28: u64 = (1 << DIGIT_BITS) - 1;

/// Most digits per number (see the overflow bound in the module doc).
pub(super) const MAX_DIGITS: usize = 255;

/// Digit j of the four lanes.
pub(super) type Digit = [u64; LANES];

/// Columns per block.
const W: usize = 4;

/// Columns k .. k + W - 1 of the product scan (see the module doc), `k` a multiple of W.
/// A macro so that both kernels share it; the caller's state is passed in by name: `ap`
/// the digits of a, `bp` and `mp` zero-padded copies of b (W zero digits below, W above)
/// and m (W above), `qp` the q digits, `inv`, `mask`, `carry`, `op` the output.
///
/// Bulk terms first, with a window of W digits of b (or m) in registers so that each
/// step loads two vectors for W products: X over i in [lo, hi] (zero padding supplies
/// the products outside each column's own range), Y over i in [lo, min(k, l)) (the q_i
/// known before the block). Then column by column: the few terms of a square's cross
/// products and diagonal not in the bulk, the reduction terms of the block's own q, and
/// the carry.
macro_rules! block {
    ($k:expr, $l:expr, $square:expr, $ap:ident, $bp:ident, $mp:ident, $qp:ident, $inv:ident, $mask:ident, $carry:ident, $op:ident) => {{
        let (k, l): (usize, usize) = ($k, $l);
        let ld = |p: *const __m256i| _mm256_loadu_si256(p);
        let zero = _mm256_setzero_si256();
        let lo = (k + 1).saturating_sub(l);
        let mut x = [zero; W];
        // For a square, the bulk holds the cross terms with 2i < k <= c (doubled below).
        let hi = if $square { k.div_ceil(2) } else { (k + W).min(l) };
        if lo < hi {
            // w[u] = b_(k + u - i) (padded index W + k + u - i, in [1, l + 2W - 1]).
            let mut w: [__m256i; W] = core::array::from_fn(|u| ld($bp.add(W + k + u - lo)));
            for i in lo..hi {
                let ai = ld($ap.add(i));
                for u in 0..W {
                    x[u] = _mm256_add_epi64(x[u], _mm256_mul_epu32(ai, w[u]));
                }
                for u in (1..W).rev() {
                    w[u] = w[u - 1];
                }
                // Index W + k - i - 1 >= W + k - hi >= 0.
                w[0] = ld($bp.add(W + k - i - 1));
            }
        }
        let mut y = [zero; W];
        let qend = k.min(l);
        if lo < qend {
            // w[u] = m_(k + u - i) (padded index k + u - i in [1, l + W - 2]).
            let mut w: [__m256i; W] = core::array::from_fn(|u| ld($mp.add(k + u - lo)));
            for i in lo..qend {
                let qi = *$qp.add(i);
                for u in 0..W {
                    y[u] = _mm256_add_epi64(y[u], _mm256_mul_epu32(qi, w[u]));
                }
                for u in (1..W).rev() {
                    w[u] = w[u - 1];
                }
                // Index k - i - 1 >= 0 for i < k.
                w[0] = ld($mp.add(k - i - 1));
            }
        }
        for u in 0..W {
            let c = k + u;
            let mut xc = x[u];
            if $square {
                xc = _mm256_add_epi64(xc, xc);
                // Cross terms i in [max(hi, c + 1 - l), ceil(c / 2)), then the diagonal.
                for i in hi.max((c + 1).saturating_sub(l))..c.div_ceil(2) {
                    let t = _mm256_mul_epu32(ld($ap.add(i)), ld($ap.add(c - i)));
                    xc = _mm256_add_epi64(xc, _mm256_add_epi64(t, t));
                }
                if c % 2 == 0 && c / 2 < l {
                    let h = ld($ap.add(c / 2));
                    xc = _mm256_add_epi64(xc, _mm256_mul_epu32(h, h));
                }
            }
            // The block's own q: q_(k+v) m_(u-v) for v < u, k + v < l.
            let mut yc = y[u];
            for v in 0..u {
                if k + v < l {
                    yc = _mm256_add_epi64(yc, _mm256_mul_epu32(*$qp.add(k + v), ld($mp.add(u - v))));
                }
            }
            // Combine by halves (module doc: overflow bound).
            let hi2 = _mm256_add_epi64(_mm256_srli_epi64::<28>(xc), _mm256_srli_epi64::<28>(yc));
            let mut s = _mm256_add_epi64(_mm256_add_epi64(_mm256_and_si256(xc, $mask), _mm256_and_si256(yc, $mask)), $carry);
            if c < l {
                let qc = _mm256_and_si256(_mm256_mul_epu32(_mm256_and_si256(s, $mask), $inv), $mask);
                *$qp.add(c) = qc;
                s = _mm256_add_epi64(s, _mm256_mul_epu32(qc, ld($mp)));
            } else if c < 2 * l {
                _mm256_storeu_si256($op.add(c - l).cast(), _mm256_and_si256(s, $mask));
            }
            $carry = _mm256_add_epi64(hi2, _mm256_srli_epi64::<28>(s));
        }
    }};
}

/// Zero-padded copies of b (W zeros below, W above) and m (W zeros above) in the first
/// 2l + 3W vectors of `buf` (all written); returns pointers to them.
///
/// # Safety
/// The CPU must support AVX2; `b.len() == m.len() == l` and `buf` holds 2l + 3W vectors.
#[inline]
#[target_feature(enable = "avx2")]
unsafe fn padded(buf: &mut [MaybeUninit<__m256i>], b: &[Digit], m: &[Digit]) -> (*const __m256i, *const __m256i) {
    let l = m.len();
    assert!(b.len() == l && buf.len() >= 2 * l + 3 * W);
    // SAFETY: whole digits.
    let ld = |d: Option<&Digit>| d.map_or(_mm256_setzero_si256(), |d| unsafe { _mm256_loadu_si256(d.as_ptr().cast()) });
    let (bb, mb) = buf.split_at_mut(l + 2 * W);
    for (j, o) in bb.iter_mut().enumerate() {
        o.write(ld(j.checked_sub(W).and_then(|i| b.get(i))));
    }
    for (j, o) in mb[..l + W].iter_mut().enumerate() {
        o.write(ld(m.get(j)));
    }
    (bb.as_ptr().cast(), mb.as_ptr().cast())
}

/// Almost Montgomery product `out = a b R^{-1} mod m` (< 2m) lane-wise, or the square of
/// `a` when `SQUARE` (then `b` is ignored), for any l; see the module contract.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn amm<const SQUARE: bool>(out: &mut [Digit], a: &[Digit], b: &[Digit], m: &[Digit], inv: &Digit) {
    let l = m.len();
    assert!((1..=MAX_DIGITS).contains(&l) && a.len() == l && b.len() == l && out.len() == l);
    let mut buf = [MaybeUninit::<__m256i>::uninit(); 2 * MAX_DIGITS + 3 * W];
    // SAFETY: AVX2 (caller); lengths as required.
    let (bp, mp) = unsafe { padded(&mut buf, if SQUARE { a } else { b }, m) };
    let (ap, op) = (a.as_ptr().cast::<__m256i>(), out.as_mut_ptr());
    let mask = _mm256_set1_epi64x(MASK28 as i64);
    // SAFETY: a whole digit.
    let inv = unsafe { _mm256_loadu_si256(inv.as_ptr().cast()) };
    // q_0 .. q_(l-1); q_i is written in column i before any read.
    let mut q = [MaybeUninit::<__m256i>::uninit(); MAX_DIGITS];
    let qp = q.as_mut_ptr().cast::<__m256i>();
    let mut carry = _mm256_setzero_si256();
    for k in (0..2 * l).step_by(W) {
        // SAFETY: every index the block reads or writes is inside a, the padded copies,
        // q or out (stated at each access in `block!`).
        unsafe { block!(k, l, SQUARE, ap, bp, mp, qp, inv, mask, carry, op) };
    }
}

/// [`amm`] for a fixed l = L, its block loop unrolled so that every inner loop has a
/// constant trip count the branch predictor learns.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn amm_fixed<const L: usize, const SQUARE: bool>(
    out: &mut [Digit; L],
    a: &[Digit; L],
    b: &[Digit; L],
    m: &[Digit; L],
    inv: &Digit,
) {
    const { assert!(L >= 1 && 2 * L <= 256 && L <= MAX_DIGITS) };
    let mut buf = [MaybeUninit::<__m256i>::uninit(); 2 * MAX_DIGITS + 3 * W];
    // SAFETY: AVX2 (caller); lengths as required.
    let (bp, mp) = unsafe { padded(&mut buf[..2 * L + 3 * W], if SQUARE { a } else { b }, m) };
    let (ap, op) = (a.as_ptr().cast::<__m256i>(), out.as_mut_ptr());
    let mask = _mm256_set1_epi64x(MASK28 as i64);
    // SAFETY: a whole digit.
    let inv = unsafe { _mm256_loadu_si256(inv.as_ptr().cast()) };
    let mut q = [MaybeUninit::<__m256i>::uninit(); L];
    let qp = q.as_mut_ptr().cast::<__m256i>();
    let mut carry = _mm256_setzero_si256();
    macro_rules! each_block {
        ($($k:literal)*) => { $(
            if $k < 2 * L {
                // SAFETY: as in `amm`, with l = L.
                unsafe { block!($k, L, SQUARE, ap, bp, mp, qp, inv, mask, carry, op) };
            }
        )* };
    }
    each_block!(0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 96 100 104 108 112 116 120 124 128 132 136 140 144 148 152 156 160 164 168 172 176 180 184 188 192 196 200 204 208 212 216 220 224 228 232 236 240 244 248 252);
}

/// [`amm_fixed`] when l is one of the digit counts of the RSA prime sizes 512, 1024,
/// 1536, 2048 and 3072 bits plus the guard bits (19, 37, 55, 74, 110: ceil((bits + 4) /
/// 28), the same l as ceil((bits + 2) / 28) there), else [`amm`]: same contract.
///
/// # Safety
/// The CPU must support AVX2.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn product<const SQUARE: bool>(out: &mut [Digit], a: &[Digit], b: &[Digit], m: &[Digit], inv: &Digit) {
    macro_rules! fixed {
        ($($l:literal)*) => {
            match m.len() {
                $($l => {
                    let (o, a, b, m): (&mut [Digit; $l], &[Digit; $l], &[Digit; $l], &[Digit; $l]) =
                        (out.try_into().expect("l digits"), a.try_into().expect("l digits"), b.try_into().expect("l digits"), m.try_into().expect("l digits"));
                    // SAFETY: forwarded (AVX2).
                    unsafe { amm_fixed::<$l, SQUARE>(o, a, b, m, inv) }
                })*
                // SAFETY: forwarded (AVX2).
                _ => unsafe { amm::<SQUARE>(out, a, b, m, inv) },
            }
        };
    }
    fixed!(19 37 55 74 110)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Same-run timing of the generic and the unrolled kernels (`--ignored`).
    #[test]
    #[ignore = "timing"]
    fn time_generic_vs_fixed() {
        let Some(_cpu) = crate::arith::cpu::avx2() else { return };
        fn run<const L: usize>() {
            let m: [Digit; L] = core::array::from_fn(|j| [if j == 0 { MASK28 } else { MASK28 - 1 }; LANES]);
            let inv = [1u64; LANES];
            let mut a: [Digit; L] = core::array::from_fn(|j| [(j as u64 * 7919) & MASK28; LANES]);
            let mut o = a;
            let iters = 2_000_000 / (L * L);
            for round in 0..5 {
                let mut best = [f64::MAX; 4];
                for _ in 0..5 {
                    for (v, t) in best.iter_mut().enumerate() {
                        let t0 = std::time::Instant::now();
                        for _ in 0..iters {
                            // SAFETY: AVX2 detected above.
                            unsafe {
                                match v {
                                    0 => amm::<true>(&mut o, &a, &a, &m, &inv),
                                    1 => amm_fixed::<L, true>(&mut o, &a, &a, &m, &inv),
                                    2 => amm::<false>(&mut o, &a, &a, &m, &inv),
                                    _ => amm_fixed::<L, false>(&mut o, &a, &a, &m, &inv),
                                }
                            }
                            core::mem::swap(&mut a, &mut o);
                        }
                        *t = t.min(t0.elapsed().as_nanos() as f64 / iters as f64);
                    }
                }
                let _ = round;
                println!(
                    "L={L}: sqr generic {:.0} ns, fixed {:.0} ns; mul generic {:.0} ns, fixed {:.0} ns",
                    best[0], best[1], best[2], best[3]
                );
            }
        }
        run::<37>();
        run::<74>();
    }
}
