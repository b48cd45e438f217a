//! OpenSSL 3 RSA key generation through the EVP API (`EVP_PKEY_keygen`, RSA, e = 65537
//! by default), as `openssl genpkey -algorithm RSA` runs it.

use std::os::raw::{c_int, c_void};

#[allow(non_camel_case_types)]
type EVP_PKEY = c_void;
#[allow(non_camel_case_types)]
type EVP_PKEY_CTX = c_void;

/// `EVP_PKEY_RSA` (= NID_rsaEncryption).
const EVP_PKEY_RSA: c_int = 6;

#[link(name = "crypto")]
extern "C" {
    fn EVP_PKEY_CTX_new_id(id: c_int, engine: *mut c_void) -> *mut EVP_PKEY_CTX;
    fn EVP_PKEY_CTX_free(ctx: *mut EVP_PKEY_CTX);
    fn EVP_PKEY_keygen_init(ctx: *mut EVP_PKEY_CTX) -> c_int;
    fn EVP_PKEY_CTX_set_rsa_keygen_bits(ctx: *mut EVP_PKEY_CTX, bits: c_int) -> c_int;
    fn EVP_PKEY_keygen(ctx: *mut EVP_PKEY_CTX, pkey: *mut *mut EVP_PKEY) -> c_int;
    fn EVP_PKEY_get_bits(pkey: *const EVP_PKEY) -> c_int;
    fn EVP_PKEY_free(pkey: *mut EVP_PKEY);
}

/// Generates one `bits`-bit RSA key with OpenSSL and returns its size in bits (the key
/// itself is freed: only the time is of interest). None if OpenSSL reports a failure.
pub fn generate_rsa_key_bits(bits: u32) -> Option<u32> {
    // SAFETY: each pointer is checked before use and freed exactly once.
    unsafe {
        let ctx = EVP_PKEY_CTX_new_id(EVP_PKEY_RSA, std::ptr::null_mut());
        if ctx.is_null() {
            return None;
        }
        let mut pkey: *mut EVP_PKEY = std::ptr::null_mut();
        let ok = EVP_PKEY_keygen_init(ctx) == 1
            && EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, bits as c_int) == 1
            && EVP_PKEY_keygen(ctx, &mut pkey) == 1;
        EVP_PKEY_CTX_free(ctx);
        if !ok || pkey.is_null() {
            return None;
        }
        let got = EVP_PKEY_get_bits(pkey);
        EVP_PKEY_free(pkey);
        u32::try_from(got).ok()
    }
}

/// RustCrypto's `rsa` crate (`RsaPrivateKey::new`, e = 65537), with the OS generator.
pub fn rustcrypto_rsa_key_bits(bits: u32) -> Option<u32> {
    use rsa::traits::PublicKeyParts;
    let key = rsa::RsaPrivateKey::new(&mut rand_core::OsRng, bits as usize).ok()?;
    u32::try_from(key.size() * 8).ok()
}

#[cfg(test)]
mod tests {
    #[test]
    fn both_peers_make_keys_of_the_size_asked() {
        assert_eq!(super::generate_rsa_key_bits(1024), Some(1024));
        assert_eq!(super::rustcrypto_rsa_key_bits(1024), Some(1024));
    }
}
