//! The first phase of the down-run for one N (Atkin & Morain 1993, §8.2): walk the
//! discriminants in the table's order (class number, then |D|), keep those with every
//! prime discriminant a square mod N, solve 4N = t^2 + |D| s^2, and accept an order
//! m = N + 1 - trace = k q with k free of primes below a bound and q a probable prime
//! above (N^(1/4) + 1)^2. Where allowed, N - 1 = k q is tried first (a Pocklington
//! step then needs no curve). Nothing is proved here: the second phase builds and
//! checks the steps.

use super::super::field::Ring;
use super::class_table::table;
use super::cornacchia::{cornacchia, order, traces};
use super::rho::rho_factor;
use super::sqrt::Sqrt;
use crate::primality::is_prime_u64;
use crate::primality::lucas::{selfridge_method_a, LucasLadder, SearchOptions};
use crate::primality::MillerRabin;
use crate::sieve::odd_primes_below_2_22;
use crate::sieve::residues::residues;
use num_bigint::BigUint;
use num_traits::{One, ToPrimitive, Zero};

/// Where a candidate comes from: entry 0 is N - 1, entry i >= 1 the table's entry i - 1;
/// entries from [`PASS`] on are the same again in a second pass that divides the orders
/// by all primes below 2^22 (for the rare N that the first pass leaves without any), and
/// from 2 [`PASS`] on in a third that also splits a composite cofactor by a bounded
/// Pollard rho ([`super::rho`]; for the rarer N the second pass leaves without any).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct Pos {
    pub(super) entry: usize,
    pub(super) order: usize,
}

impl Pos {
    pub(super) const START: Pos = Pos { entry: 0, order: 0 };

    /// The position just after this one.
    pub(super) fn next(self) -> Pos {
        Pos { entry: self.entry, order: self.order + 1 }
    }
}

/// Entries of one pass: N - 1 and the table.
pub(super) static PASS: std::sync::LazyLock<usize> = std::sync::LazyLock::new(|| table().len() + 1);

/// Number of entries of all three passes.
pub(super) fn entries() -> usize {
    3 * *PASS
}

/// Pollard rho iterations the third pass spends on one order's cofactor.
const RHO_BUDGET: u64 = 1 << 16;

/// Entries of the first pass up to the end of class number 25 (the table's main part;
/// beyond it, the reserve and the second pass cost more than going back a level).
pub(super) static MAIN: std::sync::LazyLock<usize> =
    std::sync::LazyLock::new(|| 1 + table().iter().position(|e| e.h > 25).unwrap_or(table().len()));

/// The table index of a (non-N - 1) entry.
pub(super) fn table_index(entry: usize) -> Option<usize> {
    (entry % *PASS).checked_sub(1)
}

/// An accepted order: m = (product of `small`) * q, q a probable prime (or 1 for an
/// N - 1 that is smooth); in the third pass m / q also holds the factor rho found.
#[derive(Clone, Debug)]
pub(super) struct Candidate {
    pub(super) pos: Pos,
    pub(super) m: BigUint,
    pub(super) q: BigUint,
    /// Prime factors p^e of m / q (all below the trial bound).
    pub(super) small: Vec<(u32, u32)>,
}

/// Probable primality of q (BPSW: a base-2 strong test, then a strong Lucas test); exact
/// below 2^64.
pub(super) fn probable_prime(q: &BigUint) -> bool {
    if q.bits() <= 64 {
        return is_prime_u64(q.to_u64().expect("64 bits"));
    }
    if !q.bit(0) {
        return false;
    }
    let Ok(mr) = MillerRabin::new_vartime(q) else { return false };
    if !mr.passes_base_two_vartime() {
        return false;
    }
    match selfridge_method_a(q, SearchOptions::BPSW) {
        Ok(params) => LucasLadder::new(q, &params).is_ok_and(|l| l.strong_test()),
        Err(_) => false,
    }
}

/// The checker's size condition q > (N^(1/4) + 1)^2, as the same integer test.
pub(super) fn large_enough(q: &BigUint, n: &BigUint) -> bool {
    let r = q.sqrt();
    r > BigUint::one() && (&r - 1u8).pow(4) > *n
}

/// How many odd primes trial division uses for orders of N's size: more for larger N,
/// where a probable-prime test costs more than the division.
pub(super) fn trial_primes(bits: u64) -> usize {
    ((bits as usize) * 16).clamp(1000, 40_000)
}

/// m = small * rest with `small` the prime powers of the first `count` primes (and 2).
pub(super) fn split_small(m: &BigUint, count: usize) -> (Vec<(u32, u32)>, BigUint) {
    let mut small = Vec::new();
    let mut rest = m.clone();
    let twos = rest.trailing_zeros().unwrap_or(0);
    if twos > 0 {
        rest >>= twos;
        small.push((2, twos as u32));
    }
    let primes = &odd_primes_below_2_22()[..count];
    let mut res = Vec::new();
    residues(&rest.to_u64_digits(), primes, &mut res);
    for (&p, &r) in primes.iter().zip(&res) {
        if r == 0 {
            let mut e = 0;
            while (&rest % p).is_zero() {
                rest /= p;
                e += 1;
            }
            small.push((p, e));
        }
    }
    (small, rest)
}

/// The larger part of `rest` split by rho, when `rest` is composite (a probable prime
/// `rest` was the second pass's to take).
fn split_by_rho(rest: &BigUint) -> Option<BigUint> {
    if rest.bits() <= 64 || !rest.bit(0) || probable_prime(rest) {
        return None;
    }
    let g = rho_factor(rest, RHO_BUDGET)?;
    let other = rest / &g;
    Some(g.max(other))
}

/// One N's search state: its ring, its square roots, its options.
pub(super) struct Level {
    pub(super) n: BigUint,
    pub(super) sq: Sqrt,
    pub(super) ecpp_only: bool,
    count: usize,
}

impl Level {
    /// `None` if N has no Montgomery form or no square roots (N is then not an odd
    /// prime; the caller treats it as "no candidate").
    pub(super) fn new(n: &BigUint, ecpp_only: bool) -> Option<Level> {
        let sq = Sqrt::new(Ring::new(n)?)?;
        Some(Level { n: n.clone(), sq, ecpp_only, count: trial_primes(n.bits()) })
    }

    /// The first acceptable candidate of entry `entry`, from order index `first` on.
    pub(super) fn try_entry(&mut self, entry: usize, first: usize) -> Option<Candidate> {
        let n = self.n.clone();
        let second = entry >= *PASS;
        let third = entry >= 2 * *PASS;
        let count = if second { odd_primes_below_2_22().len() } else { self.count };
        // In the second pass, only an order with a prime factor the first pass did not
        // divide out gives a new q.
        let new_q = |small: &[(u32, u32)]| !second || small.iter().any(|&(p, _)| p > odd_primes_below_2_22()[self.count - 1]);
        if entry.is_multiple_of(*PASS) {
            if self.ecpp_only || first > 0 || third {
                return None;
            }
            let m = &n - 1u8;
            let (small, q) = split_small(&m, count);
            // N - 1 = k q: Pocklington with F = N - 1 (q proved next, or smooth).
            if q < n && new_q(&small) && (q.is_one() || probable_prime(&q)) {
                return Some(Candidate { pos: Pos { entry, order: 0 }, m, q, small });
            }
            return None;
        }
        let e = &table()[table_index(entry).expect("not N - 1")];
        let r = self.sq.sqrt_disc(&e.prime_discs)?;
        let (t, s) = cornacchia(&n, e.d, &self.sq.ring().to_big(&r))?;
        for (i, tr) in traces(e.d, &t, &s).iter().enumerate().skip(first) {
            let m = order(&n, tr);
            let (small, rest) = split_small(&m, count);
            let q = if third { split_by_rho(&rest) } else { Some(rest) };
            let Some(q) = q.filter(|q| q < &n && (third || new_q(&small)) && large_enough(q, &n)) else { continue };
            if probable_prime(&q) {
                return Some(Candidate { pos: Pos { entry, order: i }, m, q, small });
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_parts_and_size_test() {
        let m = BigUint::from(2u32.pow(5) * 3 * 3 * 1009) * BigUint::from(1_000_000_007u64);
        let (small, rest) = split_small(&m, 1000);
        assert_eq!(small, vec![(2, 5), (3, 2), (1009, 1)]);
        assert_eq!(rest, BigUint::from(1_000_000_007u64));
        // q > (N^(1/4) + 1)^2 with N = 10^16: N^(1/4) = 10^4, bound 100020001.
        let n = BigUint::from(10u64.pow(16));
        assert!(!large_enough(&BigUint::from(100_020_001u64), &n));
        assert!(large_enough(&BigUint::from(100_100_000u64), &n));
        assert!(probable_prime(&((BigUint::from(1u8) << 127) - 1u8)));
        assert!(!probable_prime(&(BigUint::from(561u32) * BigUint::from(1105u32) * ((BigUint::from(1u8) << 89) - 1u8))));
    }
}
