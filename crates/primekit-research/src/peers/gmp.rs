//! Minimal safe wrappers over GMP's `mpz` functions (linked by their `__gmpz_` names,
//! since the `mpz_` names are macros in gmp.h).

use num_bigint::BigUint;
use std::os::raw::{c_int, c_void};

/// Layout of GMP's `__mpz_struct`.
#[repr(C)]
struct MpzStruct {
    alloc: c_int,
    size: c_int,
    d: *mut u64,
}

#[link(name = "gmp")]
extern "C" {
    fn __gmpz_init(x: *mut MpzStruct);
    fn __gmpz_clear(x: *mut MpzStruct);
    fn __gmpz_import(rop: *mut MpzStruct, count: usize, order: c_int, size: usize, endian: c_int, nails: usize, op: *const c_void);
    fn __gmpz_export(
        rop: *mut c_void,
        countp: *mut usize,
        order: c_int,
        size: usize,
        endian: c_int,
        nails: usize,
        op: *const MpzStruct,
    ) -> *mut c_void;
    fn __gmpz_sizeinbase(op: *const MpzStruct, base: c_int) -> usize;
    fn __gmpz_powm(rop: *mut MpzStruct, base: *const MpzStruct, exp: *const MpzStruct, m: *const MpzStruct);
    fn __gmpz_powm_sec(rop: *mut MpzStruct, base: *const MpzStruct, exp: *const MpzStruct, m: *const MpzStruct);
    fn __gmpz_probab_prime_p(n: *const MpzStruct, reps: c_int) -> c_int;
    fn __gmpz_nextprime(rop: *mut MpzStruct, op: *const MpzStruct);
}

/// An owned `mpz_t`.
pub struct Mpz(Box<MpzStruct>);

impl Mpz {
    pub fn new() -> Mpz {
        let mut b = Box::new(MpzStruct { alloc: 0, size: 0, d: std::ptr::null_mut() });
        // SAFETY: initialises the struct in place.
        unsafe { __gmpz_init(&mut *b) };
        Mpz(b)
    }

    pub fn from_biguint(x: &BigUint) -> Mpz {
        let mut z = Mpz::new();
        let limbs = x.to_u64_digits();
        // SAFETY: imports `limbs.len()` little-endian-ordered native u64 words.
        unsafe { __gmpz_import(&mut *z.0, limbs.len(), -1, 8, 0, 0, limbs.as_ptr() as *const c_void) };
        z
    }

    pub fn to_biguint(&self) -> BigUint {
        // SAFETY: buffer sized from mpz_sizeinbase(., 2).
        unsafe {
            let words = __gmpz_sizeinbase(&*self.0, 2).div_ceil(64) + 1;
            let mut buf = vec![0u64; words];
            let mut count = 0usize;
            __gmpz_export(buf.as_mut_ptr() as *mut c_void, &mut count, -1, 8, 0, 0, &*self.0);
            buf.truncate(count);
            BigUint::from_slice(&buf.iter().flat_map(|w| [*w as u32, (*w >> 32) as u32]).collect::<Vec<_>>())
        }
    }

    /// The `mpz_t` itself, for other GMP-based libraries (Nettle) that write into it.
    pub(crate) fn as_mut_ptr(&mut self) -> *mut c_void {
        &mut *self.0 as *mut MpzStruct as *mut c_void
    }

    /// `self = b^e mod m` (`mpz_powm`).
    pub fn powm(&mut self, b: &Mpz, e: &Mpz, m: &Mpz) {
        // SAFETY: all initialised.
        unsafe { __gmpz_powm(&mut *self.0, &*b.0, &*e.0, &*m.0) }
    }

    /// `self = b^e mod m` (`mpz_powm_sec`, constant time).
    pub fn powm_sec(&mut self, b: &Mpz, e: &Mpz, m: &Mpz) {
        // SAFETY: all initialised; m odd and e > 0 are the caller's to ensure.
        unsafe { __gmpz_powm_sec(&mut *self.0, &*b.0, &*e.0, &*m.0) }
    }

    /// `mpz_probab_prime_p(self, reps)`: 2 prime, 1 probably prime, 0 composite.
    pub fn probab_prime_p(&self, reps: i32) -> i32 {
        // SAFETY: initialised.
        unsafe { __gmpz_probab_prime_p(&*self.0, reps) }
    }

    /// `mpz_nextprime`.
    pub fn nextprime(&self) -> Mpz {
        let mut r = Mpz::new();
        // SAFETY: initialised.
        unsafe { __gmpz_nextprime(&mut *r.0, &*self.0) };
        r
    }
}

impl Default for Mpz {
    fn default() -> Self {
        Mpz::new()
    }
}

impl Drop for Mpz {
    fn drop(&mut self) {
        // SAFETY: initialised by us.
        unsafe { __gmpz_clear(&mut *self.0) }
    }
}
