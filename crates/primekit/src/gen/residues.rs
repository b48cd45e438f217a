//! Residues of one multi-limb number modulo many small primes, and the small-prime lists
//! the sieves use.
//!
//! With AVX-512 IFMA, primes of the static lists are paired (product < 2^50) and the
//! number is reduced modulo eight pairs per instruction without division
//! ([`ModTable`]); each prime's residue is then one `%`. Otherwise primes are packed into
//! groups whose product fits in a `u64`; one pass of word divisions over the limbs gives
//! the number modulo each product (four products per pass, so the independent divisions
//! overlap), then each prime's residue is one more `%`.

use crate::arith::ifma::has_ifma;
use crate::arith::ifma_residues::{ModTable, MAX_MODULUS};
use crate::arith::limbs::Limb;
use crate::arith::word::rem_limbs_many;
use crate::sieve::small_primes::SMALL_ODD_PRIMES;
use std::sync::OnceLock;

/// The odd primes below `2^22` (295 946 of them), built once per process by a sieve of
/// Eratosthenes; the first 9999 equal [`SMALL_ODD_PRIMES`].
pub fn odd_primes_below_2_22() -> &'static [u32] {
    static P: OnceLock<Vec<u32>> = OnceLock::new();
    P.get_or_init(|| odd_primes_below(1 << 22))
}

/// The odd primes below `2^26` (3 957 808 of them, 16 MB), built on first use only by
/// the largest safe-prime sizes.
pub fn odd_primes_below_2_26() -> &'static [u32] {
    static P: OnceLock<Vec<u32>> = OnceLock::new();
    P.get_or_init(|| odd_primes_below(1 << 26))
}

/// The first `count` odd primes (at most all odd primes below 2^26).
pub fn first_odd_primes(count: usize) -> &'static [u32] {
    if count <= SMALL_ODD_PRIMES.len() {
        &SMALL_ODD_PRIMES[..count]
    } else if count <= odd_primes_below_2_22().len() {
        &odd_primes_below_2_22()[..count]
    } else {
        let all = odd_primes_below_2_26();
        &all[..count.min(all.len())]
    }
}

/// The odd primes below `limit` (<= 2^32), by a segmented sieve of Eratosthenes over
/// the odd numbers: one byte per odd number in segments that stay in the L2 cache (the
/// plain sieve over a 32 MB array took 121 ms for 2^26, the segmented one ~4x less:
/// `examples/prime_list_speed`), each base prime keeping the index of its next multiple.
fn odd_primes_below(limit: usize) -> Vec<u32> {
    // Base primes: the odd primes up to sqrt(limit), by the plain sieve.
    let root = (limit as f64).sqrt() as usize + 2;
    let half_root = root / 2 + 1;
    let mut small = vec![false; half_root];
    let mut base: Vec<usize> = Vec::new();
    for i in 1..half_root {
        if !small[i] {
            let p = 2 * i + 1;
            base.push(p);
            let mut j = p * p / 2;
            while j < half_root {
                small[j] = true;
                j += p;
            }
        }
    }
    // Index i stands for 2i + 1; the first multiple each prime strikes is p^2.
    let half = limit / 2;
    let mut next: Vec<usize> = base.iter().map(|&p| p * p / 2).collect();
    const SEGMENT: usize = 1 << 17;
    let mut seg = vec![false; SEGMENT];
    let mut out = Vec::with_capacity((limit as f64 / (limit as f64).ln() * 1.1) as usize);
    let mut lo = 1; // skip index 0 (the number 1)
    while lo < half {
        let hi = (lo + SEGMENT).min(half);
        let seg = &mut seg[..hi - lo];
        seg.fill(false);
        for (k, &p) in base.iter().enumerate() {
            let mut j = next[k];
            while j < hi {
                seg[j - lo] = true;
                j += p;
            }
            next[k] = j;
        }
        // Collect the unstruck bytes eight at a time (primes are sparse: most words are
        // all struck).
        let (words, tail) = seg.as_chunks::<8>();
        for (w, chunk) in words.iter().enumerate() {
            let struck = u64::from_le_bytes(chunk.map(u8::from));
            let mut free = (struck ^ 0x0101_0101_0101_0101) & 0x0101_0101_0101_0101;
            while free != 0 {
                let i = 8 * w + free.trailing_zeros() as usize / 8;
                out.push((2 * (lo + i) + 1) as u32);
                free &= free - 1;
            }
        }
        let done = 8 * words.len();
        out.extend(tail.iter().enumerate().filter(|&(_, &c)| !c).map(|(i, _)| (2 * (lo + done + i) + 1) as u32));
        lo = hi;
    }
    out
}

/// Consecutive primes of one static list paired while their product stays below 2^50,
/// with the IFMA constants of the pair products.
struct PairTable {
    table: ModTable,
    /// Pair k holds primes [first[k], first[k + 1]) of the list.
    first: Vec<u32>,
}

impl PairTable {
    fn new(list: &[u32]) -> Self {
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
        PairTable { table: ModTable::new(&moduli).expect("odd moduli below 2^50"), first }
    }
}

/// The pair table of the static list `primes` is a prefix of, if any (built on first use).
fn pair_table(primes: &[u32]) -> Option<&'static PairTable> {
    static SMALL: OnceLock<PairTable> = OnceLock::new();
    static P22: OnceLock<PairTable> = OnceLock::new();
    static P26: OnceLock<PairTable> = OnceLock::new();
    let p = primes.as_ptr();
    if p == SMALL_ODD_PRIMES.as_ptr() && primes.len() <= SMALL_ODD_PRIMES.len() {
        Some(SMALL.get_or_init(|| PairTable::new(&SMALL_ODD_PRIMES)))
    } else if p == odd_primes_below_2_22().as_ptr() && primes.len() <= odd_primes_below_2_22().len() {
        Some(P22.get_or_init(|| PairTable::new(odd_primes_below_2_22())))
    } else if p == odd_primes_below_2_26().as_ptr() && primes.len() <= odd_primes_below_2_26().len() {
        Some(P26.get_or_init(|| PairTable::new(odd_primes_below_2_26())))
    } else {
        None
    }
}

/// `out[j] = n mod primes[j]` for little-endian limbs `n`. Variable time in nothing but
/// the lengths (hardware division latency aside, see `arith::word`).
pub fn residues(n: &[Limb], primes: &[u32], out: &mut Vec<u32>) {
    if primes.len() >= 64 && has_ifma() {
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
    // Greedy groups of consecutive primes whose product fits in a u64.
    let mut groups: Vec<(u64, usize, usize)> = Vec::with_capacity(primes.len() / 2 + 1);
    let mut i = 0;
    while i < primes.len() {
        let start = i;
        let mut prod: u64 = 1;
        while i < primes.len() {
            match prod.checked_mul(primes[i] as u64) {
                Some(p) => {
                    prod = p;
                    i += 1;
                }
                None => break,
            }
        }
        groups.push((prod, start, i));
    }
    let mut chunks = groups.chunks_exact(4);
    for c in &mut chunks {
        let rems = rem_limbs_many(n, &[c[0].0, c[1].0, c[2].0, c[3].0]);
        for k in 0..4 {
            for &p in &primes[c[k].1..c[k].2] {
                out.push((rems[k] % p as u64) as u32);
            }
        }
    }
    for g in chunks.remainder() {
        let [rem] = rem_limbs_many(n, &[g.0]);
        for &p in &primes[g.1..g.2] {
            out.push((rem % p as u64) as u32);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    #[test]
    fn prime_lists_agree() {
        let all = odd_primes_below_2_22();
        assert_eq!(&all[..SMALL_ODD_PRIMES.len()], &SMALL_ODD_PRIMES[..]);
        assert_eq!(all.len(), 295_947 - 1); // pi(2^22) = 295947, minus the prime 2
        assert_eq!(*all.last().unwrap(), 4_194_301);
        assert_eq!(first_odd_primes(20_000).len(), 20_000);
        let big = odd_primes_below_2_26();
        assert_eq!(big.len(), 3_957_808); // pi(2^26) - 1, also counted by an independent sieve
        assert_eq!(&big[..all.len()], all);
        assert_eq!(*big.last().unwrap(), 67_108_859); // largest prime below 2^26
    }

    #[test]
    fn segmented_sieve_matches_trial_division() {
        // Limits around the segment size (2^17 odd numbers = 2^18) and tiny ones; every
        // odd number below each limit classified by trial division.
        for limit in [3usize, 4, 10, 100, 1000, (1 << 18) - 1, 1 << 18, (1 << 18) + 3, 600_001] {
            let want: Vec<u32> = (3..limit as u32).step_by(2).filter(|&n| (3..).step_by(2).take_while(|d| d * d <= n).all(|d| n % d != 0)).collect();
            assert_eq!(odd_primes_below(limit), want, "limit {limit}");
        }
    }

    #[test]
    fn residues_match_biguint() {
        let n = (BigUint::from(1u8) << 1000u32) - 12345u32;
        // Prefixes of each static list (paired IFMA path when present), and a slice that
        // is no prefix (division path).
        for primes in [first_odd_primes(30_000), first_odd_primes(30_001), first_odd_primes(9999), first_odd_primes(777), &first_odd_primes(800)[1..]] {
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
