//! Bindings of the prime generators and the prime-walk functions of the core crate.
//!
//! Generation draws from the OS random generator; every candidate is tested with the
//! core's constant-time Miller-Rabin, and the GIL is released for the whole search.

use crate::convert::{bits_arg, show, signed_int_arg};
use crate::detach_if_long;
use crate::errors::to_py_err;
use num_bigint::{BigInt, BigUint};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// Return a random prime of exactly `bits` bits, with its top two bits set (so
/// the product of two has exactly 2 * bits bits), composite with probability at
/// most 2**-128. Randomness comes from the operating system's generator.
///
/// Raises TypeError if bits is not an int (float and bool included), ValueError
/// if bits is negative or outside 2..=8192, OSError if the OS random generator
/// fails.
#[pyfunction]
#[pyo3(signature = (bits, /))]
fn generate_prime(py: Python<'_>, bits: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    let bits = bits_arg(bits, "bits")?;
    py.detach(|| primekit::generate_prime(bits)).map_err(to_py_err)
}

/// Return a random safe prime p of exactly `bits` bits (top two bits set): p and
/// (p - 1) / 2 are both prime. Much slower than generate_prime.
///
/// Raises TypeError if bits is not an int (float and bool included), ValueError
/// if bits is negative or outside 3..=8192 or is 4 or 5 (no safe prime has
/// top bits 11 at those sizes), OSError if the OS random generator fails.
#[pyfunction]
#[pyo3(signature = (bits, /))]
fn generate_safe_prime(py: Python<'_>, bits: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    let bits = bits_arg(bits, "bits")?;
    py.detach(|| primekit::generate_safe_prime(bits)).map_err(to_py_err)
}

/// Return the smallest prime strictly greater than n (2 for every n < 2, as
/// sympy.nextprime).
///
/// Raises TypeError if n is not an int (float and bool included) and ValueError
/// if n has 32768 bits or more.
#[pyfunction]
#[pyo3(signature = (n, /))]
fn next_prime(py: Python<'_>, n: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    let (negative, n) = signed_int_arg(n, "n")?;
    // The core takes n >= 0 and answers 2 below 2; so is it for every negative n.
    let n = if negative { BigUint::ZERO } else { n };
    detach_if_long(py, &n, || primekit::next_prime(&n)).map_err(to_py_err)
}

/// Return the largest prime strictly less than n.
///
/// Raises ValueError if n <= 2 (no prime is smaller than 2, as sympy.prevprime)
/// or if n has 32768 bits or more, and TypeError if n is not an int
/// (float and bool included).
#[pyfunction]
#[pyo3(signature = (n, /))]
fn prev_prime(py: Python<'_>, n: &Bound<'_, PyAny>) -> PyResult<BigUint> {
    let (negative, n) = signed_int_arg(n, "n")?;
    if negative {
        let n = show(&-BigInt::from(n));
        return Err(PyValueError::new_err(format!("invalid argument: there is no prime smaller than {n}")));
    }
    detach_if_long(py, &n, || primekit::prev_prime(&n)).map_err(to_py_err)
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(generate_prime, m)?)?;
    m.add_function(wrap_pyfunction!(generate_safe_prime, m)?)?;
    m.add_function(wrap_pyfunction!(next_prime, m)?)?;
    m.add_function(wrap_pyfunction!(prev_prime, m)?)?;
    Ok(())
}
