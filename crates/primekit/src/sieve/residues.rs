//! Residues of one multi-limb number modulo many small primes, the start of every
//! sieve window.
//!
//! Where the CPU has a vector residue backend ([`ResidueTable::accelerated`]), primes of
//! the static lists are paired (product < 2^50) and the number is reduced modulo several
//! pairs per instruction without division; each prime's residue is then one `%`.
//! Otherwise primes are packed into groups whose product fits in a `u64`
//! ([`super::groups`]); one pass of word divisions over the limbs gives the number modulo
//! each product (four products per pass, so the independent divisions overlap), then
//! each prime's residue is one more `%`.

use super::groups::word_groups;
use super::primes::{odd_primes_below_2_22, odd_primes_below_2_26};
use super::small_primes::SMALL_ODD_PRIMES;
use crate::arith::limbs::Limb;
use crate::arith::residues::{ResidueTable, MAX_MODULUS};
use crate::arith::word::rem_limbs_many;
use std::sync::OnceLock;

/// Consecutive primes of one static list paired while their product stays below 2^50,
/// with the residue kernel's constants of the pair products.
pub(super) struct PairTable {
    pub(super) table: ResidueTable,
    /// Pair k holds primes [first[k], first[k + 1]) of the list.
    pub(super) first: Vec<u32>,
    /// The pair products (a lone prime where the next one would overflow).
    pub(super) products: Vec<u64>,
}

impl PairTable {
    /// `None` when the process kernel has no vector residue backend.
    fn new(list: &[u32]) -> Option<Self> {
        let mut first = Vec::with_capacity(list.len() / 2 + 2);
        let mut moduli = Vec::with_capacity(list.len() / 2 + 1);
        let mut i = 0;
        while i < list.len() {
            first.push(i as u32);
            let a = list[i] as u64;
            match list.get(i + 1).map(|&b| a * b as u64) {
                Some(prod) if prod < MAX_MODULUS => {
                    moduli.push(prod);
                    i += 2;
                }
                _ => {
                    moduli.push(a);
                    i += 1;
                }
            }
        }
        first.push(list.len() as u32);
        Some(PairTable { table: ResidueTable::accelerated(&moduli)?, first, products: moduli })
    }
}

/// The pair table of the static list `primes` is a prefix of, if any (built on first use).
pub(super) fn pair_table(primes: &[u32]) -> Option<&'static PairTable> {
    static SMALL: OnceLock<Option<PairTable>> = OnceLock::new();
    static P22: OnceLock<Option<PairTable>> = OnceLock::new();
    static P26: OnceLock<Option<PairTable>> = OnceLock::new();
    let p = primes.as_ptr();
    if p == SMALL_ODD_PRIMES.as_ptr() && primes.len() <= SMALL_ODD_PRIMES.len() {
        SMALL.get_or_init(|| PairTable::new(&SMALL_ODD_PRIMES)).as_ref()
    } else if p == odd_primes_below_2_22().as_ptr() && primes.len() <= odd_primes_below_2_22().len() {
        P22.get_or_init(|| PairTable::new(odd_primes_below_2_22())).as_ref()
    } else if p == odd_primes_below_2_26().as_ptr() && primes.len() <= odd_primes_below_2_26().len() {
        P26.get_or_init(|| PairTable::new(odd_primes_below_2_26())).as_ref()
    } else {
        None
    }
}

/// `out[j] = n mod primes[j]` for little-endian limbs `n`. Variable time in nothing but
/// the lengths (hardware division latency aside, see `arith::word`).
pub fn residues(n: &[Limb], primes: &[u32], out: &mut Vec<u32>) {
    if primes.len() >= 64 {
        if let Some(t) = pair_table(primes) {
            out.clear();
            out.reserve(primes.len());
            let pairs = t.first.partition_point(|&f| (f as usize) < primes.len());
            let mut s = Vec::new();
            t.table.residues(n, pairs, &mut s);
            for (k, &sk) in s.iter().enumerate().take(pairs) {
                let end = (t.first[k + 1] as usize).min(primes.len());
                for &p in &primes[t.first[k] as usize..end] {
                    out.push((sk % p as u64) as u32);
                }
            }
            return;
        }
    }
    residues_by_division(n, primes, out);
}

/// [`residues`] by word divisions (any primes, any CPU).
pub fn residues_by_division(n: &[Limb], primes: &[u32], out: &mut Vec<u32>) {
    out.clear();
    out.reserve(primes.len());
    let groups = word_groups(primes);
    let mut chunks = groups.chunks_exact(4);
    for c in &mut chunks {
        let rems = rem_limbs_many(n, &[c[0].product, c[1].product, c[2].product, c[3].product]);
        for k in 0..4 {
            for &p in &primes[c[k].range.clone()] {
                out.push((rems[k] % p as u64) as u32);
            }
        }
    }
    for g in chunks.remainder() {
        let [rem] = rem_limbs_many(n, &[g.product]);
        for &p in &primes[g.range.clone()] {
            out.push((rem % p as u64) as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sieve::primes::first_odd_primes;
    use num_bigint::BigUint;

    #[test]
    fn residues_match_biguint() {
        let n = (BigUint::from(1u8) << 1000u32) - 12345u32;
        // Prefixes of each static list (paired vector path when present), and a slice that
        // is no prefix (division path).
        for primes in
            [first_odd_primes(30_000), first_odd_primes(30_001), first_odd_primes(9999), first_odd_primes(777), &first_odd_primes(800)[1..]]
        {
            let mut out = Vec::new();
            residues(&n.to_u64_digits(), primes, &mut out);
            assert_eq!(out.len(), primes.len());
            for (j, &p) in primes.iter().enumerate() {
                if j % 97 == 0 || j + 3 > primes.len() {
                    assert_eq!(out[j] as u64, (&n % p).iter_u64_digits().next().unwrap_or(0), "p={p}");
                }
            }
            let mut div = Vec::new();
            residues_by_division(&n.to_u64_digits(), primes, &mut div);
            assert_eq!(out, div);
        }
    }
}
