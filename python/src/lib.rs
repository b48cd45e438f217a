//! `primekit._primekit`: the Python extension module (re-exported by `primekit/__init__.py`).
//!
//! Every function converts its arguments while attached to the interpreter, then
//! detaches (releases the GIL) for the Rust work when that work can be long, so other
//! Python threads run meanwhile; see [`detach_if_long`].

mod certificates;
mod convert;
mod errors;
mod generators;
mod keys;
mod rsa;

use convert::signed_int_arg;
use errors::to_py_err;
use num_bigint::BigUint;
use pyo3::prelude::*;

/// Run `work` with the GIL released if `n` is above 64 bits. Below that the answer is
/// exact and takes well under a microsecond, less than releasing and re-taking the GIL.
pub(crate) fn detach_if_long<T: Send>(py: Python<'_>, n: &BigUint, work: impl FnOnce() -> T + Send) -> T {
    if n.bits() > 64 {
        py.detach(work)
    } else {
        work()
    }
}

/// Return True if the integer n is prime.
///
/// Exact below 2**64; above, a composite is declared prime with probability at
/// most 2**-128 whatever n is (even chosen adversarially): trial division, then
/// Miller-Rabin to base 2 and 64 (128 above 2048 bits) rounds with bases from the
/// OS random generator. Negative numbers, 0 and 1 are not prime (False).
///
/// Raises TypeError if n is not an int (float and bool included) and ValueError
/// if n has more than 32768 bits.
#[pyfunction]
#[pyo3(signature = (n, /))]
fn is_prime(py: Python<'_>, n: &Bound<'_, PyAny>) -> PyResult<bool> {
    let (negative, n) = signed_int_arg(n, "n")?;
    if negative {
        return Ok(false);
    }
    detach_if_long(py, &n, || primekit::try_is_prime(&n)).map_err(to_py_err)
}

#[pymodule]
fn _primekit(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(is_prime, m)?)?;
    generators::register(m)?;
    rsa::register(m)?;
    keys::register(m)?;
    certificates::register(m)?;
    m.add("MAX_INPUT_BITS", primekit::MAX_INPUT_BITS)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
