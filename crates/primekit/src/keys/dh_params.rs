//! Making Diffie-Hellman parameters, as `openssl dhparam` does: a safe prime p, g = 2,
//! written as PKCS #3 PEM ([`super::dh::to_pkcs3_pem`]). The search for a probable p is
//! `gen`'s (with the congruence p = 23 mod 24 given in `PrimeOptions`); the provable
//! group search every front end (CLI, Python, C) shares is here.

use crate::certificate::Certificate;
use crate::Error;
use num_bigint::BigUint;

/// A provable safe prime p of `bits` bits with p = 7 (mod 8), and its certificate: g = 2
/// then generates the subgroup of order q = (p - 1) / 2, as for the probable groups
/// (2 is a square mod p exactly when p = ±1 mod 8). About one safe prime in two
/// qualifies; 64 misses in a row (chance 2^-64) is reported as an error.
pub fn generate_provable_group(bits: u32) -> Result<(BigUint, Certificate), Error> {
    for _ in 0..64 {
        let (p, cert) = crate::generate_provable_safe_prime(bits)?;
        if (&p % 8u8) == BigUint::from(7u8) {
            return Ok((p, cert));
        }
    }
    Err(Error::SelfTestFailed("64 provable safe primes in a row were 3 mod 8".into()))
}
