//! A Pocklington step for an N with N - 1 = k q found by the search (k's primes below
//! the trial bound, q a probable prime proved by a later step): the factors whose
//! product F first exceeds sqrt(N), largest first, each with a witness (Brillhart,
//! Lehmer & Selfridge 1975, Theorem 4).

use super::super::field::Ring;
use super::super::{Factor, PocklingtonStep};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;

/// Why no step was built.
#[derive(Debug)]
pub(super) enum WitnessError {
    /// N is composite, and how that showed.
    Composite(String),
    /// No witness below the search limit for some factor.
    NotFound,
}

/// Largest witness tried.
const MAX_WITNESS: u32 = 1000;

/// The step for N with N - 1 = (product of `small`) * q (q = 1: N - 1 is smooth).
pub(super) fn step(n: &BigUint, small: &[(u32, u32)], q: &BigUint) -> Result<PocklingtonStep, WitnessError> {
    let n1 = n - 1u8;
    let mut all: Vec<(BigUint, u32)> = small.iter().map(|&(p, e)| (BigUint::from(p), e)).collect();
    if !q.is_one() {
        all.push((q.clone(), 1));
    }
    all.sort_by(|a, b| b.0.cmp(&a.0));
    let mut f = BigUint::one();
    let mut chosen = Vec::new();
    for (p, e) in all {
        if &f * &f > *n {
            break;
        }
        f *= p.pow(e);
        chosen.push((p, e));
    }
    let Some(ring) = Ring::new(n) else { return Err(WitnessError::Composite("N is even".into())) };
    let one = ring.one();
    let mut factors = Vec::new();
    // Bases already seen to satisfy a^(N-1) = 1.
    let mut fermat_ok: Vec<u32> = Vec::new();
    for (p, e) in chosen {
        let cof = &n1 / &p;
        let mut found = None;
        for a in 2..MAX_WITNESS {
            let am = ring.elem(&BigUint::from(a));
            if !fermat_ok.contains(&a) {
                if ring.pow(&am, &n1) != one {
                    return Err(WitnessError::Composite(format!("{a}^(N-1) != 1 mod N (Fermat witness)")));
                }
                fermat_ok.push(a);
            }
            let y = ring.to_big(&ring.pow(&am, &cof));
            let g = (y + n - 1u8).gcd(n);
            if g.is_one() {
                found = Some(a);
                break;
            }
            if &g != n {
                return Err(WitnessError::Composite(format!("gcd({a}^((N-1)/{p}) - 1, N) = {g} is a proper factor")));
            }
        }
        let Some(a) = found else { return Err(WitnessError::NotFound) };
        factors.push(Factor { q: p, k: e, witness: BigUint::from(a) });
    }
    Ok(PocklingtonStep { n: n.clone(), factors })
}
