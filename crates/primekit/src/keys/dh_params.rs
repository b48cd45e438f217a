//! Making Diffie-Hellman parameters, as `openssl dhparam` does: a safe prime p, g = 2,
//! written as PKCS #3 PEM. The search for a probable p is `gen`'s (with the congruence
//! p = 23 mod 24 given in `PrimeOptions`); here are the pieces every front end (CLI,
//! Python, C) shares around it.

use super::dh::{DhParameter, PKCS3_LABEL};
use crate::certificate::Certificate;
use crate::Error;
use der::asn1::UintRef;
use der::Encode;
use num_bigint::BigUint;

/// PKCS #3 PEM ("DH PARAMETERS") of (p, g), the private-value length omitted as OpenSSL
/// omits it. Errors are the DER encoder's (numbers too large for it).
pub fn params_pem(p: &BigUint, g: &BigUint) -> Result<String, String> {
    let (pb, gb) = (p.to_bytes_be(), g.to_bytes_be());
    let params = DhParameter {
        prime: UintRef::new(&pb).map_err(|e| e.to_string())?,
        base: UintRef::new(&gb).map_err(|e| e.to_string())?,
        private_value_length: None,
    };
    let der = params.to_der().map_err(|e| e.to_string())?;
    pem_rfc7468::encode_string(PKCS3_LABEL, pem_rfc7468::LineEnding::LF, &der).map_err(|e| e.to_string())
}

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
