//! primekit: misuse-resistant primality testing and fast prime generation.
//!
//! ```
//! use num_bigint::BigUint;
//! let p = BigUint::parse_bytes(b"170141183460469231731687303715884105727", 10).unwrap();
//! assert!(primekit::is_prime(&p)); // 2^127 - 1
//! assert!(!primekit::is_prime(&(p * 3u8)));
//! ```
//!
//! # Tiers
//! - The crate root: the knob-free API — [`is_prime`], [`try_is_prime`], the
//!   generators ([`generate_prime`], [`generate_safe_prime`], [`generate_prime_with`]
//!   with [`PrimeOptions`], [`generate_primes`]), [`next_prime`] / [`prev_prime`], and the
//!   file audits in [`keys`].
//! - [`hazmat`]: the pieces the root is built from (Montgomery contexts, lane batches,
//!   single Miller-Rabin rounds, the sieve, tuning knobs), each with its contract.
//! - Instrumented variants, the research algorithms and the OpenSSL/GMP peers live in
//!   the separate `primekit-research` crate, never in this one; the few tuning knobs
//!   that need the generators' internals (sieve depth, a candidate counter) are in
//!   `hazmat::gen` and leave the default path unchanged.
//!
//! # Layers
//! Private modules, each knowing nothing of those above it:
//! `arith` → `sieve` → `primality` → `params` → `gen` → `keys`.
//! (`random`, the seeded generator and uniform sampling, sits beside `error` at the
//! bottom and is used from `primality` up. `params` is error-bound arithmetic and
//! measured tuning tables that import nothing from the crate; the generators take their
//! round counts and sieve sizes from it, so it sits below `gen`.) `arith` is the
//! only module with `unsafe` code, assembly or intrinsics, and every CPU-specific backend
//! is private to it, reachable only with a CPU-feature token (`arith::cpu`); every other
//! module forbids `unsafe`.

#![deny(unsafe_op_in_unsafe_fn)]
#![warn(missing_docs)]

mod arith;
mod error;
mod gen;
pub mod hazmat;
pub mod keys;
mod params;
mod primality;
mod random;
mod sieve;

pub use error::Error;
pub use gen::provable::{generate_provable_prime, generate_provable_safe_prime};
pub use gen::{
    generate_prime, generate_prime_with, generate_primes, generate_safe_prime, next_prime, prev_prime, LowerBound, PrimeOptions,
    MAX_GEN_BITS,
};
pub use keys::rsa_gen::{generate_rsa_key, generate_rsa_key_with, RsaKeyOptions, RsaPrivateKey};
pub use num_bigint::BigUint;
pub use primality::certificate;
pub use primality::{is_prime, try_is_prime, MAX_INPUT_BITS};
