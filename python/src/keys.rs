//! Bindings of the key-material jobs: auditing a DH parameter file or an RSA private key
//! (`check_dh`, `check_rsa`, the CLI's `check-dh` / `check-rsa`) and generating DH
//! parameters (`generate_dh_params`, the CLI's `dhparam`).
//!
//! A report is a plain `dict` with the keys and values of the CLI's `--json` object
//! (`docs/json.md`) less `command` and `file`: `{"format", "ok", "checks": [{"name",
//! "status", "passed", "detail"}]}`, so `json.dumps(report)` is that object.
//!
//! Input the audit cannot read raises `primekit.InputError` (a `ValueError`) whose
//! `kind` is the CLI's `error_kind`; an argument of the wrong type raises `TypeError`.

use crate::convert::{bits_arg, int_arg};
use crate::errors::to_py_err;
use num_bigint::{BigUint, Sign};
use primekit::certificate::ProveOptions;
use primekit::keys::{self, CheckReport, Limits, MAX_INPUT_BYTES};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PySlice, PyString};

pyo3::create_exception!(
    primekit,
    InputError,
    PyValueError,
    "The file could not be audited (not PEM, wrong label, damaged PEM or DER, encrypted or \
     unsupported key, too large, or a number over max_bits). `kind` names the reason as the \
     CLI's --json `error_kind` does: too_large, not_pem, wrong_label, pem, der, unsupported, \
     over_limit, limit."
);

/// A `primekit.InputError` carrying the library's message and its `kind`.
fn input_error(py: Python<'_>, e: &keys::InputError) -> PyErr {
    let err = InputError::new_err(e.to_string());
    match err.value(py).setattr("kind", e.kind()) {
        Ok(()) => err,
        Err(setattr_failed) => setattr_failed,
    }
}

/// The bytes of a PEM (or certificate) argument: `str` (as UTF-8) or `bytes`. At most
/// `MAX_INPUT_BYTES + 1` bytes are taken, as the CLI reads a file: a larger input is
/// refused by the library's size check without being copied whole.
fn text_arg(obj: &Bound<'_, PyAny>, name: &str) -> PyResult<Vec<u8>> {
    let cap = MAX_INPUT_BYTES + 1;
    if let Ok(b) = obj.cast::<PyBytes>() {
        let b = b.as_bytes();
        return Ok(b[..b.len().min(cap)].to_vec());
    }
    if let Ok(s) = obj.cast::<PyString>() {
        // A character is at least one UTF-8 byte: the first `cap` characters are enough.
        let head = if s.len()? > cap { s.get_item(PySlice::new(s.py(), 0, cap as isize, 1))?.cast_into::<PyString>()? } else { s.clone() };
        return match head.to_cow() {
            Ok(text) => Ok(text.as_bytes().to_vec()),
            Err(_) => Err(input_error(obj.py(), &keys::InputError::NotPem(format!("{name} is not valid Unicode text")))),
        };
    }
    let ty = obj.get_type().name()?;
    Err(PyTypeError::new_err(format!("{name} must be str or bytes, not {ty}")))
}

/// A `max_bits` argument: None (the audit's default cap) or a non-negative int.
fn max_bits_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<u64>> {
    let Some(obj) = obj else { return Ok(None) };
    if obj.is_none() {
        return Ok(None);
    }
    let v = int_arg(obj, "max_bits")?;
    if v.sign() == Sign::Minus {
        return Err(PyValueError::new_err("max_bits must be non-negative"));
    }
    // Caps above the primality test's own are clamped to it by `Limits::with_max_bits`.
    Ok(Some(u64::try_from(&v).unwrap_or(u64::MAX)))
}

/// A `jobs` argument: 1 when not given, else a non-negative int (checked by the callee).
fn jobs_arg(obj: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    obj.map_or(Ok(1), |j| bits_arg(j, "jobs").map(|j| j as usize))
}

/// The report as the dict described in the module documentation.
fn report_dict<'py>(py: Python<'py>, report: &CheckReport) -> PyResult<Bound<'py, PyDict>> {
    let checks = PyList::empty(py);
    for c in &report.checks {
        let d = PyDict::new(py);
        d.set_item("name", c.name)?;
        d.set_item("status", c.status.as_str())?;
        d.set_item("passed", c.passed())?;
        d.set_item("detail", &c.detail)?;
        checks.append(d)?;
    }
    let out = PyDict::new(py);
    out.set_item("format", report.format)?;
    out.set_item("ok", report.ok())?;
    out.set_item("checks", checks)?;
    Ok(out)
}

/// Audit Diffie-Hellman parameters given as PEM text (str or bytes): a PKCS #3
/// `DH PARAMETERS` block (as `openssl dhparam` writes) or an X9.42 `X9.42 DH PARAMETERS`
/// block. Returns the report, a dict with the keys of `primekit check-dh --json`:
/// `format` ("pkcs3" or "x9.42"), `ok` (every check passed; warnings allowed) and
/// `checks`, a list of dicts `{"name", "status", "passed", "detail"}` in a fixed order,
/// status one of "pass", "warn", "fail", "skip" (docs/json.md, docs/files.md).
///
/// - max_bits: refuse p or q wider than this (default 10000, as OpenSSL);
/// - cert: a primality certificate (JSON text or bytes) that must prove p and the
///   subgroup order q: adds the check `certificate`;
/// - prove=True: prove p and q prime within max_seconds using `jobs` threads: adds
///   `p_proof` and `q_proof` ("warn" when no proof came in time); a standard group's
///   shipped certificate is checked instead of searching;
/// - max_work: with cert, refuse a certificate whose checking work exceeds this
///   (default 2^41).
///
/// Raises TypeError if pem or cert is neither str nor bytes (or max_bits, jobs not
/// ints); primekit.InputError (a ValueError, with `.kind`) if the text cannot be audited;
/// ValueError for a negative max_bits or jobs, or a max_seconds that is not positive.
/// jobs is clamped to 1..=1024.
///
/// >>> import primekit
/// >>> params = primekit.generate_dh_params(512)
/// >>> report = primekit.check_dh(params.pem)
/// >>> report["format"], report["ok"]
/// ('pkcs3', False)
/// >>> [(c["name"], c["status"]) for c in report["checks"]]
/// [('p_size', 'fail'), ('p_prime', 'pass'), ('p_safe_prime', 'pass'), ('g_range', 'pass'), ('g_order', 'pass')]
/// >>> primekit.check_dh("not a PEM file")
/// Traceback (most recent call last):
/// ...
/// primekit.InputError: not a PEM file: ...
#[pyfunction]
#[pyo3(
    signature = (pem, /, *, max_bits = None, cert = None, prove = false, max_seconds = 300.0, jobs = None, max_work = None),
    text_signature = "(pem, /, *, max_bits=None, cert=None, prove=False, max_seconds=300.0, jobs=1, max_work=None)"
)]
#[allow(clippy::too_many_arguments)] // the CLI's options, as keywords
fn check_dh<'py>(
    py: Python<'py>,
    pem: &Bound<'py, PyAny>,
    max_bits: Option<&Bound<'py, PyAny>>,
    cert: Option<&Bound<'py, PyAny>>,
    prove: bool,
    max_seconds: f64,
    jobs: Option<&Bound<'py, PyAny>>,
    max_work: Option<u128>,
) -> PyResult<Bound<'py, PyDict>> {
    let bytes = text_arg(pem, "pem")?;
    let jobs = jobs_arg(jobs)?.clamp(1, 1024);
    let limits = max_bits_arg(max_bits)?.map_or(Limits::dh(), Limits::with_max_bits);
    let cert = cert.filter(|c| !c.is_none()).map(|c| text_arg(c, "cert")).transpose()?;
    if !(max_seconds.is_finite() && max_seconds > 0.0) {
        return Err(PyValueError::new_err("max_seconds must be positive"));
    }
    let max_work = max_work.unwrap_or(primekit::certificate::DEFAULT_MAX_WORK);
    let report = py.detach(|| -> Result<CheckReport, keys::InputError> {
        let mut report = keys::dh::check_dh_pem_with_limits(&bytes, &limits)?;
        if cert.is_none() && !prove {
            return Ok(report);
        }
        let params = keys::dh::parse_dh_pem(&bytes)?;
        if let Some(text) = cert {
            report.checks.push(match primekit::certificate::from_json(&text) {
                Ok(c) => keys::dh::certificate_check(&params, &c, max_work),
                Err(e) => keys::Check::new("certificate", keys::Status::Fail, e.to_string()),
            });
        }
        if prove {
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs_f64(max_seconds.min(1e9));
            let opts = ProveOptions { jobs, deadline: Some(deadline), ..ProveOptions::default() };
            let proofs = keys::dh::proof_checks(&params, &report, &opts);
            report.checks.extend(proofs);
        }
        Ok(report)
    });
    report_dict(py, &report.map_err(|e| input_error(py, &e))?)
}

/// Audit an RSA private key given as PEM text (str or bytes): PKCS #1
/// `RSA PRIVATE KEY` or unencrypted PKCS #8 `PRIVATE KEY`. Returns the report, a dict
/// with the keys of `primekit check-rsa --json`: `format` ("pkcs1" or "pkcs8"), `ok`
/// and `checks` (as check_dh). max_bits refuses a key with an integer wider than this
/// (default 16384).
///
/// The arithmetic is variable-time: audit keys you hold, do not expose this to
/// parties who can time it.
///
/// Raises TypeError if pem is neither str nor bytes; primekit.InputError (a ValueError,
/// with `.kind`) if the text cannot be audited (encrypted and non-RSA keys included);
/// ValueError for a negative max_bits.
///
/// >>> import primekit
/// >>> key = primekit.generate_rsa_key(2048)
/// >>> report = primekit.check_rsa(key.private_pem("pkcs1"))
/// >>> report["format"], report["ok"], report["checks"][0]["name"]
/// ('pkcs1', True, 'n_size')
#[pyfunction]
#[pyo3(signature = (pem, /, *, max_bits = None))]
fn check_rsa<'py>(py: Python<'py>, pem: &Bound<'py, PyAny>, max_bits: Option<&Bound<'py, PyAny>>) -> PyResult<Bound<'py, PyDict>> {
    let bytes = text_arg(pem, "pem")?;
    let limits = max_bits_arg(max_bits)?.map_or(Limits::rsa(), Limits::with_max_bits);
    let report = py.detach(|| keys::rsa::check_rsa_pem_with_limits(&bytes, &limits));
    report_dict(py, &report.map_err(|e| input_error(py, &e))?)
}

/// Smallest DH modulus generated (smaller groups are toys; OpenSSL refuses < 512).
const MIN_DH_BITS: u32 = 64;

/// Diffie-Hellman parameters: a safe prime p = 2q + 1 and the generator g = 2.
#[pyclass(frozen, module = "primekit")]
pub struct DhParameters {
    p: BigUint,
    pem: String,
    certificate: Option<String>,
}

#[pymethods]
impl DhParameters {
    /// The safe prime modulus.
    #[getter]
    fn p(&self) -> BigUint {
        self.p.clone()
    }
    /// The generator, 2 (of the subgroup of prime order q, since p = 7 mod 8).
    #[getter]
    fn g(&self) -> u32 {
        2
    }
    /// The subgroup order q = (p - 1) / 2, prime.
    #[getter]
    fn q(&self) -> BigUint {
        (&self.p - 1u32) >> 1
    }
    /// The size of p in bits.
    #[getter]
    fn bits(&self) -> u64 {
        self.p.bits()
    }
    /// The PKCS #3 `DH PARAMETERS` PEM block, as `openssl dhparam` writes.
    #[getter]
    fn pem(&self) -> String {
        self.pem.clone()
    }
    /// With provable=True, the certificate (JSON text, docs/certificate-format.md)
    /// proving p and q prime; None otherwise.
    #[getter]
    fn certificate(&self) -> Option<String> {
        self.certificate.clone()
    }
    fn __repr__(&self) -> String {
        let kind = if self.certificate.is_some() { "provable" } else { "probable" };
        format!("<primekit.DhParameters {} bits, g=2, {kind}>", self.p.bits())
    }
}

/// Generate Diffie-Hellman parameters, as `primekit dhparam` (and `openssl dhparam`):
/// a random safe prime p of exactly `bits` bits with p = 23 (mod 24), and g = 2, which
/// then generates the subgroup of prime order q = (p - 1) / 2. Returns a DhParameters
/// with `p`, `g`, `q`, `bits`, `pem` (PKCS #3 PEM) and `certificate`.
///
/// provable=True: p and q are proven prime (Pocklington), and `certificate` holds the
/// proof as JSON text (verify it with verify_certificate); otherwise both are prime with
/// error probability at most 2**-128 and `certificate` is None. `jobs` threads race on
/// the search (probable parameters only).
///
/// Raises TypeError for a non-int bits or jobs (float and bool included); ValueError if
/// bits is outside 64..=8192 (67.. with provable=True) or jobs outside 1..=1024; OSError
/// if the OS random generator fails.
///
/// >>> import primekit
/// >>> params = primekit.generate_dh_params(256, provable=True)
/// >>> params.bits, params.g, params.p % 24, params.q == (params.p - 1) // 2
/// (256, 2, 23, True)
/// >>> params.pem.splitlines()[0]
/// '-----BEGIN DH PARAMETERS-----'
/// >>> primekit.verify_certificate(params.certificate, params.p)
/// True
#[pyfunction]
#[pyo3(signature = (bits, /, *, provable = false, jobs = None), text_signature = "(bits, /, *, provable=False, jobs=1)")]
fn generate_dh_params(py: Python<'_>, bits: &Bound<'_, PyAny>, provable: bool, jobs: Option<&Bound<'_, PyAny>>) -> PyResult<DhParameters> {
    let bits = bits_arg(bits, "bits")?;
    let jobs = jobs_arg(jobs)?;
    if !(MIN_DH_BITS..=primekit::MAX_GEN_BITS).contains(&bits) {
        return Err(PyValueError::new_err(format!("bits must be in {MIN_DH_BITS}..={} (got {bits})", primekit::MAX_GEN_BITS)));
    }
    let (p, cert) = py
        .detach(|| {
            if provable {
                keys::dh_params::generate_provable_group(bits).map(|(p, c)| (p, Some(primekit::certificate::to_json(&c))))
            } else {
                let opts = primekit::PrimeOptions::new(bits).safe(true).congruence(BigUint::from(24u8), BigUint::from(23u8)).jobs(jobs);
                primekit::generate_prime_with(&opts).map(|p| (p, None))
            }
        })
        .map_err(to_py_err)?;
    let pem = keys::dh::to_pkcs3_pem(&p, &BigUint::from(2u8)).map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(format!("encoding the parameters failed: {e}")))?;
    Ok(DhParameters { p, pem, certificate: cert })
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("InputError", m.py().get_type::<InputError>())?;
    m.add_class::<DhParameters>()?;
    m.add_function(wrap_pyfunction!(check_dh, m)?)?;
    m.add_function(wrap_pyfunction!(check_rsa, m)?)?;
    m.add_function(wrap_pyfunction!(generate_dh_params, m)?)?;
    Ok(())
}
