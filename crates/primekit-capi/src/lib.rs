//! C interface of primekit: `libprimekit.so.0` / `libprimekit.a` with `primekit.h`
//! (generated from this file by cbindgen; `tests/header.rs` fails when it is stale) and
//! `primekit.pc`, installed by `install.sh`. The contract (numbers, buffers, errors,
//! threads) is stated once in the header's opening comment (`cbindgen.toml`) and in
//! full in docs/capi.md.
//!
//! Every entry point runs inside [`boundary::guard`]: its arguments are checked before
//! any work (NULL, empty and oversized inputs, bad strings, output pointers), errors
//! become status codes with a per-thread message, and a panic becomes
//! `PRIMEKIT_ERR_INTERNAL` instead of unwinding into C. The library keeps no state
//! besides that message and the kernel choice (read once), so every function may be
//! called from any number of threads at once.

#![allow(non_camel_case_types)]

mod boundary;

use boundary::{bytes_in, bytes_out, guard, jobs_in, number_in, out_init, parse_number, str_in, value_init, Failure};
use num_bigint::BigUint;
use primekit::certificate::{ProveError, ProveOptions};
use primekit::keys::{self, CheckReport, InputError};
use primekit::PrimeOptions;
use std::ffi::{c_char, c_int, c_void};

/// Success.
pub const PRIMEKIT_OK: c_int = 0;
/// A required pointer argument is NULL.
pub const PRIMEKIT_ERR_NULL: c_int = 1;
/// A length is 0, above the argument's cap, or a string has no NUL within its cap.
pub const PRIMEKIT_ERR_LENGTH: c_int = 2;
/// A string is not UTF-8, or not a decimal / 0x-hexadecimal number.
pub const PRIMEKIT_ERR_ENCODING: c_int = 3;
/// An argument is outside the function's domain (bits, jobs, count, exponent, ...).
pub const PRIMEKIT_ERR_INVALID_ARGUMENT: c_int = 4;
/// A number is wider than the function accepts.
pub const PRIMEKIT_ERR_TOO_LARGE: c_int = 5;
/// The operating system's random number generator failed.
pub const PRIMEKIT_ERR_RNG: c_int = 6;
/// A PEM buffer could not be audited (not PEM, wrong label, damaged PEM or DER,
/// encrypted or unsupported key, a number above the audit's cap).
pub const PRIMEKIT_ERR_BAD_INPUT: c_int = 7;
/// The certificate is malformed, too costly to check, or does not prove its number.
pub const PRIMEKIT_ERR_INVALID_CERTIFICATE: c_int = 8;
/// The number to prove is composite.
pub const PRIMEKIT_ERR_COMPOSITE: c_int = 9;
/// The time limit passed before a proof was found.
pub const PRIMEKIT_ERR_TIMEOUT: c_int = 10;
/// No proof was found within the prover's limits.
pub const PRIMEKIT_ERR_NO_PROOF: c_int = 11;
/// The environment variable PRIMEKIT_KERNEL names no kernel this CPU runs.
pub const PRIMEKIT_ERR_KERNEL: c_int = 12;
/// Memory for the result could not be allocated.
pub const PRIMEKIT_ERR_ALLOC: c_int = 13;
/// An internal failure (a self-test, or a caught panic): a bug or a hardware fault.
pub const PRIMEKIT_ERR_INTERNAL: c_int = 14;

/// Longest big-endian number accepted, leading zero bytes included (the numbers
/// themselves are capped lower by each function, e.g. 32,768 bits for primality).
pub const PRIMEKIT_MAX_NUMBER_BYTES: usize = 65536;
/// Longest PEM buffer the audits accept (1 MiB).
pub const PRIMEKIT_MAX_PEM_BYTES: usize = 1048576;
/// Longest certificate (JSON text) accepted (1 MiB).
pub const PRIMEKIT_MAX_CERTIFICATE_BYTES: usize = 1048576;
/// Most primes one call of `primekit_generate_primes` makes.
pub const PRIMEKIT_MAX_COUNT: usize = 65536;
/// `primekit_generate_rsa_key` format: PKCS#8 (`-----BEGIN PRIVATE KEY-----`).
pub const PRIMEKIT_RSA_PKCS8: c_int = 0;
/// `primekit_generate_rsa_key` format: PKCS#1 (`-----BEGIN RSA PRIVATE KEY-----`).
pub const PRIMEKIT_RSA_PKCS1: c_int = 1;
/// `primekit_prove_as` format: primekit's JSON certificate (docs/certificate-format.md).
pub const PRIMEKIT_CERT_JSON: c_int = 0;
/// `primekit_prove_as` format: a GP expression for PARI/GP's `primecertisvalid`
/// (elliptic-curve steps only).
pub const PRIMEKIT_CERT_PARI: c_int = 1;
/// `primekit_prove_as` format: Primo's certificate format 4 (elliptic-curve steps only).
pub const PRIMEKIT_CERT_PRIMO: c_int = 2;

// The header states the caps as literals; they must be the library's.
const _: () = assert!(PRIMEKIT_MAX_PEM_BYTES == keys::MAX_INPUT_BYTES);
const _: () = assert!(PRIMEKIT_MAX_CERTIFICATE_BYTES == primekit::certificate::MAX_CERTIFICATE_BYTES);
const _: () = assert!(PRIMEKIT_MAX_NUMBER_BYTES as u64 * 8 >= primekit::MAX_INPUT_BITS);

/// Smallest DH modulus `primekit_generate_dh_params` makes, as the CLI's `dhparam`.
const MIN_DH_BITS: u32 = 64;

/// The library's version ("0.1.0"): a static string, never freed.
#[no_mangle]
pub extern "C" fn primekit_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// Sets `*name` to the arithmetic kernel in use ("ifma", "avx2", "adx" or "portable"):
/// the fastest this CPU runs, or the one PRIMEKIT_KERNEL names (read once per process).
/// `*name` is static, never freed. PRIMEKIT_ERR_KERNEL when PRIMEKIT_KERNEL names a
/// kernel this CPU lacks (every other function then fails the same way).
///
/// # Safety
/// `name` is writable (NULL gives PRIMEKIT_ERR_NULL).
#[no_mangle]
pub unsafe extern "C" fn primekit_kernel(name: *mut *const c_char) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe { value_init(name, std::ptr::null()) }?;
        let kernel =
            primekit::hazmat::mont::Kernel::selected().map_err(|e| Failure::new(PRIMEKIT_ERR_KERNEL, format!("PRIMEKIT_KERNEL: {e}")))?;
        let text: &'static str = match kernel.name() {
            "ifma" => "ifma\0",
            "avx2" => "avx2\0",
            "adx" => "adx\0",
            _ => "portable\0",
        };
        // SAFETY: checked non-NULL by value_init.
        unsafe { name.write(text.as_ptr().cast()) };
        Ok(())
    })
}

/// A static description of a status code ("unknown status code" for any other value).
#[no_mangle]
pub extern "C" fn primekit_strerror(code: c_int) -> *const c_char {
    let text: &'static std::ffi::CStr = match code {
        PRIMEKIT_OK => c"success",
        PRIMEKIT_ERR_NULL => c"a required pointer is NULL",
        PRIMEKIT_ERR_LENGTH => c"a length is zero or above its cap",
        PRIMEKIT_ERR_ENCODING => c"a string is not UTF-8 or not a number",
        PRIMEKIT_ERR_INVALID_ARGUMENT => c"invalid argument",
        PRIMEKIT_ERR_TOO_LARGE => c"number too large",
        PRIMEKIT_ERR_RNG => c"the operating system's random number generator failed",
        PRIMEKIT_ERR_BAD_INPUT => c"the PEM input cannot be audited",
        PRIMEKIT_ERR_INVALID_CERTIFICATE => c"invalid certificate",
        PRIMEKIT_ERR_COMPOSITE => c"the number is composite",
        PRIMEKIT_ERR_TIMEOUT => c"time limit reached",
        PRIMEKIT_ERR_NO_PROOF => c"no proof found within the prover's limits",
        PRIMEKIT_ERR_KERNEL => c"PRIMEKIT_KERNEL names no kernel this CPU runs",
        PRIMEKIT_ERR_ALLOC => c"out of memory",
        PRIMEKIT_ERR_INTERNAL => c"internal error",
        _ => c"unknown status code",
    };
    text.as_ptr()
}

/// The message of the calling thread's last failed call ("" after a success): says
/// which argument and why. Valid until that thread's next call into the library.
#[no_mangle]
pub extern "C" fn primekit_last_error() -> *const c_char {
    boundary::last_error()
}

/// Wipes (zeroes) and releases a buffer returned by this library. NULL is ignored.
///
/// # Safety
/// `p` is NULL or a buffer from this library not yet freed.
#[no_mangle]
pub unsafe extern "C" fn primekit_free(p: *mut c_void) {
    // SAFETY: forwarded contract. release cannot panic; the guard keeps that so.
    let _ = std::panic::catch_unwind(|| unsafe { boundary::release(p.cast()) });
}

/// Sets `*result` to 1 if the number `n` (big-endian, `n_len` bytes) is prime, else 0.
/// Exact below 2^64; above, a composite passes with probability at most 2^-128 whatever
/// n is. PRIMEKIT_ERR_TOO_LARGE above 32,768 bits.
///
/// # Safety
/// `n` points to `n_len` readable bytes; `result` is writable.
#[no_mangle]
pub unsafe extern "C" fn primekit_is_prime(n: *const u8, n_len: usize, result: *mut c_int) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe { value_init(result, 0) }?;
        let n = unsafe { number_in(n, n_len, "n") }?;
        let prime = primekit::try_is_prime(&n)?;
        // SAFETY: checked by value_init.
        unsafe { result.write(c_int::from(prime)) };
        Ok(())
    })
}

/// `primekit_is_prime` on a NUL-terminated decimal or 0x-hexadecimal string.
///
/// # Safety
/// `n` is a NUL-terminated string; `result` is writable.
#[no_mangle]
pub unsafe extern "C" fn primekit_is_prime_str(n: *const c_char, result: *mut c_int) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe { value_init(result, 0) }?;
        let n = parse_number(unsafe { str_in(n, 2 * PRIMEKIT_MAX_NUMBER_BYTES + 2, "n") }?, "n")?;
        let prime = primekit::try_is_prime(&n)?;
        // SAFETY: checked by value_init.
        unsafe { result.write(c_int::from(prime)) };
        Ok(())
    })
}

/// Writes the number `n` as a new buffer of minimal big-endian bytes.
///
/// # Safety
/// `n` is readable for `n_len` bytes; `out`, `out_len` are writable.
unsafe fn walk(
    n: *const u8,
    n_len: usize,
    out: *mut *mut u8,
    out_len: *mut usize,
    step: fn(&BigUint) -> Result<BigUint, primekit::Error>,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe { out_init(out, out_len) }?;
        let n = unsafe { number_in(n, n_len, "n") }?;
        let p = step(&n)?;
        // SAFETY: checked by out_init.
        unsafe { bytes_out(&p.to_bytes_be(), out, out_len) }
    })
}

/// The smallest prime greater than `n` (2 for n < 2), as big-endian bytes in a new
/// buffer. PRIMEKIT_ERR_TOO_LARGE from 32,768 bits.
///
/// # Safety
/// `n` points to `n_len` readable bytes; `out` and `out_len` are writable.
#[no_mangle]
pub unsafe extern "C" fn primekit_next_prime(n: *const u8, n_len: usize, out: *mut *mut u8, out_len: *mut usize) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { walk(n, n_len, out, out_len, primekit::next_prime) }
}

/// The largest prime less than `n`, as big-endian bytes in a new buffer.
/// PRIMEKIT_ERR_INVALID_ARGUMENT for n <= 2, PRIMEKIT_ERR_TOO_LARGE from 32,768 bits.
///
/// # Safety
/// `n` points to `n_len` readable bytes; `out` and `out_len` are writable.
#[no_mangle]
pub unsafe extern "C" fn primekit_prev_prime(n: *const u8, n_len: usize, out: *mut *mut u8, out_len: *mut usize) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { walk(n, n_len, out, out_len, primekit::prev_prime) }
}

/// `count` random primes of exactly `bits` bits (top two bits set), or safe primes
/// p = 2q + 1 when `safe` is non-zero, from the OS random generator. The new buffer
/// holds them back to back, each (bits + 7) / 8 big-endian bytes; *out_len is count
/// times that. `jobs` threads (1..=1024) race on one prime when count is 1 and share
/// the count otherwise. bits: 2..=8192 (safe: 3..=8192, not 4 or 5); count:
/// 1..=PRIMEKIT_MAX_COUNT.
///
/// # Safety
/// `out` and `out_len` are writable.
#[no_mangle]
pub unsafe extern "C" fn primekit_generate_primes(
    bits: u32,
    safe: c_int,
    count: usize,
    jobs: usize,
    out: *mut *mut u8,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe { out_init(out, out_len) }?;
        if !(1..=PRIMEKIT_MAX_COUNT).contains(&count) {
            return Err(Failure::new(PRIMEKIT_ERR_INVALID_ARGUMENT, format!("count must be in 1..={PRIMEKIT_MAX_COUNT} (got {count})")));
        }
        let opts = PrimeOptions::new(bits).safe(safe != 0).jobs(jobs_in(jobs)?);
        let primes = if count == 1 { vec![primekit::generate_prime_with(&opts)?] } else { primekit::generate_primes(&opts, count)? };
        let width = bits.div_ceil(8) as usize;
        let mut all = Vec::with_capacity(width * count);
        for p in primes {
            let b = p.to_bytes_be();
            all.resize(all.len() + width.saturating_sub(b.len()), 0);
            all.extend_from_slice(&b);
        }
        // SAFETY: checked by out_init.
        unsafe { bytes_out(&all, out, out_len) }
    })
}

/// A new RSA private key of `bits` bits (FIPS 186-5 A.1.3; even, 2048..=16384) with
/// public exponent `e` (0 for 65537; otherwise odd, 2^16 < e < 2^64 here), as PEM text
/// (NUL-terminated) in the format PRIMEKIT_RSA_PKCS8 or PRIMEKIT_RSA_PKCS1, searched
/// by `jobs` threads (1..=1024). The buffer is zeroed when freed.
///
/// # Safety
/// `pem` and `pem_len` are writable.
#[no_mangle]
pub unsafe extern "C" fn primekit_generate_rsa_key(
    bits: u32,
    e: u64,
    format: c_int,
    jobs: usize,
    pem: *mut *mut c_char,
    pem_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe { out_init(pem, pem_len) }?;
        if format != PRIMEKIT_RSA_PKCS8 && format != PRIMEKIT_RSA_PKCS1 {
            return Err(Failure::new(
                PRIMEKIT_ERR_INVALID_ARGUMENT,
                format!("format must be PRIMEKIT_RSA_PKCS8 or PRIMEKIT_RSA_PKCS1 (got {format})"),
            ));
        }
        let mut opts = primekit::RsaKeyOptions::new(bits).jobs(jobs_in(jobs)?);
        if e != 0 {
            opts = opts.e(BigUint::from(e));
        }
        let key = primekit::generate_rsa_key_with(&opts)?;
        let text = if format == PRIMEKIT_RSA_PKCS1 { key.to_pkcs1_pem()? } else { key.to_pkcs8_pem()? };
        // SAFETY: checked by out_init.
        let written = unsafe { bytes_out(text.as_bytes(), pem, pem_len) };
        // The PEM's own copy holds the private key too: wipe it before it is dropped.
        let mut text = text.into_bytes();
        text.iter_mut().for_each(|b| unsafe { std::ptr::write_volatile(b, 0) });
        written
    })
}

/// New Diffie-Hellman parameters: a random safe prime p of `bits` bits (64..=8192)
/// with p = 23 (mod 24), so that g = 2 generates the subgroup of prime order (p-1)/2,
/// as `openssl dhparam` makes; PKCS#3 PEM text (NUL-terminated). `jobs` (1..=1024)
/// threads race on the prime.
///
/// # Safety
/// `pem` and `pem_len` are writable.
#[no_mangle]
pub unsafe extern "C" fn primekit_generate_dh_params(bits: u32, jobs: usize, pem: *mut *mut c_char, pem_len: *mut usize) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe { out_init(pem, pem_len) }?;
        if !(MIN_DH_BITS..=primekit::MAX_GEN_BITS).contains(&bits) {
            return Err(Failure::new(
                PRIMEKIT_ERR_INVALID_ARGUMENT,
                format!("bits must be in {MIN_DH_BITS}..={} (got {bits})", primekit::MAX_GEN_BITS),
            ));
        }
        let opts = PrimeOptions::new(bits).safe(true).congruence(BigUint::from(24u8), BigUint::from(23u8)).jobs(jobs_in(jobs)?);
        let p = primekit::generate_prime_with(&opts)?;
        let text = keys::dh::to_pkcs3_pem(&p, &BigUint::from(2u8))?;
        // SAFETY: checked by out_init.
        unsafe { bytes_out(text.as_bytes(), pem, pem_len) }
    })
}

/// Runs one audit on a PEM buffer and returns its JSON report.
///
/// # Safety
/// As the public audit functions.
unsafe fn check(
    command: &str,
    audit: fn(&[u8]) -> Result<CheckReport, InputError>,
    pem: *const u8,
    pem_len: usize,
    ok: *mut c_int,
    json: *mut *mut c_char,
    json_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe { value_init(ok, 0) }?;
        unsafe { out_init(json, json_len) }?;
        let bytes = unsafe { bytes_in(pem, pem_len, PRIMEKIT_MAX_PEM_BYTES, "pem") }?;
        let report = audit(bytes).map_err(|e| Failure::new(PRIMEKIT_ERR_BAD_INPUT, format!("{}: {e}", e.kind())))?;
        let mut v = report.to_json();
        if let Some(obj) = v.as_object_mut() {
            obj.insert("command".into(), serde_json::Value::from(command));
        }
        // SAFETY: checked by value_init and out_init.
        unsafe { bytes_out(v.to_string().as_bytes(), json, json_len) }?;
        unsafe { ok.write(c_int::from(report.ok())) };
        Ok(())
    })
}

/// Audits Diffie-Hellman parameters (PKCS#3 or X9.42 PEM, as `primekit check-dh`;
/// p and q up to 10,000 bits): `*ok` is 1 when every check passed (warnings allowed),
/// and `*json` the report, the object `primekit check-dh --json` prints less its
/// `file` key: {"checks": [{"name", "status", "passed", "detail"}...], "command",
/// "format", "ok"} (docs/json.md). A buffer that cannot be audited is
/// PRIMEKIT_ERR_BAD_INPUT, with primekit_last_error() starting with the CLI's
/// `error_kind` ("not_pem: ...", "wrong_label: ...", "over_limit: ...").
///
/// # Safety
/// `pem` points to `pem_len` readable bytes; `ok`, `json`, `json_len` are writable.
#[no_mangle]
pub unsafe extern "C" fn primekit_check_dh(
    pem: *const u8,
    pem_len: usize,
    ok: *mut c_int,
    json: *mut *mut c_char,
    json_len: *mut usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { check("check-dh", keys::dh::check_dh_pem, pem, pem_len, ok, json, json_len) }
}

/// Audits an RSA private key (PKCS#1 or unencrypted PKCS#8 PEM, as `primekit
/// check-rsa`; integers up to 16,384 bits), as `primekit_check_dh`. Variable time: an
/// offline audit of a key the caller holds.
///
/// # Safety
/// `pem` points to `pem_len` readable bytes; `ok`, `json`, `json_len` are writable.
#[no_mangle]
pub unsafe extern "C" fn primekit_check_rsa(
    pem: *const u8,
    pem_len: usize,
    ok: *mut c_int,
    json: *mut *mut c_char,
    json_len: *mut usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { check("check-rsa", keys::rsa::check_rsa_pem, pem, pem_len, ok, json, json_len) }
}

/// Checks a primality certificate (JSON text, docs/certificate-format.md; not
/// NUL-terminated, `cert_len` bytes): PRIMEKIT_OK when it proves its number prime, and
/// that number is `n` (big-endian) unless `n` is NULL with `n_len` 0;
/// PRIMEKIT_ERR_INVALID_CERTIFICATE otherwise (malformed, wrong number, or estimated
/// checking work above `max_work`; 0 for the default 2^41).
///
/// # Safety
/// `cert` points to `cert_len` readable bytes; `n` is NULL or points to `n_len` bytes.
#[no_mangle]
pub unsafe extern "C" fn primekit_verify_certificate(cert: *const u8, cert_len: usize, n: *const u8, n_len: usize, max_work: u64) -> c_int {
    use primekit::certificate::{from_json, verify_with_limit, DEFAULT_MAX_WORK};
    guard(|| {
        // SAFETY: forwarded contract.
        let text = unsafe { bytes_in(cert, cert_len, PRIMEKIT_MAX_CERTIFICATE_BYTES, "cert") }?;
        let expected = if n.is_null() && n_len == 0 { None } else { Some(unsafe { number_in(n, n_len, "n") }?) };
        let max_work = if max_work == 0 { DEFAULT_MAX_WORK } else { u128::from(max_work) };
        from_json(text)
            .and_then(|c| verify_with_limit(&c, expected.as_ref(), max_work))
            .map(|_| ())
            .map_err(|e| Failure::new(PRIMEKIT_ERR_INVALID_CERTIFICATE, e.to_string()))
    })
}

/// Proves `n` (big-endian) prime: a certificate as JSON text (NUL-terminated,
/// docs/certificate-format.md) with Pocklington steps where n - 1 factors and
/// elliptic-curve steps elsewhere; below 2^64 a certificate without steps. `jobs`
/// (1..=1024) threads search each step; `max_seconds` > 0 is a time limit, 0 none.
/// PRIMEKIT_ERR_COMPOSITE, PRIMEKIT_ERR_TIMEOUT, PRIMEKIT_ERR_NO_PROOF, or
/// PRIMEKIT_ERR_TOO_LARGE above 16,384 bits.
///
/// # Safety
/// `n` points to `n_len` readable bytes; `cert` and `cert_len` are writable.
#[no_mangle]
pub unsafe extern "C" fn primekit_prove(
    n: *const u8,
    n_len: usize,
    jobs: usize,
    max_seconds: f64,
    cert: *mut *mut c_char,
    cert_len: *mut usize,
) -> c_int {
    // SAFETY: forwarded contract.
    unsafe { primekit_prove_as(n, n_len, jobs, max_seconds, PRIMEKIT_CERT_JSON, cert, cert_len) }
}

/// [`primekit_prove`] with the certificate in `format`: PRIMEKIT_CERT_JSON (the same as
/// `primekit_prove`), PRIMEKIT_CERT_PARI (a GP expression for PARI/GP's
/// `primecertisvalid`) or PRIMEKIT_CERT_PRIMO (Primo's certificate format 4); the last
/// two are all-elliptic-curve chains, so the proof is made with elliptic-curve steps
/// only, and refuse n below 2^64 (no steps to write) with PRIMEKIT_ERR_INVALID_ARGUMENT,
/// as an unknown format.
///
/// # Safety
/// `n` points to `n_len` readable bytes; `cert` and `cert_len` are writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn primekit_prove_as(
    n: *const u8,
    n_len: usize,
    jobs: usize,
    max_seconds: f64,
    format: c_int,
    cert: *mut *mut c_char,
    cert_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe { out_init(cert, cert_len) }?;
        if ![PRIMEKIT_CERT_JSON, PRIMEKIT_CERT_PARI, PRIMEKIT_CERT_PRIMO].contains(&format) {
            return Err(Failure::new(PRIMEKIT_ERR_INVALID_ARGUMENT, format!("unknown certificate format {format}")));
        }
        let n = unsafe { number_in(n, n_len, "n") }?;
        let deadline = match max_seconds {
            0.0 => None,
            s if s.is_finite() && s > 0.0 => Some(std::time::Instant::now() + std::time::Duration::from_secs_f64(s.min(1e9))),
            _ => return Err(Failure::new(PRIMEKIT_ERR_INVALID_ARGUMENT, format!("max_seconds must be 0 or positive (got {max_seconds})"))),
        };
        let opts = ProveOptions { jobs: jobs_in(jobs)?, deadline, ecpp_only: format != PRIMEKIT_CERT_JSON, ..ProveOptions::default() };
        let proof = primekit::certificate::prove_with(&n, &opts).map_err(|e| match e {
            ProveError::Composite(_) => Failure::new(PRIMEKIT_ERR_COMPOSITE, e.to_string()),
            ProveError::TimedOut => Failure::new(PRIMEKIT_ERR_TIMEOUT, e.to_string()),
            ProveError::NoProof => Failure::new(PRIMEKIT_ERR_NO_PROOF, e.to_string()),
            ProveError::Error(e) => Failure::from(e),
        })?;
        let text = match format {
            PRIMEKIT_CERT_PARI => primekit::certificate::to_pari(&proof).map_err(|e| e.to_string()),
            PRIMEKIT_CERT_PRIMO => primekit::certificate::to_primo(&proof).map_err(|e| e.to_string()),
            _ => Ok(primekit::certificate::to_json(&proof)),
        }
        .map_err(|e| Failure::new(PRIMEKIT_ERR_INVALID_ARGUMENT, e))?;
        // SAFETY: checked by out_init.
        unsafe { bytes_out(text.as_bytes(), cert, cert_len) }
    })
}

/// Converts a NUL-terminated decimal or 0x-hexadecimal string (digits only: no sign,
/// space or separator) to minimal big-endian bytes in a new buffer ("0" gives one
/// zero byte).
///
/// # Safety
/// `s` is a NUL-terminated string; `out` and `out_len` are writable.
#[no_mangle]
pub unsafe extern "C" fn primekit_parse_number(s: *const c_char, out: *mut *mut u8, out_len: *mut usize) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe { out_init(out, out_len) }?;
        let n = parse_number(unsafe { str_in(s, 2 * PRIMEKIT_MAX_NUMBER_BYTES + 2, "s") }?, "s")?;
        // SAFETY: checked by out_init.
        unsafe { bytes_out(&n.to_bytes_be(), out, out_len) }
    })
}

/// Formats a big-endian number as NUL-terminated text in a new buffer: decimal for
/// `radix` 10, 0x-prefixed lower-case hexadecimal for 16.
///
/// # Safety
/// `n` points to `n_len` readable bytes; `out` and `out_len` are writable.
#[no_mangle]
pub unsafe extern "C" fn primekit_format_number(
    n: *const u8,
    n_len: usize,
    radix: u32,
    out: *mut *mut c_char,
    out_len: *mut usize,
) -> c_int {
    guard(|| {
        // SAFETY: forwarded contract.
        unsafe { out_init(out, out_len) }?;
        let n = unsafe { number_in(n, n_len, "n") }?;
        let text = match radix {
            10 => n.to_string(),
            16 => format!("0x{}", n.to_str_radix(16)),
            _ => return Err(Failure::new(PRIMEKIT_ERR_INVALID_ARGUMENT, format!("radix must be 10 or 16 (got {radix})"))),
        };
        // SAFETY: checked by out_init.
        unsafe { bytes_out(text.as_bytes(), out, out_len) }
    })
}

#[cfg(test)]
mod tests;
