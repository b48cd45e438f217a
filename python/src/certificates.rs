//! Bindings of provable prime generation and certificate checking.

use crate::convert::{bits_arg, signed_int_arg};
use crate::errors::to_py_err;
use num_bigint::BigUint;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Return (p, certificate): a provable prime of exactly `bits` bits and its primality
/// certificate as JSON text (docs/certificate-format.md).
///
/// - default: Maurer's recursion with each level's proven factor half the size;
/// - safe=True: p = 2q + 1 with q prime, both proven;
/// - maurer=True: Maurer's random relative sizes (closer to uniform over the primes of
///   the size, slower);
/// - seed=bytes: the FIPS 186-5 Shawe-Taylor routine with SHA-256, deterministic: the
///   same seed always gives the same prime (seedlen = 8 * len(seed)).
///
/// Raises ValueError if bits is outside 66..=8192 (67.. for safe primes; 2.. with a
/// seed), for an empty seed, or for more than one of safe, maurer and seed.
#[pyfunction]
#[pyo3(signature = (bits, /, *, safe = false, maurer = false, seed = None))]
fn generate_provable_prime(
    py: Python<'_>,
    bits: &Bound<'_, PyAny>,
    safe: bool,
    maurer: bool,
    seed: Option<Vec<u8>>,
) -> PyResult<(BigUint, String)> {
    let bits = bits_arg(bits, "bits")?;
    if usize::from(safe) + usize::from(maurer) + usize::from(seed.is_some()) > 1 {
        return Err(PyValueError::new_err("choose at most one of safe, maurer and seed"));
    }
    if seed.as_ref().is_some_and(|s| s.is_empty()) {
        return Err(PyValueError::new_err("seed must not be empty"));
    }
    let (p, cert) = py
        .detach(|| match seed {
            Some(seed) => primekit::hazmat::gen::shawe_taylor_random_prime(bits, &BigUint::from_bytes_be(&seed), 8 * seed.len())
                .map(|st| (st.prime, st.certificate)),
            None if safe => primekit::generate_provable_safe_prime(bits),
            None if maurer => primekit::hazmat::gen::generate_provable_prime_maurer(bits),
            None => primekit::generate_provable_prime(bits),
        })
        .map_err(to_py_err)?;
    Ok((p, primekit::certificate::to_json(&cert)))
}

/// Return True if `cert` (JSON text or bytes) is a valid certificate, of `n` when
/// given; False for an invalid or malformed one (never raises on bad content), including
/// one whose estimated checking work exceeds `max_work` (default 2^41,
/// docs/certificate-format.md).
#[pyfunction]
#[pyo3(signature = (cert, /, n = None, *, max_work = None))]
fn verify_certificate(py: Python<'_>, cert: &Bound<'_, PyAny>, n: Option<&Bound<'_, PyAny>>, max_work: Option<u128>) -> PyResult<bool> {
    let text: Vec<u8> = if let Ok(s) = cert.extract::<String>() { s.into_bytes() } else { cert.extract::<Vec<u8>>()? };
    let expected = match n {
        Some(n) => match signed_int_arg(n, "n")? {
            (false, n) => Some(n),
            (true, _) => return Ok(false),
        },
        None => None,
    };
    let max_work = max_work.unwrap_or(primekit::certificate::DEFAULT_MAX_WORK);
    Ok(py.detach(|| {
        primekit::certificate::from_json(&text)
            .and_then(|c| primekit::certificate::verify_with_limit(&c, expected.as_ref(), max_work))
            .is_ok()
    }))
}

/// Return the certificate (JSON text, docs/certificate-format.md) proving `n` prime:
/// Pocklington steps where n - 1 factors, elliptic-curve steps (ECPP) elsewhere; below
/// 2^64 a certificate without steps (the exact test is the proof).
///
/// format="pari": the certificate as a GP expression for PARI/GP's `primecertisvalid`
/// (as `primekit prove --format pari`); format="primo": Primo's certificate format 4
/// (as `primekit prove --format primo`). Both forms are all-elliptic-curve chains, so
/// the proof is made with elliptic-curve steps only.
///
/// Raises ValueError when n is composite (the message says how that showed), negative
/// or above 16,384 bits, for an unknown format, and with format="pari" or "primo" for n
/// below 2^64 (no steps to write); TimeoutError when `max_seconds` passed first; RuntimeError
/// when no proof was found within the prover's limits. `jobs` threads search each step.
#[pyfunction]
#[pyo3(signature = (n, /, *, jobs = 1, max_seconds = None, format = "json"))]
fn prove(py: Python<'_>, n: &Bound<'_, PyAny>, jobs: usize, max_seconds: Option<f64>, format: &str) -> PyResult<String> {
    use primekit::certificate::{prove_with, to_json, to_pari, to_primo, ProveError, ProveOptions};
    if !["json", "pari", "primo"].contains(&format) {
        return Err(PyValueError::new_err(format!("format must be 'json', 'pari' or 'primo', not {format:?}")));
    }
    let n = match signed_int_arg(n, "n")? {
        (false, n) => n,
        (true, _) => return Err(PyValueError::new_err("n must not be negative")),
    };
    let deadline = match max_seconds {
        Some(s) if !(s.is_finite() && s > 0.0) => return Err(PyValueError::new_err("max_seconds must be positive")),
        Some(s) => Some(std::time::Instant::now() + std::time::Duration::from_secs_f64(s.min(1e9))),
        None => None,
    };
    let opts = ProveOptions { jobs: jobs.max(1), deadline, ecpp_only: format != "json", ..ProveOptions::default() };
    match py.detach(|| prove_with(&n, &opts)) {
        Ok(cert) if format == "pari" => to_pari(&cert).map_err(|e| PyValueError::new_err(format!("cannot write PARI's form: {e}"))),
        Ok(cert) if format == "primo" => to_primo(&cert).map_err(|e| PyValueError::new_err(format!("cannot write Primo's form: {e}"))),
        Ok(cert) => Ok(to_json(&cert)),
        Err(e @ ProveError::Composite(_)) => Err(PyValueError::new_err(e.to_string())),
        Err(e @ ProveError::TimedOut) => Err(pyo3::exceptions::PyTimeoutError::new_err(e.to_string())),
        Err(e @ ProveError::NoProof) => Err(pyo3::exceptions::PyRuntimeError::new_err(e.to_string())),
        Err(ProveError::Error(e)) => Err(to_py_err(e)),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(prove, m)?)?;
    m.add_function(wrap_pyfunction!(generate_provable_prime, m)?)?;
    m.add_function(wrap_pyfunction!(verify_certificate, m)?)?;
    Ok(())
}
