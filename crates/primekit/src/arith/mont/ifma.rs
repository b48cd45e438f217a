//! x86_64 AVX-512 IFMA exponentiation kernel: radix 2^52, eight digits per `zmm`
//! register, `vpmadd52luq`/`vpmadd52huq` for the low and high halves of 52x52-bit
//! products, almost-Montgomery multiplication (AMM) as in Gueron and Krasnov's RSAZ.
//!
//! This kernel only ever runs inside an exponentiation: the base is moved into the
//! IFMA domain once (radix 2^52, Montgomery factor R' = 2^(52k)), all products and
//! squares happen there, and the result is moved back and fully reduced once.
//!
//! Contract of [`amm`] (k = `p.k` digits of 52 bits, R' = 2^(52k) >= 16m):
//! - the CPU supports AVX-512F and AVX-512 IFMA: every [`IfmaParams`] holds an
//!   [`Avx512Ifma`] token, which only exists when it does (see `arith::cpu`);
//! - inputs `a`, `b` are digit vectors of `p.width()` words, each word `< 2^52`, words
//!   at index `>= k` zero, values `< 4m`;
//! - the output has the same form: `a*b*R'^{-1} mod m` plus possibly m, `< 2m`
//!   (it is (ab + qm)/R' with q < R', and ab < 16m^2 <= R'm);
//! - `out` is a buffer distinct from the inputs;
//! - time and memory accesses depend only on k (the limb count of m): fixed trip
//!   counts, no branch or index on digit values, carries by shifts and masks.

use crate::arith::cpu::Avx512Ifma;
use crate::arith::lanes::Timing;
use crate::arith::limbs::{neg_inv_mod_word, to_limbs, Limb};
use crate::arith::radix::{digits52_to_limbs, limbs_to_digits52, MASK52};
use core::arch::x86_64::*;
use num_bigint::BigUint;

/// The vector counts the kernels are instantiated for (each a fully unrolled copy): every
/// count up to 10 (4160 bits, the sizes of keys and most groups), then steps of at most
/// a quarter up to 80 (33,280 bits, above `is_prime`'s 32,768-bit cap). A modulus uses
/// the smallest count that holds its digits; the extra vectors hold zero digits.
const INSTANTIATED: [usize; 22] = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 20, 24, 28, 32, 40, 48, 56, 64, 80];

/// Largest number of 8-digit vectors; larger moduli use the scalar kernel. The lane
/// bound of [`amm_v`] holds up to k = 1000 digits (125 vectors).
pub(crate) const MAX_VECTORS: usize = INSTANTIATED[INSTANTIATED.len() - 1];
const _: () = assert!(8 * MAX_VECTORS <= 1000, "amm_v's lane bound needs k <= 1000");

/// Above this many vectors [`amm_v`] forms each digit vector's products in one pass
/// (the kernel's arrays no longer fit in registers); at and below it, in separate passes
/// the compiler schedules freely (the key sizes, tuned that way).
const FUSED_FROM: usize = 10;

/// The instantiated vector count for k digits, if any.
fn vectors_for(k: usize) -> Option<usize> {
    INSTANTIATED.iter().copied().find(|&v| 8 * v >= k)
}

/// Per-modulus constants of the IFMA domain.
#[derive(Clone, Debug)]
pub(crate) struct IfmaParams {
    /// Proof that the CPU runs the kernels below.
    cpu: Avx512Ifma,
    /// Number of 8-digit vectors.
    vectors: usize,
    /// Number of 52-bit digits k; R' = 2^(52k) >= 16m.
    k: usize,
    /// Limb count n of the modulus.
    n: usize,
    m: Vec<u64>,
    /// -m^{-1} mod 2^52.
    k0: u64,
    /// R'^2 / R mod m: AMM(x*R, this) = x*R'.
    into: Vec<u64>,
    /// R mod m: AMM(x*R', this) = x*R.
    out_of: Vec<u64>,
    /// R' mod m, one in the IFMA domain.
    one: Vec<u64>,
    /// The integer 1 as a digit vector (AMM by it divides by R').
    unit: Vec<u64>,
}

impl IfmaParams {
    /// Constants for the odd modulus `m` of `n` limbs, or `None` when it is too large;
    /// the powers of two mod m by [`super::setup::pow2_mod_timed`] with `setup`.
    pub(crate) fn new(cpu: Avx512Ifma, m: &BigUint, n: usize, setup: Timing) -> Option<Self> {
        // 52k >= 64n + 4, so R' >= 16m: inputs up to 4m keep AMM's output below 2m, the
        // headroom that lets a Lucas ladder add a constant without reducing (`add`).
        let k = (64 * n + 4).div_ceil(52);
        let vectors = vectors_for(k)?;
        let width = 8 * vectors;
        let digits = |x: &[u64]| -> Vec<u64> {
            let mut d = vec![0; width];
            limbs_to_digits52(&mut d, x, k);
            d
        };
        let m_limbs = to_limbs(m, n)?;
        let m0inv = neg_inv_mod_word(m_limbs[0]);
        // into = R'^2 R^{-1} mod m, by one Montgomery reduction of R'^2 mod m (an
        // extended gcd for R^{-1} would cost more than a whole MR round's setup).
        let mut wide = vec![0; 2 * n + 2];
        wide[..n].copy_from_slice(&super::setup::pow2_mod_timed(&m_limbs, 2 * 52 * k, setup, Some(cpu.adx())));
        let mut into = vec![0; n];
        super::adx::redc(cpu.adx(), &mut into, &mut wide, &m_limbs, m0inv);
        Some(IfmaParams {
            cpu,
            vectors,
            k,
            n,
            m: digits(&m_limbs),
            k0: m0inv & MASK52,
            into: digits(&into),
            out_of: digits(&super::setup::pow2_mod_timed(&m_limbs, 64 * n, setup, Some(cpu.adx()))),
            one: digits(&super::setup::pow2_mod_timed(&m_limbs, 52 * k, setup, Some(cpu.adx()))),
            unit: digits(&[1]),
        })
    }

    /// Words per IFMA-domain element (a multiple of 8).
    pub(crate) fn width(&self) -> usize {
        8 * self.vectors
    }

    /// One in the IFMA domain.
    pub(crate) fn one(&self) -> &[u64] {
        &self.one
    }

    /// IFMA-domain form (`< 2m`) of the scalar Montgomery element `a < m` (n limbs).
    pub(crate) fn enter(&self, out: &mut [u64], a: &[Limb]) {
        let mut d = vec![0; self.width()];
        limbs_to_digits52(&mut d, a, self.k);
        amm(self, out, &d, &self.into);
    }

    /// Scalar Montgomery form, fully reduced, of the IFMA-domain element `a` (`< 4m`).
    pub(crate) fn leave(&self, out: &mut [Limb], a: &[u64], m: &[Limb]) {
        let n = self.n;
        let mut d = vec![0; self.width()];
        amm(self, &mut d, a, &self.out_of);
        // d < 2m < 2^(64n+1): n limbs plus a top bit.
        let mut limbs = vec![0; n + 1];
        digits52_to_limbs(&mut limbs, &d, self.k);
        super::portable::final_sub(out, &limbs[..n], limbs[n], m);
    }
}

/// Runs `$body` with `$V` bound to the vector count `$v` as a constant (one of
/// [`INSTANTIATED`]), so each size gets its own fully unrolled instance of a kernel.
macro_rules! by_vectors {
    ($v:expr, |$V:ident| $body:expr) => {
        by_vectors!(@arms $v, $V, $body, 1 2 3 4 5 6 7 8 9 10 12 14 16 20 24 28 32 40 48 56 64 80)
    };
    (@arms $v:expr, $V:ident, $body:expr, $($n:literal)*) => {
        match $v {
            $($n => {
                const $V: usize = $n;
                $body
            })*
            _ => unreachable!("IfmaParams::new bounds the vector count"),
        }
    };
}

/// Almost-Montgomery product `out = a*b*R'^{-1} mod m` (`< 2m`); see the module docs.
pub(crate) fn amm(p: &IfmaParams, out: &mut [u64], a: &[u64], b: &[u64]) {
    amm_n::<1>(p, [out], [a], [b]);
}

/// Two independent almost-Montgomery products at once, `out1 = a1*b1*R'^{-1}` and
/// `out2 = a2*b2*R'^{-1}` (each as [`amm`]). One product's loop-carried chain (q_i ->
/// q_{i+1}, a few scalar multiplications per digit) leaves the vector units idle; two
/// interleaved chains fill them, for nearly twice the throughput at 1024 bits.
pub(crate) fn amm2(p: &IfmaParams, out1: &mut [u64], a1: &[u64], b1: &[u64], out2: &mut [u64], a2: &[u64], b2: &[u64]) {
    amm_n::<2>(p, [out1, out2], [a1, a2], [b1, b2]);
}

fn amm_n<const N: usize>(p: &IfmaParams, out: [&mut [u64]; N], a: [&[u64]; N], b: [&[u64]; N]) {
    let w = p.width();
    assert!(p.m.len() == w && (0..N).all(|i| out[i].len() >= w && a[i].len() >= w && b[i].len() >= w));
    let _proof: Avx512Ifma = p.cpu;
    // SAFETY: the lengths are checked above; `p.cpu` proves AVX-512F and IFMA.
    unsafe { by_vectors!(p.vectors, |V| amm_v::<V, N>(out, a, b, &p.m, p.k0, p.k)) }
}

/// `a = a + b` for digit vectors of `p.width()` words with digits `< 2^52` and a sum
/// `< R'`; the result is normalised to 52-bit digits. Used by the Lucas ladder to
/// subtract a constant c as `+ (2m - c)` (see [`twice_modulus_minus`]). Timing depends
/// only on the vector count.
pub(crate) fn add(p: &IfmaParams, a: &mut [u64], b: &[u64]) {
    assert!(a.len() >= p.width() && b.len() >= p.width());
    let _proof: Avx512Ifma = p.cpu;
    // SAFETY: lengths checked above; `p.cpu` proves AVX-512F.
    unsafe { by_vectors!(p.vectors, |V| add_v::<V>(a, b)) }
}

/// `a = a + (a AND mask)` for `mask` in {0, !0}: a doubling or nothing, chosen without a
/// branch (constant time in `mask`); `a < 2m` gives a result `< 4m`, normalised.
pub(crate) fn double_masked(p: &IfmaParams, a: &mut [u64], mask: u64) {
    assert!(a.len() >= p.width());
    let _proof: Avx512Ifma = p.cpu;
    // SAFETY: length checked above; `p.cpu` proves AVX-512F.
    unsafe { by_vectors!(p.vectors, |V| double_v::<V>(a, mask)) }
}

/// `a += b`, then normalised.
///
/// # Safety
/// `a` and `b` hold at least 8V words; the CPU supports AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn add_v<const V: usize>(a: &mut [u64], b: &[u64]) {
    let mut acc = [_mm512_setzero_si512(); V];
    for (j, x) in acc.iter_mut().enumerate() {
        // SAFETY: 8V words are readable in a and b (checked by the caller).
        unsafe {
            *x = _mm512_add_epi64(_mm512_loadu_si512(a.as_ptr().add(8 * j).cast()), _mm512_loadu_si512(b.as_ptr().add(8 * j).cast()));
        }
    }
    normalize::<V>(&mut acc);
    for (j, x) in acc.iter().enumerate() {
        // SAFETY: 8V words are writable in a (checked by the caller).
        unsafe { _mm512_storeu_si512(a.as_mut_ptr().add(8 * j).cast(), *x) };
    }
}

/// `a += a & mask` for normalised `a`. One carry round is exact here, unlike a general
/// sum's: a doubled digit 2d < 2^53 splits into an even low part <= 2^52 - 2 and a carry
/// bit, and the carry coming from below (0 or 1) then fits without rippling further.
///
/// # Safety
/// `a` holds at least 8V words; the CPU supports AVX-512F.
#[target_feature(enable = "avx512f")]
unsafe fn double_v<const V: usize>(a: &mut [u64], mask: u64) {
    let maskv = _mm512_set1_epi64(mask as i64);
    let mask52 = _mm512_set1_epi64(MASK52 as i64);
    let zero = _mm512_setzero_si512();
    let mut hi = [zero; V];
    let mut lo = [zero; V];
    for j in 0..V {
        // SAFETY: 8V words are readable in a (checked by the caller).
        let x = unsafe { _mm512_loadu_si512(a.as_ptr().add(8 * j).cast()) };
        let y = _mm512_add_epi64(x, _mm512_and_si512(x, maskv));
        hi[j] = _mm512_srli_epi64::<52>(y);
        lo[j] = _mm512_and_si512(y, mask52);
    }
    for j in 0..V {
        let below = if j == 0 { zero } else { hi[j - 1] };
        let out = _mm512_add_epi64(lo[j], _mm512_alignr_epi64::<7>(hi[j], below));
        // SAFETY: 8V words are writable in a (checked by the caller).
        unsafe { _mm512_storeu_si512(a.as_mut_ptr().add(8 * j).cast(), out) };
    }
}

/// `2^e` over exactly `exp_bits` bits of `exp` (higher bits zero), in the scalar
/// Montgomery form of the context behind `p` (fully reduced): left-to-right square and
/// double with every step in the IFMA domain — one AMM squaring (`< 2m`) and one masked
/// doubling (`< 4m`, which the next AMM accepts since R' >= 16m) per bit. Constant time:
/// the sequence of operations and memory accesses depends only on `exp_bits` and the size.
pub(crate) fn pow2_ct(p: &IfmaParams, exp: &[u64], exp_bits: usize, m: &[Limb]) -> Vec<Limb> {
    let w = p.width();
    let mut acc = p.one.clone();
    let mut sq = vec![0; w];
    for i in (0..exp_bits).rev() {
        amm(p, &mut sq, &acc, &acc);
        let mask = core::hint::black_box((exp[i / 64] >> (i % 64) & 1).wrapping_neg());
        double_masked(p, &mut sq, mask);
        std::mem::swap(&mut acc, &mut sq);
    }
    let mut out = vec![0; p.n];
    p.leave(&mut out, &acc, m);
    out
}

/// `2m - c` as normalised digits, for an IFMA-domain element `c < 2m`: adding it to an
/// AMM output (`< 2m`) subtracts c modulo m and stays below 4m, which [`amm`] accepts.
pub(crate) fn twice_modulus_minus(p: &IfmaParams, c: &[u64]) -> Vec<u64> {
    let mut out = vec![0; p.width()];
    let (mut carry, mut borrow) = (0u64, 0u64);
    for j in 0..p.k {
        let t = 2 * p.m[j] + carry; // < 2^53 + 1
        carry = t >> 52;
        let d = (t & MASK52).wrapping_sub(c[j]).wrapping_sub(borrow);
        borrow = d >> 63; // digits < 2^52: a wrap shows in the top bit
        out[j] = d & MASK52;
    }
    debug_assert!(carry == 0 && borrow == 0, "c < 2m < R'");
    out
}

/// `a = (a + b) mod 2m` for IFMA-domain elements `a, b < 2m` (normalised digits): the
/// result is `< 2m`, normalised. Scalar digit loops; branches on the values (public data
/// only).
pub(crate) fn add_vartime(p: &IfmaParams, a: &mut [u64], b: &[u64]) {
    let mut carry = 0;
    for (x, &y) in a[..p.k].iter_mut().zip(&b[..p.k]) {
        let t = *x + y + carry; // < 2^53 + 1
        carry = t >> 52;
        *x = t & MASK52;
    }
    debug_assert_eq!(carry, 0, "a + b < 4m < R'");
    sub_twice_modulus_if_above_vartime(p, a);
}

/// `a = (a - b) mod 2m` for IFMA-domain elements `a, b < 2m` (normalised digits): the
/// result is `< 2m`, normalised. Branches on the values (public data only).
pub(crate) fn sub_vartime(p: &IfmaParams, a: &mut [u64], b: &[u64]) {
    let mut borrow = 0;
    for (x, &y) in a[..p.k].iter_mut().zip(&b[..p.k]) {
        let d = x.wrapping_sub(y).wrapping_sub(borrow);
        borrow = d >> 63; // digits < 2^52: a wrap shows in the top bit
        *x = d & MASK52;
    }
    if borrow != 0 {
        // a - b + 2^(52k) is in the digits; adding 2m wraps it back to a - b + 2m < 2m.
        let mut carry = 0;
        for (x, &mj) in a[..p.k].iter_mut().zip(&p.m[..p.k]) {
            let t = *x + 2 * mj + carry;
            carry = t >> 52;
            *x = t & MASK52;
        }
    }
}

/// `a = 2a mod 2m` for an IFMA-domain element `a < 2m`: the result is `< 2m`,
/// normalised. Branches on the value (public data only).
pub(crate) fn dbl_vartime(p: &IfmaParams, a: &mut [u64]) {
    double_masked(p, a, !0);
    sub_twice_modulus_if_above_vartime(p, a);
}

/// `a -= 2m` when `a >= 2m` (a < 4m, normalised digits).
fn sub_twice_modulus_if_above_vartime(p: &IfmaParams, a: &mut [u64]) {
    // Digit j of 2m is 2 m_j mod 2^52 plus the bit carried out of m_(j-1) (2m < R').
    let twice = |j: usize| ((p.m[j] << 1) & MASK52) | if j > 0 { p.m[j - 1] >> 51 } else { 0 };
    for j in (0..p.k).rev() {
        let t = twice(j);
        if a[j] != t {
            if a[j] < t {
                return;
            }
            break;
        }
    }
    let mut borrow = 0;
    for (j, x) in a[..p.k].iter_mut().enumerate() {
        let d = x.wrapping_sub(twice(j)).wrapping_sub(borrow);
        borrow = d >> 63;
        *x = d & MASK52;
    }
}

/// AMM over `V` vectors of 8 digits for `N` independent products, `k` iterations (one per
/// digit of `b`).
///
/// Iteration i: S = acc + lo(a*b_i); q = digit0(S) * k0 mod 2^52; then
/// acc = shift(S + lo(m*q)) + hi(a*b_i) + hi(m*q), where `shift` drops digit 0 (now
/// 0 mod 2^52; its carry goes into the next digit 0 through the scalar `c`) and the high
/// halves belong one digit up. Lanes are not normalised inside the loop: each gains at
/// most four 52-bit terms per iteration for k iterations, < 4k 2^52, and the scalar
/// prediction x adds at most six more terms: below 2^64 for k <= 1000 (k <= 8 MAX_VECTORS).
///
/// The loop-carried chain is q_i -> q_{i+1}. To keep it off the vectors, the true
/// digit 0 of the next S is predicted in scalar code: lane 1 of acc (`y`, read from the
/// vector one iteration earlier), plus lo(a_1 b_i), hi(a_0 b_i) and lo(a_0 b_{i+1})
/// (all known before q), plus lo(m_1 q) and hi(m_0 q) (two scalar products by q), plus
/// the carry out of digit 0 (which needs no product). The N products share only m and
/// the loop; their chains interleave.
///
/// # Safety
/// `out[n]`, `a[n]`, `b[n]`, `m` hold at least 8V words (`k <= 8V`); the CPU supports
/// AVX-512F and IFMA.
#[allow(clippy::needless_range_loop)] // lane-vector index j pairs several arrays
#[target_feature(enable = "avx512f,avx512ifma,bmi2")]
unsafe fn amm_v<const V: usize, const N: usize>(out: [&mut [u64]; N], a: [&[u64]; N], b: [&[u64]; N], m: &[u64], k0: u64, k: usize) {
    let zero = _mm512_setzero_si512();
    let mut av = [[zero; V]; N];
    let mut mv = [zero; V];
    for j in 0..V {
        // SAFETY: 8V words are readable in a[n] and m (checked by the caller).
        unsafe {
            for n in 0..N {
                av[n][j] = _mm512_loadu_si512(a[n].as_ptr().add(8 * j).cast());
            }
            mv[j] = _mm512_loadu_si512(m.as_ptr().add(8 * j).cast());
        }
    }
    let (m0, m1, m2) = (m[0], m[1], m[2]);
    let k0s = k0 << 12;
    let lo52 = |x: u64, y: u64| x.wrapping_mul(y) & MASK52;
    let hi52 = |x: u64, y: u64| ((x as u128 * y as u128) >> 52) as u64;
    let mut acc = [[zero; V]; N];
    // Per-iteration products, fully overwritten each iteration: declared once, since a
    // fresh zeroed array per iteration costs a memset call at the larger vector counts.
    let mut s = [zero; V];
    let mut h = [zero; V];
    // x: the true digit 0 of S (vector lane plus pending carries), for iteration 0.
    let mut x: [u64; N] = core::array::from_fn(|n| lo52(a[n][0], b[n][0]));
    let mut c = [0u64; N];
    // y: lane 1 of acc (acc is 0 before the first iteration).
    let mut y = [0u64; N];
    for i in 0..k {
        for n in 0..N {
            let (a0, a1) = (a[n][0], a[n][1]);
            let bi = b[n][i];
            let b_next = if i + 1 < k { b[n][i + 1] } else { 0 };
            // Broadcast straight from memory: moves between scalar and vector registers
            // are slow, and this keeps them to two per iteration (q in, one lane out).
            // SAFETY: i < k <= 8V words of b[n] (checked by the caller).
            let bv = _mm512_broadcastq_epi64(unsafe { _mm_loadl_epi64(b[n].as_ptr().add(i).cast()) });
            // Lane 2 of S_i is all the scalar side needs of the vectors: above FUSED_FROM
            // vectors only digit vector 0 is formed here, the rest in one fused pass below.
            let s_upto = if V > FUSED_FROM { 1 } else { V };
            for j in 0..s_upto {
                s[j] = _mm512_add_epi64(acc[n][j], _mm512_madd52lo_epu64(zero, av[n][j], bv));
                h[j] = _mm512_madd52hi_epu64(zero, av[n][j], bv);
            }
            // qs = q * 2^12 with q = x*k0 mod 2^52: the shift drops exactly the bits above
            // 52, so hi52(m_0 q) is the high word of m_0*qs and lo52(m_1 q) is the low
            // word of m_1*qs shifted down by 12, with no masking on the critical path.
            let qs = x[n].wrapping_mul(k0s);
            let qv = _mm512_set1_epi64((qs >> 12) as i64);
            // Scalar prediction of the next x (see above). The carry out of digit 0 needs
            // no product: lo52(m_0 q) = -x mod 2^52 by the choice of q, so the carry is
            // (x + (-x mod 2^52)) >> 52 = (x + 2^52 - 1) >> 52.
            c[n] = (x[n] + MASK52) >> 52;
            // Lane 1 of S_i (= lane 1 of acc_i + lo52(a_1 b_i)) is y plus lo52(a_1 b_i):
            // taking it from the previous iteration keeps the vectors two iterations away
            // from the chain. Everything that does not depend on q is summed first
            // (`opaque` keeps the compiler from re-associating).
            let p = opaque(y[n] + lo52(a1, bi) + hi52(a0, bi) + lo52(a0, b_next) + c[n]);
            x[n] = p + (((m0 as u128 * qs as u128) >> 64) as u64 + (m1.wrapping_mul(qs) >> 12));
            // y = lane 1 of acc_{i+1} = lane 2 of S_i + lo52(m_2 q) + lane 1 of
            // hi(a*b_i) + hi52(m_1 q).
            let s2 = _mm_cvtsi128_si64(_mm512_extracti32x4_epi32::<1>(s[0])) as u64;
            y[n] = s2 + hi52(a1, bi) + (m2.wrapping_mul(qs) >> 12) + ((m1 as u128 * qs as u128) >> 64) as u64;
            if V > FUSED_FROM {
                // One pass per digit vector: both products, then the shifted sum into the
                // vector below (already read), so each vector is loaded and stored once;
                // at these sizes the arrays live in memory and the three separate passes
                // would be bound by loads and stores.
                let mut prev_s = _mm512_madd52lo_epu64(s[0], mv[0], qv);
                let mut prev_h = _mm512_madd52hi_epu64(h[0], mv[0], qv);
                for j in 1..V {
                    let sj = _mm512_madd52lo_epu64(_mm512_madd52lo_epu64(acc[n][j], av[n][j], bv), mv[j], qv);
                    let hj = _mm512_madd52hi_epu64(_mm512_madd52hi_epu64(zero, av[n][j], bv), mv[j], qv);
                    acc[n][j - 1] = _mm512_add_epi64(_mm512_alignr_epi64::<1>(sj, prev_s), prev_h);
                    (prev_s, prev_h) = (sj, hj);
                }
                acc[n][V - 1] = _mm512_add_epi64(_mm512_alignr_epi64::<1>(zero, prev_s), prev_h);
            } else {
                for j in 0..V {
                    s[j] = _mm512_madd52lo_epu64(s[j], mv[j], qv);
                    h[j] = _mm512_madd52hi_epu64(h[j], mv[j], qv);
                }
                for j in 0..V - 1 {
                    acc[n][j] = _mm512_add_epi64(_mm512_alignr_epi64::<1>(s[j + 1], s[j]), h[j]);
                }
                acc[n][V - 1] = _mm512_add_epi64(_mm512_alignr_epi64::<1>(zero, s[V - 1]), h[V - 1]);
            }
        }
    }
    // Normalise to 52-bit digits (the value is < 2m < 2^(52k), so no carry leaves); the
    // carry out of the last digit 0 is still pending in c.
    for (n, o) in out.into_iter().enumerate() {
        acc[n][0] = _mm512_add_epi64(acc[n][0], _mm512_maskz_set1_epi64(1, c[n] as i64));
        normalize::<V>(&mut acc[n]);
        for j in 0..V {
            // SAFETY: 8V words are writable in out[n] (checked by the caller).
            unsafe { _mm512_storeu_si512(o.as_mut_ptr().add(8 * j).cast(), acc[n][j]) };
        }
    }
}

/// `x`, opaque to the optimiser (an empty `asm!`), to pin the order of a sum.
#[inline(always)]
fn opaque(mut x: u64) -> u64 {
    // SAFETY: an empty instruction sequence; it only claims to read and write `x`.
    unsafe { core::arch::asm!("/* {0} */", inout(reg) x, options(pure, nomem, nostack, preserves_flags)) };
    x
}

/// Carry-propagates 64-bit lanes into 52-bit digits (the value must fit in 8V digits).
///
/// One vector round moves each lane's bits above 52 (fewer than 12) into the next lane, leaving lanes
/// `< 2^52 + 2^12`; the remaining carries (0 or 1 each) are resolved at once on lane
/// bitmasks: with G = lanes above 2^52 - 1 and P = lanes equal to it, the lanes that
/// receive a carry are `((G << 1) + P) ^ P`, an ordinary integer addition.
#[inline]
#[allow(clippy::needless_range_loop)] // lane-vector index j pairs several arrays
#[target_feature(enable = "avx512f")]
fn normalize<const V: usize>(acc: &mut [__m512i; V]) {
    let mask = _mm512_set1_epi64(MASK52 as i64);
    let zero = _mm512_setzero_si512();
    let hi: [__m512i; V] = core::array::from_fn(|j| _mm512_srli_epi64::<52>(acc[j]));
    let mut gm = [0u8; V];
    let mut pm = [0u8; V];
    for j in 0..V {
        let below = if j == 0 { zero } else { hi[j - 1] };
        acc[j] = _mm512_add_epi64(_mm512_and_si512(acc[j], mask), _mm512_alignr_epi64::<7>(hi[j], below));
        gm[j] = _mm512_cmpgt_epu64_mask(acc[j], mask);
        pm[j] = _mm512_cmpeq_epu64_mask(acc[j], mask);
    }
    // The lane bitmasks as one little-endian multiword integer (8 vectors of 8 lanes per
    // word): carry_in = ((G << 1) + P) ^ P, with the shift and the sum carried across words.
    let mut cm = [0u8; V];
    let (mut g_top, mut sum_carry) = (0u64, false);
    for w in 0..V.div_ceil(8) {
        let (mut g, mut p) = (0u64, 0u64);
        for j in 8 * w..(8 * w + 8).min(V) {
            g |= (gm[j] as u64) << (8 * (j - 8 * w));
            p |= (pm[j] as u64) << (8 * (j - 8 * w));
        }
        let shifted = (g << 1) | g_top;
        g_top = g >> 63;
        let (s1, c1) = shifted.overflowing_add(p);
        let (s2, c2) = s1.overflowing_add(sum_carry as u64);
        sum_carry = c1 || c2;
        let carry_in = s2 ^ p;
        for j in 8 * w..(8 * w + 8).min(V) {
            cm[j] = (carry_in >> (8 * (j - 8 * w))) as u8;
        }
    }
    let one = _mm512_set1_epi64(1);
    for j in 0..V {
        let k = cm[j];
        acc[j] = _mm512_and_si512(_mm512_mask_add_epi64(acc[j], k, acc[j], one), mask);
    }
}

pub(crate) mod sums;

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::One;

    fn value(lanes: &[u64]) -> BigUint {
        lanes.iter().rev().fold(BigUint::from(0u8), |acc, &l| (acc << 52u32) + BigUint::from(l))
    }

    fn check_normalize(lanes: [u64; 16]) {
        let mut out = [0u64; 16];
        // SAFETY: the caller checked for an AVX-512 IFMA token; 16 words are read and written.
        unsafe {
            let mut v = [_mm512_setzero_si512(); 2];
            v[0] = _mm512_loadu_si512(lanes.as_ptr().cast());
            v[1] = _mm512_loadu_si512(lanes.as_ptr().add(8).cast());
            normalize::<2>(&mut v);
            _mm512_storeu_si512(out.as_mut_ptr().cast(), v[0]);
            _mm512_storeu_si512(out.as_mut_ptr().add(8).cast(), v[1]);
        }
        assert!(out.iter().all(|&d| d <= MASK52), "{out:x?}");
        assert_eq!(value(&out), value(&lanes), "{lanes:x?}");
    }

    #[test]
    fn normalize_resolves_every_carry_pattern() {
        if crate::arith::cpu::avx512_ifma_or_skip("normalisation").is_none() {
            return;
        }
        // Ripples through runs of all-ones digits, across the vector boundary too.
        let mut l = [MASK52; 16];
        l[15] = 0;
        l[0] = MASK52 + 1;
        check_normalize(l);
        let mut l = [MASK52; 16];
        l[15] = 0;
        l[3] = (1 << 60) + 7;
        check_normalize(l);
        let mut l = [0; 16];
        for (i, x) in l.iter_mut().enumerate().take(15) {
            *x = if i % 3 == 0 { MASK52 } else { (1u64 << 59) | i as u64 };
        }
        check_normalize(l);
        // Pseudo-random lanes below 2^60.
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..2000 {
            let mut l = [0; 16];
            for x in l.iter_mut().take(15) {
                s ^= s << 13;
                s ^= s >> 7;
                s ^= s << 17;
                *x = match s % 4 {
                    0 => MASK52,
                    1 => s >> 4,
                    2 => s & MASK52,
                    _ => (s >> 12) | 1 << 52,
                };
            }
            check_normalize(l);
        }
    }

    /// Across 64-lane words of the carry masks (V > 8): 20 vectors of all-ones digits
    /// with one overflowing lane ripple through every word boundary.
    #[test]
    fn normalize_carries_across_mask_words() {
        if crate::arith::cpu::avx512_ifma_or_skip("normalisation").is_none() {
            return;
        }
        const V: usize = 20;
        let mut s = 0x2545_f491_4f6c_dd1du64;
        for case in 0..200 {
            let mut lanes = [MASK52; 8 * V];
            lanes[8 * V - 1] = 0;
            if case > 0 {
                for x in lanes.iter_mut().take(8 * V - 1) {
                    s ^= s << 13;
                    s ^= s >> 7;
                    s ^= s << 17;
                    *x = match s % 5 {
                        0 | 1 => MASK52,
                        2 => s >> 1,
                        3 => s & MASK52,
                        _ => (s >> 12) | 1 << 52,
                    };
                }
            } else {
                lanes[0] = MASK52 + 1;
            }
            let mut out = [0u64; 8 * V];
            // SAFETY: the IFMA token was checked; 8V words are read and written.
            unsafe {
                let mut v = [_mm512_setzero_si512(); V];
                for (j, x) in v.iter_mut().enumerate() {
                    *x = _mm512_loadu_si512(lanes.as_ptr().add(8 * j).cast());
                }
                normalize::<V>(&mut v);
                for (j, x) in v.iter().enumerate() {
                    _mm512_storeu_si512(out.as_mut_ptr().add(8 * j).cast(), *x);
                }
            }
            assert!(out.iter().all(|&d| d <= MASK52), "case {case}");
            assert_eq!(value(&out), value(&lanes), "case {case}");
        }
    }

    #[test]
    fn amm_at_the_top_of_its_range() {
        let Some(cpu) = crate::arith::cpu::avx512_ifma_or_skip("AMM") else { return };
        for bits in [64u64, 500, 512, 1024, 2047, 2048, 3072, 4095, 4096, 4160, 4200, 6144, 8192, 16384, 32768] {
            for m in [(BigUint::one() << bits) - 1u32, (BigUint::one() << (bits - 1)) + 1u32] {
                let n = bits.div_ceil(64) as usize;
                let p = IfmaParams::new(cpu, &m, n, Timing::ConstantTime).unwrap();
                let r1 = BigUint::one() << (52 * p.k);
                let r1_inv = r1.modinv(&m).unwrap();
                // Largest allowed inputs: 4m - 1 (R' >= 16m), then 2m - 1 and m.
                let top = &m * 4u32 - 1u32;
                for (a, b) in [
                    (top.clone(), top.clone()),
                    (top.clone(), BigUint::one()),
                    (&m * 2u32 - 1u32, m.clone()),
                    (m.clone() - 1u32, BigUint::one()),
                ] {
                    let digits = |x: &BigUint| {
                        let mut d = vec![0; p.width()];
                        limbs_to_digits52(&mut d, &to_limbs(x, n + 1).unwrap(), p.k);
                        d
                    };
                    let mut out = vec![0; p.width()];
                    amm(&p, &mut out, &digits(&a), &digits(&b));
                    assert!(out.iter().all(|&d| d <= MASK52));
                    let got = value(&out);
                    assert!(got < &m * 2u32, "bits {bits}");
                    assert_eq!(got % &m, &a * &b * &r1_inv % &m, "bits {bits}");
                    // amm2 gives each of its two products exactly what amm gives.
                    let (mut o1, mut o2) = (vec![0; p.width()], vec![0; p.width()]);
                    amm2(&p, &mut o1, &digits(&a), &digits(&b), &mut o2, &digits(&b), &digits(&b));
                    let mut want2 = vec![0; p.width()];
                    amm(&p, &mut want2, &digits(&b), &digits(&b));
                    assert_eq!((o1, o2), (out, want2), "bits {bits}");
                }
            }
        }
    }
}
