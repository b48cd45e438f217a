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
    // acc == 0 -> all ones; otherwise 0, without a branch.
    ((acc | acc.wrapping_neg()) >> 63).wrapping_sub(1)
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
