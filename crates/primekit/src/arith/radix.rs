//! Digits of a limb number in radix 2^w for w <= 52: the lane backends hold numbers as
//! 52-bit digits (IFMA multiplies 52 x 52 bits) and the residue kernel reads 50-bit
//! digits. One extraction and one assembly routine serve them all.
//!
//! Timing: indices depend only on the digit position and the public slice lengths.

use super::limbs::Limb;

/// Mask of a 52-bit digit.
pub(crate) const MASK52: u64 = (1 << 52) - 1;

/// Digit `j` (bits `w j .. w j + w - 1`) of the little-endian number `n`, `1 <= w <= 52`;
/// bits beyond `n` read as zero.
#[inline]
pub(crate) fn digit(n: &[Limb], w: usize, j: usize) -> u64 {
    debug_assert!((1..=52).contains(&w));
    let (i, s) = (w * j / 64, w * j % 64);
    let lo = n.get(i).copied().unwrap_or(0) >> s;
    let hi = if s + w > 64 { n.get(i + 1).copied().unwrap_or(0) << (64 - s) } else { 0 };
    (lo | hi) & ((1u64 << w) - 1)
}

/// `d[j] = digit(a, 52, j)` for `j < k`, and zero for the rest of `d`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86_64 vector backends
pub(crate) fn limbs_to_digits52(d: &mut [u64], a: &[Limb], k: usize) {
    for (j, dj) in d.iter_mut().enumerate() {
        *dj = if j < k { digit(a, 52, j) } else { 0 };
    }
}

/// `a` (all of its limbs) = the number whose 52-bit digits are `d[..k]`; digits must be
/// below 2^52 and the value must fit in `a`.
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))] // used by the x86_64 vector backends
pub(crate) fn digits52_to_limbs(a: &mut [Limb], d: &[u64], k: usize) {
    a.fill(0);
    for (j, &dj) in d.iter().enumerate().take(k) {
        let (i, s) = (52 * j / 64, 52 * j % 64);
        if i < a.len() {
            a[i] |= dj << s;
        }
        if s > 12 && i + 1 < a.len() {
            a[i + 1] |= dj >> (64 - s);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::limbs::{from_limbs, to_limbs};
    use num_bigint::BigUint;

    #[test]
    fn digits_round_trip_and_match_shifts() {
        let x = BigUint::parse_bytes(b"f123456789abcdef0123456789abcdef0123456789abcdef77", 16).unwrap();
        let limbs = to_limbs(&x, 4).unwrap();
        for w in [50usize, 52] {
            for j in 0..6 {
                let want = (&x >> (w * j)) & BigUint::from((1u64 << w) - 1);
                assert_eq!(BigUint::from(digit(&limbs, w, j)), want, "w={w} j={j}");
            }
        }
        let k = 5;
        let mut d = vec![7; 8];
        limbs_to_digits52(&mut d, &limbs, k);
        assert!(d[k..].iter().all(|&v| v == 0));
        let mut back = vec![0; 4];
        digits52_to_limbs(&mut back, &d, k);
        assert_eq!(from_limbs(&back), x);
    }
}
