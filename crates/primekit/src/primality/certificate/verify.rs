//! Checking a certificate: the work estimate and its limit, every step's Pocklington or
//! elliptic-curve conditions, every factor's own proof, and the chain's shape (module
//! documentation of [`super`]).

use super::{Certificate, CertificateError, PocklingtonStep, Step, MAX_CERTIFIED_BITS, MAX_STEPS};
use crate::arith::modexp::modpow_vartime;
use crate::primality::is_prime_u64;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The work limit [`verify`] applies, in the units of [`estimate_work`] (2^41, about
/// 2.2 * 10^12). It admits every certificate primekit makes up to [`MAX_CERTIFIED_BITS`]
/// that fits in [`super::MAX_CERTIFICATE_BYTES`]: a Maurer or Shawe-Taylor chain at
/// 16,384 bits estimates about 2.5 * 10^9; a Pocklington step of [`super::prove`] at
/// 16,384 bits lists at most 1,436 distinct primes (the sum of bits(q) - 1 stays below
/// bits(N - 1)), about 1.5 * 10^12; an elliptic-curve step of 16,384 bits with random a, b and P takes
/// about 32 KB of JSON, so 1 MiB holds at most about 32 of them, about 7 * 10^11.
/// Worst-case times at this limit are in docs/limits.md.
pub const DEFAULT_MAX_WORK: u128 = 1 << 41;

fn invalid(step: usize, reason: impl Into<String>) -> CertificateError {
    CertificateError::Invalid { step, reason: reason.into() }
}

/// Products of 64-bit words in one product modulo an N of `bits` bits: ceil(bits/64)^2.
fn product_cost(bits: u64) -> u128 {
    let words = u128::from(bits.div_ceil(64));
    words * words
}

/// The work of checking `cert`, from the sizes of its numbers and the count of its
/// factors alone (no arithmetic on them), in products of 64-bit words: for a Pocklington
/// step with r factors, (r + 1) * bits(N) modular products; for an elliptic-curve step,
/// 20 * bits(N) (about 2 bits(N) point operations of 10 products each); each modular
/// product of an N of w 64-bit words counts w^2. docs/certificate-format.md states the
/// same formula for every checker.
pub fn estimate_work(cert: &Certificate) -> u128 {
    cert.steps
        .iter()
        .map(|s| {
            let bits = s.n().bits();
            let products = match s {
                Step::Pocklington(p) => (p.factors.len() as u128 + 1) * u128::from(bits),
                Step::Ecpp(_) => 20 * u128::from(bits),
            };
            products * product_cost(bits)
        })
        .sum()
}

/// Checks `cert` within [`DEFAULT_MAX_WORK`]; `Ok(p)` is the number it proves prime.
/// When `expected` is given, the certificate must be for that number.
pub fn verify(cert: &Certificate, expected: Option<&BigUint>) -> Result<BigUint, CertificateError> {
    verify_with_limit(cert, expected, DEFAULT_MAX_WORK)
}

/// [`verify`] with the work limit `max_work` ([`estimate_work`]'s units): a certificate
/// estimated above it is refused as malformed before any arithmetic.
pub fn verify_with_limit(cert: &Certificate, expected: Option<&BigUint>, max_work: u128) -> Result<BigUint, CertificateError> {
    verify_with(cert, expected, max_work, 1)
}

/// [`verify_with_limit`] on `jobs` threads: the steps are independent checks once the
/// chain's shape is known, so they are shared out; the answer, and which step an error
/// names, do not depend on `jobs` (the last step in the chain that fails, as one thread
/// walking the chain from its end finds it).
pub fn verify_with(cert: &Certificate, expected: Option<&BigUint>, max_work: u128, jobs: usize) -> Result<BigUint, CertificateError> {
    verify_chain(cert, expected, max_work, jobs, true)
}

/// [`verify_with`], where `check_points` false leaves out the elliptic-curve steps'
/// scalar multiplications: for the prover's own certificate, whose steps were each
/// accepted by the checker's [`super::ecpp_check::point_test`] on the values they hold.
pub(super) fn verify_chain(
    cert: &Certificate,
    expected: Option<&BigUint>,
    max_work: u128,
    jobs: usize,
    check_points: bool,
) -> Result<BigUint, CertificateError> {
    if cert.steps.len() > MAX_STEPS {
        return Err(CertificateError::Malformed(format!("{} steps, at most {MAX_STEPS}", cert.steps.len())));
    }
    if cert.steps.first().is_some_and(|s| s.n() != &cert.prime) {
        return Err(CertificateError::Malformed("\"prime\" differs from the first step's n".into()));
    }
    let work = estimate_work(cert);
    if work > max_work {
        return Err(CertificateError::Malformed(format!("estimated work {work} exceeds the limit {max_work}; raise it with --max-work")));
    }
    if let Some(want) = expected {
        if &cert.prime != want {
            return Err(invalid(0, "the certificate is for a different number"));
        }
    }
    if cert.steps.is_empty() {
        // A prime below 2^64 needs no steps: the exact test is its proof.
        return match cert.prime.to_u64() {
            Some(p) if is_prime_u64(p) => Ok(cert.prime.clone()),
            Some(_) => Err(invalid(0, "the number is not prime (exact test)")),
            None => Err(invalid(0, "no steps: only a prime below 2^64 may have none")),
        };
    }
    // Each step proves its n prime given its large factors; those must be proved by
    // later steps (so the chain is well founded: no step relies on itself or an earlier
    // one). `last[n]` is the last step proving n: a factor q of step i is proved later
    // when last[q] > i.
    let mut last: HashMap<&BigUint, usize> = HashMap::new();
    for (i, step) in cert.steps.iter().enumerate() {
        last.insert(step.n(), i);
    }
    let last = &last;
    let proved_after = |i: usize| move |q: &BigUint| last.get(q).is_some_and(|&j| j > i);
    let check = |i: usize| -> Result<(), CertificateError> {
        let step = &cert.steps[i];
        check_size(i, step.n())?;
        match step {
            Step::Pocklington(s) => check_pocklington(i, s, &proved_after(i)),
            Step::Ecpp(s) => {
                if !proven(&s.q, &proved_after(i)) {
                    return Err(invalid(i, "q is not prime: below 2^64 the exact test fails, above it no later step proves it"));
                }
                super::ecpp_check::check(s, check_points).map_err(|reason| invalid(i, reason))
            }
        }
    };
    // Steps are handed out from the end of the chain; once step i fails, the steps
    // before it are not started (an error there would not be the one reported).
    let steps = cert.steps.len();
    let next = AtomicUsize::new(0);
    let floor = AtomicUsize::new(0);
    let failed: Mutex<Option<CertificateError>> = Mutex::new(None);
    let failed_at = AtomicUsize::new(0);
    let work = || loop {
        let k = next.fetch_add(1, Ordering::Relaxed);
        if k >= steps {
            break;
        }
        let i = steps - 1 - k;
        if i < floor.load(Ordering::Relaxed) {
            break;
        }
        if let Err(e) = check(i) {
            let mut f = failed.lock().expect("no panics while held");
            if f.is_none() || i >= failed_at.load(Ordering::Relaxed) {
                failed_at.store(i, Ordering::Relaxed);
                *f = Some(e);
            }
            floor.fetch_max(i, Ordering::Relaxed);
        }
    };
    let jobs = jobs.clamp(1, steps);
    if jobs == 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..jobs {
                s.spawn(work);
            }
        });
    }
    match failed.into_inner().expect("no panics while held") {
        Some(e) => Err(e),
        None => Ok(cert.prime.clone()),
    }
}

/// q is prime: below 2^64 by the exact test, otherwise as the n of a later step.
fn proven(q: &BigUint, proved_later: &impl Fn(&BigUint) -> bool) -> bool {
    match q.to_u64() {
        Some(q) => is_prime_u64(q),
        None => proved_later(q),
    }
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

/// The cheap conditions first (each q prime and listed once, F | N - 1 with F bounded by
/// bit lengths before any power is formed, F^2 > N, witnesses in range), then per factor
/// one exponentiation x = a^((N-1)/q) mod N, with x^q = 1 (that is a^(N-1) = 1) and
/// gcd(x - 1, N) = 1.
fn check_pocklington(i: usize, s: &PocklingtonStep, proved_later: &impl Fn(&BigUint) -> bool) -> Result<(), CertificateError> {
    let n = &s.n;
    let n1 = n - 1u8;
    if s.factors.is_empty() {
        return Err(invalid(i, "no factors of N - 1"));
    }
    // F | N - 1 forces F <= N - 1 < 2^bits(N-1), and q^k >= 2^(k (bits(q) - 1)) with
    // bits(q) - 1 >= 1 for q >= 2: so the sum of k (bits(q) - 1) is below bits(N - 1),
    // which also bounds the number of factors. Checked on bit lengths alone.
    let mut low_bits = 0u64;
    let mut seen: HashSet<&BigUint> = HashSet::new();
    for (j, fac) in s.factors.iter().enumerate() {
        let q = &fac.q;
        if !seen.insert(q) {
            return Err(invalid(i, format!("factor {j}: q is listed twice")));
        }
        if !proven(q, proved_later) {
            return Err(invalid(
                i,
                format!("factor {j}: q is not prime: below 2^64 the exact test fails, above it no later step proves it"),
            ));
        }
        low_bits = low_bits.saturating_add(u64::from(fac.k).saturating_mul(q.bits().saturating_sub(1)));
        if low_bits >= n1.bits() {
            return Err(invalid(i, format!("factor {j}: F exceeds N - 1")));
        }
    }
    // Now F < 2^(2 bits(N)): forming it is cheap.
    let f: BigUint = s.factors.iter().map(|fac| fac.q.pow(fac.k)).product();
    if !(&n1 % &f).is_zero() {
        return Err(invalid(i, "F does not divide N - 1"));
    }
    if &f * &f <= *n {
        return Err(invalid(i, "size condition F^2 > N does not hold"));
    }
    for (j, fac) in s.factors.iter().enumerate() {
        if fac.witness < BigUint::from(2u8) || fac.witness >= n1 {
            return Err(invalid(i, format!("factor {j}: witness must be in 2..=N-2")));
        }
    }
    for (j, fac) in s.factors.iter().enumerate() {
        let pow = |b: &BigUint, e: &BigUint| modpow_vartime(b, e, n).map_err(|e| invalid(i, format!("arithmetic: {e}")));
        let x = pow(&fac.witness, &(&n1 / &fac.q))?;
        if !pow(&x, &fac.q)?.is_one() {
            return Err(invalid(i, format!("factor {j}: witness^(N-1) != 1 mod N")));
        }
        let g = if x.is_zero() { n.clone() } else { (x - 1u8).gcd(n) };
        if !g.is_one() {
            return Err(invalid(i, format!("factor {j}: gcd(witness^((N-1)/q) - 1, N) != 1")));
        }
    }
    Ok(())
}
