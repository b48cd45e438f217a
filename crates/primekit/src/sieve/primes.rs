//! Lists of odd primes: the first 9999 at compile time ([`SMALL_ODD_PRIMES`]), and all
//! odd primes below 2^22 and 2^26, built once per process by a segmented sieve of
//! Eratosthenes on first use.

use super::small_primes::SMALL_ODD_PRIMES;
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

#[cfg(test)]
mod tests {
    use super::*;

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
            let want: Vec<u32> =
                (3..limit as u32).step_by(2).filter(|&n| (3..).step_by(2).take_while(|d| d * d <= n).all(|d| n % d != 0)).collect();
            assert_eq!(odd_primes_below(limit), want, "limit {limit}");
        }
    }
}
