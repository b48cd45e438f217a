//! Inputs shared by the research benchmarks: random odd k-bit numbers, primes drawn by
//! rejection (random odd numbers kept when `is_prime` accepts them, so the prime column
//! never waits on random hits among the composite inputs), shard specs and thread pools.

use num_bigint::BigUint;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;

/// `--shard i/n`: this process handles part i (0-based) of n.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub total: usize,
}

impl Shard {
    /// The whole run.
    pub const ALL: Shard = Shard { index: 0, total: 1 };

    /// Of `count` items, how many this shard handles (the first `count % total` shards
    /// take one more).
    pub fn share(&self, count: usize) -> usize {
        count / self.total + usize::from(self.index < count % self.total)
    }

    /// Seed for this shard's inputs: distinct per shard, per size and per purpose, so
    /// shards never repeat one another's inputs.
    pub fn seed(&self, seed: u64, bits: u32, purpose: u64) -> u64 {
        seed ^ (bits as u64) << 20 ^ (self.index as u64) << 40 ^ purpose.rotate_left(56)
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let (i, n) = s.split_once('/').ok_or("shard must look like i/n, e.g. 0/8")?;
        let index: usize = i.trim().parse().map_err(|_| format!("bad shard index {i:?}"))?;
        let total: usize = n.trim().parse().map_err(|_| format!("bad shard count {n:?}"))?;
        if total == 0 || index >= total {
            return Err(format!("shard {index}/{total}: need 0 <= i < n"));
        }
        Ok(Shard { index, total })
    }
}

/// A uniform `bits`-bit number with the top bit set.
pub fn random_bits(rng: &mut impl RngCore, bits: u32) -> BigUint {
    let mut bytes = vec![0u8; (bits as usize).div_ceil(8)];
    rng.fill_bytes(&mut bytes);
    let x = BigUint::from_bytes_be(&bytes) >> (bytes.len() * 8 - bits as usize);
    x | (BigUint::from(1u8) << (bits - 1))
}

/// A random odd number of exactly `bits` bits.
pub fn random_odd(rng: &mut impl RngCore, bits: u32) -> BigUint {
    random_bits(rng, bits) | BigUint::from(1u8)
}

/// `count` random odd `bits`-bit numbers from `seed`.
pub fn random_odds(seed: u64, bits: u32, count: usize) -> Vec<BigUint> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    (0..count).map(|_| random_odd(&mut rng, bits)).collect()
}

/// `count` random `bits`-bit primes: each from its own seeded stream, drawing random odd
/// numbers until `primekit::is_prime` accepts one. Runs in parallel on the current pool.
pub fn random_primes(seed: u64, bits: u32, count: usize) -> Vec<BigUint> {
    (0..count)
        .into_par_iter()
        .map(|i| {
            let mut rng = ChaCha20Rng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
            loop {
                let n = random_odd(&mut rng, bits);
                if primekit::is_prime(&n) {
                    return n;
                }
            }
        })
        .collect()
}

/// A rayon pool with `jobs` threads (0: rayon's default, one per core).
pub fn pool(jobs: usize) -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new().num_threads(jobs).build().expect("thread pool")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_counts_exactly() {
        for total in 1..6 {
            for count in 0..20 {
                let sum: usize = (0..total).map(|index| Shard { index, total }.share(count)).sum();
                assert_eq!(sum, count);
            }
        }
        assert!("3/2".parse::<Shard>().is_err() && "1/0".parse::<Shard>().is_err() && "x".parse::<Shard>().is_err());
        assert_eq!("1/4".parse::<Shard>().unwrap(), Shard { index: 1, total: 4 });
    }
}
