//! One multi-limb number modulo many small moduli (each < 2^50), eight moduli per
//! AVX-512 IFMA instruction, with no division.
//!
//! Why: a prime search sieves each fresh start with hundreds of thousands of small
//! primes; a hardware division per limb per prime group dominated that (issue 6). Here
//! each lane runs Horner's rule over 50-bit digits of n in Montgomery style:
//! s <- REDC(s * C) + d with C = 2^102 mod M and REDC(x) = x 2^-52 mod M, so each step
//! multiplies s by 2^50 modulo M with four multiply-adds and no division. Invariants:
//! s < 2^52 on entry (so IFMA sees all of it); REDC(s C) < (2^52 M + 2^52 M) / 2^52 = 2M;
//! adding a digit < 2^50 keeps s < 2M + 2^50 < 2^52 since M < 2^50.
//!
//! Timing depends only on the number of limbs and of moduli (the values are a sieve's
//! public-timing input anyway, see `gen`). The portable kernel [`residues_portable`] has
//! the same contract and is the fallback off IFMA.

use super::ifma::{has_ifma, LANES, MASK52};

#[cfg(target_arch = "x86_64")]
use core::arch::x86_64::*;

/// Largest modulus accepted (exclusive).
pub const MAX_MODULUS: u64 = 1 << 50;

/// Per-modulus constants, padded to whole groups of eight lanes (padding repeats a valid
/// modulus).
#[derive(Clone, Debug)]
pub struct ModTable {
    len: usize,
    m: Vec<u64>,
    minv: Vec<u64>,
    c: Vec<u64>,
}

/// -m^{-1} mod 2^52 for odd m by Newton iteration.
fn neg_inv52(m: u64) -> u64 {
    let mut inv = m;
    for _ in 0..6 {
        inv = inv.wrapping_mul(2u64.wrapping_sub(m.wrapping_mul(inv)));
    }
    inv.wrapping_neg() & MASK52
}

impl ModTable {
    /// Constants for `moduli`, each odd, >= 3 and < [`MAX_MODULUS`]; `None` otherwise.
    pub fn new(moduli: &[u64]) -> Option<Self> {
        if moduli.iter().any(|&m| m % 2 == 0 || m < 3 || m >= MAX_MODULUS) {
            return None;
        }
        let padded = moduli.len().div_ceil(LANES) * LANES;
        let m: Vec<u64> = (0..padded).map(|k| moduli.get(k).copied().unwrap_or(3)).collect();
        let minv = m.iter().map(|&x| neg_inv52(x)).collect();
        let c = m.iter().map(|&x| ((1u128 << 102) % x as u128) as u64).collect();
        Some(ModTable { len: moduli.len(), m, minv, c })
    }

    /// Number of moduli.
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there are no moduli.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `out[k] = s_k` with s_k = n (mod M_k) and s_k < 2^52 (NOT fully reduced) for
    /// little-endian limbs `n`, for the first `count` moduli (rounded up to a multiple of
    /// eight, at most all); `out` is cleared first.
    pub fn residues(&self, n: &[u64], count: usize, out: &mut Vec<u64>) {
        let groups = count.min(self.len).div_ceil(LANES);
        out.clear();
        out.resize(groups * LANES, 0);
        let digits = digits50(n);
        #[cfg(target_arch = "x86_64")]
        if has_ifma() {
            // SAFETY: has_ifma() checked AVX-512F + IFMA; every slice holds groups * 8.
            unsafe { residues_ifma(&digits, &self.m, &self.minv, &self.c, groups, out) };
            return;
        }
        let _ = has_ifma;
        residues_portable(&digits, &self.m[..groups * LANES], &self.minv, &self.c, out);
    }
}

/// 50-bit digits of n, most significant first (at least one digit).
fn digits50(n: &[u64]) -> Vec<u64> {
    let bits = n.len() * 64;
    let count = bits.div_ceil(50).max(1);
    let bit = |i: usize| -> u64 {
        let (w, off) = (i / 64, i % 64);
        let lo = n.get(w).copied().unwrap_or(0) >> off;
        let hi = if off > 14 { n.get(w + 1).copied().unwrap_or(0) << (64 - off) } else { 0 };
        (lo | hi) & ((1 << 50) - 1)
    };
    (0..count).rev().map(|k| bit(50 * k)).collect()
}

/// The same Horner steps one modulus at a time with u128 arithmetic (the portable kernel
/// and the IFMA one's oracle in tests).
pub fn residues_portable(digits: &[u64], m: &[u64], minv: &[u64], c: &[u64], out: &mut [u64]) {
    for k in 0..m.len() {
        let mut s = digits[0];
        for &d in &digits[1..] {
            let x = s as u128 * c[k] as u128;
            let lo = (x as u64) & MASK52;
            let q = lo.wrapping_mul(minv[k]) & MASK52;
            s = (((x + q as u128 * m[k] as u128) >> 52) as u64) + d;
        }
        out[k] = s;
    }
}

/// # Safety
/// The CPU must support AVX-512F and IFMA; `m`, `minv`, `c` and `out` hold at least
/// `groups * 8` entries.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512ifma")]
unsafe fn residues_ifma(digits: &[u64], m: &[u64], minv: &[u64], c: &[u64], groups: usize, out: &mut [u64]) {
    assert!(m.len() >= groups * LANES && minv.len() >= groups * LANES && c.len() >= groups * LANES && out.len() >= groups * LANES);
    let zero = _mm512_setzero_si512();
    let one = _mm512_set1_epi64(1);
    // SAFETY (all loads/stores below): index g * 8 + 8 <= groups * 8 <= each length.
    let ld = |v: &[u64], g: usize| unsafe { _mm512_loadu_si512(v.as_ptr().add(g * LANES) as *const _) };
    // Two groups at a time so that two independent dependency chains interleave.
    let mut g = 0;
    while g < groups {
        let pair = g + 1 < groups;
        let h = if pair { g + 1 } else { g };
        let (ma, mb) = (ld(m, g), ld(m, h));
        let (ia, ib) = (ld(minv, g), ld(minv, h));
        let (ca, cb) = (ld(c, g), ld(c, h));
        let mut sa = _mm512_set1_epi64(digits[0] as i64);
        let mut sb = sa;
        for &d in &digits[1..] {
            let dv = _mm512_set1_epi64(d as i64);
            let loa = _mm512_madd52lo_epu64(zero, sa, ca);
            let lob = _mm512_madd52lo_epu64(zero, sb, cb);
            let hia = _mm512_madd52hi_epu64(dv, sa, ca);
            let hib = _mm512_madd52hi_epu64(dv, sb, cb);
            let qa = _mm512_madd52lo_epu64(zero, loa, ia);
            let qb = _mm512_madd52lo_epu64(zero, lob, ib);
            sa = _mm512_madd52hi_epu64(hia, qa, ma);
            sb = _mm512_madd52hi_epu64(hib, qb, mb);
            // lo + low52(q m) = 0 (mod 2^52) with both < 2^52: the sum carries exactly
            // when lo != 0.
            sa = _mm512_mask_add_epi64(sa, _mm512_test_epi64_mask(loa, loa), sa, one);
            sb = _mm512_mask_add_epi64(sb, _mm512_test_epi64_mask(lob, lob), sb, one);
        }
        // SAFETY: as for the loads, out holds groups * 8 entries.
        unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(g * LANES) as *mut _, sa) };
        if pair {
            // SAFETY: as above.
            unsafe { _mm512_storeu_si512(out.as_mut_ptr().add(h * LANES) as *mut _, sb) };
        }
        g += if pair { 2 } else { 1 };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    #[test]
    fn residues_match_biguint() {
        let moduli: Vec<u64> = (0..37u64).map(|k| ((MAX_MODULUS - 1) - 2 * k * 1_000_003) | 1).chain([3, 5, 7, 1 << 25 | 1, 999_999_999_989]).collect();
        let t = ModTable::new(&moduli).unwrap();
        for n in [
            BigUint::from(0u8),
            BigUint::from(12345u32),
            (BigUint::from(1u8) << 1024u32) - 1u8,
            (BigUint::from(3u8) << 2046u32) - 12345u32,
            (BigUint::from(1u8) << 50u32) + 7u8,
        ] {
            let limbs = n.to_u64_digits();
            let mut out = Vec::new();
            t.residues(&limbs, moduli.len(), &mut out);
            let mut port = vec![0; out.len()];
            residues_portable(&digits50(&limbs), &t.m[..out.len()], &t.minv, &t.c, &mut port);
            for (k, &m) in moduli.iter().enumerate() {
                assert!(out[k] < 1 << 52);
                let want = (&n % m).to_u64_digits().first().copied().unwrap_or(0);
                assert_eq!(out[k] % m, want, "ifma/portable dispatch, m={m} n={n}");
                assert_eq!(port[k] % m, want, "portable, m={m}");
            }
            // A prefix.
            t.residues(&limbs, 9, &mut out);
            assert_eq!(out.len(), 16);
            assert_eq!(out[8] % moduli[8], (&n % moduli[8]).to_u64_digits().first().copied().unwrap_or(0));
        }
        assert!(ModTable::new(&[4]).is_none() && ModTable::new(&[MAX_MODULUS + 1]).is_none());
    }
}
