//! Primality tests. Builds on `arith` and `sieve`.
//!
//! The knob-free entry points are re-exported at the crate root (`is_prime`,
//! `try_is_prime`); the building blocks (Miller-Rabin rounds on a fixed modulus, the
//! exact test below 2^64, Lucas ladders) reach the generators directly and outsiders
//! through `hazmat`.

#![forbid(unsafe_code)]

// Private: the module shares its name with the function the crate root re-exports, and
// only the function is public API.
pub mod certificate;
mod interruptible;
mod is_prime;
pub mod jacobi;
pub mod lucas;
pub mod miller_rabin;
pub mod pocklington;
pub mod small;
pub mod square;

pub use interruptible::{is_prime_interruptible, is_prime_interruptible_threads, Outcome};
pub use is_prime::{is_prime, is_prime_with_rng, mr_rounds, trial_division_primes, try_is_prime, Progress, MAX_INPUT_BITS};
pub use miller_rabin::MillerRabin;
pub use small::is_prime_u64;
