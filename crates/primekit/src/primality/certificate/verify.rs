//! Checking a certificate: every step's Pocklington or elliptic-curve conditions, every
//! factor's own proof, and the chain's shape (module documentation of [`super`]).

use super::{Certificate, CertificateError, PocklingtonStep, Step, MAX_CERTIFIED_BITS, MAX_STEPS};
use crate::arith::modexp::modpow_vartime;
use crate::primality::is_prime_u64;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::HashSet;

fn invalid(step: usize, reason: impl Into<String>) -> CertificateError {
    CertificateError::Invalid { step, reason: reason.into() }
}

/// Checks `cert`; `Ok(p)` is the number it proves prime. When `expected` is given, the
/// certificate must be for that number.
pub fn verify(cert: &Certificate, expected: Option<&BigUint>) -> Result<BigUint, CertificateError> {
    let Some(first) = cert.steps.first() else {
        return Err(CertificateError::Malformed("no steps".into()));
    };
    if cert.steps.len() > MAX_STEPS {
        return Err(CertificateError::Malformed(format!("{} steps, at most {MAX_STEPS}", cert.steps.len())));
    }
    if let Some(want) = expected {
        if first.n() != want {
            return Err(invalid(0, "the certificate is for a different number"));
        }
    }
    // Each step proves its n prime given its large factors; those must be proved by
    // later steps (so the chain is well founded: no step relies on itself or an earlier one).
    let mut proved_later: HashSet<&BigUint> = HashSet::new();
    for (i, step) in cert.steps.iter().enumerate().rev() {
        check_size(i, step.n())?;
        match step {
            Step::Pocklington(s) => check_pocklington(i, s, &proved_later)?,
            Step::Ecpp(s) => {
                let q_proven = if s.q.bits() <= 64 { is_prime_u64(s.q.to_u64().unwrap_or(0)) } else { proved_later.contains(&s.q) };
                if !q_proven {
                    return Err(invalid(i, "q is not prime: below 2^64 the exact test fails, above it no later step proves it"));
                }
                super::ecpp_check::check(s).map_err(|reason| invalid(i, reason))?
            }
        }
        proved_later.insert(step.n());
    }
    Ok(first.n().clone())
}

/// Conditions every step's N meets, whatever its method.
fn check_size(i: usize, n: &BigUint) -> Result<(), CertificateError> {
    if n.bits() > MAX_CERTIFIED_BITS {
        return Err(invalid(i, format!("N has {} bits, above the cap of {MAX_CERTIFIED_BITS}", n.bits())));
    }
    if n.bits() <= 64 {
        return Err(invalid(i, "N is below 2^64: give no step, the exact test decides it"));
    }
    if n.is_even() {
        return Err(invalid(i, "N is even"));
    }
    Ok(())
}

fn check_pocklington(i: usize, s: &PocklingtonStep, proved_later: &HashSet<&BigUint>) -> Result<(), CertificateError> {
    let n = &s.n;
    if s.factors.is_empty() {
        return Err(invalid(i, "no factors of N - 1"));
    }
    let n1 = n - 1u8;
    let mut f = BigUint::one();
    for (j, fac) in s.factors.iter().enumerate() {
        let q = &fac.q;
        if fac.k == 0 || fac.k > 65_536 {
            return Err(invalid(i, format!("factor {j}: exponent {} out of range 1..=65536", fac.k)));
        }
        if q.bits() <= 64 {
            if !is_prime_u64(q.to_u64().unwrap_or(0)) {
                return Err(invalid(i, format!("factor {j}: {q} is not prime")));
            }
        } else if !proved_later.contains(q) {
            return Err(invalid(i, format!("factor {j}: q >= 2^64 has no later step proving it prime")));
        }
        f *= q.pow(fac.k);
        if f.bits() > n.bits() {
            return Err(invalid(i, format!("factor {j}: F exceeds N - 1")));
        }
    }
    if !(&n1 % &f).is_zero() {
        return Err(invalid(i, "F does not divide N - 1"));
    }
    if &f * &f <= *n {
        return Err(invalid(i, "size condition F^2 > N does not hold"));
    }
    for (j, fac) in s.factors.iter().enumerate() {
        let a = &fac.witness;
        if a < &BigUint::from(2u8) || a >= &n1 {
            return Err(invalid(i, format!("factor {j}: witness must be in 2..=N-2")));
        }
        let pow = |e: &BigUint| modpow_vartime(a, e, n).map_err(|e| invalid(i, format!("arithmetic: {e}")));
        if !pow(&n1)?.is_one() {
            return Err(invalid(i, format!("factor {j}: witness^(N-1) != 1 mod N")));
        }
        let x = pow(&(&n1 / &fac.q))?;
        let g = if x.is_zero() { n.clone() } else { (x - 1u8).gcd(n) };
        if !g.is_one() {
            return Err(invalid(i, format!("factor {j}: gcd(witness^((N-1)/q) - 1, N) != 1")));
        }
    }
    Ok(())
}
