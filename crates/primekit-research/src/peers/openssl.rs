//! Minimal safe wrappers over the libcrypto (OpenSSL 3) big-number API.

use num_bigint::BigUint;
use std::os::raw::{c_int, c_uchar, c_void};

#[allow(non_camel_case_types)]
#[allow(clippy::upper_case_acronyms)] // the C type's name
type BIGNUM = c_void;
#[allow(non_camel_case_types)]
type BN_CTX = c_void;
#[allow(non_camel_case_types)]
type BN_MONT_CTX = c_void;

#[link(name = "crypto")]
extern "C" {
    fn BN_new() -> *mut BIGNUM;
    fn BN_free(a: *mut BIGNUM);
    fn BN_bin2bn(s: *const c_uchar, len: c_int, ret: *mut BIGNUM) -> *mut BIGNUM;
    fn BN_bn2bin(a: *const BIGNUM, to: *mut c_uchar) -> c_int;
    fn BN_num_bits(a: *const BIGNUM) -> c_int;
    fn BN_CTX_new() -> *mut BN_CTX;
    fn BN_CTX_free(c: *mut BN_CTX);
    fn BN_MONT_CTX_new() -> *mut BN_MONT_CTX;
    fn BN_MONT_CTX_free(m: *mut BN_MONT_CTX);
    fn BN_MONT_CTX_set(m: *mut BN_MONT_CTX, modulus: *const BIGNUM, ctx: *mut BN_CTX) -> c_int;
    fn BN_mod_exp_mont(
        r: *mut BIGNUM,
        a: *const BIGNUM,
        p: *const BIGNUM,
        m: *const BIGNUM,
        ctx: *mut BN_CTX,
        m_ctx: *mut BN_MONT_CTX,
    ) -> c_int;
    fn BN_mod_exp_mont_consttime(
        r: *mut BIGNUM,
        a: *const BIGNUM,
        p: *const BIGNUM,
        m: *const BIGNUM,
        ctx: *mut BN_CTX,
        m_ctx: *mut BN_MONT_CTX,
    ) -> c_int;
    fn BN_check_prime(p: *const BIGNUM, ctx: *mut BN_CTX, cb: *mut c_void) -> c_int;
    fn BN_generate_prime_ex2(
        ret: *mut BIGNUM,
        bits: c_int,
        safe: c_int,
        add: *const BIGNUM,
        rem: *const BIGNUM,
        cb: *mut c_void,
        ctx: *mut BN_CTX,
    ) -> c_int;
}

/// An owned OpenSSL object: `$name::new()` allocates it with `$new` (panicking when
/// that fails), dropping it frees it with `$free`.
macro_rules! owned {
    ($(#[$doc:meta])* $name:ident($ty:ty) by $new:ident, $free:ident) => {
        $(#[$doc])*
        pub struct $name(*mut $ty);

        impl $name {
            /// The raw pointer, for FFI calls that read the object.
            pub fn as_ptr(&self) -> *const $ty {
                self.0
            }

            /// The raw pointer, for FFI calls that write the object (OpenSSL objects are
            /// not shared between threads: the wrappers are neither `Send` nor `Sync`).
            pub fn as_mut_ptr(&self) -> *mut $ty {
                self.0
            }

            /// A fresh object (a `BIGNUM` holds zero).
            pub fn new() -> $name {
                // SAFETY: plain allocation.
                let p = unsafe { $new() };
                assert!(!p.is_null(), concat!(stringify!($new), " failed"));
                $name(p)
            }
        }

        impl Default for $name {
            fn default() -> Self {
                $name::new()
            }
        }

        impl Drop for $name {
            fn drop(&mut self) {
                // SAFETY: we own the pointer.
                unsafe { $free(self.0) }
            }
        }
    };
}

owned!(
    /// An owned OpenSSL `BIGNUM`.
    Bn(BIGNUM) by BN_new, BN_free
);
owned!(
    /// An owned `BN_CTX` (OpenSSL's scratch pool).
    Ctx(BN_CTX) by BN_CTX_new, BN_CTX_free
);
owned!(
    /// An owned `BN_MONT_CTX`, set for a modulus by [`MontExp::new`].
    MontCtx(BN_MONT_CTX) by BN_MONT_CTX_new, BN_MONT_CTX_free
);

impl Bn {
    /// The same value as `x`.
    pub fn from_biguint(x: &BigUint) -> Bn {
        let bytes = x.to_bytes_be();
        // SAFETY: BN_bin2bn with a null `ret` allocates; we check for failure.
        let p = unsafe { BN_bin2bn(bytes.as_ptr(), bytes.len() as c_int, std::ptr::null_mut()) };
        assert!(!p.is_null(), "BN_bin2bn failed");
        Bn(p)
    }

    /// The value as a `BigUint`.
    pub fn to_biguint(&self) -> BigUint {
        // SAFETY: buffer sized from BN_num_bits.
        unsafe {
            let len = (BN_num_bits(self.0) as usize).div_ceil(8);
            let mut buf = vec![0u8; len];
            BN_bn2bin(self.0, buf.as_mut_ptr());
            BigUint::from_bytes_be(&buf)
        }
    }
}

/// OpenSSL's Montgomery context for a fixed odd modulus, as `BN_mod_exp_mont` uses it.
pub struct MontExp {
    mont: MontCtx,
    m: Bn,
    ctx: Ctx,
}

impl MontExp {
    pub fn new(m: &BigUint) -> MontExp {
        let m = Bn::from_biguint(m);
        let ctx = Ctx::new();
        let mont = MontCtx::new();
        // SAFETY: live objects; failure checked.
        assert!(unsafe { BN_MONT_CTX_set(mont.0, m.0, ctx.0) } == 1, "BN_MONT_CTX_set failed");
        MontExp { mont, m, ctx }
    }

    /// `r = a^p mod m` with `BN_mod_exp_mont` (variable time, OpenSSL's fastest path).
    pub fn exp(&self, r: &mut Bn, a: &Bn, p: &Bn) {
        // SAFETY: all objects live; the Montgomery context matches m.
        let ok = unsafe { BN_mod_exp_mont(r.0, a.0, p.0, self.m.0, self.ctx.0, self.mont.0) };
        assert_eq!(ok, 1, "BN_mod_exp_mont failed");
    }

    /// `r = a^p mod m` with `BN_mod_exp_mont_consttime`.
    pub fn exp_consttime(&self, r: &mut Bn, a: &Bn, p: &Bn) {
        // SAFETY: as above.
        let ok = unsafe { BN_mod_exp_mont_consttime(r.0, a.0, p.0, self.m.0, self.ctx.0, self.mont.0) };
        assert_eq!(ok, 1, "BN_mod_exp_mont_consttime failed");
    }
}

/// `BN_check_prime` (OpenSSL 3's misuse-resistant test): Some(true) prime, Some(false)
/// composite, None on an OpenSSL error.
pub fn check_prime(n: &Bn, ctx: &Ctx) -> Option<bool> {
    // SAFETY: live objects, null callback allowed.
    match unsafe { BN_check_prime(n.0, ctx.0, std::ptr::null_mut()) } {
        1 => Some(true),
        0 => Some(false),
        _ => None,
    }
}

/// `BN_generate_prime_ex2(bits, safe)` with no add/rem constraint.
pub fn generate_prime(bits: u32, safe: bool, ctx: &Ctx) -> BigUint {
    let r = Bn::new();
    // SAFETY: live objects; null add/rem/callback are allowed.
    let ok = unsafe {
        BN_generate_prime_ex2(r.0, bits as c_int, safe as c_int, std::ptr::null(), std::ptr::null(), std::ptr::null_mut(), ctx.0)
    };
    assert_eq!(ok, 1, "BN_generate_prime_ex2 failed");
    r.to_biguint()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrappers_agree_with_num_bigint() {
        let m = BigUint::from(1_000_000_007u64) * 998_244_353u64;
        let (a, p) = (BigUint::from(123_456_789u64), BigUint::from(65_537u32));
        let want = a.modpow(&p, &m);
        let mont = MontExp::new(&m);
        let mut r = Bn::default();
        mont.exp(&mut r, &Bn::from_biguint(&a), &Bn::from_biguint(&p));
        assert_eq!(r.to_biguint(), want);
        mont.exp_consttime(&mut r, &Bn::from_biguint(&a), &Bn::from_biguint(&p));
        assert_eq!(r.to_biguint(), want);
        let ctx = Ctx::new();
        assert_eq!(check_prime(&Bn::from_biguint(&BigUint::from(998_244_353u64)), &ctx), Some(true));
        assert_eq!(check_prime(&Bn::from_biguint(&m), &ctx), Some(false));
        assert_eq!(generate_prime(128, false, &ctx).bits(), 128);
    }
}
