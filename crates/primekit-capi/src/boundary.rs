//! The checks and conversions every entry point of the C interface goes through:
//! a panic guard, argument readers that refuse NULL, empty and oversized inputs before
//! touching memory, the output allocator, and the per-thread error message.
//!
//! This module and `lib.rs` are the only places with `unsafe`: each use reads or
//! writes a pointer the caller passed, after the checks named at the use.

use crate::*;
use num_bigint::BigUint;
use std::cell::RefCell;
use std::ffi::{c_char, c_int, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Why a call failed: a status code and the message `primekit_last_error` returns.
pub struct Failure {
    pub code: c_int,
    pub message: String,
}

impl Failure {
    pub fn new(code: c_int, message: impl Into<String>) -> Self {
        Failure { code, message: message.into() }
    }
}

impl From<primekit::Error> for Failure {
    fn from(e: primekit::Error) -> Self {
        use primekit::hazmat::mont::ArithError;
        use primekit::Error;
        let code = match &e {
            Error::InputTooLarge { .. } => PRIMEKIT_ERR_TOO_LARGE,
            Error::Rng(_) => PRIMEKIT_ERR_RNG,
            Error::InvalidArgument(_) => PRIMEKIT_ERR_INVALID_ARGUMENT,
            Error::Arith(ArithError::UnknownKernel(_) | ArithError::KernelUnavailable) => PRIMEKIT_ERR_KERNEL,
            _ => PRIMEKIT_ERR_INTERNAL,
        };
        Failure::new(code, e.to_string())
    }
}

pub type Result<T> = std::result::Result<T, Failure>;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_last_error(message: &str) {
    // A message with an interior NUL (it could quote caller input) is cut there.
    let text = CString::new(message.split('\0').next().unwrap_or_default()).unwrap_or_default();
    // try_with: during the thread's exit (a C thread-local destructor calling in) the
    // message is gone; the status code still tells.
    let _ = LAST_ERROR.try_with(|m| *m.borrow_mut() = text);
}

/// The calling thread's last error message; valid until its next call into the library
/// ("" once the thread's own storage has been torn down at its exit).
pub fn last_error() -> *const c_char {
    LAST_ERROR.try_with(|m| m.borrow().as_ptr()).unwrap_or(c"".as_ptr())
}

/// Runs one entry point: its status code, with no panic crossing into C (a panic is
/// reported as `PRIMEKIT_ERR_INTERNAL`) and the thread's error message updated.
pub fn guard(f: impl FnOnce() -> Result<()>) -> c_int {
    let outcome = catch_unwind(AssertUnwindSafe(f)).unwrap_or_else(|payload| {
        let what = payload
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| payload.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown".into());
        Err(Failure::new(PRIMEKIT_ERR_INTERNAL, format!("internal error (a panic was caught): {what}")))
    });
    match outcome {
        Ok(()) => {
            set_last_error("");
            PRIMEKIT_OK
        }
        Err(f) => {
            set_last_error(&f.message);
            f.code
        }
    }
}

/// `len` bytes at `ptr`: refused when `ptr` is NULL, `len` is 0 or above `max` (checked
/// before any byte is read, so an absurd length never reaches memory).
///
/// # Safety
/// When the checks pass, `ptr` must point to `len` readable bytes that outlive the call.
pub unsafe fn bytes_in<'a>(ptr: *const u8, len: usize, max: usize, what: &str) -> Result<&'a [u8]> {
    if ptr.is_null() {
        return Err(Failure::new(PRIMEKIT_ERR_NULL, format!("{what} is NULL")));
    }
    if len == 0 {
        return Err(Failure::new(PRIMEKIT_ERR_LENGTH, format!("{what} is empty (length 0)")));
    }
    if len > max {
        return Err(Failure::new(PRIMEKIT_ERR_LENGTH, format!("{what} is {len} bytes; at most {max} are accepted")));
    }
    // SAFETY: non-NULL, 0 < len <= max, and the caller guarantees len readable bytes.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// A number given as big-endian bytes (leading zero bytes allowed).
///
/// # Safety
/// As [`bytes_in`].
pub unsafe fn number_in(ptr: *const u8, len: usize, what: &str) -> Result<BigUint> {
    // SAFETY: forwarded contract.
    Ok(BigUint::from_bytes_be(unsafe { bytes_in(ptr, len, PRIMEKIT_MAX_NUMBER_BYTES, what) }?))
}

/// A NUL-terminated UTF-8 string of at most `max` bytes before the NUL. The bytes are
/// read one by one up to the NUL, or to `max + 1` bytes when there is none, so an
/// unterminated string is refused after a bounded read.
///
/// # Safety
/// `ptr`, when not NULL, must point to a NUL-terminated string or to at least `max + 1`
/// readable bytes.
pub unsafe fn str_in<'a>(ptr: *const c_char, max: usize, what: &str) -> Result<&'a str> {
    if ptr.is_null() {
        return Err(Failure::new(PRIMEKIT_ERR_NULL, format!("{what} is NULL")));
    }
    let mut len = 0;
    // SAFETY: each byte read is at or before the terminating NUL, or within max + 1.
    while unsafe { *ptr.add(len) } != 0 {
        len += 1;
        if len > max {
            return Err(Failure::new(PRIMEKIT_ERR_LENGTH, format!("{what} has no NUL within {max} bytes")));
        }
    }
    // SAFETY: the len bytes before the NUL were just read.
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    std::str::from_utf8(bytes).map_err(|e| Failure::new(PRIMEKIT_ERR_ENCODING, format!("{what} is not UTF-8: {e}")))
}

/// A decimal or `0x`-prefixed hexadecimal number: digits only (no sign, space or `_`).
pub fn parse_number(s: &str, what: &str) -> Result<BigUint> {
    let (digits, radix) = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => (hex, 16),
        None => (s, 10),
    };
    let valid = !digits.is_empty() && digits.chars().all(|c| c.is_digit(radix));
    match valid.then(|| BigUint::parse_bytes(digits.as_bytes(), radix)).flatten() {
        Some(n) => Ok(n),
        None => Err(Failure::new(PRIMEKIT_ERR_ENCODING, format!("{what} is not a decimal or 0x-hexadecimal number"))),
    }
}

/// Checks an output pair (both non-NULL) and clears it, so that it reads NULL / 0
/// whenever the call fails. Done on entry, before any work.
///
/// # Safety
/// Non-NULL pointers must be writable.
pub unsafe fn out_init<T>(out: *mut *mut T, out_len: *mut usize) -> Result<()> {
    if out.is_null() || out_len.is_null() {
        return Err(Failure::new(PRIMEKIT_ERR_NULL, "output pointer is NULL"));
    }
    // SAFETY: both non-NULL and writable by contract.
    unsafe {
        *out = std::ptr::null_mut();
        *out_len = 0;
    }
    Ok(())
}

/// Checks a single output value's pointer and sets it to `init`.
///
/// # Safety
/// A non-NULL `out` must be writable.
pub unsafe fn value_init<T>(out: *mut T, init: T) -> Result<()> {
    if out.is_null() {
        return Err(Failure::new(PRIMEKIT_ERR_NULL, "output pointer is NULL"));
    }
    // SAFETY: non-NULL and writable by contract.
    unsafe { out.write(init) };
    Ok(())
}

/// Size of the header in front of every buffer the library returns: it records the
/// allocation's size, so that `primekit_free` can wipe the whole buffer (private keys
/// pass through these) before releasing it. 16 keeps malloc's alignment.
const HEADER: usize = 16;

/// Copies `data` into a new buffer (followed by one NUL byte, so text is a C string)
/// and stores it in `*out`, its length without the NUL in `*out_len`.
///
/// # Safety
/// `out` and `out_len` passed [`out_init`].
pub unsafe fn bytes_out<T>(data: &[u8], out: *mut *mut T, out_len: *mut usize) -> Result<()> {
    let total = data.len().checked_add(HEADER + 1).ok_or_else(|| Failure::new(PRIMEKIT_ERR_ALLOC, "output too large"))?;
    // SAFETY: malloc of a non-zero size; its result is checked for NULL.
    let base = unsafe { libc::malloc(total) }.cast::<u8>();
    if base.is_null() {
        return Err(Failure::new(PRIMEKIT_ERR_ALLOC, format!("cannot allocate {total} bytes")));
    }
    // SAFETY: base has `total` writable bytes, malloc-aligned (at least 8 for the
    // usize), and data does not overlap a fresh allocation.
    unsafe {
        base.cast::<usize>().write(total);
        let body = base.add(HEADER);
        std::ptr::copy_nonoverlapping(data.as_ptr(), body, data.len());
        body.add(data.len()).write(0);
        *out = body.cast::<T>();
        *out_len = data.len();
    }
    Ok(())
}

/// Wipes and releases a buffer made by [`bytes_out`]; NULL is ignored.
///
/// # Safety
/// `p` is NULL or a pointer [`bytes_out`] returned, not yet released.
pub unsafe fn release(p: *mut u8) {
    if p.is_null() {
        return;
    }
    // SAFETY: p came from bytes_out, so HEADER bytes before it start the allocation,
    // whose first usize is its size; the volatile writes keep the wipe from being
    // optimised away before free.
    unsafe {
        let base = p.sub(HEADER);
        let total = base.cast::<usize>().read();
        for i in 0..total {
            base.add(i).write_volatile(0);
        }
        libc::free(base.cast());
    }
}

/// The `jobs` argument of the generators and the prover: 1..=1024 threads.
pub fn jobs_in(jobs: usize) -> Result<usize> {
    if (1..=1024).contains(&jobs) {
        Ok(jobs)
    } else {
        Err(Failure::new(PRIMEKIT_ERR_INVALID_ARGUMENT, format!("jobs must be in 1..=1024 (got {jobs})")))
    }
}
