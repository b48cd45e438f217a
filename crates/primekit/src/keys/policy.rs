//! Size policy shared by the DH and RSA audits, in one place so it is easy to read and
//! to change.
//!
//! | value                     | fail      | warn          | pass   |
//! |---------------------------|-----------|---------------|--------|
//! | DH p, RSA n (bits)        | < 1024    | 1024 ..= 2047 | >= 2048 |
//! | DH subgroup order q (bits)| < 160     | 160 ..= 223   | >= 224 |
//!
//! Why: 512-bit groups were broken in practice (Logjam, 2015) and 1024 bits is within
//! reach of well-funded attackers, so NIST SP 800-131A disallows < 2048-bit moduli and
//! SP 800-56A pairs 2048-bit p with q of at least 224 bits. 1024 is still deployed,
//! hence a warning rather than a failure.

use super::report::{Check, Status};

/// Below this many bits a modulus fails.
pub const MODULUS_MIN_BITS: u64 = 1024;
/// From this many bits a modulus passes without warning.
pub const MODULUS_RECOMMENDED_BITS: u64 = 2048;
/// Below this many bits a DH subgroup order fails.
pub const SUBGROUP_MIN_BITS: u64 = 160;
/// From this many bits a DH subgroup order passes without warning.
pub const SUBGROUP_RECOMMENDED_BITS: u64 = 224;

/// Grades `bits` against a (minimum, recommended) pair.
fn grade(name: &'static str, what: &str, bits: u64, min: u64, recommended: u64) -> Check {
    let (status, why) = if bits < min {
        (Status::Fail, format!("below the minimum of {min} bits"))
    } else if bits < recommended {
        (Status::Warn, format!("below the recommended {recommended} bits"))
    } else {
        (Status::Pass, format!("at least the recommended {recommended} bits"))
    };
    Check::new(name, status, format!("{what} has {bits} bits: {why}"))
}

/// Size check for a DH prime p or an RSA modulus n.
pub fn modulus_size(name: &'static str, what: &str, bits: u64) -> Check {
    grade(name, what, bits, MODULUS_MIN_BITS, MODULUS_RECOMMENDED_BITS)
}

/// Size check for a DH subgroup order q.
pub fn subgroup_size(name: &'static str, what: &str, bits: u64) -> Check {
    grade(name, what, bits, SUBGROUP_MIN_BITS, SUBGROUP_RECOMMENDED_BITS)
}
