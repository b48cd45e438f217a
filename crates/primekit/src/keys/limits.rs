//! Size caps of the audits: how large a number a file may make us work on.
//!
//! Why: an audit reads files from strangers, and the cost of a primality test grows with
//! the cube of the size (a 30,000-bit p costs about 27× a 10,000-bit one per round, and a
//! prime or crafted pseudoprime p costs every round). OpenSSL's `DH_check` had this bug
//! (CVE-2023-3446, CVE-2023-3817) and now refuses DH moduli above
//! `OPENSSL_DH_MAX_MODULUS_BITS` = 10,000 bits; we do the same for DH p and q and cap an
//! RSA key's integers at 16,384 bits (the largest RSA keys in use are 15,360 bits,
//! NIST SP 800-57's 256-bit level). The measured cost at and beyond these caps is in
//! `docs/limits.md`.
//!
//! A file over its cap is refused ([`super::InputError::OverLimit`]) before any
//! arithmetic; a caller who means it raises the cap with [`Limits::with_max_bits`].

/// Default cap on a DH group's p and q, in bits (OpenSSL's `OPENSSL_DH_MAX_MODULUS_BITS`).
pub const DH_MAX_BITS: u64 = 10_000;
/// Default cap on an RSA key's integers (n, and every other field), in bits.
pub const RSA_MAX_BITS: u64 = 16_384;

/// The size cap one audit applies to the integers it reads.
///
/// It can be raised up to [`crate::MAX_INPUT_BITS`], the primality test's own cap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    max_bits: u64,
}

impl Limits {
    /// The DH audit's default: p and q of at most [`DH_MAX_BITS`] bits.
    pub const fn dh() -> Self {
        Limits { max_bits: DH_MAX_BITS }
    }

    /// The RSA audit's default: every integer of the key of at most [`RSA_MAX_BITS`] bits.
    pub const fn rsa() -> Self {
        Limits { max_bits: RSA_MAX_BITS }
    }

    /// A cap of `max_bits` bits. Values above [`crate::MAX_INPUT_BITS`] are clamped to it,
    /// since the primality test refuses larger numbers anyway.
    pub const fn with_max_bits(max_bits: u64) -> Self {
        let cap = crate::MAX_INPUT_BITS;
        Limits { max_bits: if max_bits > cap { cap } else { max_bits } }
    }

    /// The cap, in bits.
    pub const fn max_bits(&self) -> u64 {
        self.max_bits
    }

    /// Refuses `value` (named `what` in the message) when it is wider than the cap.
    pub(crate) fn admit(&self, what: &'static str, value: &num_bigint::BigUint) -> Result<(), super::InputError> {
        let bits = value.bits();
        if bits > self.max_bits {
            return Err(super::InputError::OverLimit { what, bits, max: self.max_bits });
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_clamp_to_the_primality_cap() {
        assert_eq!(Limits::dh().max_bits(), 10_000);
        assert_eq!(Limits::rsa().max_bits(), 16_384);
        assert_eq!(Limits::with_max_bits(u64::MAX).max_bits(), crate::MAX_INPUT_BITS);
        assert_eq!(Limits::with_max_bits(4096).max_bits(), 4096);
    }

    #[test]
    fn admit_is_inclusive_of_the_cap() {
        let l = Limits::with_max_bits(64);
        assert!(l.admit("x", &num_bigint::BigUint::from(u64::MAX)).is_ok());
        let over = num_bigint::BigUint::from(1u32) << 64u32;
        assert!(matches!(l.admit("x", &over), Err(super::super::InputError::OverLimit { what: "x", bits: 65, max: 64 })));
    }
}
