//! Prime generation: random primes, safe primes, and the nearest prime to a number.
//! Builds on `primality` and `sieve`, and on `params` for the error-bound derivation.
//!
//! # Guarantee
//! Outputs of [`generate_prime`] / [`generate_safe_prime`] are composite with
//! probability at most 2^-128: the candidates are our own uniform random choices, so the
//! average-case bound of Damgård–Landrock–Pomerance applies to the incremental search
//! (Dobrosavljević 2021, §3.1, eq. 3.1–3.2); the number of random-base rounds t is derived per size
//! in [`crate::params::error_bound`], which documents the derivation and the t table.
//! Below 2^64 primality is decided exactly.
//!
//! # How
//! A uniform start in [3·2^(k-2), 2^k), then candidates start, start + 2, ... (Dobrosavljević's (2021)
//! fastest design, Natural PGA with the NSS sieve, §3.2.2/§3.3.1) sieved over a bit
//! array with many small primes, each survivor tested with a base-2 Fermat test (cheap
//! rejection by constant-time square-and-double, several candidates per call where the
//! CPU has wide lanes: `arith::lanes::FermatBatch`) and then t
//! random-base Miller-Rabin rounds in constant time. Safe primes p = 2q + 1 use Wiener's combined sieve (q and p free of
//! small factors), a base-2 Fermat test on p first, then q's rounds; p is then proven
//! prime by Pocklington ([`crate::primality::pocklington`]).
//!
//! # Side channels
//! Exponentiations and Miller-Rabin rounds on candidates are constant time, and so are
//! the set-ups on a candidate: its Montgomery context and lane batch (R mod n, R^2 mod n
//! and the lane constants by doublings and Montgomery squarings on limbs,
//! `arith::mont::setup`; n's bit length is public, the candidates having their top bit
//! set) and its random bases (one draw of a fixed length and a product, within 2^-64 of
//! uniform: `MillerRabin::random_base`). Like OpenSSL's and NSS's generators, the sieve
//! and the number of candidates examined are not: their timing depends on the
//! candidates' residues modulo small primes. Contexts of 128 limbs (8,192 bits) and more
//! invert n modulo 2^(64 limbs) with num-bigint (variable time), and `MillerRabin::new`
//! computes s = v2(n − 1) and d = (n − 1) / 2^s with num-bigint (its time may follow s;
//! not separated by the timing tests).

#![forbid(unsafe_code)]

pub mod candidate;
pub mod neighbor;
pub mod options;
pub(crate) mod parallel;
pub mod provable;
pub mod search;
pub mod shawe_taylor;
mod small;
pub mod tuning;

pub use neighbor::{next_prime, prev_prime};
pub use options::{LowerBound, PrimeOptions, MAX_GEN_BITS};

use crate::random::os_seeded;
use crate::Error;
use num_bigint::BigUint;
use options::Work;
use rand_core::CryptoRngCore;

/// A random prime of exactly `bits` bits with the top two bits set (so the product of
/// two has exactly 2·bits bits), composite with probability <= 2^-128.
/// Errors: `bits < 2`, `bits > MAX_GEN_BITS`, RNG failure.
pub fn generate_prime(bits: u32) -> Result<BigUint, Error> {
    generate_prime_with(&PrimeOptions::new(bits))
}

/// A random safe prime p = 2q + 1 (q prime) of exactly `bits` bits, top two bits set.
/// Errors: `bits < 3`, sizes with no such prime (4, 5), `bits > MAX_GEN_BITS`.
pub fn generate_safe_prime(bits: u32) -> Result<BigUint, Error> {
    generate_prime_with(&PrimeOptions::new(bits).safe(true))
}

/// A prime satisfying `opts` (see [`PrimeOptions`]), using `opts.jobs` threads for the
/// one search. Impossible constraints are reported as `Error::InvalidArgument`.
pub fn generate_prime_with(opts: &PrimeOptions) -> Result<BigUint, Error> {
    generate_prime_with_rng(opts, &mut os_seeded()?)
}

/// [`generate_prime_with`] drawing randomness from `rng`.
///
/// For reproducible tests only: the guarantee needs a cryptographically secure generator
/// nobody else can predict; a fixed seed makes the prime (a secret key!) reproducible
/// by anyone who knows it.
pub fn generate_prime_with_rng(opts: &PrimeOptions, rng: &mut impl CryptoRngCore) -> Result<BigUint, Error> {
    parallel::first_of(&opts.plan(Work::Race)?, rng)
}

/// `count` independent primes satisfying `opts`, generated on `opts.jobs` threads (each
/// prime from its own single search).
pub fn generate_primes(opts: &PrimeOptions, count: usize) -> Result<Vec<BigUint>, Error> {
    parallel::many(&opts.plan(Work::SearchPerPrime)?, count, &mut os_seeded()?)
}
