//! `primekit::Error` → Python exception, keeping the core's message.
//!
//! Bad arguments (outside the domain, over a size cap) are `ValueError`, the Python
//! idiom; a failing OS random generator is `OSError`, as for `os.urandom`; anything
//! else is a broken internal precondition, `RuntimeError`.

use pyo3::exceptions::{PyOSError, PyRuntimeError, PyValueError};
use pyo3::PyErr;

pub fn to_py_err(e: primekit::Error) -> PyErr {
    match e {
        primekit::Error::InputTooLarge { .. } | primekit::Error::InvalidArgument(_) => PyValueError::new_err(e.to_string()),
        primekit::Error::Rng(_) => PyOSError::new_err(e.to_string()),
        _ => PyRuntimeError::new_err(e.to_string()),
    }
}
