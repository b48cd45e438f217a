//! Eight base-2 Fermat tests at once with AVX-512 IFMA: eight DIFFERENT odd moduli n_k,
//! one per 64-bit lane, each lane computing 2^(n_k - 1) mod n_k in constant time.
//!
//! Why: in prime generation the base-2 Fermat test of each sieve survivor dominates the
//! cost (issue 6, "several candidates in flight"); survivors of one search have the same
//! bit length, so eight of them can share every instruction of a radix-2^52 almost
//! Montgomery squaring (as [`super::ifma`]'s Ifma8 kernel, with a per-lane modulus and
//! per-lane -m^{-1} mod 2^52, but product-scanning and specialised to squares).
//!
//! Method per lane (left-to-right square-and-double, as the scalar `pow2_ct`): acc starts
//! at R mod n (Montgomery 1, computed by modular doublings of the public 2^(bits-2) < n);
//! for each exponent bit from the top: acc = AMS(acc) (< 2n, for acc < 4n since R >=
//! 16n), then acc = 2 acc (< 4n, unreduced) in the lanes whose bit of n - 1 is 1 (a
//! masked add). At the end acc is reduced below n and compared to R mod n.
//!
//! Constant time: the instruction stream and every memory index depend only on the
//! public `bits` and the limb count; per-lane choices are `vpblendmq` masks computed from
//! borrows and exponent bits. Only the returned pass/fail bit mask depends on secrets.

use super::ifma::{has_ifma, FIXED_SIZES, LANES, MASK52};

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

/// Largest candidate size accepted (80 limbs of 52 bits minus four guard bits: R >= 16m
/// lets a doubled square, < 4m, go into the next squaring unreduced).
pub const MAX_BITS: usize = 80 * 52 - 4;

/// Base-2 Fermat test of up to eight candidates at once.
///
/// Contract: every candidate (little-endian u64 limbs, any lengths) is odd and has
/// `bits` or `bits - 1` bits (so a safe-prime search can test p and q = (p - 1)/2 in one
/// batch), 3 <= bits <= [`MAX_BITS`]; `bits` and the number of candidates
/// are public. Returns `None` when the CPU lacks AVX-512 IFMA or the contract's public
/// part fails (empty or more than 8 candidates, `bits` out of range, a limb slice too
/// short or long for `bits`); otherwise `Some(mask)` where bit k is set exactly when
/// 2^(n_k - 1) = 1 (mod n_k). Missing lanes repeat candidate 0 and their bits are
/// cleared. Parity and size of the candidates are NOT checked (a check would branch on
/// secret data): a violating candidate yields a meaningless bit for its lane only.
/// Timing depends only on `bits` (see the module doc).
pub fn fermat_base_two_lanes(cands: &[&[u64]], bits: usize) -> Option<u8> {
    if !has_ifma() || cands.is_empty() || cands.len() > LANES || !(3..=MAX_BITS).contains(&bits) {
        return None;
    }
    if cands.iter().any(|c| c.len() * 64 < bits || c.len() > bits.div_ceil(64)) {
        return None;
    }
    let l = (bits + 4).div_ceil(52);
    let l = FIXED_SIZES.iter().copied().find(|&f| f >= l)?;
    let mut m = vec![[0u64; LANES]; l];
    let mut m0inv = [0u64; LANES];
    for k in 0..LANES {
        let c = cands.get(k).copied().unwrap_or(cands[0]);
        for (j, limb) in m.iter_mut().enumerate() {
            limb[k] = radix52_limb(c, j);
        }
        m0inv[k] = neg_inv52(m[0][k]);
    }
    // SAFETY: has_ifma() checked AVX-512F + IFMA; `m` has exactly L limbs for the
    // matching instantiation and bits <= 52 L - 2.
    let pass = unsafe {
        match l {
            10 => fermat_fixed::<10, 11>(&m, &m0inv, bits),
            20 => fermat_fixed::<20, 21>(&m, &m0inv, bits),
            30 => fermat_fixed::<30, 31>(&m, &m0inv, bits),
            40 => fermat_fixed::<40, 41>(&m, &m0inv, bits),
            60 => fermat_fixed::<60, 61>(&m, &m0inv, bits),
            _ => fermat_fixed::<80, 81>(&m, &m0inv, bits),
        }
    };
    let used = if cands.len() == LANES { 0xff } else { (1u8 << cands.len()) - 1 };
    Some(pass & used)
}

/// Limb j (bits 52j .. 52j + 51) of the little-endian u64 number `c`; indices depend only
/// on j and the public length of `c`.
fn radix52_limb(c: &[u64], j: usize) -> u64 {
    let (w, off) = (52 * j / 64, 52 * j % 64);
    let lo = c.get(w).copied().unwrap_or(0) >> off;
    let hi = if off > 12 { c.get(w + 1).copied().unwrap_or(0) << (64 - off) } else { 0 };
    (lo | hi) & MASK52
}

/// -m0^{-1} mod 2^52 for odd m0 by Newton iteration (branch-free).
fn neg_inv52(m0: u64) -> u64 {
    let mut inv = m0;
    for _ in 0..6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(m0.wrapping_mul(inv)));
    }
    inv.wrapping_neg() & MASK52
}

/// Lane-wise x = 2x, then x -= md when 2x >= md (x < md on entry, so x < md on exit;
/// 2x must fit in L limbs). Masks only.
#[cfg(target_arch = "x86_64")]
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
#[cfg(target_arch = "x86_64")]
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

/// Sum of four vectors.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f")]
fn sum4(v: &[__m512i; 4]) -> __m512i {
    _mm512_add_epi64(_mm512_add_epi64(v[0], v[1]), _mm512_add_epi64(v[2], v[3]))
}

/// For i in [i0, i1), the products x_i y_(k-i) (column k) and x_i y_(k+1-i) (column
/// k + 1), lane-wise: lo(x_i y_(k-i)) into `c0`, its hi and lo(x_i y_(k+1-i)) into `c1`,
/// hi(x_i y_(k+1-i)) into `c2`. Going up in i, y_(k+1-i) is the previous step's
/// y_(k-i), so each step loads two vectors for four multiply-adds (one load each would
/// bound the kernel: `vmovdqu64` issues about once per cycle here, IFMA twice). Two steps
/// at a time keep eight independent multiply-add chains in flight.
///
/// # Safety
/// The CPU must support AVX-512F and IFMA; for i in [i0, i1): i < x.len(), i <= k and
/// k + 1 - i < y.len().
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
#[allow(clippy::too_many_arguments)]
unsafe fn mac_column_pair(c0: &mut [__m512i; 2], c1: &mut [__m512i; 4], c2: &mut [__m512i; 2], x: &[[u64; LANES]], y: &[[u64; LANES]], k: usize, i0: usize, i1: usize) {
    if i0 >= i1 {
        return;
    }
    debug_assert!(i1 <= x.len() && i1 - 1 <= k && k + 1 - i0 < y.len());
    // SAFETY: the indices stay inside x and y by the caller's contract (checked above in
    // debug builds); each pointer addresses a whole [u64; 8].
    let ld = |p: *const [u64; LANES]| unsafe { _mm512_loadu_si512(p.cast()) };
    let (xp, yp) = (x.as_ptr(), y.as_ptr());
    // SAFETY: k + 1 - i0 < y.len().
    let mut y_next = unsafe { ld(yp.add(k + 1 - i0)) };
    let mut i = i0;
    while i + 2 <= i1 {
        for u in 0..2 {
            // SAFETY: i + u < i1 <= x.len() and k - i - u <= k + 1 - i0 < y.len().
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

/// The sum of a column given its terms but the last ones, those of q_(k-1) (see
/// [`sqr_column_pairs`]): `early + lo(q m_1) + hi(q m_0) + carry`, the two products side
/// by side so that q's chain is two multiply-adds and one addition long.
#[cfg(target_arch = "x86_64")]
#[inline]
#[target_feature(enable = "avx512f,avx512ifma")]
fn with_late_terms(early: __m512i, carry: __m512i, q: __m512i, m0: __m512i, m1: __m512i) -> __m512i {
    _mm512_add_epi64(_mm512_madd52lo_epu64(early, q, m1), _mm512_madd52hi_epu64(carry, q, m0))
}

/// Almost Montgomery squaring of eight lanes: a^2 R^{-1} mod m_k up to one extra m_k
/// (< 2 m_k), for inputs with limbs < 2^52 and values < 4 m_k, 16 m_k <= R = 2^(52 L)
/// (then a^2 < R m_k and Q < R give (a^2 + Q m_k) / R < 2 m_k).
///
/// Product scanning (Comba), one output column at a time, with the reduction finely
/// integrated. Column k (0 <= k < 2L) sums 2 lo(a_i a_j) over i < j, i + j = k, the
/// diagonal lo(a_(k/2)^2), lo(q_i m_j) over i + j = k, the high halves of the same
/// products of column k - 1, and the carry out of column k - 1. For k < L, q_k = S_k
/// (-m^{-1}) mod 2^52 makes S_k + lo(q_k m_0) = 0 mod 2^52, so that term is never
/// computed: the carry out is ceil(S_k / 2^52) = (S_k + 2^52 - 1) >> 52. For k >= L
/// the column's low 52 bits are output digit k - L. Column sums stay below (4L + 4) 2^52
/// < 2^61 for L <= 80.
///
/// Why this shape (`examples/fermat_lanes_speed`, per 2048-bit candidate):
/// - Each cross product a_i a_j (i < j) is computed once and doubled: L(L+1) + 2L^2 - L
///   multiply-adds instead of 4L^2.
/// - A column's partial sums stay in registers and leave them once, as one digit. The
///   row-by-row (operand scanning) form this replaced kept 2L + 1 accumulators in memory,
///   read and written by every multiply-add: 470 us, against 236 us for one column at a
///   time.
/// - Two columns at a time ([`mac_column_pair`]) halve the loads per multiply-add: 175
///   us, about two IFMA per cycle, the unit's throughput.
/// - The chain q_(k-1) -> q_k goes through lo(q_(k-1) m_1) and hi(q_(k-1) m_0) only,
///   added side by side at the column's end ([`with_late_terms`]); q_(k-1) stays in a
///   register for them, older q are stored and reloaded, and nothing else waits for it.
///
/// Per pair of columns (k even): the products with index i <= k - 2 (memory), then
/// q_(k-1)'s terms (lo(q_(k-1) m_1) and hi(q_(k-1) m_0) close column k, hi(q_(k-1) m_1)
/// and lo(q_(k-1) m_2) go to column k + 1, hi(q_(k-1) m_2) to k + 2), then q_k, whose
/// terms close column k + 1 (lo(q_k m_1), hi(q_k m_0)) and start k + 2 (hi(q_k m_1)),
/// then q_(k+1). For k >= L the columns are output digits instead. `a`, `m` and `out`
/// carry a zero digit at index L (P = L + 1), which the pair loops read where column
/// k + 1 has one term fewer than column k.
///
/// Constant time: trip counts depend only on L; no data-dependent branch or index.
///
/// # Safety
/// The CPU must support AVX-512F and IFMA; L is even and at least 4, P = L + 1, and
/// `a[L]` and `m[L]` are zero.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512ifma")]
fn sqr_column_pairs<const L: usize, const P: usize>(out: &mut [[u64; LANES]; P], a: &[[u64; LANES]; P], m: &[[u64; LANES]; P], inv: __m512i) {
    // SAFETY: each pointer addresses a whole [u64; 8] (64 bytes); unaligned access is fine.
    let ld = |p: &[u64; LANES]| unsafe { _mm512_loadu_si512(p.as_ptr().cast()) };
    let st = |p: &mut [u64; LANES], v: __m512i| unsafe { _mm512_storeu_si512(p.as_mut_ptr().cast(), v) };
    let zero = _mm512_setzero_si512();
    let mask = _mm512_set1_epi64(MASK52 as i64);
    let (m0, m1, m2) = (ld(&m[0]), ld(&m[1]), ld(&m[2]));
    let mut q = [[0u64; LANES]; L];
    // Cross terms (doubled when a column is summed) and the rest, for columns k, k + 1
    // and k + 2.
    let (mut x0, mut x1, mut x2) = ([zero; 2], [zero; 4], [zero; 2]);
    let (mut r0, mut r1, mut r2) = ([zero; 2], [zero; 4], [zero; 2]);
    let mut carry = zero;
    let mut q_prev = zero;
    let column = |x: __m512i, r: __m512i| _mm512_add_epi64(_mm512_add_epi64(x, x), r);
    for k in (0..2 * L).step_by(2) {
        let lo = (k + 1).saturating_sub(L);
        let h = k / 2;
        // SAFETY (both calls): i < L, i <= k and k + 1 - i <= L < P for i in the ranges.
        unsafe { mac_column_pair(&mut x0, &mut x1, &mut x2, a, a, k, lo, h) };
        // a_h a_(h+1) (column k + 1; a[L] = 0 when h + 1 = L) and the square a_h^2.
        let (ah, ah1) = (ld(&a[h]), ld(&a[h + 1]));
        x1[0] = _mm512_madd52lo_epu64(x1[0], ah, ah1);
        x2[0] = _mm512_madd52hi_epu64(x2[0], ah, ah1);
        r0[0] = _mm512_madd52lo_epu64(r0[0], ah, ah);
        r1[0] = _mm512_madd52hi_epu64(r1[0], ah, ah);
        unsafe { mac_column_pair(&mut r0, &mut r1, &mut r2, &q, m, k, lo, k.saturating_sub(1).min(L)) };
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
            st(&mut q[k], qk);
            r2[0] = _mm512_madd52hi_epu64(r2[0], qk, m1);
            let s1 = with_late_terms(early1, carry, qk, m0, m1);
            let qk1 = _mm512_madd52lo_epu64(zero, s1, inv);
            carry = _mm512_srli_epi64::<52>(_mm512_add_epi64(s1, mask));
            st(&mut q[k + 1], qk1);
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

/// The fixed-size body of [`fermat_base_two_lanes`]: returns the lanes with
/// 2^(m_k - 1) = 1 (mod m_k).
///
/// # Safety
/// The CPU must support AVX-512F and IFMA. `m` has L limbs < 2^52 per lane, each lane's
/// modulus odd with 2^(bits-2) < m_k < 2^bits, 3 <= bits <= 52 L - 4 (so R >= 16 m_k).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn fermat_fixed<const L: usize, const P: usize>(m: &[[u64; LANES]], m0inv: &[u64; LANES], bits: usize) -> u8 {
    assert!(m.len() == L && bits + 4 <= 52 * L);
    let m: &[[u64; LANES]; L] = m.try_into().expect("L limbs");
    // SAFETY: each pointer addresses a whole [u64; 8] (64 bytes); unaligned access is fine.
    let ld = |p: &[u64; LANES]| unsafe { _mm512_loadu_si512(p.as_ptr() as *const _) };
    let zero = _mm512_setzero_si512();
    let mv: [__m512i; L] = core::array::from_fn(|j| ld(&m[j]));
    let inv = ld(m0inv);
    // 2m (< R/8), for the final reduction.
    let mut m2 = mv;
    double_mod(&mut m2, &[_mm512_set1_epi64(MASK52 as i64); L]); // 2m < R - 1: never reduced
    // R mod m: start from the public 2^(bits-2) < m and double 52 L - bits + 2 times.
    let mut one = [zero; L];
    let top = bits - 2;
    one[top / 52] = _mm512_set1_epi64(1i64 << (top % 52));
    for _ in 0..(52 * L - top) {
        double_mod(&mut one, &mv);
    }
    // SAFETY: as for `ld`, a store into a borrowed [u64; 8].
    let st = |p: &mut [u64; LANES], v: __m512i| unsafe { _mm512_storeu_si512(p.as_mut_ptr() as *mut _, v) };
    // Digit L of acc, sq and mp stays zero: the column-pair squaring reads it.
    let mut acc = [[0u64; LANES]; P];
    let mut sq = [[0u64; LANES]; P];
    let mut mp = [[0u64; LANES]; P];
    mp[..L].copy_from_slice(m);
    for j in 0..L {
        st(&mut acc[j], one[j]);
    }
    let mask = _mm512_set1_epi64(MASK52 as i64);
    for i in (0..bits).rev() {
        // acc < 4m gives sq < 2m (R >= 16m: see `sqr_column_pairs`).
        sqr_column_pairs::<L, P>(&mut sq, &acc, &mp, inv);
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

#[cfg(not(target_arch = "x86_64"))]
unsafe fn fermat_fixed<const L: usize>(_: &[[u64; LANES]], _: &[u64; LANES], _: usize) -> u8 {
    unreachable!("has_ifma() is false off x86_64")
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::{BigUint, RandBigInt};
    use num_traits::One;
    use rand::SeedableRng;

    fn want(n: &BigUint) -> bool {
        BigUint::from(2u8).modpow(&(n - 1u8), n).is_one()
    }

    fn check(batch: &[BigUint], bits: usize) {
        let limbs: Vec<Vec<u64>> = batch
            .iter()
            .map(|n| {
                let mut v = n.to_u64_digits();
                v.resize(bits.div_ceil(64), 0);
                v
            })
            .collect();
        let refs: Vec<&[u64]> = limbs.iter().map(|v| v.as_slice()).collect();
        let got = fermat_base_two_lanes(&refs, bits).expect("IFMA present and batch valid");
        for (k, n) in batch.iter().enumerate() {
            assert_eq!(got >> k & 1 == 1, want(n), "n={n} lane={k} bits={bits}");
        }
        assert_eq!(u32::from(got) >> batch.len(), 0, "padding lanes must be cleared");
    }

    fn random_odd(rng: &mut impl rand::Rng, bits: u64) -> BigUint {
        let mut n = rng.gen_biguint(bits) | BigUint::one();
        n.set_bit(bits - 1, true);
        n
    }

    /// A base-2 probable prime with exactly `bits` bits (the oracle is modpow itself, so
    /// any odd number is a valid case); trial division first keeps modpow calls few.
    fn random_prime(rng: &mut impl rand::Rng, bits: u64) -> BigUint {
        let small: Vec<u32> = (3u32..1000).filter(|&p| (2..p).take_while(|d| d * d <= p).all(|d| p % d != 0)).collect();
        loop {
            let n = random_odd(rng, bits);
            if small.iter().all(|&p| &n % p != BigUint::from(0u8)) && want(&n) {
                return n;
            }
        }
    }

    #[test]
    fn lanes_agree_with_modpow() {
        if !has_ifma() {
            eprintln!("no AVX-512 IFMA on this CPU: 8-lane Fermat not exercised");
            return;
        }
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
            check(batch, bits);
            // Partial batches.
            check(&batch[..3], bits);
            check(&batch[1..2], bits);
        }
        for (batch, bits) in &mixed_batches {
            check(batch, *bits);
            check(&batch[4..5], *bits);
        }
    }

    #[test]
    fn pseudoprimes_pass_exactly_like_modpow() {
        if !has_ifma() {
            eprintln!("no AVX-512 IFMA on this CPU: 8-lane Fermat not exercised");
            return;
        }
        // Base-2 Fermat pseudoprimes (341, 561, 645, 1105, 1387, 1729, 1905, 2047, ...),
        // Carmichael numbers, their neighbours, and primes, grouped by bit length.
        let small: [u64; 24] = [341, 561, 645, 1105, 1387, 1729, 1905, 2047, 2465, 2701, 2821, 3277, 4033, 4369, 4371, 4681, 5461, 6601, 7957, 8321, 8481, 8911, 343, 1031];
        let mut by_bits: std::collections::BTreeMap<u64, Vec<BigUint>> = Default::default();
        for &n in &small {
            for v in [n, n + 2] {
                let v = BigUint::from(v);
                by_bits.entry(v.bits()).or_default().push(v);
            }
        }
        // Larger Carmichael numbers (6k+1)(12k+1)(18k+1) with all three factors prime.
        for k in [1u64, 6, 35, 45, 51, 55, 56, 100, 121, 195] {
            let (a, b, c) = (6 * k + 1, 12 * k + 1, 18 * k + 1);
            let n = BigUint::from(a) * b * c;
            by_bits.entry(n.bits()).or_default().push(n);
        }
        // 2^(2^5)+1 = 4294967297 = 641 * 6700417 is a base-2 Fermat pseudoprime.
        let f5 = (BigUint::one() << 32u32) + 1u8;
        by_bits.entry(f5.bits()).or_default().push(f5);
        let mut pseudoprimes_seen = 0;
        for (bits, ns) in by_bits {
            for chunk in ns.chunks(LANES) {
                pseudoprimes_seen += chunk.iter().filter(|n| want(n)).count();
                check(chunk, bits as usize);
            }
        }
        assert!(pseudoprimes_seen > 20, "the batch must contain numbers that pass");
    }

    #[test]
    fn rejects_unsuitable_batches() {
        assert_eq!(fermat_base_two_lanes(&[], 64), None);
        let five: &[u64] = &[5];
        assert_eq!(fermat_base_two_lanes(&[five; 9], 3), None);
        assert_eq!(fermat_base_two_lanes(&[&[5u64, 0]], 3), None, "limb slice longer than bits needs");
        assert_eq!(fermat_base_two_lanes(&[&[5u64]], 65), None, "limb slice too short for bits");
    }
}
