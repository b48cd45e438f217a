//! Residues of one multi-limb number modulo many small primes, and the small-prime lists
//! the sieves use.
//!
//! Primes are packed into groups whose product fits in a `u64`; one pass of word
//! divisions over the limbs gives the number modulo each product (four products per pass,
//! so the independent divisions overlap), then each prime's residue is one more `%`.

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

/// The first `count` odd primes (at most all odd primes below 2^22).
pub fn first_odd_primes(count: usize) -> &'static [u32] {
    if count <= SMALL_ODD_PRIMES.len() {
        &SMALL_ODD_PRIMES[..count]
    } else {
        let all = odd_primes_below_2_22();
        &all[..count.min(all.len())]
    }
}

fn odd_primes_below(limit: usize) -> Vec<u32> {
    // composite[i] describes 2i + 1.
    let half = limit / 2;
    let mut composite = vec![false; half];
    let mut i = 1;
    while (2 * i + 1) * (2 * i + 1) < limit {
        if !composite[i] {
            let p = 2 * i + 1;
            let mut j = (p * p) / 2;
            while j < half {
                composite[j] = true;
                j += p;
            }
        }
        i += 1;
    }
    (1..half).filter(|&i| !composite[i]).map(|i| (2 * i + 1) as u32).collect()
}

/// `out[j] = n mod primes[j]` for little-endian limbs `n`. Variable time in nothing but
/// the lengths (hardware division latency aside, see `arith::word`).
pub fn residues(n: &[Limb], primes: &[u32], out: &mut Vec<u32>) {
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
    }

    #[test]
    fn residues_match_biguint() {
        let n = (BigUint::from(1u8) << 1000u32) - 12345u32;
        let primes = first_odd_primes(30_000);
        let mut out = Vec::new();
        residues(&n.to_u64_digits(), primes, &mut out);
        for (j, &p) in primes.iter().enumerate().step_by(97) {
            assert_eq!(out[j] as u64, (&n % p).iter_u64_digits().next().unwrap_or(0), "p={p}");
        }
        assert_eq!(out.len(), primes.len());
    }
}
