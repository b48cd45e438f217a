//! Audit of RSA private keys.
//!
//! Reads the first PEM block labelled `RSA PRIVATE KEY` (PKCS#1 `RSAPrivateKey`, RFC 8017
//! A.1.2, decoded by the `pkcs1` crate) or `PRIVATE KEY` (PKCS#8 `PrivateKeyInfo`, by the
//! `pkcs8` crate, algorithm rsaEncryption or id-RSASSA-PSS; any other algorithm is
//! [`InputError::Unsupported`]). Encrypted keys (`ENCRYPTED PRIVATE KEY`, or legacy
//! `Proc-Type: 4,ENCRYPTED`) and multi-prime keys are unsupported. All numbers are
//! limited to [`crate::primality::is_prime::MAX_INPUT_BITS`] bits.
//!
//! Checks, in this order (names are stable): `n_size`, `p_prime`, `q_prime`,
//! `n_equals_pq`, `pq_distance` (|p-q| > 2^(nbits/2-100), FIPS 186-4 B.3.1, against
//! Fermat factoring), `e_valid` (odd, >= 3; warns at e <= 2^16, which FIPS 186-4 rules
//! out), `ed_inverse` (e*d = 1 mod lambda(n) = lcm(p-1, q-1); this also accepts the
//! phi(n) form), `dp_crt` (dP = d mod (p-1)), `dq_crt` (dQ = d mod (q-1)), `qinv_crt`
//! (qInv < p and qInv*q = 1 mod p).
//!
//! Variable time on secret values: an offline audit of a key the caller holds.

use super::input::{decode_pem, uint_value, InputError};
use super::limits::Limits;
use super::policy;
use super::report::{Check, CheckReport, Status};
pub use super::rsa_gen::RsaPrivateKey;
use crate::try_is_prime;
use der::asn1::ObjectIdentifier;
use der::Decode;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;

/// PEM label of a PKCS#1 key.
pub const PKCS1_LABEL: &str = "RSA PRIVATE KEY";
/// PEM label of a PKCS#8 key.
pub const PKCS8_LABEL: &str = "PRIVATE KEY";

/// rsaEncryption (PKCS#1).
const RSA_ENCRYPTION: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.1");
/// id-RSASSA-PSS: an RSA key restricted to PSS; same private-key structure.
const RSASSA_PSS: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.2.840.113549.1.1.10");

/// A readable name for the algorithm OIDs users most often feed us by mistake.
fn algorithm_name(oid: &ObjectIdentifier) -> &'static str {
    match oid.to_string().as_str() {
        "1.2.840.10045.2.1" => "EC",
        "1.3.101.110" => "X25519",
        "1.3.101.111" => "X448",
        "1.3.101.112" => "Ed25519",
        "1.3.101.113" => "Ed448",
        "1.2.840.10040.4.1" => "DSA",
        "1.2.840.113549.1.3.1" | "1.2.840.10046.2.1" => "DH",
        _ => "unknown",
    }
}

fn from_pkcs1(der: &[u8]) -> Result<RsaPrivateKey, InputError> {
    let k = pkcs1::RsaPrivateKey::from_der(der).map_err(|e| InputError::Der(format!("RSAPrivateKey: {e}")))?;
    if k.other_prime_infos.is_some() {
        return Err(InputError::Unsupported("multi-prime RSA keys (otherPrimeInfos) are unsupported".into()));
    }
    Ok(RsaPrivateKey {
        n: uint_value(&k.modulus)?,
        e: uint_value(&k.public_exponent)?,
        d: uint_value(&k.private_exponent)?,
        p: uint_value(&k.prime1)?,
        q: uint_value(&k.prime2)?,
        dp: uint_value(&k.exponent1)?,
        dq: uint_value(&k.exponent2)?,
        qinv: uint_value(&k.coefficient)?,
    })
}

/// Parses a PEM file's bytes (see module docs for the accepted labels): the container
/// format (`"pkcs1"` or `"pkcs8"`) and the key, the same type key generation returns.
pub fn parse_rsa_pem(bytes: &[u8]) -> Result<(&'static str, RsaPrivateKey), InputError> {
    let (label, der) = decode_pem(bytes, &[PKCS1_LABEL, PKCS8_LABEL])?;
    if label == PKCS1_LABEL {
        return Ok(("pkcs1", from_pkcs1(&der)?));
    }
    let info = pkcs8::PrivateKeyInfo::from_der(&der).map_err(|e| InputError::Der(format!("PrivateKeyInfo: {e}")))?;
    let oid = info.algorithm.oid;
    if oid != RSA_ENCRYPTION && oid != RSASSA_PSS {
        return Err(InputError::Unsupported(format!(
            "the PKCS#8 key is not an RSA key (algorithm {oid}, {}); only RSA keys are audited",
            algorithm_name(&oid)
        )));
    }
    Ok(("pkcs8", from_pkcs1(info.private_key)?))
}

/// Parses and audits a PEM file's bytes, with the default size cap ([`Limits::rsa`]).
pub fn check_rsa_pem(bytes: &[u8]) -> Result<CheckReport, InputError> {
    check_rsa_pem_with_limits(bytes, &Limits::rsa())
}

/// Parses and audits a PEM file's bytes under `limits`.
pub fn check_rsa_pem_with_limits(bytes: &[u8], limits: &Limits) -> Result<CheckReport, InputError> {
    let (format, key) = parse_rsa_pem(bytes)?;
    audit(format, &key, limits)
}

fn prime_check(name: &'static str, what: &str, v: &BigUint) -> Result<Check, InputError> {
    let prime = try_is_prime(v)?;
    Ok(Check::new(
        name,
        Status::from_bool(prime),
        if prime { format!("{what} is prime (error probability <= 2^-128)") } else { format!("{what} is composite") },
    ))
}

/// A property that holds or not; the detail states it, prefixed by NOT when it fails.
fn congruence(name: &'static str, holds: bool, text: &str) -> Check {
    Check::new(name, Status::from_bool(holds), if holds { text.to_string() } else { format!("NOT {text}") })
}

/// Audits a key (parsed, or generated by [`crate::generate_rsa_key`]) with the default
/// size cap ([`Limits::rsa`]); the report's format is `"key"` (no file was parsed).
pub fn check_rsa(k: &RsaPrivateKey) -> Result<CheckReport, InputError> {
    check_rsa_with_limits(k, &Limits::rsa())
}

/// Audits a parsed key; errors if one of its integers is wider than `limits` allows
/// (before any arithmetic), or if the OS random generator fails.
///
/// Everything but `p_prime` and `q_prime` is a product, a remainder or a gcd, cheap
/// beside a primality test; those checks run first, and if one fails (`n_size` below the
/// minimum excepted: a small key is cheap to test) the primality tests are reported as
/// skipped instead of run. The report keeps the fixed order of the module documentation.
pub fn check_rsa_with_limits(k: &RsaPrivateKey, limits: &Limits) -> Result<CheckReport, InputError> {
    audit("key", k, limits)
}

/// [`check_rsa_with_limits`] reporting `format` as the parsed container.
fn audit(format: &'static str, k: &RsaPrivateKey, limits: &Limits) -> Result<CheckReport, InputError> {
    for (what, v) in [("n", &k.n), ("e", &k.e), ("d", &k.d), ("p", &k.p), ("q", &k.q), ("dP", &k.dp), ("dQ", &k.dq), ("qInv", &k.qinv)] {
        limits.admit(what, v)?;
    }
    let cheap = cheap_checks(k);
    let failed: Vec<&str> = cheap.iter().filter(|c| c.status == Status::Fail).map(|c| c.name).collect();
    let (p_prime, q_prime) = if failed.is_empty() {
        (prime_check("p_prime", "p", &k.p)?, prime_check("q_prime", "q", &k.q)?)
    } else {
        let why = format!("not evaluated: the cheaper check {} failed", failed.join(", "));
        (Check::new("p_prime", Status::Skip, why.clone()), Check::new("q_prime", Status::Skip, why))
    };
    let mut checks = vec![policy::modulus_size("n_size", "n", k.n.bits()), p_prime, q_prime];
    checks.extend(cheap);
    Ok(CheckReport { format, checks })
}

/// Every check after `q_prime`, in report order.
fn cheap_checks(k: &RsaPrivateKey) -> Vec<Check> {
    let one = BigUint::one();
    let nbits = k.n.bits();
    let mut checks = Vec::new();
    checks.push(congruence("n_equals_pq", k.n == &k.p * &k.q, "n = p*q"));

    // FIPS 186-4 B.3.1 (d): |p - q| > 2^(nlen/2 - 100), else n falls to Fermat's method.
    let gap = if k.p > k.q { &k.p - &k.q } else { &k.q - &k.p };
    let min_gap_bits = (nbits / 2).saturating_sub(100);
    let far = gap > (BigUint::one() << min_gap_bits);
    checks.push(Check::new(
        "pq_distance",
        Status::from_bool(far),
        if far { format!("|p-q| > 2^{min_gap_bits}") } else { format!("|p-q| <= 2^{min_gap_bits}: n can be factored by Fermat's method") },
    ));

    let e = &k.e;
    let e_status = if e.is_even() || *e < BigUint::from(3u32) {
        Status::Fail
    } else if *e <= BigUint::from(1u32 << 16) {
        Status::Warn
    } else {
        Status::Pass
    };
    let e_text = if e.bits() <= 64 { e.to_string() } else { format!("<{}-bit number>", e.bits()) };
    checks.push(Check::new(
        "e_valid",
        e_status,
        match e_status {
            Status::Fail => format!("e = {e_text}: must be odd and at least 3"),
            Status::Warn => format!("e = {e_text}: odd, but FIPS 186-4 requires e > 2^16"),
            _ => format!("e = {e_text}: odd and > 2^16"),
        },
    ));

    if k.p <= one || k.q <= one {
        for name in ["ed_inverse", "dp_crt", "dq_crt", "qinv_crt"] {
            checks.push(Check::new(name, Status::Skip, "not evaluated: p and q must exceed 1"));
        }
        return checks;
    }
    let p1 = &k.p - &one;
    let q1 = &k.q - &one;
    let lambda = p1.lcm(&q1);
    let ed_ok = ((e * &k.d) % &lambda).is_one();
    checks.push(congruence("ed_inverse", ed_ok, "e*d = 1 mod lambda(n)"));
    checks.push(congruence("dp_crt", k.dp == &k.d % &p1, "dP = d mod (p-1)"));
    checks.push(congruence("dq_crt", k.dq == &k.d % &q1, "dQ = d mod (q-1)"));
    let qinv_ok = k.qinv < k.p && ((&k.qinv * &k.q) % &k.p).is_one();
    checks.push(congruence("qinv_crt", qinv_ok, "qInv < p and qInv*q = 1 mod p"));
    checks
}
