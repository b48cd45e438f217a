//! Proving a given number prime when N - 1 factors far enough (Pocklington needs a
//! fully factored part F of N - 1 with F^2 > N).
//!
//! N - 1 is factored by trial division by the odd primes below 2^20 and Pollard's rho
//! (Brent's variant) with at most [`RHO_ITERATIONS`] iterations per split; a cofactor
//! that passes [`crate::try_is_prime`] counts as a prime factor and is proven the same
//! way, recursively. When what is factored is too small, there is no proof here: a
//! general proof needs elliptic-curve methods (ECPP), which this is not.

use super::{Certificate, Factor, PocklingtonStep, Step, MAX_CERTIFIED_BITS, MAX_STEPS};
use crate::arith::modexp::modpow_vartime;
use crate::primality::is_prime_u64;
use crate::{try_is_prime, Error};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

/// Trial division bound for the factors of N - 1.
pub const TRIAL_BOUND: u32 = 1 << 20;
/// Pollard rho iterations allowed per split.
pub const RHO_ITERATIONS: u64 = 1 << 18;

/// Why [`prove`] gave no certificate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProveError {
    /// N is composite (so nothing can prove it prime).
    Composite,
    /// N is probably prime, but N - 1 (or the N - 1 of a factor it needs) did not factor
    /// far enough within the documented limits.
    NotSmoothEnough,
    /// Too large, or an arithmetic / RNG failure.
    Error(Error),
}

impl core::fmt::Display for ProveError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ProveError::Composite => write!(f, "N is composite"),
            ProveError::NotSmoothEnough => write!(f, "no proof found: N-1 not smooth enough (N is probably prime)"),
            ProveError::Error(e) => write!(f, "{e}"),
        }
    }
}

impl From<Error> for ProveError {
    fn from(e: Error) -> Self {
        ProveError::Error(e)
    }
}

/// A certificate for `n` (which must exceed 2^64: below, the exact test is the proof).
pub fn prove(n: &BigUint) -> Result<Certificate, ProveError> {
    if n.bits() <= 64 || n.bits() > MAX_CERTIFIED_BITS {
        return Err(Error::InvalidArgument(format!(
            "prove takes 65..={MAX_CERTIFIED_BITS}-bit numbers; below 2^64 the exact test decides"
        ))
        .into());
    }
    if !try_is_prime(n)? {
        return Err(ProveError::Composite);
    }
    let mut steps = Vec::new();
    prove_into(n, &mut steps)?;
    Ok(Certificate::new(n.clone(), steps))
}

fn prove_into(n: &BigUint, steps: &mut Vec<Step>) -> Result<(), ProveError> {
    if steps.len() >= MAX_STEPS {
        return Err(ProveError::NotSmoothEnough);
    }
    let n1 = n - 1u8;
    // The unfactored rest of N - 1 plays no part in the proof.
    let (mut factors, _rest) = factor_partly(&n1)?;
    factors.sort();
    let f: BigUint = factors.iter().map(|(q, k)| q.pow(*k)).product();
    if &f * &f <= *n {
        return Err(ProveError::NotSmoothEnough);
    }
    let mut step = PocklingtonStep { n: n.clone(), factors: Vec::new() };
    for (q, k) in &factors {
        let e = &n1 / q;
        let witness = (2u32..1000).map(BigUint::from).find(|a| {
            modpow_vartime(a, &n1, n).is_ok_and(|x| x.is_one())
                && modpow_vartime(a, &e, n).is_ok_and(|x| !x.is_zero() && (x - 1u8).gcd(n).is_one())
        });
        let Some(witness) = witness else { return Err(ProveError::Composite) };
        step.factors.push(Factor { q: q.clone(), k: *k, witness });
    }
    steps.push(Step::Pocklington(step));
    for (q, _) in factors {
        if q.bits() > 64 && !steps.iter().any(|s| s.n() == &q) {
            prove_into(&q, steps)?;
        }
    }
    Ok(())
}

/// Prime powers found in `m`, and the unfactored rest.
fn factor_partly(m: &BigUint) -> Result<(Vec<(BigUint, u32)>, BigUint), ProveError> {
    let mut found: Vec<(BigUint, u32)> = Vec::new();
    let add = |q: BigUint, found: &mut Vec<(BigUint, u32)>| match found.iter_mut().find(|(p, _)| *p == q) {
        Some((_, k)) => *k += 1,
        None => found.push((q, 1)),
    };
    let mut m = m.clone();
    let twos = m.trailing_zeros().unwrap_or(0);
    if twos > 0 {
        m >>= twos;
        found.push((BigUint::from(2u8), twos as u32));
    }
    let mut d = 3u32;
    while d < TRIAL_BOUND && m > BigUint::one() {
        while (&m % d).is_zero() {
            m /= d;
            add(BigUint::from(d), &mut found);
        }
        d += 2;
    }
    let mut rest = BigUint::one();
    let mut todo = vec![m];
    while let Some(c) = todo.pop() {
        if c.is_one() {
            continue;
        }
        if c.bits() <= 64 {
            if is_prime_u64(c.to_u64().expect("64 bits")) {
                add(c, &mut found);
                continue;
            }
        } else if try_is_prime(&c)? {
            add(c, &mut found);
            continue;
        }
        match rho(&c) {
            Some(d) => {
                todo.push(&c / &d);
                todo.push(d);
            }
            None => rest *= c,
        }
    }
    Ok((found, rest))
}

/// A nontrivial factor of the odd composite `n` by Brent's rho, within the budget.
fn rho(n: &BigUint) -> Option<BigUint> {
    let one = BigUint::one();
    for c in 1u32..4 {
        let f = |x: &BigUint| (x * x + c) % n;
        let mut x: BigUint;
        let (mut y, mut q) = (BigUint::from(2u8), BigUint::one());
        let mut r = 1u64;
        let mut spent = 0u64;
        loop {
            x = y.clone();
            for _ in 0..r {
                y = f(&y);
            }
            let mut k = 0;
            while k < r {
                let ys = y.clone();
                for _ in 0..r.min(128).min(r - k) {
                    y = f(&y);
                    let diff = if x > y { &x - &y } else { &y - &x };
                    q = (q * diff) % n;
                }
                let g = q.gcd(n);
                k += 128;
                spent += 128;
                if g != one {
                    if &g != n {
                        return Some(g);
                    }
                    // Backtrack one by one from ys.
                    let mut ys = ys;
                    loop {
                        ys = f(&ys);
                        let diff = if x > ys { &x - &ys } else { &ys - &x };
                        let g = diff.gcd(n);
                        if g != one {
                            if &g != n {
                                return Some(g);
                            }
                            break;
                        }
                    }
                    break;
                }
                if spent > RHO_ITERATIONS {
                    break;
                }
            }
            if spent > RHO_ITERATIONS || q.is_zero() {
                break;
            }
            r *= 2;
            if r > RHO_ITERATIONS {
                break;
            }
        }
    }
    None
}
