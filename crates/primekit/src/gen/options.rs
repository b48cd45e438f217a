//! Options of [`generate_prime_with`](super::generate_prime_with) and their validation
//! into a search plan, in one step ([`PrimeOptions::plan`]). A request impossible for a
//! reason visible in its parameters becomes `Error::InvalidArgument` (or
//! `Error::InputTooLarge`) here, before any search starts; one check per function below,
//! applied in a fixed order so that a request breaking several rules always gets the same
//! message. What remains for the generators: at most 64 bits, where `small` enumerates the
//! range and reports an empty set of qualifying primes (e.g. safe primes of 4 or 5 bits);
//! above, every range holds at least 2^18 numbers of the candidates' residue class
//! ([`check_step_size`]), so the search only ever gives up on constraints that leave
//! (almost) no primes among them.

use crate::params::tuning::{segment_len, sieve_primes_on};
use crate::params::{rounds_for_search, SearchShape};
use crate::Error;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};
use std::sync::atomic::AtomicU64;

/// Largest prime size the generators accept, in bits (a safe prime of this size takes
/// hours; the cap bounds one call's work and memory).
pub const MAX_GEN_BITS: u32 = 8192;

/// Where in the `bits`-bit range the prime may fall.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum LowerBound {
    /// p >= 3 * 2^(bits-2): the top two bits set, so a product of two such primes has
    /// exactly 2*bits bits (OpenSSL's convention).
    #[default]
    TopTwoBits,
    /// p >= sqrt(2) * 2^(bits-1), the FIPS 186-5 B.3.3 bound for RSA primes.
    Fips186Sqrt2,
}

/// What prime to generate. Build with [`PrimeOptions::new`] and the chained setters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PrimeOptions {
    pub(crate) bits: u32,
    pub(crate) safe: bool,
    pub(crate) congruence: Option<(BigUint, BigUint)>,
    pub(crate) rsa_exponent: Option<u64>,
    pub(crate) lower_bound: LowerBound,
    pub(crate) jobs: usize,
    /// Floor on the random-base rounds (a standard's table may ask for more than the
    /// 2^-128 bound needs at small sizes).
    pub(crate) min_rounds: u32,
}

impl PrimeOptions {
    /// A random prime of exactly `bits` bits with the top two bits set, one core.
    pub fn new(bits: u32) -> Self {
        PrimeOptions { bits, safe: false, congruence: None, rsa_exponent: None, lower_bound: LowerBound::default(), jobs: 1, min_rounds: 0 }
    }
    /// Require a safe prime p = 2q + 1 with q prime.
    pub fn safe(mut self, safe: bool) -> Self {
        self.safe = safe;
        self
    }
    /// Require p = rem (mod add), like OpenSSL's `add`/`rem` (for DH generators, e.g.
    /// add = 24, rem = 23 for g = 2 with a safe prime).
    pub fn congruence(mut self, add: BigUint, rem: BigUint) -> Self {
        self.congruence = Some((add, rem));
        self
    }
    /// Require gcd(p - 1, e) = 1 for the RSA public exponent `e` (odd, >= 3).
    pub fn rsa_exponent(mut self, e: u64) -> Self {
        self.rsa_exponent = Some(e);
        self
    }
    /// Choose the lower end of the range.
    pub fn lower_bound(mut self, b: LowerBound) -> Self {
        self.lower_bound = b;
        self
    }
    /// Search one prime on `jobs` threads at once (first winner returned); also the
    /// number of threads [`generate_primes`](super::generate_primes) uses.
    pub fn jobs(mut self, jobs: usize) -> Self {
        self.jobs = jobs;
        self
    }
    /// Use at least `rounds` random-base Miller-Rabin rounds per tested number, even
    /// where the derived 2^-128 bound needs fewer (e.g. FIPS 186-5 Table B.1).
    pub fn min_rounds(mut self, rounds: u32) -> Self {
        self.min_rounds = rounds;
        self
    }
    /// The requested size in bits.
    pub fn bits(&self) -> u32 {
        self.bits
    }
}

/// How a plan's `jobs` threads share the work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Work {
    /// One prime: `jobs` searches race and the first to claim it wins. The rounds
    /// account for all `jobs` searches (each could output a composite).
    Race,
    /// Any number of primes, each from its own single search, `jobs` searches at a time.
    /// The rounds are those of one search.
    SearchPerPrime,
}

/// A validated, fully resolved request: everything a search needs. Candidates are the p
/// in [lower, upper) with p = residue (mod step).
#[derive(Clone, Debug)]
pub(crate) struct Plan<'a> {
    pub bits: u32,
    pub safe: bool,
    /// Lower end of the range (from the options' [`LowerBound`]).
    pub lower: BigUint,
    /// 2^bits.
    pub upper: BigUint,
    /// The congruence combined with p odd (p = 3 mod 4 for safe primes): p = residue
    /// (mod step), 0 <= residue < step.
    pub step: BigUint,
    pub residue: BigUint,
    pub rsa_exponent: Option<u64>,
    /// Random-base rounds on the tested number (p, or q for safe primes).
    pub rounds: u32,
    /// Threads, and how they share the work.
    pub jobs: usize,
    pub work: Work,
    /// log2 of the positions one search window may examine before restarting.
    pub log2_window: u32,
    /// Positions per sieve segment ([`segment_len`]).
    pub seg_len: usize,
    /// Odd primes the sieve uses ([`sieve_primes`]; does not affect the error bound).
    pub sieve_primes: usize,
    /// Receives the number of candidates given an exponentiation, for a progress
    /// display; never read by the search. None unless set through `gen::tuning`.
    pub tested: Option<&'a AtomicU64>,
}

/// Smallest `bits` accepted: 2 (the prime 3), or 3 for safe primes (7 = 2*3 + 1).
fn min_bits(safe: bool) -> u32 {
    if safe {
        3
    } else {
        2
    }
}

/// Positions per window: enough that one window holds a (safe) prime with probability
/// >= 1/2 by the prime-gap heuristic, with a wide margin (Dobrosavljević 2021, eq. 3.8 and §3.4.1).
fn log2_window(bits: u32, safe: bool) -> u32 {
    if !safe {
        return 15; // >= 11x the mean gap in odd positions (k ln 2 / 2) for k <= 8192
    }
    // Mean gap between safe primes in odd-q positions: (ln q)^2 / (4 C2), C2 = 0.66016;
    // window >= 2x that.
    let lnq = (bits.max(8) - 1) as f64 * std::f64::consts::LN_2;
    let gap = lnq * lnq / (4.0 * 0.660_161);
    ((2.0 * gap).log2().ceil() as u32).max(16)
}

/// Bits in `min_bits(safe)..=MAX_GEN_BITS`.
fn check_bits(bits: u32, safe: bool) -> Result<(), Error> {
    if bits < min_bits(safe) {
        return Err(Error::InvalidArgument(format!(
            "bits must be at least {} for a {}prime (got {bits})",
            min_bits(safe),
            if safe { "safe " } else { "" }
        )));
    }
    if bits > MAX_GEN_BITS {
        return Err(Error::InputTooLarge { bits: bits as u64, max: MAX_GEN_BITS as u64 });
    }
    Ok(())
}

/// Jobs in 1..=1024.
fn check_jobs(jobs: usize) -> Result<(), Error> {
    if jobs == 0 || jobs > 1024 {
        return Err(Error::InvalidArgument(format!("jobs must be in 1..=1024 (got {jobs})")));
    }
    Ok(())
}

/// The lower end of the range, for `bits >= 2` ([`check_bits`]). The range up to 2^bits
/// is never empty and holds at least 2^(bits-2) numbers: 3 * 2^(bits-2) leaves exactly
/// 2^(bits-2), sqrt(2) 2^(bits-1) about 0.29 * 2^bits.
fn lower_end(bits: u32, bound: LowerBound) -> BigUint {
    match bound {
        LowerBound::TopTwoBits => BigUint::from(3u8) << (bits - 2),
        // floor(sqrt(2^(2 bits - 1))) + 1 > sqrt(2) 2^(bits-1), irrational.
        LowerBound::Fips186Sqrt2 => (BigUint::one() << (2 * bits - 1)).sqrt() + 1u8,
    }
}

/// The congruence p = rem (mod add) alone: add > 0, rem < add, gcd(rem, add) = 1.
fn check_congruence(add: &BigUint, rem: &BigUint) -> Result<(), Error> {
    if add.is_zero() || rem >= add {
        return Err(Error::InvalidArgument("congruence needs add > 0 and rem < add".into()));
    }
    if !rem.gcd(add).is_one() {
        return Err(Error::InvalidArgument(format!("gcd(rem, add) != 1: every p = {rem} (mod {add}) is divisible by it")));
    }
    Ok(())
}

/// Safe primes under p = rem (mod add): no odd prime l | add with l | rem - 1, which
/// would divide every q = (p-1)/2.
fn check_safe_feasible(add: &BigUint, rem: &BigUint) -> Result<(), Error> {
    let g = (rem + add - 1u8).gcd(add); // gcd(rem - 1, add), rem - 1 may be -1
    let odd = &g >> g.trailing_zeros().unwrap_or(0);
    if !odd.is_one() {
        return Err(Error::InvalidArgument(format!("safe prime impossible: {odd} divides every (p-1)/2 with p = {rem} (mod {add})")));
    }
    Ok(())
}

/// The parity class p = residue (mod step) (p odd; safe: q = (p-1)/2 odd too, so p = 3
/// mod 4) combined with p = rem (mod add) by the CRT, as (residue, step).
fn combine_with_parity(residue: BigUint, step: BigUint, add: &BigUint, rem: &BigUint) -> Result<(BigUint, BigUint), Error> {
    // The moduli 2 or 4 against add.
    let g = step.gcd(add);
    if (&residue % &g) != (rem % &g) {
        return Err(Error::InvalidArgument(format!("p = {rem} (mod {add}) contradicts p = {residue} (mod {step})")));
    }
    let lcm = add.lcm(&step);
    let mut x = rem.clone();
    while (&x % &step) != residue {
        x += add;
    }
    Ok((x % &lcm, lcm))
}

/// A congruence step that leaves room in the `bits`-bit range: at most `bits` bits, and
/// above 64 bits at most bits - 20, so that the range (>= 2^(bits-2) numbers, see
/// [`lower_end`]) holds at least 2^(bits-2) / 2^(bits-20) = 2^18 numbers of the
/// residue class for the search's windows.
fn check_step_size(bits: u32, step: &BigUint) -> Result<(), Error> {
    if step.bits() > bits as u64 {
        return Err(Error::InvalidArgument(format!("add is larger than the {bits}-bit range")));
    }
    if bits > 64 && step.bits() + 20 > bits as u64 {
        return Err(Error::InvalidArgument(format!(
            "add too large: the congruence step has {} bits, at most bits - 20 = {} are supported",
            step.bits(),
            bits - 20
        )));
    }
    Ok(())
}

/// The RSA exponent: odd, >= 3, and some p allowed by the congruence has gcd(p - 1, e) = 1.
fn check_rsa_exponent(e: u64, residue: &BigUint, step: &BigUint) -> Result<(), Error> {
    if e < 3 || e.is_multiple_of(2) {
        return Err(Error::InvalidArgument(format!("RSA exponent must be odd and >= 3 (got {e})")));
    }
    // p - 1 = residue - 1 (mod step): a common factor of e and step that divides
    // residue - 1 divides every p - 1.
    let g = BigUint::from(e).gcd(step);
    if !((residue + step - 1u8) % step).gcd(&g).is_one() {
        return Err(Error::InvalidArgument(format!("gcd(p - 1, {e}) > 1 for every p allowed by the congruence")));
    }
    Ok(())
}

/// log2 of the number of residue classes the congruence fixes beyond parity (the
/// `class_factor` of [`crate::params::error_bound`]), rounded up.
fn log2_class_factor(safe: bool, step: &BigUint) -> u32 {
    let class_step = if safe { step >> 2u8 } else { step >> 1u8 };
    if class_step.is_zero() {
        0
    } else {
        (class_step.bits() as u32).saturating_sub(if class_step.count_ones() == 1 { 1 } else { 0 })
    }
}

impl PrimeOptions {
    /// Validates the request (checks in this order: bits, jobs, congruence, safe-prime
    /// feasibility under the congruence, its combination with parity, the step size, the
    /// RSA exponent) and resolves it into the plan of `work`.
    pub(crate) fn plan(&self, work: Work) -> Result<Plan<'static>, Error> {
        let (bits, safe) = (self.bits, self.safe);
        check_bits(bits, safe)?;
        check_jobs(self.jobs)?;
        let lower = lower_end(bits, self.lower_bound);
        let upper = BigUint::one() << bits;
        let (mut residue, mut step) = if safe { (BigUint::from(3u8), BigUint::from(4u8)) } else { (BigUint::one(), BigUint::from(2u8)) };
        if let Some((add, rem)) = &self.congruence {
            check_congruence(add, rem)?;
            if safe {
                check_safe_feasible(add, rem)?;
            }
            (residue, step) = combine_with_parity(residue, step, add, rem)?;
            check_step_size(bits, &step)?;
        }
        if let Some(e) = self.rsa_exponent {
            check_rsa_exponent(e, &residue, &step)?;
        }
        let tested_bits = if safe { bits - 1 } else { bits };
        let log2_window = log2_window(bits, safe);
        let racing = match work {
            Work::Race => self.jobs as u32,
            Work::SearchPerPrime => 1,
        };
        let rounds = rounds_for_search(SearchShape {
            bits: tested_bits.max(2),
            log2_window,
            jobs: racing,
            log2_class_factor: log2_class_factor(safe, &step),
        })
        .max(self.min_rounds);
        Ok(Plan {
            bits,
            safe,
            lower,
            upper,
            step,
            residue,
            rsa_exponent: self.rsa_exponent,
            rounds,
            jobs: self.jobs,
            work,
            log2_window,
            seg_len: segment_len(safe, log2_window),
            sieve_primes: sieve_primes_on(bits, safe, crate::arith::Kernel::selected()?),
            tested: None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn invalid(r: Result<Plan, Error>) -> String {
        match r {
            Err(Error::InvalidArgument(m)) => m,
            other => panic!("expected InvalidArgument, got {other:?}"),
        }
    }

    #[test]
    fn every_accepted_size_has_a_nonempty_range_of_its_class() {
        // What lets the search assume a non-empty range: lower < 2^bits, and above 64
        // bits at least 2^18 numbers of the residue class in [lower, upper).
        for bound in [LowerBound::TopTwoBits, LowerBound::Fips186Sqrt2] {
            for safe in [false, true] {
                for bits in [min_bits(safe), min_bits(safe) + 1, 63, 64, 65, 84, 85, 1024, MAX_GEN_BITS] {
                    let plan = PrimeOptions::new(bits).safe(safe).lower_bound(bound).plan(Work::Race).unwrap();
                    assert!(plan.lower < plan.upper, "bits {bits} {bound:?}");
                    assert_eq!(plan.upper, BigUint::one() << bits);
                    if bits > 64 {
                        assert!((&plan.upper - &plan.lower) / &plan.step >= BigUint::one() << 18u8, "bits {bits} {bound:?} safe {safe}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_largest_congruence_step_still_leaves_a_searchable_class() {
        // bits = 85: the step (lcm of add and 2) may have 65 = bits - 20 bits, not 66.
        let at_limit = (BigUint::one() << 63u8) + 1u8; // odd: step = 2 add, 65 bits
        let plan = PrimeOptions::new(85).congruence(at_limit.clone(), BigUint::one()).plan(Work::Race).unwrap();
        assert_eq!(plan.step.bits(), 65);
        assert!((&plan.upper - &plan.lower) / &plan.step >= BigUint::one() << 18u8);
        let over = (BigUint::one() << 64u8) + 1u8;
        let m = invalid(PrimeOptions::new(85).congruence(over, BigUint::one()).plan(Work::Race));
        assert_eq!(m, "add too large: the congruence step has 66 bits, at most bits - 20 = 65 are supported");
        use rand_core::SeedableRng;
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(85);
        let opts = PrimeOptions::new(85).congruence(at_limit.clone(), BigUint::one());
        let p = super::super::generate_prime_with_rng(&opts, &mut rng).unwrap();
        assert!(p.bits() == 85 && (&p % &at_limit).is_one() && crate::is_prime(&p));
    }

    #[test]
    fn checks_run_in_order_with_their_messages() {
        let b = |x: u64| BigUint::from(x);
        let plan = |o: PrimeOptions| o.plan(Work::Race);
        assert_eq!(invalid(plan(PrimeOptions::new(2).safe(true).jobs(0))), "bits must be at least 3 for a safe prime (got 2)");
        assert_eq!(invalid(plan(PrimeOptions::new(1))), "bits must be at least 2 for a prime (got 1)");
        assert!(matches!(plan(PrimeOptions::new(MAX_GEN_BITS + 1).jobs(0)), Err(Error::InputTooLarge { .. })));
        assert_eq!(invalid(plan(PrimeOptions::new(256).jobs(1025).congruence(b(0), b(0)))), "jobs must be in 1..=1024 (got 1025)");
        assert_eq!(invalid(plan(PrimeOptions::new(256).congruence(b(0), b(0)).rsa_exponent(2))), "congruence needs add > 0 and rem < add");
        assert_eq!(
            invalid(plan(PrimeOptions::new(256).congruence(b(6), b(3)))),
            "gcd(rem, add) != 1: every p = 3 (mod 6) is divisible by it"
        );
        assert_eq!(
            invalid(plan(PrimeOptions::new(256).safe(true).congruence(b(12), b(7)))),
            "safe prime impossible: 3 divides every (p-1)/2 with p = 7 (mod 12)"
        );
        assert_eq!(invalid(plan(PrimeOptions::new(256).safe(true).congruence(b(8), b(5)))), "p = 5 (mod 8) contradicts p = 3 (mod 4)");
        assert_eq!(invalid(plan(PrimeOptions::new(16).congruence(BigUint::one() << 100u32, b(1)))), "add is larger than the 16-bit range");
        assert_eq!(invalid(plan(PrimeOptions::new(256).rsa_exponent(4))), "RSA exponent must be odd and >= 3 (got 4)");
        assert_eq!(
            invalid(plan(PrimeOptions::new(256).congruence(b(6), b(1)).rsa_exponent(3))),
            "gcd(p - 1, 3) > 1 for every p allowed by the congruence"
        );
    }

    #[test]
    fn one_plan_says_how_the_threads_share_the_work() {
        let opts = PrimeOptions::new(256).jobs(8);
        let race = opts.plan(Work::Race).unwrap();
        let each = opts.plan(Work::SearchPerPrime).unwrap();
        assert_eq!((race.jobs, race.work, each.jobs, each.work), (8, Work::Race, 8, Work::SearchPerPrime));
        // Racing searches each could output a composite; one search per prime is one search.
        assert!(race.rounds > each.rounds);
        assert_eq!(each.rounds, PrimeOptions::new(256).plan(Work::Race).unwrap().rounds);
        assert_eq!(
            (race.sieve_primes, race.seg_len),
            (sieve_primes_on(256, false, crate::arith::Kernel::selected().unwrap()), segment_len(false, race.log2_window))
        );
        assert!(race.tested.is_none());
    }
}
