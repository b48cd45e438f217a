//! Which primes of a static list divide a number, from its residues modulo the list's
//! pair products ([`super::residues`]' vector path) and without reducing it by each prime.
//!
//! Trial division of many numbers formed from a few (ECPP's orders N + 1 - t from N + 1
//! and t) only asks which primes divide. Reducing a pair residue by each of its primes
//! costs a hardware division per prime, most of the time of [`super::residues`] at a few
//! thousand primes; here each number is formed per pair (an addition) and each prime
//! tested by one product: for odd p, x = 0 (mod p) exactly when x p^-1 mod 2^64 <=
//! floor((2^64 - 1) / p), for every x < 2^64 (Granlund & Montgomery 1994, §9), eight
//! primes per vector product where the CPU has the vector backend
//! ([`crate::arith::residues::PairTests`]).

use super::residues::{pair_table, PairTable};
use crate::arith::limbs::Limb;
use crate::arith::residues::PairTests;
use std::sync::OnceLock;

/// Divisibility tests by the first primes of a static list, through its pair residues.
pub struct PairDivisors {
    pairs: &'static PairTable,
    tests: &'static Tests,
    /// Number of primes (a prefix of the list).
    count: usize,
    /// Pairs holding them (the last may hold one more prime, which is skipped).
    used_pairs: usize,
}

/// Per-prime constants of the divisibility test and per-pair lifts.
struct Tests {
    /// The divisibility tests by every prime of the list, paired in list order.
    test: PairTests,
    /// A multiple of the pair product at least 2^52: a + lift - b >= 0 for a, b < 2^52.
    lift: Vec<u64>,
}

impl PairDivisors {
    /// Tests by `primes`, the first `primes.len()` (at least 64) primes of the list
    /// below 2^22, on a CPU with the vector residue backend; `None` otherwise (callers
    /// then reduce by each prime).
    pub fn new(primes: &[u32]) -> Option<Self> {
        let list = super::odd_primes_below_2_22();
        if primes.len() < 64 || primes.as_ptr() != list.as_ptr() || primes.len() > list.len() {
            return None;
        }
        let pairs = pair_table(primes)?;
        static TESTS: OnceLock<Tests> = OnceLock::new();
        let tests = TESTS.get_or_init(|| Tests {
            test: PairTests::new(&list.iter().map(|&p| u64::from(p)).collect::<Vec<_>>()),
            lift: pairs.products.iter().map(|&m| m * (1u64 << 52).div_ceil(m)).collect(),
        });
        let used_pairs = pairs.first.partition_point(|&f| (f as usize) < primes.len());
        Some(PairDivisors { pairs, tests, count: primes.len(), used_pairs })
    }

    /// `out[k]` = n mod the k-th pair product, up to a multiple of it (each below 2^52),
    /// for little-endian limbs `n`.
    pub fn residues(&self, n: &[Limb], out: &mut Vec<u64>) {
        self.pairs.table.residues(n, self.used_pairs, out);
        out.truncate(self.used_pairs);
    }

    /// The primes dividing a + b (`add`) or a - b, for a, b the [`Self::residues`] of
    /// two numbers (a - b >= 0 as integers), pushed to `out` in list order (cleared).
    pub fn dividing(&self, a: &[u64], b: &[u64], add: bool, out: &mut Vec<u32>) {
        out.clear();
        let list = super::odd_primes_below_2_22();
        let first = &self.pairs.first;
        let t = self.tests;
        // Every product of two primes below 2^22 is below 2^50, so pair k holds primes
        // 2k and 2k + 1 of the list: the whole pairs go to the paired tests (a, b < 2^52,
        // lift < 2^52 + 2^50: every word stays below 2^54), then the last pair (which may
        // hold one prime, or one past `count`) is divided here.
        let whole = (self.count / 2).min(self.used_pairs);
        debug_assert!(first[..=whole].iter().enumerate().all(|(k, &f)| f as usize == 2 * k));
        t.test.dividing(a, b, &t.lift, add, whole, out);
        for x in out.iter_mut() {
            *x = list[*x as usize];
        }
        for k in whole..self.used_pairs {
            let v = if add { a[k] + b[k] } else { a[k] + t.lift[k] - b[k] };
            let range = first[k] as usize..(first[k + 1] as usize).min(self.count);
            out.extend(list[range].iter().copied().filter(|&p| v % u64::from(p) == 0));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::limbs::inv_mod_word;
    use num_bigint::BigUint;

    #[test]
    fn inverse_and_divisibility_test() {
        for p in [3u64, 5, 65_521, (1 << 22) - 3, (1 << 61) - 1] {
            let inv = inv_mod_word(p);
            assert_eq!(p.wrapping_mul(inv), 1);
            let lim = u64::MAX / p;
            for x in [0, 1, p - 1, p, p + 1, 2 * p, u64::MAX / p * p, u64::MAX, u64::MAX - 1, 1 << 53] {
                assert_eq!(x.wrapping_mul(inv) <= lim, x % p == 0, "x = {x}, p = {p}");
            }
        }
    }

    /// The primes found dividing a ± b are exactly those dividing the integer, for sums,
    /// differences, a multiple of many small primes, and a difference of zero.
    #[test]
    fn dividing_matches_biguint() {
        let list = super::super::odd_primes_below_2_22();
        for count in [64, 1000, 1001, 30_000] {
            let Some(d) = PairDivisors::new(&list[..count]) else {
                // No vector residue backend on this CPU: nothing to test here.
                return;
            };
            let smooth: BigUint = list[..40].iter().map(|&p| BigUint::from(p)).product();
            let a = (BigUint::from(1u8) << 1000u32) + &smooth * 977u32;
            for b in [BigUint::from(12_345u32), smooth.clone() * 3u8, (BigUint::from(1u8) << 500u32) - 1u8, a.clone()] {
                let (mut ra, mut rb, mut got) = (Vec::new(), Vec::new(), Vec::new());
                d.residues(&a.to_u64_digits(), &mut ra);
                d.residues(&b.to_u64_digits(), &mut rb);
                for add in [false, true] {
                    let v = if add { &a + &b } else { &a - &b };
                    d.dividing(&ra, &rb, add, &mut got);
                    let want: Vec<u32> = list[..count].iter().copied().filter(|&p| (&v % p) == BigUint::ZERO).collect();
                    assert_eq!(got, want, "count {count}, add {add}, b {b}");
                }
            }
        }
        assert!(PairDivisors::new(&list[1..100]).is_none(), "not a prefix");
    }
}
