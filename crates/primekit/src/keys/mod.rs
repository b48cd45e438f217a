//! Audits of real-world key material: Diffie-Hellman parameter files ([`dh`]) and RSA
//! private keys ([`rsa`]), read from PEM, each property reported as a [`report::Check`];
//! and RSA key generation by FIPS 186-5 ([`rsa_gen`]), written as PKCS#1/PKCS#8 PEM.
//!
//! Why: Massimo & Paterson (2020, §1) open with OpenSSL's DH parameter validation
//! being fooled by crafted composites (Galbraith, Massimo, Paterson, "Safety in Numbers",
//! PKC 2019); every primality claim here therefore goes through [`crate::try_is_prime`],
//! whose error bound holds for adversarial inputs.
//!
//! # Contract
//! - Input is the bytes of a PEM file of at most [`MAX_INPUT_BYTES`]; anything else
//!   (oversize, not PEM, wrong label, bad base64, bad DER, encrypted, unsupported
//!   algorithm, numbers above [`crate::MAX_INPUT_BITS`]) is an
//!   [`InputError`], never a panic.
//! - Integers wider than the audit's [`Limits`] (by default [`DH_MAX_BITS`] for DH p
//!   and q, [`RSA_MAX_BITS`] for an RSA key) are refused with [`InputError::OverLimit`]
//!   before any arithmetic, as OpenSSL refuses DH moduli above 10,000 bits since
//!   CVE-2023-3446. The `_with_limits` variants take another cap.
//! - Cheap structural checks run first; when one of them fails, the primality tests are
//!   not run (reported as skipped), so a malformed file never pays for them.
//! - A well-formed file yields a [`report::CheckReport`]: one [`report::Check`] per
//!   property with its verdict, in a fixed order, with stable names.
//! - All arithmetic here is variable time. These are offline audits of files the
//!   caller already holds; do not expose `check_rsa` to parties who can time it.
//!
//! Size policy (one place, [`policy`]): a modulus below 1024 bits fails, 1024..2047
//! bits warns (NIST SP 800-131A disallows it; still deployed), 2048 and above passes.
//! Warnings do not fail a report.

#![forbid(unsafe_code)]

pub mod dh;
pub mod dh_params;
mod input;
mod limits;
pub mod named_groups;
pub mod policy;
pub mod report;
pub mod rsa;
pub mod rsa_gen;
mod rsa_pem;

pub use input::{InputError, MAX_INPUT_BYTES};
pub use limits::{Limits, DH_MAX_BITS, RSA_MAX_BITS};
pub use report::{Check, CheckReport, Status};
