//! Primality tests. Builds on `arith` and `sieve`.
//!
//! The knob-free entry points are re-exported at the crate root (`is_prime`,
//! `try_is_prime`); the building blocks here (Miller-Rabin rounds on a fixed modulus,
//! the exact test below 2^64) are public so the generators and the research tier can
//! reuse them.

pub mod is_prime;
pub mod jacobi;
pub mod lucas;
pub mod miller_rabin;
pub mod pocklington;
pub mod small;
pub mod square;

pub use is_prime::{is_prime, is_prime_with_rng, try_is_prime, MAX_INPUT_BITS};
pub use miller_rabin::MillerRabin;
pub use small::is_prime_u64;
