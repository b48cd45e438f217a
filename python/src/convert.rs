//! Python argument → Rust value conversions, with the argument's name in every error.
//!
//! Contract: an "integer" is an `int` or any object with `__index__` (numpy integers,
//! gmpy2 `mpz`), but never a `bool` (a bool reaching a primality test or a size is
//! almost always a bug, e.g. a comparison passed by mistake) and never a `float`
//! (even `7.0`: a float may already have lost digits). Both raise `TypeError`.
//!
//! Ints cross the boundary as machine words (pyo3's `num-bigint` conversion, which
//! copies the int's digits with `_PyLong_AsByteArray`); measured faster than calling
//! `int.to_bytes` from Rust (python/README.md, "Conversion").

use num_bigint::{BigInt, BigUint, Sign};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyInt};

/// Reject bools and non-integers with a `TypeError` naming `name` and the type given.
fn check_integer(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<()> {
    let integer_like = obj.is_instance_of::<PyInt>() || obj.hasattr("__index__")?;
    if obj.is_instance_of::<PyBool>() || !integer_like {
        let ty = obj.get_type().name()?;
        return Err(PyTypeError::new_err(format!("{name} must be an int, not {ty}")));
    }
    Ok(())
}

/// A Python integer of any size and sign.
pub fn int_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<BigInt> {
    check_integer(obj, name)?;
    obj.extract::<BigInt>()
}

/// A Python integer as `(is_negative, magnitude)`, for functions defined on negatives.
pub fn signed_int_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<(bool, BigUint)> {
    let (sign, magnitude) = int_arg(obj, name)?.into_parts();
    Ok((sign == Sign::Minus, magnitude))
}

/// A bit size: a non-negative integer that fits in `u32` (`ValueError` otherwise).
pub fn bits_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<u32> {
    let v = int_arg(obj, name)?;
    if v.sign() == Sign::Minus {
        return Err(PyValueError::new_err(format!("{name} must be non-negative, got {}", show(&v))));
    }
    u32::try_from(&v).map_err(|_| PyValueError::new_err(format!("{name} = {} is too large (at most {})", show(&v), u32::MAX)))
}

/// `v` in decimal if short, else its size: an error message must stay readable.
pub fn show(v: &BigInt) -> String {
    if v.bits() <= 64 {
        v.to_string()
    } else {
        format!("<{}-bit int>", v.bits())
    }
}
