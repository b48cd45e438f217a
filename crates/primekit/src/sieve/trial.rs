//! Trial division by the first r odd primes, a few primes per machine word.
//!
//! The primes are packed into groups whose product fits in a `u64`, so one pass of
//! word divisions over the limbs of n gives `n mod (p_i * p_j * ...)`, and each prime of
//! the group is then checked on that single word with a multiply-by-inverse test
//! (x is divisible by odd p iff x * p^{-1} mod 2^64 <= (2^64 - 1) / p), no division.

use super::groups::{word_groups, WordGroup};
use super::small_primes::{NUM_SMALL_ODD_PRIMES, SMALL_ODD_PRIMES};
use crate::arith::limbs::{inv_mod_word, Limb};
use crate::arith::word::rem_limbs_many;
use std::sync::OnceLock;

/// Precomputed groups and divisibility constants for the whole small-prime table.
#[derive(Debug)]
pub struct TrialDivision {
    groups: Vec<WordGroup>,
    inv: Vec<u64>,
    lim: Vec<u64>,
}

impl TrialDivision {
    fn build() -> Self {
        let groups = word_groups(&SMALL_ODD_PRIMES);
        let inv = SMALL_ODD_PRIMES.iter().map(|&p| inv_mod_word(p as u64)).collect();
        let lim = SMALL_ODD_PRIMES.iter().map(|&p| u64::MAX / p as u64).collect();
        TrialDivision { groups, inv, lim }
    }

    /// The shared table (built once per process).
    pub fn get() -> &'static TrialDivision {
        static T: OnceLock<TrialDivision> = OnceLock::new();
        T.get_or_init(TrialDivision::build)
    }

    /// Number of primes actually used when at least `r` are asked for: whole groups, so
    /// `r` is rounded up to the next group boundary (capped at the table size).
    pub fn primes_covering(&self, r: usize) -> usize {
        self.groups.iter().map(|g| g.range.end).find(|&e| e >= r).unwrap_or(NUM_SMALL_ODD_PRIMES)
    }

    #[inline]
    fn divisible(&self, x: u64, i: usize) -> bool {
        x.wrapping_mul(self.inv[i]) <= self.lim[i]
    }

    #[inline]
    fn scan_group(&self, g: &WordGroup, rem: u64) -> Option<u32> {
        g.range.clone().find(|&i| self.divisible(rem, i)).map(|i| SMALL_ODD_PRIMES[i])
    }

    /// The smallest of the first `r` odd primes (rounded up to a whole group) dividing
    /// `n`, if any. Variable time; for public inputs and for candidates about to be
    /// discarded anyway.
    pub fn first_divisor_vartime(&self, n: &[Limb], r: usize) -> Option<u32> {
        let used = self.primes_covering(r.min(NUM_SMALL_ODD_PRIMES));
        let ngroups = self.groups.iter().take_while(|g| g.range.start < used).count();
        let gs = &self.groups[..ngroups];
        // Four groups per pass over the limbs: their divisions are independent, so the
        // CPU overlaps them.
        let mut chunks = gs.chunks_exact(4);
        for c in &mut chunks {
            let ds = [c[0].product, c[1].product, c[2].product, c[3].product];
            let rems = rem_limbs_many(n, &ds);
            for k in 0..4 {
                if let Some(p) = self.scan_group(&c[k], rems[k]) {
                    return Some(p);
                }
            }
        }
        for g in chunks.remainder() {
            let [rem] = rem_limbs_many(n, &[g.product]);
            if let Some(p) = self.scan_group(g, rem) {
                return Some(p);
            }
        }
        None
    }
}

/// Shorthand for `TrialDivision::get().first_divisor_vartime(n, r)`.
pub fn trial_divide_vartime(n: &[Limb], r: usize) -> Option<u32> {
    TrialDivision::get().first_divisor_vartime(n, r)
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    #[test]
    fn inverse_test_is_exact() {
        let t = TrialDivision::get();
        for i in [0usize, 1, 5, 100, NUM_SMALL_ODD_PRIMES - 1] {
            let p = SMALL_ODD_PRIMES[i] as u64;
            for x in [0u64, 1, p, p - 1, p + 1, 2 * p, p * 12345, u64::MAX, u64::MAX - (u64::MAX % p)] {
                assert_eq!(t.divisible(x, i), x % p == 0, "x={x} p={p}");
            }
        }
    }

    #[test]
    fn finds_smallest_divisor() {
        // n = 719 * 1009 * (2^127 - 1): smallest odd prime factor 719.
        let m127 = (BigUint::from(1u8) << 127u32) - 1u8;
        let n = &m127 * 719u32 * 1009u32;
        let limbs = n.to_u64_digits();
        assert_eq!(trial_divide_vartime(&limbs, 200), Some(719));
        assert_eq!(trial_divide_vartime(&m127.to_u64_digits(), 9999), None);
        let groups_end = TrialDivision::get().primes_covering(10);
        assert!(groups_end >= 10);
    }
}
