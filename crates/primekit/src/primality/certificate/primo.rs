//! Certificates in Primo's text format ("format 4"), which Primo and the checkers written
//! from its published verification guide read (Martin 2018). [`to_primo`] writes an ecpp
//! chain in it.
//!
//! # Primo's elliptic-curve test and ours
//!
//! Section `[i]` of a certificate gives S, W, A, B and T for the current N (the first is
//! the `[Candidate]`). The checker takes m = N + 1 - W, requires S | m, R = m / S odd
//! and above (N^(1/4) + 1)^2, |A|, |B| <= N div 2, 4A^3 + 27B^2 != 0 mod N, forms
//! L = T^3 + A T + B mod N (non-zero) and works on the curve (A L^2, B L^3) with the
//! point (T L, L^2): S P must have Z coprime to N and R (S P) must be the identity. The
//! next N is R; after the last section N < 2^64 must be prime.
//!
//! Our step (a, b, m, q, x, y) maps onto it with S = m / q, W = N + 1 - m, A = a, B = b,
//! T = x: then L = x^3 + a x + b = y^2 (P is on the curve), and with u = y the map
//! (X, Y) -> (X / u^2, Y / u^3) takes Primo's curve (a y^4, b y^6) and point (x y^2, y^4)
//! to ours, (a, b) and (x, y): an isomorphism, so the orders and the conditions are
//! ours. No root or inversion is needed. A and B are written in (-N/2, N/2], negative
//! values as `-0x...` (as PARI's `primecertexport(c, 2)` writes them).
//!
//! Only ecpp chains have this form here (Primo's N - 1 test wants a single prime
//! R > S with N - 1 = S R; our Pocklington steps may rest on several factors).

use super::{Certificate, Step, MAX_STEPS};
use num_bigint::{BigInt, BigUint};
use num_traits::Zero;

/// Why a certificate has no Primo form.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PrimoExportError {
    /// The chain is not an ecpp chain Primo's format can hold.
    Unsupported(String),
    /// Step `step` does not satisfy a condition Primo's checker needs.
    Inconsistent {
        /// The step, 0-based.
        step: usize,
        /// What does not hold.
        reason: String,
    },
}

impl core::fmt::Display for PrimoExportError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PrimoExportError::Unsupported(m) => write!(f, "no Primo form: {m}"),
            PrimoExportError::Inconsistent { step, reason } => write!(f, "no Primo form: step {step}: {reason}"),
        }
    }
}

impl std::error::Error for PrimoExportError {}

/// `0x...` in upper-case hexadecimal, `-0x...` when negative.
fn hex(v: &BigInt) -> String {
    let sign = if v.sign() == num_bigint::Sign::Minus { "-" } else { "" };
    format!("{sign}0x{}", v.magnitude().to_str_radix(16).to_uppercase())
}

/// v in [0, n) as the representative in (-n/2, n/2].
fn centred(v: &BigUint, n: &BigUint) -> BigInt {
    if v > &(n >> 1u8) {
        BigInt::from(v.clone()) - BigInt::from(n.clone())
    } else {
        BigInt::from(v.clone())
    }
}

/// The certificate in Primo's format 4: the ecpp chain read from the first step, each q
/// proved by the next step that proves it, down to a q below 2^64.
pub fn to_primo(c: &Certificate) -> Result<String, PrimoExportError> {
    if c.steps.is_empty() {
        return Err(PrimoExportError::Unsupported("the certificate has no steps".into()));
    }
    if c.steps.len() > MAX_STEPS {
        return Err(PrimoExportError::Unsupported(format!("{} steps, at most {MAX_STEPS}", c.steps.len())));
    }
    let mut sections = String::new();
    let (mut i, mut count) = (0usize, 0usize);
    loop {
        let Step::Ecpp(s) = &c.steps[i] else {
            return Err(PrimoExportError::Unsupported(format!("step {i} is a Pocklington step: prove with elliptic-curve steps only")));
        };
        let bad = |reason: &str| PrimoExportError::Inconsistent { step: i, reason: reason.into() };
        let n = &s.n;
        if n.is_zero() || s.q.is_zero() || !(&s.m % &s.q).is_zero() {
            return Err(bad("q does not divide m"));
        }
        if s.a >= *n || s.b >= *n || s.x >= *n || s.y >= *n {
            return Err(bad("a, b, x, y must be reduced mod n"));
        }
        let y2 = (&s.y * &s.y) % n;
        if y2 != (&s.x * &s.x * &s.x + &s.a * &s.x + &s.b) % n || y2.is_zero() {
            return Err(bad("P is not a point of the curve with y != 0"));
        }
        if !s.q.bit(0) {
            return Err(bad("q is even"));
        }
        let w = BigInt::from(n + 1u8) - BigInt::from(s.m.clone());
        if BigInt::from(4u8) * BigInt::from(n.clone()) <= &w * &w {
            return Err(bad("the trace W has W^2 >= 4N"));
        }
        count += 1;
        sections.push_str(&format!(
            "\n[{count}]\nS={}\nW={}\nA={}\nB={}\nT={}\n",
            hex(&BigInt::from(&s.m / &s.q)),
            hex(&w),
            hex(&centred(&s.a, n)),
            hex(&centred(&s.b, n)),
            hex(&BigInt::from(s.x.clone())),
        ));
        if s.q.bits() <= 64 {
            break;
        }
        i = c.prover_after(i, &s.q).ok_or_else(|| bad("q >= 2^64 is not proved by a later step"))?;
    }
    Ok(format!(
        "[PRIMO - Primality Certificate]\nFormat=4\nTestCount={count}\n\n[Comments]\nGenerated by primekit {}\n\n[Candidate]\nN={}\n{sections}",
        env!("CARGO_PKG_VERSION"),
        hex(&BigInt::from(c.steps[0].n().clone())),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::certificate::{EcppStep, PocklingtonStep};

    #[test]
    fn hex_and_centred_forms() {
        assert_eq!(hex(&BigInt::from(255)), "0xFF");
        assert_eq!(hex(&BigInt::from(-4096)), "-0x1000");
        let n = BigUint::from(11u8);
        assert_eq!(centred(&BigUint::from(5u8), &n), BigInt::from(5));
        assert_eq!(centred(&BigUint::from(6u8), &n), BigInt::from(-5));
    }

    #[test]
    fn refuses_what_primo_cannot_hold() {
        let p = PocklingtonStep { n: BigUint::from(1_000_003u32), factors: vec![] };
        let c = Certificate::new(p.n.clone(), vec![Step::Pocklington(p)]);
        assert!(matches!(to_primo(&c), Err(PrimoExportError::Unsupported(_))));
        assert!(matches!(to_primo(&Certificate::new(BigUint::from(7u8), vec![])), Err(PrimoExportError::Unsupported(_))));
        // A point off the curve.
        let s = EcppStep {
            n: BigUint::from(1_000_003u32),
            a: BigUint::from(1u8),
            b: BigUint::from(1u8),
            m: BigUint::from(1_000_001u32),
            q: BigUint::from(1_000_001u32),
            x: BigUint::from(2u8),
            y: BigUint::from(2u8),
            d: None,
        };
        let c = Certificate::new(s.n.clone(), vec![Step::Ecpp(s)]);
        assert!(matches!(to_primo(&c), Err(PrimoExportError::Inconsistent { step: 0, .. })));
    }
}
