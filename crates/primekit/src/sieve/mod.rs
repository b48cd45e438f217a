//! Small primes, trial division and sieves. Builds on `arith` only.
//!
//! - [`small_primes`]: the first 9999 odd primes, at compile time;
//! - [`primes`]: all odd primes below 2^22 and 2^26 (segmented Eratosthenes, on first use);
//! - [`groups`]: primes packed into words, the unit both readers below divide by;
//! - [`trial`]: trial division of public numbers;
//! - [`residues`]: one number modulo many primes (a sieve window's start);
//! - [`segment`]: the generators' segment sieve over an arithmetic progression.

#![forbid(unsafe_code)]

pub mod divisors;
pub mod groups;
pub mod primes;
pub mod residues;
pub mod segment;
pub mod small_primes;
pub mod trial;

pub use primes::{first_odd_primes, odd_primes_below_2_22, odd_primes_below_2_26};
pub use small_primes::{odd_prime, NUM_SMALL_ODD_PRIMES};
pub use trial::{trial_divide_vartime, TrialDivision};
