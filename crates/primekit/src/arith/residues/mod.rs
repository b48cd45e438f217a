//! One multi-limb number modulo many small moduli (each < 2^50) with no division, eight
//! moduli per instruction on the AVX-512 IFMA backend.
//!
//! Why: a prime search sieves each fresh start with hundreds of thousands of small
//! primes; a hardware division per limb per prime group dominated that. Here
//! each lane runs Horner's rule over 50-bit digits of n in Montgomery style:
//! s <- REDC(s * C) + d with C = 2^102 mod M and REDC(x) = x 2^-52 mod M, so each step
//! multiplies s by 2^50 modulo M with four multiply-adds and no division. Invariants:
//! s < 2^52 on entry (so IFMA sees all of it); REDC(s C) < (2^52 M + 2^52 M) / 2^52 = 2M;
//! adding a digit < 2^50 keeps s < 2M + 2^50 < 2^52 since M < 2^50.
//!
//! Timing depends only on the number of limbs and of moduli (the values are a sieve's
//! public-timing input anyway, see `gen`). The portable kernel [`residues_portable`] has
//! the same contract; it is the IFMA kernel's oracle. Without a vector backend, word
//! division by products of several moduli ([`crate::arith::word`]) is faster than it, so
//! [`ResidueTable::accelerated`] offers a table only where a vector backend runs.

#[cfg(target_arch = "x86_64")]
mod ifma;
mod pair_tests;

pub use pair_tests::PairTests;

use super::cpu::Tokens;
use super::limbs::{neg_inv_mod_2_52, Limb};
use super::radix::{digit, MASK52};

/// Largest modulus accepted (exclusive).
pub const MAX_MODULUS: u64 = 1 << 50;

/// Moduli handled per group (the IFMA backend's lane count; padding repeats a valid
/// modulus).
const GROUP: usize = 8;

/// Per-modulus constants of the Horner steps, padded to whole groups.
#[derive(Clone, Debug)]
pub struct ResidueTable {
    len: usize,
    m: Vec<u64>,
    minv: Vec<u64>,
    c: Vec<u64>,
    /// The vector backend, when this table runs on one.
    #[cfg(target_arch = "x86_64")]
    ifma: Option<super::cpu::Avx512Ifma>,
}

impl ResidueTable {
    /// Constants for `moduli`, each odd, >= 3 and < [`MAX_MODULUS`], run by the portable
    /// kernel; `None` for any other modulus. Without a vector backend only tests build
    /// one (as the oracle): production sieves use word division there.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub fn new(moduli: &[u64]) -> Option<Self> {
        if moduli.iter().any(|&m| m % 2 == 0 || !(3..MAX_MODULUS).contains(&m)) {
            return None;
        }
        let padded = moduli.len().div_ceil(GROUP) * GROUP;
        let m: Vec<u64> = (0..padded).map(|k| moduli.get(k).copied().unwrap_or(3)).collect();
        let minv = m.iter().map(|&x| neg_inv_mod_2_52(x)).collect();
        let c = m.iter().map(|&x| ((1u128 << 102) % x as u128) as u64).collect();
        Some(ResidueTable {
            len: moduli.len(),
            m,
            minv,
            c,
            #[cfg(target_arch = "x86_64")]
            ifma: None,
        })
    }

    /// [`Self::new`] on the process kernel's vector backend; `None` when it has none
    /// (word division is faster there) or a modulus is out of range.
    pub fn accelerated(moduli: &[u64]) -> Option<Self> {
        let cpu = Tokens::selected().ok()?;
        #[cfg(target_arch = "x86_64")]
        if let Some(t) = cpu.ifma() {
            return Self::new(moduli).map(|table| ResidueTable { ifma: Some(t), ..table });
        }
        let _ = (cpu, moduli);
        None
    }

    /// `out[k] = s_k` with s_k = n (mod M_k) and s_k < 2^52 (NOT fully reduced) for
    /// little-endian limbs `n`, for the first `count` moduli (rounded up to a multiple of
    /// eight, at most all); `out` is cleared first.
    pub fn residues(&self, n: &[Limb], count: usize, out: &mut Vec<u64>) {
        let groups = count.min(self.len).div_ceil(GROUP);
        out.clear();
        out.resize(groups * GROUP, 0);
        let digits = digits50(n);
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = self.ifma {
            ifma::residues(cpu, &digits, &self.m, &self.minv, &self.c, groups, out);
            return;
        }
        residues_portable(&digits, &self.m[..groups * GROUP], &self.minv, &self.c, out);
    }
}

/// 50-bit digits of n, most significant first (at least one digit).
fn digits50(n: &[Limb]) -> Vec<u64> {
    let count = (n.len() * 64).div_ceil(50).max(1);
    (0..count).rev().map(|k| digit(n, 50, k)).collect()
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

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    #[test]
    fn residues_match_biguint() {
        let moduli: Vec<u64> =
            (0..37u64).map(|k| ((MAX_MODULUS - 1) - 2 * k * 1_000_003) | 1).chain([3, 5, 7, 1 << 25 | 1, 999_999_999_989]).collect();
        let tables = [ResidueTable::new(&moduli), ResidueTable::accelerated(&moduli)];
        for t in tables.iter().flatten() {
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
        }
        assert!(ResidueTable::new(&[4]).is_none() && ResidueTable::new(&[MAX_MODULUS + 1]).is_none());
    }
}
