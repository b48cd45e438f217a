//! Nettle's provable prime generator, `nettle_random_prime` (libhogweed), the peer of
//! `bench provable`: like primekit's it returns a proven prime (Nettle builds it by
//! Pocklington steps on a recursively generated prime, as Maurer and Shawe-Taylor do),
//! but it emits no certificate. Random bytes come from the OS generator.

use super::gmp::Mpz;
use num_bigint::BigUint;
use rand_core::{OsRng, RngCore};
use std::os::raw::{c_int, c_uint, c_void};

type RandomFunc = unsafe extern "C" fn(ctx: *mut c_void, length: usize, dst: *mut u8);
type ProgressFunc = unsafe extern "C" fn(ctx: *mut c_void, c: c_int);

#[link(name = "hogweed")]
extern "C" {
    fn nettle_random_prime(
        p: *mut c_void,
        bits: c_uint,
        top_bits_set: c_int,
        ctx: *mut c_void,
        random: RandomFunc,
        progress_ctx: *mut c_void,
        progress: Option<ProgressFunc>,
    );
}

/// Fills `length` bytes at `dst` from the OS generator; aborts the process if the OS
/// generator fails (Nettle's callback cannot report an error, and a benchmark must not
/// continue on bad randomness).
unsafe extern "C" fn os_random(_ctx: *mut c_void, length: usize, dst: *mut u8) {
    // SAFETY: Nettle passes a writable buffer of `length` bytes.
    let buf = unsafe { std::slice::from_raw_parts_mut(dst, length) };
    if OsRng.try_fill_bytes(buf).is_err() {
        std::process::abort();
    }
}

/// A random proven prime of exactly `bits` bits with its top two bits set
/// (`nettle_random_prime(p, bits, 1, ...)`); `bits` must be at least 3.
pub fn random_prime(bits: u32) -> BigUint {
    assert!(bits >= 3, "nettle_random_prime needs at least 3 bits");
    let mut p = Mpz::new();
    // SAFETY: p is an initialised mpz_t of the same libgmp Nettle links; the callback
    // matches nettle_random_func; no progress callback.
    unsafe { nettle_random_prime(p.as_mut_ptr(), bits, 1, std::ptr::null_mut(), os_random, std::ptr::null_mut(), None) };
    p.to_biguint()
}
