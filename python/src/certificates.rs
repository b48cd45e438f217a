//! Bindings of provable prime generation and certificate checking.

use crate::convert::{bits_arg, signed_int_arg};
use crate::errors::to_py_err;
use num_bigint::BigUint;
use pyo3::prelude::*;

/// Return (p, certificate): a random provable prime of exactly `bits` bits and its
/// primality certificate as JSON text (docs/certificate-format.md). With safe=True,
/// p = 2q + 1 with q prime, both proven.
///
/// Raises ValueError if bits is outside 66..=8192 (67.. for safe primes).
#[pyfunction]
#[pyo3(signature = (bits, /, *, safe = false))]
fn generate_provable_prime(py: Python<'_>, bits: &Bound<'_, PyAny>, safe: bool) -> PyResult<(BigUint, String)> {
    let bits = bits_arg(bits, "bits")?;
    let (p, cert) = py
        .detach(|| if safe { primekit::generate_provable_safe_prime(bits) } else { primekit::generate_provable_prime(bits) })
        .map_err(to_py_err)?;
    Ok((p, primekit::certificate::to_json(&cert)))
}

/// Return True if `cert` (JSON text or bytes) is a valid certificate, of `n` when
/// given; False for an invalid or malformed one (never raises on bad content).
#[pyfunction]
#[pyo3(signature = (cert, /, n = None))]
fn verify_certificate(py: Python<'_>, cert: &Bound<'_, PyAny>, n: Option<&Bound<'_, PyAny>>) -> PyResult<bool> {
    let text: Vec<u8> = if let Ok(s) = cert.extract::<String>() { s.into_bytes() } else { cert.extract::<Vec<u8>>()? };
    let expected = match n {
        Some(n) => match signed_int_arg(n, "n")? {
            (false, n) => Some(n),
            (true, _) => return Ok(false),
        },
        None => None,
    };
    Ok(py.detach(|| primekit::certificate::from_json(&text).and_then(|c| primekit::certificate::verify(&c, expected.as_ref())).is_ok()))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(generate_provable_prime, m)?)?;
    m.add_function(wrap_pyfunction!(verify_certificate, m)?)?;
    Ok(())
}
