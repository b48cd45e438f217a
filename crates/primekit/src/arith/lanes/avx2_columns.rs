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
//! most l terms (for a square, X_c is the same sum computed as twice the cross terms plus
//! the diagonal one). Up to [`MERGED_DIGITS`] digits one accumulator holds both: with the
//! carry in (< 2^36) the column stays below 2l 2^56 + 2^36 < 2^64, and the carry out is
//! its top 36 bits. Above that (up to `MAX_DIGITS` = 255, since l 2^56 < 2^64) X_c and
//! Y_c are kept apart and combined by halves: with lo = low28(X_c) + low28(Y_c) +
//! carry_in + q_c m_0 (< 2^29 + 2^38 + 2^56) and hi = (X_c >> 28) + (Y_c >> 28) (< 2^37),
//! the column is hi 2^28 + lo and the carry out is hi + (lo >> 28) < 2^38. The merged
//! form saves that split, seven vector operations per column. With the renamed window
//! of `bulk!`, squares of 37 and 74 digits take 15% and 19% less time than with split
//! columns and a shifted window, products 5% and 9% (Intel Xeon Emerald Rapids,
//! `time_generic_vs_fixed`, fastest of 30 passes).

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

/// Most digits for which one accumulator holds a column's product and reduction terms
/// (see the overflow bound in the module doc): 2 l terms below 2^56 and a carry below
/// 2^36 must stay below 2^64.
const MERGED_DIGITS: usize = 127;

/// Digit j of the four lanes.
pub(super) type Digit = [u64; LANES];

/// Columns per block.
const W: usize = 4;

/// `acc[u] += f(i) w_u(i)` for i in from..to and u < W, where w_u(i) = `p[u - i]`
/// (`p` a pointer, the window read at decreasing offsets): the bulk of a block. The
/// window lives in four registers; four steps per trip rename them instead of shifting
/// them (a shift costs three register moves per step).
macro_rules! bulk {
    ($acc:ident, $from:expr, $to:expr, $f:expr, $p:expr, $ld:ident) => {{
        const { assert!(W == 4) };
        let (from, to): (usize, usize) = ($from, $to);
        if from < to {
            let p: *const __m256i = $p;
            // p[d] for d = u - i, u < W, from <= i <= to (callers bound the offsets).
            let at = |d: isize| $ld(p.offset(d));
            let base = -(from as isize);
            let (mut w0, mut w1, mut w2, mut w3) = (at(base), at(base + 1), at(base + 2), at(base + 3));
            let f = $f;
            let mut i = from;
            macro_rules! step {
                ($r0:ident, $r1:ident, $r2:ident, $r3:ident) => {{
                    let fi = f(i);
                    $acc[0] = _mm256_add_epi64($acc[0], _mm256_mul_epu32(fi, $r0));
                    $acc[1] = _mm256_add_epi64($acc[1], _mm256_mul_epu32(fi, $r1));
                    $acc[2] = _mm256_add_epi64($acc[2], _mm256_mul_epu32(fi, $r2));
                    $acc[3] = _mm256_add_epi64($acc[3], _mm256_mul_epu32(fi, $r3));
                    // The next step's w_0 replaces this step's w_3.
                    $r3 = at(-(i as isize) - 1);
                    i += 1;
                }};
            }
            while i + 4 <= to {
                step!(w0, w1, w2, w3);
                step!(w3, w0, w1, w2);
                step!(w2, w3, w0, w1);
                step!(w1, w2, w3, w0);
            }
            while i < to {
                step!(w0, w1, w2, w3);
                (w0, w1, w2, w3) = (w3, w0, w1, w2);
            }
        }
    }};
}

/// Columns k .. k + W - 1 of the product scan (see the module doc), `k` a multiple of W.
/// A macro so that both kernels share it; the caller's state is passed in by name: `ap`
/// the digits of a, `bp` and `mp` zero-padded copies of b (W zero digits below, W above)
/// and m (W above), `qp` the q digits, `inv`, `mask`, `carry`, `op` the output.
///
/// Bulk terms first, with a window of W digits of b (or m) in registers so that each
/// step loads two vectors for W products: X over i in [lo, hi] (zero padding supplies
/// the products outside each column's own range); for a square, the few cross terms not
/// in the bulk, the doubling and the diagonal; then Y over i in [lo, min(k, l)) (the q_i
/// known before the block), onto X up to [`MERGED_DIGITS`] digits, else apart. Then
/// column by column: the reduction terms of the block's own q, q_c and the carry.
macro_rules! block {
    ($k:expr, $l:expr, $square:expr, $ap:ident, $bp:ident, $mp:ident, $qp:ident, $inv:ident, $mask:ident, $carry:ident, $op:ident) => {{
        let (k, l): (usize, usize) = ($k, $l);
        let merged = l <= MERGED_DIGITS;
        let ld = |p: *const __m256i| _mm256_loadu_si256(p);
        let zero = _mm256_setzero_si256();
        let lo = (k + 1).saturating_sub(l);
        let mut x = [zero; W];
        // For a square, the bulk holds the cross terms with 2i < k <= c (doubled below).
        let hi = if $square { k.div_ceil(2) } else { (k + W).min(l) };
        // Window b_(k + u - i): padded index W + k + u - i, in [0, l + 2W - 1] (the last
        // load, at i = hi - 1, reads index W + k - hi >= 0).
        bulk!(x, lo, hi, |i| ld($ap.add(i)), $bp.add(W + k), ld);
        if $square {
            for (u, xu) in x.iter_mut().enumerate() {
                let c = k + u;
                // Cross terms i in [max(hi, c + 1 - l), ceil(c / 2)), the sum doubled,
                // then the diagonal.
                for i in hi.max((c + 1).saturating_sub(l))..c.div_ceil(2) {
                    *xu = _mm256_add_epi64(*xu, _mm256_mul_epu32(ld($ap.add(i)), ld($ap.add(c - i))));
                }
                *xu = _mm256_add_epi64(*xu, *xu);
                if c % 2 == 0 && c / 2 < l {
                    let h = ld($ap.add(c / 2));
                    *xu = _mm256_add_epi64(*xu, _mm256_mul_epu32(h, h));
                }
            }
        }
        // The reduction terms go onto X when merged, else apart.
        let mut y = if merged { x } else { [zero; W] };
        let qend = k.min(l);
        // Window m_(k + u - i): index k + u - i in [0, l + W - 2] (i < qend <= k).
        bulk!(y, lo, qend, |i| *$qp.add(i), $mp.add(k), ld);
        for u in 0..W {
            let c = k + u;
            // The block's own q: q_(k+v) m_(u-v) for v < u, k + v < l.
            let mut yc = y[u];
            for v in 0..u {
                if k + v < l {
                    yc = _mm256_add_epi64(yc, _mm256_mul_epu32(*$qp.add(k + v), ld($mp.add(u - v))));
                }
            }
            // The column without q_c m_0, and what it carries apart from its low part
            // (module doc: overflow bound).
            let (mut s, hi2) = if merged {
                (_mm256_add_epi64(yc, $carry), zero)
            } else {
                let hi2 = _mm256_add_epi64(_mm256_srli_epi64::<28>(x[u]), _mm256_srli_epi64::<28>(yc));
                (_mm256_add_epi64(_mm256_add_epi64(_mm256_and_si256(x[u], $mask), _mm256_and_si256(yc, $mask)), $carry), hi2)
            };
            if c < l {
                let qc = _mm256_and_si256(_mm256_mul_epu32(_mm256_and_si256(s, $mask), $inv), $mask);
                *$qp.add(c) = qc;
                s = _mm256_add_epi64(s, _mm256_mul_epu32(qc, ld($mp)));
            } else if c < 2 * l {
                _mm256_storeu_si256($op.add(c - l).cast(), _mm256_and_si256(s, $mask));
            }
            $carry = if merged { _mm256_srli_epi64::<28>(s) } else { _mm256_add_epi64(hi2, _mm256_srli_epi64::<28>(s)) };
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
    // The block list below covers 2L <= 296 columns; it stops at the largest fixed length
    // (147) because every listed block is expanded for every L, which costs compile time.
    const { assert!(L >= 1 && 2 * L <= 296 && L <= MAX_DIGITS) };
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
    each_block!(0 4 8 12 16 20 24 28 32 36 40 44 48 52 56 60 64 68 72 76 80 84 88 92 96 100 104 108 112 116 120 124 128 132 136 140 144 148 152 156 160 164 168 172 176 180 184 188 192 196 200 204 208 212 216 220 224 228 232 236 240 244 248 252 256 260 264 268 272 276 280 284 288 292);
}

/// Defines [`FIXED_DIGITS`] and [`product`] from one list, so the two cannot disagree.
macro_rules! with_fixed_digits {
    ($($l:literal)*) => {
        /// The digit counts with a kernel of their own ([`amm_fixed`]): the RSA prime and
        /// Diffie-Hellman sizes 512, 768, 1024, 1536, 2048, 3072 and 4096 bits plus the
        /// guard bits (ceil((bits + 4) / 28), the same l as ceil((bits + 2) / 28) there).
        pub(super) const FIXED_DIGITS: &[usize] = &[$($l),*];

        /// [`amm_fixed`] when l is one of [`FIXED_DIGITS`], else [`amm`]: same contract.
        ///
        /// # Safety
        /// The CPU must support AVX2.
        #[target_feature(enable = "avx2")]
        pub(super) unsafe fn product<const SQUARE: bool>(out: &mut [Digit], a: &[Digit], b: &[Digit], m: &[Digit], inv: &Digit) {
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
        }
    };
}

with_fixed_digits!(19 28 37 55 74 110 147);

/// Whether l digits run a kernel of their own ([`FIXED_DIGITS`]).
pub(super) const fn is_fixed(l: usize) -> bool {
    let mut i = 0;
    while i < FIXED_DIGITS.len() {
        if FIXED_DIGITS[i] == l {
            return true;
        }
        i += 1;
    }
    false
}

/// Whether four lanes of l digits (after [`digits_for`]) beat four scalar ADX
/// exponentiations one at a time: always with a kernel of its own, and with the generic
/// kernel from 48 digits (about 1,300 bits). Eight Miller-Rabin rounds, lanes against
/// `adx` (`cargo test --release -p primekit --lib lanes_vs_scalar -- --ignored
/// --nocapture`, Intel Xeon Emerald Rapids): generic lanes took 1.46x the scalar time at
/// 640 bits, 1.33x at 768, 1.30x at 896, 0.99x at 1,280, 0.83x at 2,560; fixed ones
/// 0.56-0.74x at 512-3,072 bits.
pub(super) const fn lanes_pay(l: usize) -> bool {
    is_fixed(l) || l >= 48
}

/// The digit count to hold numbers that need `l`: the next of [`FIXED_DIGITS`] when it is
/// at most 15% more, else `l` itself. Any l' >= l meets the contract (4m <= R only gets
/// easier), and the generic kernel costs 1.5-2.3x a fixed one of the same length
/// (`time_generic_vs_fixed`: squares of 28 digits 660-1004 against 428-573 ns, of 37
/// 1538-1656 against 843-996 ns, Intel Xeon Emerald Rapids), while 15% more digits cost
/// at most 1.32x the work.
pub(super) const fn digits_for(l: usize) -> usize {
    let mut i = 0;
    while i < FIXED_DIGITS.len() {
        let f = FIXED_DIGITS[i];
        if f >= l && 100 * f <= 115 * l {
            return f;
        }
        i += 1;
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::lanes::wide::to_radix;
    use num_bigint::BigUint;
    use num_bigint::RandBigInt;
    use num_traits::One;
    use rand::{Rng, SeedableRng};

    /// Products and squares at the largest column sums the contract allows, against
    /// num-bigint, on both sides of [`MERGED_DIGITS`]: moduli of all-ones digits below
    /// R/4 and inputs just below 2m (digits near 2^28 - 1), next to random inputs. Summing
    /// X and Y in one accumulator above `MERGED_DIGITS` overflows here.
    #[test]
    fn extreme_columns_match_num_bigint() {
        let Some(_cpu) = crate::arith::cpu::avx2_or_skip("AVX2 columns") else { return };
        let mut rng = rand::rngs::StdRng::seed_from_u64(2856);
        for l in [1usize, 2, 5, 19, 28, 37, 55, 74, 110, 126, MERGED_DIGITS, MERGED_DIGITS + 1, 147, 200, MAX_DIGITS] {
            let r = BigUint::one() << (DIGIT_BITS * l);
            // All-ones digits but the low one (an odd digit whose inverse is not 1).
            let m = (BigUint::one() << (DIGIT_BITS * l - 2)) - 1u8 - 2 * rng.gen_range(1u32..1 << 20);
            let lanes = |xs: &[BigUint]| -> Vec<Digit> {
                let d: Vec<Vec<u64>> = xs.iter().map(|x| to_radix(x, DIGIT_BITS, l)).collect();
                (0..l).map(|j| core::array::from_fn(|k| d[k][j])).collect()
            };
            let two_m = &m + &m;
            let mut pick = |k: u32| if k == 9 { rng.gen_biguint_below(&two_m) } else { &two_m - 1u8 - k };
            let a: Vec<BigUint> = [0, 1, 9, 2].map(&mut pick).into();
            let b: Vec<BigUint> = [3, 9, 4, 0].map(&mut pick).into();
            let md = lanes(&[m.clone(), m.clone(), m.clone(), m.clone()]);
            let inv = [super::super::avx2::neg_inv_mod_2_28(md[0][0]); LANES];
            let (ad, bd) = (lanes(&a), lanes(&b));
            let r_inv = r.modinv(&m).expect("m odd");
            for square in [false, true] {
                let mut out = vec![[0u64; LANES]; l];
                // SAFETY: AVX2 detected above; l digits everywhere, inputs < 2m, 4m <= R.
                unsafe {
                    if square {
                        product::<true>(&mut out, &ad, &ad, &md, &inv)
                    } else {
                        product::<false>(&mut out, &ad, &bd, &md, &inv)
                    }
                }
                for k in 0..LANES {
                    let got = out.iter().rev().fold(BigUint::ZERO, |acc, d| (acc << DIGIT_BITS) + d[k]);
                    let y = if square { &a[k] } else { &b[k] };
                    assert!(got < &m + &m, "l={l} square={square} lane={k}: output not below 2m");
                    assert_eq!(got % &m, &a[k] * y * &r_inv % &m, "l={l} square={square} lane={k}");
                }
            }
        }
    }

    /// Padding never shrinks a number, stays within 15%, lands on a fixed kernel when it
    /// moves at all, and covers the sizes the fixed kernels are for.
    #[test]
    fn digits_for_pads_to_fixed_kernels() {
        for l in 1..=MAX_DIGITS {
            let p = digits_for(l);
            assert!(p >= l && 100 * p <= 115 * l && p <= MAX_DIGITS, "l {l} -> {p}");
            assert!(p == l || is_fixed(p), "l {l} -> {p}");
            if is_fixed(l) {
                assert_eq!(p, l);
            }
        }
        for bits in [512usize, 768, 1024, 1536, 2048, 3072, 4096] {
            assert!(is_fixed(digits_for((bits + 4).div_ceil(DIGIT_BITS))), "{bits}");
            assert!(lanes_pay(digits_for((bits + 2).div_ceil(DIGIT_BITS))), "{bits}");
        }
        // A generic length below the crossover stays with the scalar kernels.
        assert!(!lanes_pay(digits_for(22)) && !lanes_pay(digits_for(31)) && !lanes_pay(digits_for(40)));
    }

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
        run::<28>();
        run::<37>();
        run::<74>();
        run::<147>();
    }
}
