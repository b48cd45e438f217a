//! The standard finite-field Diffie-Hellman groups, recognized by exact match of p:
//! RFC 3526 (MODP, 1536-8192 bits) and RFC 7919 (ffdhe, 2048-8192 bits). Every one is a
//! safe prime p = 2q + 1 with generator 2.
//!
//! Why: most DH parameters in use are one of these, and their primality is settled; an
//! audit that names the group tells the reader more than one that re-tests it, and it
//! can check a shipped proof of p and q instead of searching for one (OpenSSL answers
//! `dhparam -check` on a named group at once for the same reason).
//!
//! The primes live in `named_groups.txt`, written by `tools/named_groups.py` from the
//! RFCs' defining formulas (p = 2^n - 2^(n-64) - 1 + 2^64 (floor(2^(n-130) c) + k), with
//! c = pi or e); the tests compare them with OpenSSL's built-in groups.

use num_bigint::BigUint;
use std::sync::OnceLock;

/// One standard group.
#[derive(Debug)]
pub struct NamedGroup {
    /// OpenSSL's name for it (`modp_2048`, `ffdhe4096`, ...).
    pub name: &'static str,
    /// The RFC that defines it (3526 or 7919).
    pub rfc: u32,
    /// The prime p.
    pub p: BigUint,
}

impl NamedGroup {
    /// The prime subgroup order q = (p - 1) / 2.
    pub fn q(&self) -> BigUint {
        (&self.p - 1u8) >> 1
    }

    /// The primality certificate primekit ships for p (JSON, docs/certificate-format.md),
    /// which also proves q: made by `primekit prove`, checked by the test suite with both
    /// checkers and PARI/GP. None where none is shipped (those groups are tested, not
    /// looked up).
    pub fn certificate(&self) -> Option<&'static str> {
        Some(match self.name {
            "modp_1536" => include_str!("named_groups/modp_1536.json"),
            "modp_2048" => include_str!("named_groups/modp_2048.json"),
            "modp_3072" => include_str!("named_groups/modp_3072.json"),
            "modp_4096" => include_str!("named_groups/modp_4096.json"),
            "ffdhe2048" => include_str!("named_groups/ffdhe2048.json"),
            "ffdhe3072" => include_str!("named_groups/ffdhe3072.json"),
            "ffdhe4096" => include_str!("named_groups/ffdhe4096.json"),
            _ => return None,
        })
    }

    /// "RFC 7919 ffdhe4096", for reports.
    pub fn label(&self) -> String {
        format!("RFC {} {}", self.rfc, self.name)
    }
}

const TABLE: &str = include_str!("named_groups.txt");

/// Every group of the table, in its order.
pub fn named_groups() -> &'static [NamedGroup] {
    static GROUPS: OnceLock<Vec<NamedGroup>> = OnceLock::new();
    GROUPS.get_or_init(|| {
        TABLE
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .map(|l| {
                let f: Vec<&'static str> = l.split_whitespace().collect();
                // The table is part of the source; a bad line is a build defect the
                // tests catch, not input.
                let p = BigUint::parse_bytes(f[3].as_bytes(), 16).expect("named_groups.txt: hex prime");
                assert_eq!(p.bits().to_string(), f[2], "named_groups.txt: {} has the wrong size", f[0]);
                NamedGroup { name: f[0], rfc: f[1].parse().expect("named_groups.txt: RFC number"), p }
            })
            .collect()
    })
}

/// The standard group whose prime is exactly `p`, if any.
pub fn named_group(p: &BigUint) -> Option<&'static NamedGroup> {
    named_groups().iter().find(|g| &g.p == p)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_has_every_group_with_its_size() {
        let names: Vec<&str> = named_groups().iter().map(|g| g.name).collect();
        assert_eq!(
            names,
            [
                "modp_1536",
                "modp_2048",
                "modp_3072",
                "modp_4096",
                "modp_6144",
                "modp_8192",
                "ffdhe2048",
                "ffdhe3072",
                "ffdhe4096",
                "ffdhe6144",
                "ffdhe8192"
            ]
        );
        for g in named_groups() {
            let bits: u64 = g.name.trim_start_matches(|c: char| !c.is_ascii_digit()).parse().unwrap();
            assert_eq!(g.p.bits(), bits, "{}", g.name);
            // Both families fix the top and bottom 64 bits to ones.
            assert_eq!(g.p.iter_u64_digits().next(), Some(u64::MAX), "{}", g.name);
            assert_eq!(&g.p >> (bits - 64), BigUint::from(u64::MAX), "{}", g.name);
            assert!(named_group(&g.p).is_some_and(|h| h.name == g.name));
            assert!(named_group(&(&g.p - 2u8)).is_none());
        }
    }

    #[test]
    fn groups_are_safe_primes() {
        // A probable-prime check of the smallest three (the rest in the integration tests).
        for g in &named_groups()[..2] {
            assert!(crate::is_prime(&g.p) && crate::is_prime(&g.q()), "{}", g.name);
        }
    }
}
