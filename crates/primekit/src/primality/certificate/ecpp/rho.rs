//! A bounded Pollard rho (Pollard 1975, with Brent's cycle search and batched gcds,
//! Brent 1980) for the search's last sweep: it splits a curve order's composite
//! cofactor when it has one medium prime factor (beyond trial division, up to about
//! 2^32 within the budget), leaving a large cofactor that may be prime.
//!
//! The iteration x -> x^2 + c runs on the Montgomery engine: in Montgomery form it is a
//! different polynomial map, but still one map modulo every prime p | n, so the cycle
//! modulo p shows up as gcd(x - y, n) > 1 all the same (R is a unit). Public data;
//! variable time.

use super::super::field::{El, Ring};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;

/// Differences multiplied together between two gcds.
const BATCH: u64 = 128;

/// A proper factor of the odd composite `n`, or `None` after about `budget` iterations
/// (at most twice that: a round of Brent's search is finished before the budget is read).
pub(super) fn rho_factor(n: &BigUint, budget: u64) -> Option<BigUint> {
    let f = Ring::new(n)?;
    for c in 1..=3i64 {
        if let Some(g) = attempt(&f, &f.small(c), budget / 3) {
            return Some(g);
        }
    }
    None
}

/// One run of Brent's cycle search with the map x -> x^2 + c from x = 2.
fn attempt(f: &Ring, c: &El, budget: u64) -> Option<BigUint> {
    let n = f.modulus();
    let step = |x: &El| f.add(&f.sqr(x), c);
    let (mut y, mut r, mut spent) = (f.small(2), 1u64, 0u64);
    loop {
        let x = y.clone();
        for _ in 0..r {
            y = step(&y);
        }
        spent += r;
        let mut k = 0;
        while k < r {
            let ys = y.clone();
            let mut q = f.one();
            let steps = BATCH.min(r - k);
            for _ in 0..steps {
                y = step(&y);
                q = f.mul(&q, &f.sub(&x, &y));
            }
            spent += steps;
            let g = f.to_big(&q).gcd(n);
            if g == *n {
                // The batch went past the factor: redo it one difference at a time.
                let mut z = ys;
                for _ in 0..steps {
                    z = step(&z);
                    let g = f.to_big(&f.sub(&x, &z)).gcd(n);
                    if !g.is_one() {
                        return (g != *n).then_some(g);
                    }
                }
                return None;
            }
            if !g.is_one() {
                return Some(g);
            }
            k += steps;
            if spent >= budget {
                return None;
            }
        }
        r *= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_a_medium_factor_and_gives_up_on_primes() {
        // (2^31 - 1) * (2^127 - 1): a 31-bit factor, as the last sweep meets them.
        let p = BigUint::from((1u64 << 31) - 1);
        let big = (BigUint::one() << 127) - 1u8;
        let n = &p * &big;
        let g = rho_factor(&n, 1 << 18).expect("a 31-bit factor within 2^18 steps");
        assert!(g == p || g == big, "{g}");
        // A prime has no proper factor to find.
        assert!(rho_factor(&big, 1 << 12).is_none());
    }
}
