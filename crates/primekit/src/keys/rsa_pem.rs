//! Encodings of generated RSA keys: PKCS#1 `RSAPrivateKey` (RFC 8017 A.1.2), PKCS#8
//! `PrivateKeyInfo` (RFC 5208) around it, and the public key as X.509
//! `SubjectPublicKeyInfo` (RFC 5280 4.1.2.7) around PKCS#1 `RSAPublicKey`, each as DER
//! or PEM, by the RustCrypto `pkcs1`, `pkcs8` and `spki` crates.

use super::rsa_gen::RsaPrivateKey;
use crate::Error;
use der::asn1::{AnyRef, BitStringRef, ObjectIdentifier, UintRef};
use der::Encode;
use num_bigint::BigUint;
use pem_rfc7468::LineEnding;

/// rsaEncryption (PKCS#1), with NULL parameters as RFC 8017 A.1 requires.
const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");

fn der_err(e: der::Error) -> Error {
    Error::InvalidArgument(format!("DER encoding failed: {e}"))
}

fn pem(label: &str, der: &[u8]) -> Result<String, Error> {
    pem_rfc7468::encode_string(label, LineEnding::LF, der).map_err(|e| Error::InvalidArgument(format!("PEM encoding failed: {e}")))
}

fn rsa_algorithm() -> pkcs8::AlgorithmIdentifierRef<'static> {
    pkcs8::AlgorithmIdentifierRef { oid: RSA_ENCRYPTION, parameters: Some(AnyRef::NULL) }
}

impl RsaPrivateKey {
    /// PKCS#1 `RSAPrivateKey` DER.
    pub fn to_pkcs1_der(&self) -> Result<Vec<u8>, Error> {
        let bytes: Vec<Vec<u8>> =
            [&self.n, &self.e, &self.d, &self.p, &self.q, &self.dp, &self.dq, &self.qinv].iter().map(|x| x.to_bytes_be()).collect();
        let u = |i: usize| UintRef::new(&bytes[i]).map_err(der_err);
        let key = pkcs1::RsaPrivateKey {
            modulus: u(0)?,
            public_exponent: u(1)?,
            private_exponent: u(2)?,
            prime1: u(3)?,
            prime2: u(4)?,
            exponent1: u(5)?,
            exponent2: u(6)?,
            coefficient: u(7)?,
            other_prime_infos: None,
        };
        key.to_der().map_err(der_err)
    }

    /// PKCS#8 `PrivateKeyInfo` DER (algorithm rsaEncryption).
    pub fn to_pkcs8_der(&self) -> Result<Vec<u8>, Error> {
        let inner = self.to_pkcs1_der()?;
        pkcs8::PrivateKeyInfo::new(rsa_algorithm(), &inner).to_der().map_err(der_err)
    }

    /// `-----BEGIN RSA PRIVATE KEY-----` (PKCS#1).
    pub fn to_pkcs1_pem(&self) -> Result<String, Error> {
        pem("RSA PRIVATE KEY", &self.to_pkcs1_der()?)
    }

    /// `-----BEGIN PRIVATE KEY-----` (PKCS#8), what `openssl genpkey` writes.
    pub fn to_pkcs8_pem(&self) -> Result<String, Error> {
        pem("PRIVATE KEY", &self.to_pkcs8_der()?)
    }

    /// The public key as `SubjectPublicKeyInfo` DER.
    pub fn public_key_der(&self) -> Result<Vec<u8>, Error> {
        public_key_der(&self.n, &self.e)
    }

    /// `-----BEGIN PUBLIC KEY-----` (SubjectPublicKeyInfo), what `openssl pkey -pubout` writes.
    pub fn public_key_pem(&self) -> Result<String, Error> {
        pem("PUBLIC KEY", &self.public_key_der()?)
    }
}

fn public_key_der(n: &BigUint, e: &BigUint) -> Result<Vec<u8>, Error> {
    let (nb, eb) = (n.to_bytes_be(), e.to_bytes_be());
    let inner = pkcs1::RsaPublicKey { modulus: UintRef::new(&nb).map_err(der_err)?, public_exponent: UintRef::new(&eb).map_err(der_err)? }
        .to_der()
        .map_err(der_err)?;
    let spki = pkcs8::spki::SubjectPublicKeyInfoRef {
        algorithm: rsa_algorithm(),
        subject_public_key: BitStringRef::from_bytes(&inner).map_err(der_err)?,
    };
    spki.to_der().map_err(der_err)
}
