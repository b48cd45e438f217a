//! Tuning knob for measuring the generators' sieve size: the same search as
//! [`crate::generate_prime_with`] with a chosen number of sieve primes. The sieve only
//! removes candidates, so the error bound is unchanged; only speed differs.

use super::PrimeOptions;
use crate::Error;
use num_bigint::BigUint;

/// Upper limit of `sieve_primes` (all odd primes below 2^26).
pub fn max_sieve_primes() -> usize {
    super::residues::odd_primes_below_2_26().len()
}

/// One prime as `generate_prime_with(opts)` (single search), sieving with the first
/// `sieve_primes` odd primes (1 ..= [`max_sieve_primes`]).
pub fn generate_with_sieve_primes(opts: &PrimeOptions, sieve_primes: usize) -> Result<BigUint, Error> {
    if sieve_primes == 0 || sieve_primes > max_sieve_primes() {
        return Err(Error::InvalidArgument(format!("sieve_primes must be in 1..={}", max_sieve_primes())));
    }
    let mut plan = opts.plan()?;
    plan.sieve_primes = sieve_primes;
    let mut rng = crate::random::os_seeded()?;
    super::parallel::one(&plan, &mut rng)
}

/// The number of sieve primes the production generator uses at this size.
pub fn default_sieve_primes(bits: u32, safe: bool) -> usize {
    super::search::sieve_primes(bits, safe)
}

/// Builds the process-wide sieve-prime tables a `bits`-bit generation uses, so that a
/// benchmark does not time their one-off construction.
pub fn warm_up(bits: u32, safe: bool) {
    let primes = super::residues::first_odd_primes(default_sieve_primes(bits, safe));
    // Also the residue tables of that list (built on first use).
    super::residues::residues(&[1], primes, &mut Vec::new());
}
