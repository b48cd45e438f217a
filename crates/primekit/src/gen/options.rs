//! Options of [`generate_prime_with`](super::generate_prime_with) and their validation
//! into a search plan. Every impossible or inconsistent request becomes
//! `Error::InvalidArgument` here, before any search starts.

use crate::params::{rounds_for_search, SearchShape};
use crate::Error;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

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
}

impl PrimeOptions {
    /// A random prime of exactly `bits` bits with the top two bits set, one core.
    pub fn new(bits: u32) -> Self {
        PrimeOptions { bits, safe: false, congruence: None, rsa_exponent: None, lower_bound: LowerBound::default(), jobs: 1 }
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
    /// The requested size in bits.
    pub fn bits(&self) -> u32 {
        self.bits
    }
}

/// A validated request: candidates are the p in [lower, upper) with p = residue (mod step).
#[derive(Clone, Debug)]
pub(crate) struct Plan {
    pub bits: u32,
    pub safe: bool,
    pub lower: BigUint,
    pub upper: BigUint,
    pub step: BigUint,
    pub residue: BigUint,
    pub rsa_exponent: Option<u64>,
    /// Random-base rounds on the tested number (p, or q for safe primes).
    pub rounds: u32,
    /// log2 of the positions one search window may examine before restarting.
    pub log2_window: u32,
    /// Odd primes the sieve uses (does not affect the error bound).
    pub sieve_primes: usize,
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

impl PrimeOptions {
    pub(crate) fn plan(&self) -> Result<Plan, Error> {
        let bits = self.bits;
        let safe = self.safe;
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
        if self.jobs == 0 || self.jobs > 1024 {
            return Err(Error::InvalidArgument(format!("jobs must be in 1..=1024 (got {})", self.jobs)));
        }
        let upper = BigUint::one() << bits;
        let lower = match self.lower_bound {
            LowerBound::TopTwoBits => BigUint::from(3u8) << (bits - 2),
            // floor(sqrt(2^(2 bits - 1))) + 1 > sqrt(2) 2^(bits-1), irrational.
            LowerBound::Fips186Sqrt2 => (BigUint::one() << (2 * bits - 1)).sqrt() + 1u8,
        };
        // Parity: p odd; safe: q = (p-1)/2 odd too, so p = 3 (mod 4). (bits >= 3 here
        // for safe; the 2-bit prime 3 is odd.)
        let (mut residue, mut step) = if safe { (BigUint::from(3u8), BigUint::from(4u8)) } else { (BigUint::one(), BigUint::from(2u8)) };
        if let Some((add, rem)) = &self.congruence {
            if add.is_zero() || rem >= add {
                return Err(Error::InvalidArgument("congruence needs add > 0 and rem < add".into()));
            }
            if !rem.gcd(add).is_one() {
                return Err(Error::InvalidArgument(format!("gcd(rem, add) != 1: every p = {rem} (mod {add}) is divisible by it")));
            }
            if safe && add.bits() > 0 {
                // An odd prime l | add with l | rem - 1 divides every q = (p-1)/2.
                let g = (rem + add - 1u8).gcd(add); // gcd(rem - 1, add), rem - 1 may be -1
                let odd = &g >> g.trailing_zeros().unwrap_or(0);
                if !odd.is_one() {
                    return Err(Error::InvalidArgument(format!("safe prime impossible: {odd} divides every (p-1)/2 with p = {rem} (mod {add})")));
                }
            }
            // CRT with the parity condition (moduli 2 or 4 against add).
            let g = step.gcd(add);
            if (&residue % &g) != (rem % &g) {
                return Err(Error::InvalidArgument(format!("p = {rem} (mod {add}) contradicts p = {residue} (mod {step})")));
            }
            let lcm = add.lcm(&step);
            let mut x = rem.clone();
            while (&x % &step) != residue {
                x += add;
            }
            residue = x % &lcm;
            step = lcm;
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
        }
        if let Some(e) = self.rsa_exponent {
            if e < 3 || e % 2 == 0 {
                return Err(Error::InvalidArgument(format!("RSA exponent must be odd and >= 3 (got {e})")));
            }
            // p - 1 = residue - 1 (mod step): a common factor of e and step that divides
            // residue - 1 divides every p - 1.
            let g = BigUint::from(e).gcd(&step);
            if !((&residue + &step - 1u8) % &step).gcd(&g).is_one() {
                return Err(Error::InvalidArgument(format!("gcd(p - 1, {e}) > 1 for every p allowed by the congruence")));
            }
        }
        let tested_bits = if safe { bits - 1 } else { bits };
        let class_step = if safe { &step >> 2u8 } else { &step >> 1u8 };
        let log2_class = if class_step.is_zero() { 0 } else { (class_step.bits() as u32).saturating_sub(if class_step.count_ones() == 1 { 1 } else { 0 }) };
        let log2_window = log2_window(bits, safe);
        let rounds = rounds_for_search(SearchShape { bits: tested_bits.max(2), log2_window, jobs: self.jobs as u32, log2_class_factor: log2_class });
        let sieve_primes = super::search::sieve_primes(bits, safe);
        Ok(Plan { bits, safe, lower, upper, step, residue, rsa_exponent: self.rsa_exponent, rounds, log2_window, sieve_primes })
    }
}
