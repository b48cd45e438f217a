//! Binding of RSA key generation (FIPS 186-5 A.1.3) with its PEM encodings.

use crate::convert::{bits_arg, int_arg};
use crate::errors::to_py_err;
use num_bigint::BigUint;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

/// An RSA private key: the integers of PKCS#1 `RSAPrivateKey` and its PEM forms.
#[pyclass(frozen, module = "primekit")]
pub struct RsaPrivateKey {
    key: primekit::RsaPrivateKey,
}

#[pymethods]
impl RsaPrivateKey {
    /// The modulus n = p * q.
    #[getter]
    fn n(&self) -> BigUint {
        self.key.n.clone()
    }
    /// The public exponent.
    #[getter]
    fn e(&self) -> BigUint {
        self.key.e.clone()
    }
    /// The private exponent d = e^-1 mod lcm(p - 1, q - 1).
    #[getter]
    fn d(&self) -> BigUint {
        self.key.d.clone()
    }
    /// The larger prime.
    #[getter]
    fn p(&self) -> BigUint {
        self.key.p.clone()
    }
    /// The smaller prime.
    #[getter]
    fn q(&self) -> BigUint {
        self.key.q.clone()
    }
    /// d mod (p - 1) (`cryptography`'s dmp1).
    #[getter]
    fn dp(&self) -> BigUint {
        self.key.dp.clone()
    }
    /// d mod (q - 1) (`cryptography`'s dmq1).
    #[getter]
    fn dq(&self) -> BigUint {
        self.key.dq.clone()
    }
    /// q^-1 mod p (`cryptography`'s iqmp).
    #[getter]
    fn qinv(&self) -> BigUint {
        self.key.qinv.clone()
    }
    /// The key size in bits.
    #[getter]
    fn bits(&self) -> u64 {
        self.key.n.bits()
    }
    /// The private key as PEM: "pkcs8" (`-----BEGIN PRIVATE KEY-----`, default) or
    /// "pkcs1" (`-----BEGIN RSA PRIVATE KEY-----`).
    #[pyo3(signature = (format = "pkcs8"))]
    fn private_pem(&self, format: &str) -> PyResult<String> {
        match format {
            "pkcs8" => self.key.to_pkcs8_pem(),
            "pkcs1" => self.key.to_pkcs1_pem(),
            _ => return Err(PyValueError::new_err(format!("format must be 'pkcs8' or 'pkcs1', not {format:?}"))),
        }
        .map_err(to_py_err)
    }
    /// The public key as SubjectPublicKeyInfo PEM (`-----BEGIN PUBLIC KEY-----`).
    fn public_pem(&self) -> PyResult<String> {
        self.key.public_key_pem().map_err(to_py_err)
    }
    fn __repr__(&self) -> String {
        format!("<primekit.RsaPrivateKey {} bits, e={}>", self.key.n.bits(), self.key.e)
    }
}

/// Generate an RSA private key of `bits` bits (FIPS 186-5 A.1.3: p, q >=
/// sqrt(2) * 2**(bits/2 - 1), gcd(p - 1, e) = gcd(q - 1, e) = 1,
/// |p - q| > 2**(bits/2 - 100), d > 2**(bits/2), a pairwise consistency test).
///
/// Raises TypeError for non-int arguments, ValueError if bits is odd, below 2048
/// (unless insecure=True, for tests, from 512) or above 16384, or if e is even or
/// outside (2**16, 2**256); OSError if the OS random generator fails.
#[pyfunction]
#[pyo3(signature = (bits, e = None, *, insecure = false))]
fn generate_rsa_key(py: Python<'_>, bits: &Bound<'_, PyAny>, e: Option<&Bound<'_, PyAny>>, insecure: bool) -> PyResult<RsaPrivateKey> {
    let bits = bits_arg(bits, "bits")?;
    let e = match e {
        None => BigUint::from(65_537u32),
        Some(e) => int_arg(e, "e")?.to_biguint().ok_or_else(|| PyValueError::new_err("e must be positive"))?,
    };
    let opts = primekit::RsaKeyOptions::new(bits).e(e).insecure(insecure);
    let key = py.detach(|| primekit::generate_rsa_key_with(&opts)).map_err(to_py_err)?;
    Ok(RsaPrivateKey { key })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RsaPrivateKey>()?;
    m.add_function(wrap_pyfunction!(generate_rsa_key, m)?)?;
    Ok(())
}
