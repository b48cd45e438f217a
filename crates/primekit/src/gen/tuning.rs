//! Tuning and measurement knobs (reached through [`crate::hazmat::gen`]): the production
//! search with a chosen number of sieve primes, and with a counter of the candidates it
//! tests (for progress displays and benchmarks). The sieve only removes candidates, so
//! the error bound is unchanged; only speed differs. The counter is written, never read,
//! by the search.

use super::options::{Plan, Work};
use super::{parallel, PrimeOptions};
use crate::random::os_seeded;
use crate::Error;
use num_bigint::BigUint;
use std::sync::atomic::AtomicU64;

/// Upper limit of `sieve_primes` (all odd primes below 2^26).
pub fn max_sieve_primes() -> usize {
    crate::sieve::odd_primes_below_2_26().len()
}

/// What a measuring caller changes in a generation call. `Probe::default()` is the
/// production generator exactly.
#[derive(Clone, Copy, Debug, Default)]
pub struct Probe<'a> {
    /// Adds the number of candidates given an exponentiation (all threads), as the
    /// search goes.
    pub tested: Option<&'a AtomicU64>,
    /// Sieve with the first this many odd primes (1 ..= [`max_sieve_primes`]) instead
    /// of [`default_sieve_primes`].
    pub sieve_primes: Option<usize>,
}

impl<'a> Probe<'a> {
    /// Counts candidates into `tested`.
    pub fn counting(tested: &'a AtomicU64) -> Self {
        Probe { tested: Some(tested), sieve_primes: None }
    }

    /// Checked before the options, as [`generate_with_sieve_primes`] always did.
    fn check(&self) -> Result<(), Error> {
        match self.sieve_primes {
            Some(n) if n == 0 || n > max_sieve_primes() => {
                Err(Error::InvalidArgument(format!("sieve_primes must be in 1..={}", max_sieve_primes())))
            }
            _ => Ok(()),
        }
    }

    fn apply(self, plan: &mut Plan<'a>) {
        if let Some(n) = self.sieve_primes {
            plan.sieve_primes = n;
        }
        plan.tested = self.tested;
    }
}

/// [`generate_prime_with`](super::generate_prime_with) (`opts.jobs` searches racing)
/// changed by `probe`.
pub fn generate_prime_probed(opts: &PrimeOptions, probe: Probe<'_>) -> Result<BigUint, Error> {
    probe.check()?;
    let mut plan = opts.plan(Work::Race)?;
    probe.apply(&mut plan);
    parallel::first_of(&plan, &mut os_seeded()?)
}

/// [`generate_primes`](super::generate_primes) (each prime from its own search, on
/// `opts.jobs` threads) changed by `probe`.
pub fn generate_primes_probed(opts: &PrimeOptions, count: usize, probe: Probe<'_>) -> Result<Vec<BigUint>, Error> {
    probe.check()?;
    let mut plan = opts.plan(Work::SearchPerPrime)?;
    probe.apply(&mut plan);
    parallel::many(&plan, count, &mut os_seeded()?)
}

/// One prime as `generate_prime_with(opts)` from a single search (whatever `opts.jobs`),
/// sieving with the first `sieve_primes` odd primes (1 ..= [`max_sieve_primes`]).
pub fn generate_with_sieve_primes(opts: &PrimeOptions, sieve_primes: usize) -> Result<BigUint, Error> {
    let probe = Probe { tested: None, sieve_primes: Some(sieve_primes) };
    probe.check()?;
    let mut plan = opts.plan(Work::SearchPerPrime)?;
    probe.apply(&mut plan);
    parallel::one(&plan, &mut os_seeded()?)
}

/// The number of sieve primes the production generator uses at this size on the selected
/// kernel ([`crate::params::tuning::sieve_primes_selected`]).
pub fn default_sieve_primes(bits: u32, safe: bool) -> usize {
    crate::params::tuning::sieve_primes_selected(bits, safe)
}

/// Builds the process-wide sieve-prime tables a `bits`-bit generation uses, so that a
/// benchmark does not time their one-off construction.
pub fn warm_up(bits: u32, safe: bool) {
    let primes = crate::sieve::first_odd_primes(default_sieve_primes(bits, safe));
    // Also the residue tables of that list (built on first use).
    crate::sieve::residues::residues(&[1], primes, &mut Vec::new());
}
