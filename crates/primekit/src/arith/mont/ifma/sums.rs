//! Sums of IFMA-domain products reduced once ("lazy reduction" in the vector unit), for
//! chains whose values are sums of many products: the polynomial powering of root
//! finding, where each coefficient of a square is a sum of up to d products.
//!
//! An almost-Montgomery product ([`super::amm`]) spends half its multiply-adds on the
//! reduction q m. Here a product is formed without it, added to a sum of 2k-digit
//! products, and the sum is reduced once: about k^2/4 vector multiply-adds per product
//! and one reduction per sum, instead of k^2/2 per product.
//!
//! Contract (k digits of 52 bits, R' = 2^(52k) >= 16m, width W = 8V words):
//! - an accumulator is [`acc_len`] = 2W + 8 words holding a plain integer in radix 2^52
//!   whose digits may exceed 2^52 (unnormalised);
//! - [`mul_add`] adds the product of two IFMA-domain elements (normalised digits, values
//!   `< 2m`), each digit of the accumulator growing by less than 2^52 + 2^12 per
//!   product; [`mul_add_pairs`] adds a list of such products, summed in registers and
//!   carried in once per [`pair_chunk`] of them (digits growing as for one product per
//!   chunk); [`join`] adds an element times R' (digits below 2^52, in place k and up);
//!   [`double`] doubles every digit;
//! - [`reduce_vartime`] (any number of accumulators at once) needs every digit below
//!   2^63 and the value below 2^(52 (2k + 1)): both hold for fewer than 2^10 products
//!   and joins, each counted twice per doubling that followed it (a product is below
//!   4m^2 < 2^(104k - 6), a join below 2m R' < 2^(104k - 3), so even 2^10 such terms stay
//!   below 2^(104k + 7)); it returns the IFMA-domain element (`< 2m`) of the sum times
//!   R'^-1;
//! - products run in time that depends only on k; the reduction branches on the value
//!   (`_vartime`): public data only.

use super::{amm, IfmaParams};
use crate::arith::radix::MASK52;
use core::arch::x86_64::*;

/// Words of an accumulator.
pub(crate) fn acc_len(p: &IfmaParams) -> usize {
    2 * p.width() + 8
}

/// Scratch words [`reduce_vartime`] needs.
pub(crate) fn scratch_len(p: &IfmaParams) -> usize {
    2 * p.width()
}

/// Runs `$body` with `$V`, `$V1` = V + 1 and `$V2` = 2V + 1 bound to constants for the
/// vector count `$v` (one of the kernel's instantiated counts).
macro_rules! by_vector_counts {
    ($v:expr, |$V:ident, $V1:ident, $V2:ident| $body:expr) => {
        by_vector_counts!(@arms $v, $V, $V1, $V2, $body, 1 2 3 4 5 6 7 8 9 10 12 14 16 20 24 28 32 40 48 56 64 80)
    };
    (@arms $v:expr, $V:ident, $V1:ident, $V2:ident, $body:expr, $($n:literal)*) => {
        match $v {
            $($n => {
                #[allow(dead_code)]
                const $V: usize = $n;
                #[allow(dead_code)]
                const $V1: usize = $n + 1;
                const $V2: usize = 2 * $n + 1;
                $body
            })*
            _ => unreachable!("IfmaParams::new bounds the vector count"),
        }
    };
}

/// `acc += a b` (see the module contract).
pub(crate) fn mul_add(p: &IfmaParams, acc: &mut [u64], a: &[u64], b: &[u64]) {
    let w = p.width();
    assert!(acc.len() == acc_len(p) && a.len() >= w && b.len() >= w);
    let _proof = p.cpu;
    // SAFETY: the lengths are checked above; `p.cpu` proves AVX-512F and IFMA.
    unsafe { by_vector_counts!(p.vectors, |V, V1, V2| mul_add_v::<V, V1, V2>(acc, a, b, p.k)) }
}

/// `acc += sum of x_i y_j` over `pairs` (i, j), with x_i the element at words
/// `i w .. (i + 1) w` of `xs` and y_j likewise in `ys` (w = the width): the products
/// summed in the vector registers and carried into `acc` once per [`pair_chunk`] of
/// them, instead of once each. The accumulator's digits grow as for one [`mul_add`]
/// per chunk; its value as for one per product.
pub(crate) fn mul_add_pairs(p: &IfmaParams, acc: &mut [u64], xs: &[u64], ys: &[u64], pairs: &[(u32, u32)]) {
    let w = p.width();
    assert!(acc.len() == acc_len(p));
    assert!(pairs.iter().all(|&(i, j)| (i as usize + 1) * w <= xs.len() && (j as usize + 1) * w <= ys.len()));
    let _proof = p.cpu;
    for chunk in pairs.chunks(pair_chunk(p.k)) {
        // SAFETY: every element addressed lies inside xs or ys (checked above), `acc` has
        // acc_len words, `p.cpu` proves AVX-512F and IFMA, and the chunk keeps the lanes'
        // sums below 2^64 (`pair_chunk`).
        unsafe { by_vector_counts!(p.vectors, |V, V1, V2| mul_add_pairs_v::<V, V1, V2>(acc, xs, ys, chunk, p.k, w)) }
    }
}

/// Products [`mul_add_pairs`] sums in the registers before carrying: a lane of the lo
/// (or hi) sums gains at most k terms below 2^52 per product (one per digit of b), and
/// lo + hi must stay below 2^64, so n products need 2 n k 2^52 < 2^64, n k < 2^11.
pub(crate) const fn pair_chunk(k: usize) -> usize {
    let n = 2047 / k;
    if n == 0 {
        1
    } else {
        n
    }
}

/// `acc += a R'` for an element `a` (normalised digits, `< 2m`).
pub(crate) fn join(p: &IfmaParams, acc: &mut [u64], a: &[u64]) {
    assert!(acc.len() == acc_len(p) && a.len() >= p.k);
    for (x, &y) in acc[p.k..2 * p.k].iter_mut().zip(&a[..p.k]) {
        *x += y;
    }
}

/// `acc = 2 acc`.
pub(crate) fn double(acc: &mut [u64]) {
    for x in acc.iter_mut() {
        debug_assert!(*x < 1 << 63);
        *x <<= 1;
    }
}

/// For each of the accumulators held one after another in `accs`, the IFMA-domain
/// element (`< 2m`, normalised) congruent to it times R'^-1, written one after another
/// (`width` words each) to `out`; the accumulators are left zero; `t` holds
/// [`scratch_len`] words. Two at a time, by [`super::amm2`]: one product's chain of
/// quotient digits leaves the vector units idle, two fill them.
///
/// Write acc = L + R' H with L < R' (k digits). Replacing H by H mod m changes acc by a
/// multiple of m R', so not acc R'^-1 mod m; then L R'^-1 comes from an almost-Montgomery
/// product by 1 ((L + Q m) / R' <= m, as L < R'), and adding H mod m <= m - 1 leaves the
/// sum below 2m.
pub(crate) fn reduce_vartime(p: &IfmaParams, out: &mut [u64], accs: &mut [u64], t: &mut [u64]) {
    let (k, w, al) = (p.k, p.width(), acc_len(p));
    let count = accs.len() / al;
    assert!(accs.len() == count * al && out.len() == count * w && t.len() >= scratch_len(p));
    let (t0, t1) = t.split_at_mut(w);
    let mut i = 0;
    while i < count {
        split(p, &mut accs[i * al..][..al], t0);
        if i + 1 < count {
            split(p, &mut accs[(i + 1) * al..][..al], &mut t1[..w]);
            let (o0, o1) = out[i * w..(i + 2) * w].split_at_mut(w);
            super::amm2(p, o0, t0, &p.unit, o1, &t1[..w], &p.unit);
        } else {
            amm(p, &mut out[i * w..][..w], t0, &p.unit);
        }
        for j in i..(i + 2).min(count) {
            let acc = &mut accs[j * al..][..al];
            let mut carry = 0;
            for (x, &y) in out[j * w..][..k].iter_mut().zip(&acc[k..2 * k]) {
                let s = *x + y + carry;
                *x = s & MASK52;
                carry = s >> 52;
            }
            debug_assert!(carry == 0 && acc[2 * k] == 0);
            acc[..2 * k + 2].fill(0);
        }
        i += 2;
    }
}

/// Normalises the accumulator, copies its low k digits L to `l` (zero above), and
/// reduces its high digits H (k + 1 of them) mod m in place.
fn split(p: &IfmaParams, acc: &mut [u64], l: &mut [u64]) {
    let (k, w) = (p.k, p.width());
    let _proof = p.cpu;
    // SAFETY: `acc` holds acc_len = 8(2V + 1) words; `p.cpu` proves AVX-512F.
    unsafe { by_vector_counts!(p.vectors, |V, V1, V2| normalize_acc::<V2>(acc)) };
    assert!(acc[2 * k + 1..].iter().all(|&d| d == 0), "the sum exceeds 2^(52 (2k + 1)) (module contract)");
    l[..k].copy_from_slice(&acc[..k]);
    l[k..w].fill(0);
    reduce_below_modulus_vartime(&mut acc[k..2 * k + 1], &p.m[..k]);
}

/// Carry-propagates the accumulator's 8 V2 lanes (each below 2^64) into 52-bit digits.
///
/// # Safety
/// `acc` holds at least 8 V2 words; the CPU supports AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn normalize_acc<const V2: usize>(acc: &mut [u64]) {
    let mut v = [_mm512_setzero_si512(); V2];
    for (j, x) in v.iter_mut().enumerate() {
        // SAFETY: 8 V2 words are readable (the caller's contract).
        *x = unsafe { _mm512_loadu_si512(acc.as_ptr().add(8 * j).cast()) };
    }
    super::normalize::<V2>(&mut v);
    for (j, x) in v.iter().enumerate() {
        // SAFETY: 8 V2 words are writable.
        unsafe { _mm512_storeu_si512(acc.as_mut_ptr().add(8 * j).cast(), *x) };
    }
}

/// `x = x mod m` for normalised digit strings, m of k digits with its top digit nonzero
/// or not, x of k + 1 digits and x < 2^40 m: a quotient estimated in floating point from
/// the leading digits, then at most a few subtractions.
fn reduce_below_modulus_vartime(x: &mut [u64], m: &[u64]) {
    let k = m.len();
    debug_assert_eq!(x.len(), k + 1);
    // The leading three digits of m (from its top nonzero digit t) and x's digits from
    // t + 1 down to t - 1, as floating-point numbers of the same scale: the ratio is
    // x / m to within 2^-50 relative, so q = ratio - 1, floored, never exceeds x / m and
    // leaves x - q m < 3m.
    let top = m.iter().rposition(|&d| d != 0).expect("m > 0");
    let f = |d: &[u64], j: usize| -> f64 {
        let at = |i: usize| d.get(i).copied().unwrap_or(0) as f64;
        let below = |i: usize| if i >= 1 { at(i - 1) } else { 0.0 };
        let below2 = |i: usize| if i >= 2 { at(i - 2) } else { 0.0 };
        (at(j + 1) * 2f64.powi(52) + at(j)) * 2f64.powi(52) + below(j) + below2(j) * 2f64.powi(-52)
    };
    let ratio = f(x, top) / f(m, top);
    debug_assert!(ratio < 2f64.powi(40));
    if ratio >= 2.0 {
        sub_multiple(x, m, ratio as u64 - 1);
    }
    while ge(x, m) {
        sub_multiple(x, m, 1);
    }
}

/// `x >= m` for normalised digit strings (m no longer than x).
fn ge(x: &[u64], m: &[u64]) -> bool {
    for j in (0..x.len()).rev() {
        let mj = m.get(j).copied().unwrap_or(0);
        if x[j] != mj {
            return x[j] > mj;
        }
    }
    true
}

/// `x -= q m` for q < 2^40 (the caller ensures q m <= x).
fn sub_multiple(x: &mut [u64], m: &[u64], q: u64) {
    debug_assert!(q < 1 << 40);
    if q < 1 << 11 {
        // q m_j + carry < 2^63: one word.
        let (mut carry, mut borrow) = (0u64, 0u64);
        for (j, xj) in x.iter_mut().enumerate() {
            let prod = m.get(j).copied().unwrap_or(0) * q + carry;
            carry = prod >> 52;
            let s = xj.wrapping_sub(prod & MASK52).wrapping_sub(borrow);
            borrow = s >> 63; // digits < 2^52: a wrap shows in the top bit
            *xj = s & MASK52;
        }
        debug_assert!(carry == 0 && borrow == 0, "q m <= x");
        return;
    }
    let (mut carry, mut borrow) = (0u128, 0i64);
    for (j, xj) in x.iter_mut().enumerate() {
        let prod = m.get(j).copied().unwrap_or(0) as u128 * q as u128 + carry; // < 2^93
        carry = prod >> 52;
        let s = *xj as i64 - (prod as u64 & MASK52) as i64 + borrow;
        *xj = s as u64 & MASK52;
        borrow = s >> 52;
    }
    debug_assert!(carry == 0 && borrow == 0, "q m <= x");
}

/// `a` shifted up by `S` digits (R = 8 - S), as V + 1 vectors.
#[inline]
#[target_feature(enable = "avx512f")]
fn shifted<const S: i32, const R: i32, const V: usize, const V1: usize>(a: &[__m512i; V]) -> [__m512i; V1] {
    const { assert!(R == 8 - S) };
    let zero = _mm512_setzero_si512();
    let at = |j: usize| if j < V { a[j] } else { zero };
    // Lane l of vector j is digit 8j + l - S: lanes l >= S from a[j], the others from
    // the top of a[j - 1] (`valignq` by 8 - S lanes of the pair a[j]:a[j - 1]).
    core::array::from_fn(|j| {
        let below = if j == 0 { zero } else { at(j - 1) };
        match S {
            0 => at(j),
            8 => below,
            _ => _mm512_alignr_epi64::<R>(at(j), below),
        }
    })
}

/// `acc += a b` over V vectors, k digits, by blocks of eight digits of b: for digit
/// i = 8t + u, lo(a b_i) goes to digit i + j, which is a shifted up by u digits placed t
/// vectors up, and hi(a b_i) one digit further (a shifted by u + 1). With the nine
/// shifts of a made once, every multiply-add lands on a fixed vector, so the 2V + 1
/// accumulators carry no shifts and the 2(V + 1) multiply-adds per digit of b are
/// independent chains (split in lo and hi sums to halve their depth). At the end one
/// carry round brings every lane below 2^52 + 2^12 (each gained at most 2k terms < 2^52,
/// below 2^61) and the lanes are added to acc.
///
/// # Safety
/// `a`, `b` hold at least 8V words (digits at k and above zero), `acc` at least
/// 8(2V + 1); the CPU supports AVX-512F and IFMA; V1 = V + 1, V2 = 2V + 1.
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn mul_add_v<const V: usize, const V1: usize, const V2: usize>(acc: &mut [u64], a: &[u64], b: &[u64], k: usize) {
    const { assert!(V1 == V + 1 && V2 == 2 * V + 1) };
    let zero = _mm512_setzero_si512();
    let (mut lo, mut hi) = ([zero; V2], [zero; V2]);
    // SAFETY: the caller's contract is this function's.
    unsafe {
        mac_product::<V, V1, V2>(&mut lo, &mut hi, a, b, k);
        add_columns::<V2>(acc, &lo, &hi);
    }
}

/// [`mul_add_v`] for each pair (i, j) of `pairs` on x_i = `xs[i w..]`, y_j = `ys[j w..]`,
/// the sums carried into `acc` once.
///
/// # Safety
/// As [`mul_add_v`] for every pair's elements, and pairs.len() <= [`pair_chunk`](k).
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn mul_add_pairs_v<const V: usize, const V1: usize, const V2: usize>(
    acc: &mut [u64],
    xs: &[u64],
    ys: &[u64],
    pairs: &[(u32, u32)],
    k: usize,
    w: usize,
) {
    const { assert!(V1 == V + 1 && V2 == 2 * V + 1) };
    debug_assert!(pairs.len() <= pair_chunk(k));
    let zero = _mm512_setzero_si512();
    let (mut lo, mut hi) = ([zero; V2], [zero; V2]);
    for &(i, j) in pairs {
        let (a, b) = (&xs[i as usize * w..][..w], &ys[j as usize * w..][..w]);
        // SAFETY: the caller's contract.
        unsafe { mac_product::<V, V1, V2>(&mut lo, &mut hi, a, b, k) };
    }
    // SAFETY: the caller's contract.
    unsafe { add_columns::<V2>(acc, &lo, &hi) };
}

/// The multiply-adds of [`mul_add_v`] into the lo and hi sums (each lane gains at most k
/// terms below 2^52).
///
/// # Safety
/// As [`mul_add_v`].
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn mac_product<const V: usize, const V1: usize, const V2: usize>(
    lo: &mut [__m512i; V2],
    hi: &mut [__m512i; V2],
    a: &[u64],
    b: &[u64],
    k: usize,
) {
    let zero = _mm512_setzero_si512();
    let mut av = [zero; V];
    for (j, x) in av.iter_mut().enumerate() {
        // SAFETY: 8V words are readable in a (the caller's contract).
        *x = unsafe { _mm512_loadu_si512(a.as_ptr().add(8 * j).cast()) };
    }
    let sh: [[__m512i; V1]; 9] = [
        shifted::<0, 8, V, V1>(&av),
        shifted::<1, 7, V, V1>(&av),
        shifted::<2, 6, V, V1>(&av),
        shifted::<3, 5, V, V1>(&av),
        shifted::<4, 4, V, V1>(&av),
        shifted::<5, 3, V, V1>(&av),
        shifted::<6, 2, V, V1>(&av),
        shifted::<7, 1, V, V1>(&av),
        shifted::<8, 0, V, V1>(&av),
    ];
    for t in 0..k.div_ceil(8) {
        for u in 0..8.min(k - 8 * t) {
            // SAFETY: 8t + u < k <= 8V words of b.
            let bv = _mm512_broadcastq_epi64(unsafe { _mm_loadl_epi64(b.as_ptr().add(8 * t + u).cast()) });
            let (s_lo, s_hi) = (&sh[u], &sh[u + 1]);
            for j in 0..V1 {
                lo[t + j] = _mm512_madd52lo_epu64(lo[t + j], s_lo[j], bv);
                hi[t + j] = _mm512_madd52hi_epu64(hi[t + j], s_hi[j], bv);
            }
        }
    }
}

/// `acc += lo + hi` after one carry round (lanes below 2^64 in; each lane added to acc
/// below 2^52 + 2^12).
///
/// # Safety
/// `acc` holds at least 8 V2 words; the CPU supports AVX-512F.
#[inline]
#[target_feature(enable = "avx512f")]
unsafe fn add_columns<const V2: usize>(acc: &mut [u64], lo: &[__m512i; V2], hi: &[__m512i; V2]) {
    let zero = _mm512_setzero_si512();
    let mask = _mm512_set1_epi64(MASK52 as i64);
    let mut carry_in = zero;
    for j in 0..V2 {
        let x = _mm512_add_epi64(lo[j], hi[j]);
        let up = _mm512_srli_epi64::<52>(x);
        // Lane l takes the carry of lane l - 1 (of the vector below for l = 0).
        let carried = _mm512_alignr_epi64::<7>(up, carry_in);
        carry_in = up;
        let v = _mm512_add_epi64(_mm512_and_si512(x, mask), carried);
        // SAFETY: 8(2V + 1) words are readable and writable in acc.
        unsafe {
            let p = acc.as_mut_ptr().add(8 * j);
            _mm512_storeu_si512(p.cast(), _mm512_add_epi64(_mm512_loadu_si512(p.cast()), v));
        }
    }
    // The top lane's carry is zero: a product is below 2^(104k), a chunk's sum below
    // 2^(104k + 11) < 2^(52 (2k + 1)) <= 2^(52 8(2V + 1)).
}

#[cfg(test)]
mod tests {
    use super::pair_chunk;

    /// A chunk of products keeps every lane of lo + hi below 2^64 (2 n k terms below 2^52
    /// each), and is the largest that does, for every digit count the kernel has.
    #[test]
    fn pair_chunks_stay_below_a_word() {
        let worst = |n: usize, k: usize| 2 * (n as u128) * (k as u128) * ((1u128 << 52) - 1);
        for k in 1..=640 {
            let n = pair_chunk(k);
            assert!(n >= 1 && worst(n, k) < 1 << 64, "k = {k}");
            if k <= 2047 {
                assert!(2 * (n as u128 + 1) * k as u128 * (1u128 << 52) >= 1 << 64, "k = {k}: a larger chunk would fit");
            }
        }
    }
}
