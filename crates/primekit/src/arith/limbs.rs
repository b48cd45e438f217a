//! Limb-slice helpers shared by every kernel.
//!
//! Numbers are little-endian slices of `u64` limbs. Unless a function's name ends in
//! `_vartime`, its running time and memory accesses depend only on the slice lengths,
//! never on the limb values.

use num_bigint::BigUint;

/// One machine word of a multi-precision number.
pub type Limb = u64;

/// Limbs of `x`, zero-padded (or `None` if it does not fit) to exactly `len` limbs.
///
/// The result is a fresh allocation of exactly `len` limbs, so not even its capacity
/// reveals how many limbs `x` really has (a secret for candidates).
pub fn to_limbs(x: &BigUint, len: usize) -> Option<Vec<Limb>> {
    let digits = x.to_u64_digits();
    if digits.len() > len {
        return None;
    }
    let mut v = vec![0; len];
    v[..digits.len()].copy_from_slice(&digits);
    Some(v)
}

/// The number whose little-endian limbs are `a`.
pub fn from_limbs(a: &[Limb]) -> BigUint {
    let mut bytes = Vec::with_capacity(a.len() * 8);
    for l in a {
        bytes.extend_from_slice(&l.to_le_bytes());
    }
    BigUint::from_bytes_le(&bytes)
}

/// `out = a - b` over equal lengths (checked); returns the final borrow (0 or 1).
/// Constant time (an `sbb` chain on x86_64, see `arith::carry`).
#[inline]
pub fn sub_into(out: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    super::carry::sub(out, a, b)
}

/// `a += b` over equal lengths (checked); returns the carry (0 or 1). Constant time.
#[inline]
pub fn add_assign(a: &mut [Limb], b: &[Limb]) -> Limb {
    super::carry::add_assign(a, b)
}

/// `a -= b` over equal lengths (checked); returns the borrow (0 or 1). Constant time.
#[inline]
pub fn sub_assign(a: &mut [Limb], b: &[Limb]) -> Limb {
    super::carry::sub_assign(a, b)
}

/// `a = a - b mod m` for reduced `a, b < m`. Variable time (branches on the borrow).
pub fn sub_mod_vartime(a: &mut [Limb], b: &[Limb], m: &[Limb]) {
    if sub_assign(a, b) != 0 {
        add_assign(a, m);
    }
}

/// `a = a + b mod m` for reduced `a, b < m`. Variable time (branches on the result).
pub fn add_mod_vartime(a: &mut [Limb], b: &[Limb], m: &[Limb]) {
    if add_assign(a, b) != 0 || !lt_vartime(a, m) {
        sub_assign(a, m);
    }
}

/// `out = if mask == !0 { a } else { b }` for `mask` in {0, !0}. Constant time.
#[inline]
pub fn select_into(out: &mut [Limb], a: &[Limb], b: &[Limb], mask: Limb) {
    debug_assert!(out.len() == a.len() && a.len() == b.len());
    for i in 0..out.len() {
        out[i] = (a[i] & mask) | (b[i] & !mask);
    }
}

/// `out = a * b` (schoolbook; `out.len() == a.len() + b.len()`, checked). Constant time:
/// the trip counts depend only on the lengths.
pub fn mul_into(out: &mut [Limb], a: &[Limb], b: &[Limb]) {
    assert_eq!(out.len(), a.len() + b.len());
    out.fill(0);
    for (i, &ai) in a.iter().enumerate() {
        let mut c: Limb = 0;
        for (j, &bj) in b.iter().enumerate() {
            // out + a b + c < 2^128.
            let s = (out[i + j] as u128) + (ai as u128) * (bj as u128) + (c as u128);
            out[i + j] = s as Limb;
            c = (s >> 64) as Limb;
        }
        out[i + b.len()] = c;
    }
}

/// `x >>= 1` over all of x (the bit shifted out is dropped). Constant time.
pub(crate) fn halve(x: &mut [Limb]) {
    let n = x.len();
    for i in 1..n {
        x[i - 1] = (x[i - 1] >> 1) | (x[i] << 63);
    }
    if let Some(top) = x.last_mut() {
        *top >>= 1;
    }
}

/// `!0` if `a == b` else 0. Constant time.
#[inline]
pub fn eq_mask(a: &[Limb], b: &[Limb]) -> Limb {
    debug_assert!(a.len() == b.len());
    let mut acc = 0u64;
    for i in 0..a.len() {
        acc |= a[i] ^ b[i];
    }
    zero_mask(acc)
}

/// All ones if `x == 0`, else 0, without a branch.
#[inline]
fn zero_mask(x: Limb) -> Limb {
    ((x | x.wrapping_neg()) >> 63).wrapping_sub(1)
}

/// Number of trailing zero bits of `a`, constant time (BearSSL-style contract):
/// - input: any limbs (the value is secret; the length is public);
/// - output: v2(a), the exponent of 2 in a, for `a != 0`, in [0, 64 len); `64 * a.len()`
///   for `a = 0`;
/// - time and memory accesses depend on `a.len()` only: every limb is read and each
///   contributes its own count masked by "all limbs below are zero", so nothing stops
///   at the first set bit (num-bigint's `trailing_zeros` does, and so reveals v2(a)).
pub fn trailing_zeros_ct(a: &[Limb]) -> usize {
    let mut count: Limb = 0;
    let mut below_all_zero: Limb = !0;
    for &x in a {
        // x & -x isolates the lowest set bit (0 for x = 0); one less has exactly tz(x)
        // ones, 64 for x = 0. black_box keeps LLVM from folding the population count back
        // into a `cttz` (a bit-scan instruction; `bsf` is undefined on 0, and its timing
        // is the CPU's, not this code's).
        let below_lowest = core::hint::black_box((x & x.wrapping_neg()).wrapping_sub(1));
        count += Limb::from(below_lowest.count_ones()) & below_all_zero;
        below_all_zero &= zero_mask(x);
    }
    count as usize
}

/// `x >>= s` over all of x (zeros shifted in), for a secret shift `s`, constant time
/// (BearSSL-style contract):
/// - input: any limbs `x` (secret value, public length n) and any `s` (secret);
/// - output: x = floor(x / 2^s) in n limbs (0 when s >= 64 n);
/// - time and memory accesses depend on n only: a logarithmic shifter over all limbs,
///   one stage per bit k of s below 2^k >= 64 n (ceil(log2(64 n)) stages), each computing
///   x >> 2^k at a public offset and keeping it or x by a mask of bit k; bits of s
///   beyond the stages zero the result by a mask. No index or branch follows s.
pub fn shr_ct(x: &mut [Limb], s: usize) {
    let n = x.len();
    let total_bits = 64 * n;
    let mut shifted = vec![0; n];
    let mut k = 0;
    while (1usize << k) < total_bits {
        let (limbs, bits) = ((1usize << k) / 64, (1usize << k) % 64);
        for (i, out) in shifted.iter_mut().enumerate() {
            let lo = x.get(i + limbs).copied().unwrap_or(0);
            *out = if bits == 0 {
                lo
            } else {
                let hi = x.get(i + limbs + 1).copied().unwrap_or(0);
                (lo >> bits) | (hi << (64 - bits))
            };
        }
        let take = core::hint::black_box(((s >> k) as Limb & 1).wrapping_neg());
        for (xi, &si) in x.iter_mut().zip(&shifted) {
            *xi = (si & take) | (*xi & !take);
        }
        k += 1;
    }
    // s >= 2^k >= 64 n: every bit is shifted out. black_box on the mask itself: LLVM
    // otherwise unswitches the loop below into a branch on it.
    let keep = core::hint::black_box(zero_mask((s >> k) as Limb));
    for xi in x.iter_mut() {
        *xi &= keep;
    }
}

/// `a < b` as numbers of equal length; time depends on the values.
pub fn lt_vartime(a: &[Limb], b: &[Limb]) -> bool {
    debug_assert!(a.len() == b.len());
    for i in (0..a.len()).rev() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
    }
    false
}

/// Number of significant bits of `a` (0 for zero); time depends on the value.
pub fn bit_len_vartime(a: &[Limb]) -> usize {
    for i in (0..a.len()).rev() {
        if a[i] != 0 {
            return 64 * i + 64 - a[i].leading_zeros() as usize;
        }
    }
    0
}

/// Bit `i` of `a` (0 beyond the end).
#[inline]
pub fn bit(a: &[Limb], i: usize) -> u64 {
    match a.get(i / 64) {
        Some(l) => (l >> (i % 64)) & 1,
        None => 0,
    }
}

/// `n^{-1} mod 2^64` for odd `n`, by Newton iteration: x <- x (2 - n x) doubles the
/// number of correct low bits, and x = n is correct to 3 bits (n^2 = 1 mod 8), so five
/// steps give 96 >= 64. Every Montgomery constant of the crate derives from this one
/// routine: reducing the result mod 2^w gives the inverse mod 2^w for any w <= 64.
pub const fn inv_mod_word(n: Limb) -> Limb {
    let mut x = n;
    let mut i = 0;
    while i < 5 {
        x = x.wrapping_mul(2u64.wrapping_sub(n.wrapping_mul(x)));
        i += 1;
    }
    x
}

/// `-n^{-1} mod 2^64` for odd `n` (the Montgomery constant of radix 2^64).
pub const fn neg_inv_mod_word(n: Limb) -> Limb {
    inv_mod_word(n).wrapping_neg()
}

/// `-n^{-1} mod 2^52` for odd `n` (the Montgomery constant of radix 2^52).
pub const fn neg_inv_mod_2_52(n: Limb) -> Limb {
    neg_inv_mod_word(n) & ((1 << 52) - 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mul_into_matches_num_bigint() {
        let vals: [&[Limb]; 5] = [&[0], &[!0], &[!0, !0, !0], &[1, 0, 1 << 63], &[0x1234_5678_9abc_def1, !0]];
        for a in vals {
            for b in vals {
                let mut out = vec![7; a.len() + b.len()];
                mul_into(&mut out, a, b);
                assert_eq!(from_limbs(&out), from_limbs(a) * from_limbs(b), "{a:x?} * {b:x?}");
            }
        }
    }

    #[test]
    fn halve_matches_num_bigint() {
        for x in [vec![], vec![1u64], vec![0, 1], vec![!0, !0, 3], vec![0x8000_0000_0000_0001, 0, 1 << 63]] {
            let mut y = x.clone();
            halve(&mut y);
            assert_eq!(from_limbs(&y), from_limbs(&x) >> 1u32);
        }
    }

    #[test]
    fn neg_inv_is_inverse() {
        for n0 in [1u64, 3, 5, 0xffff_ffff_ffff_ffff, 0x1234_5678_9abc_def1] {
            assert_eq!(n0.wrapping_mul(neg_inv_mod_word(n0)), u64::MAX);
            assert_eq!(n0.wrapping_mul(inv_mod_word(n0)), 1);
            assert_eq!(n0.wrapping_mul(neg_inv_mod_2_52(n0)) & ((1 << 52) - 1), (1 << 52) - 1);
        }
    }

    /// Random limbs with runs of zero limbs and zero low bits, so that v2 ranges over
    /// whole limbs: the low `zero_bits` bits cleared (up to several limbs), and the
    /// value itself zero now and then.
    fn sparse_low(rng: &mut impl rand::Rng, len: usize) -> Vec<Limb> {
        let mut x: Vec<Limb> = (0..len).map(|_| rng.gen()).collect();
        let zero_bits = match rng.gen_range(0..4) {
            0 => rng.gen_range(0..64),
            1 => rng.gen_range(0..=64 * len),
            _ => rng.gen_range(0..3),
        };
        for b in 0..zero_bits {
            x[b / 64] &= !(1 << (b % 64));
        }
        x
    }

    /// v2 against num-bigint's `trailing_zeros` (None for zero: 64 len here), on 20,000
    /// random inputs of 1 to 40 limbs, many with long runs of low zeros.
    #[test]
    fn trailing_zeros_ct_matches_num_bigint() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(21);
        let mut longest = 0;
        for _ in 0..20_000 {
            let len = rng.gen_range(1..=40);
            let x = sparse_low(&mut rng, len);
            let want = from_limbs(&x).trailing_zeros().map_or(64 * len, |t| t as usize);
            assert_eq!(trailing_zeros_ct(&x), want, "{x:x?}");
            longest = longest.max(want);
        }
        assert!(longest >= 64 * 10, "some inputs had many zero limbs: {longest}");
        assert_eq!(trailing_zeros_ct(&[0, 0, 0]), 192);
        assert_eq!(trailing_zeros_ct(&[0, 1 << 63]), 127);
        assert_eq!(trailing_zeros_ct(&[1 << 5, 0]), 5);
    }

    /// x >> s against num-bigint's shift for s from 0 past 64 len, including s = v2(x)
    /// (the odd part, as Miller-Rabin uses it) on inputs with many zero limbs.
    #[test]
    fn shr_ct_matches_num_bigint() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(22);
        for _ in 0..20_000 {
            let len = rng.gen_range(1..=40);
            let x = sparse_low(&mut rng, len);
            let v2 = trailing_zeros_ct(&x);
            for s in [v2, rng.gen_range(0..64 * len), rng.gen_range(0..64 * len + 200), 64 * len - 1, 64 * len] {
                let mut y = x.clone();
                shr_ct(&mut y, s);
                assert_eq!(from_limbs(&y), from_limbs(&x) >> s, "{x:x?} >> {s}");
                if s == v2 && v2 < 64 * len {
                    assert_eq!(y[0] & 1, 1, "the odd part is odd");
                }
            }
        }
        let mut big = vec![!0; 3];
        shr_ct(&mut big, usize::MAX >> 1);
        assert_eq!(big, [0, 0, 0]);
    }

    #[test]
    fn eq_mask_works() {
        assert_eq!(eq_mask(&[1, 2], &[1, 2]), !0);
        assert_eq!(eq_mask(&[1, 2], &[1, 3]), 0);
        assert_eq!(eq_mask(&[0, 0], &[1 << 63, 0]), 0);
    }

    #[test]
    fn limbs_round_trip() {
        let x = BigUint::parse_bytes(b"123456789abcdef0123456789abcdef01", 16).unwrap();
        let l = to_limbs(&x, 4).unwrap();
        assert_eq!(from_limbs(&l), x);
        assert!(to_limbs(&x, 2).is_none());
        assert_eq!(bit_len_vartime(&l), x.bits() as usize);
    }
}
