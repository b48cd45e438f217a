//! primekit: misuse-resistant primality testing and fast prime generation.
//!
//! ```
//! use num_bigint::BigUint;
//! let p = BigUint::parse_bytes(b"170141183460469231731687303715884105727", 10).unwrap();
//! assert!(primekit::is_prime(&p)); // 2^127 - 1
//! assert!(!primekit::is_prime(&(p * 3u8)));
//! ```
//!
//! Layers, each knowing nothing of those above it:
//! `arith` → `sieve` → `primality` → `params` → `gen` → `keys` → `research`.
//! (`random`, the seeded generator and uniform sampling, sits beside `error` at the
//! bottom and is used from `primality` up.)
//! (`params` is error-bound arithmetic and measured tuning tables that import nothing
//! from the crate; the generators take their round counts and sieve sizes from it, so it
//! sits below `gen`.)
//! The crate root re-exports the knob-free API; every tunable variant lives in
//! [`research`] and never in the default path.

#![deny(unsafe_op_in_unsafe_fn)]

pub mod arith;
mod error;
pub mod keys;
pub mod gen;
pub mod hazmat;
pub mod params;
pub mod primality;
mod random;
pub mod research;
pub mod sieve;

pub use error::Error;
pub use gen::{generate_prime, generate_prime_with, generate_primes, generate_safe_prime, next_prime, prev_prime, LowerBound, PrimeOptions, MAX_GEN_BITS};
pub use primality::{is_prime, is_prime_with_rng, try_is_prime, MAX_INPUT_BITS};
pub use num_bigint::BigUint;
