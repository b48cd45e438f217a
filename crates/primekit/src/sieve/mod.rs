//! Small primes, trial division and sieves. Builds on `arith` only.

pub mod small_primes;
pub mod trial;

pub use small_primes::{odd_prime, NUM_SMALL_ODD_PRIMES};
pub use trial::{trial_divide_vartime, TrialDivision};
