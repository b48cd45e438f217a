//! What every research test reports besides its verdict: which stage decided and how
//! many Miller-Rabin rounds ran (Massimo & Paterson 2020, §3 and Table 3, count rounds per input).

use num_bigint::BigUint;
use primekit::hazmat::primality::is_prime_u64;
use primekit::hazmat::sieve::TrialDivision;

/// The stage that settled the answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// n < 5 or even: decided without arithmetic.
    Trivial,
    /// A small prime divided n (or n is one of the small primes).
    TrialDivision,
    /// A Miller-Rabin round found a witness.
    MillerRabin,
    /// n is a perfect square.
    SquareCheck,
    /// Selfridge's D search exposed a factor ((D/n) = 0 or gcd(n, Q) > 1).
    ParameterSearch,
    /// The Lucas sequence condition failed.
    Lucas,
    /// Every stage passed: declared (probably) prime.
    Passed,
}

/// Verdict plus instrumentation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// True if declared (probably) prime.
    pub prime: bool,
    /// The stage that decided.
    pub stage: Stage,
    /// Miller-Rabin rounds run (including the one that found a witness).
    pub mr_rounds: u32,
}

impl Outcome {
    /// Composite, decided at `stage` after `mr_rounds` rounds.
    pub fn composite(stage: Stage, mr_rounds: u32) -> Self {
        Outcome { prime: false, stage, mr_rounds }
    }

    /// Declared prime after `mr_rounds` rounds.
    pub fn passed(mr_rounds: u32) -> Self {
        Outcome { prime: true, stage: Stage::Passed, mr_rounds }
    }
}

/// Number of primes trial division really uses when `r` are asked for: the sieve works
/// in whole word-sized groups, so r is rounded up to a group boundary (0 stays 0).
pub fn trial_primes_used(r: usize) -> usize {
    if r == 0 {
        0
    } else {
        TrialDivision::get().primes_covering(r)
    }
}

/// The shared front of every test: tiny and even inputs, then trial division by the
/// first r odd primes. `Some` if that settles n; `None` if n is odd, >= 5 and has no
/// prime factor among those tried (n itself may still be a small prime if r = 0).
pub fn prefilter(n: &BigUint, r: usize) -> Option<Outcome> {
    if n.bits() <= 3 || !n.bit(0) {
        // n < 8 or even: exact.
        let small = n.iter_u64_digits().next().unwrap_or(0);
        if n.bits() <= 3 {
            return Some(if is_prime_u64(small) {
                Outcome { prime: true, stage: Stage::Trivial, mr_rounds: 0 }
            } else {
                Outcome::composite(Stage::Trivial, 0)
            });
        }
        return Some(Outcome::composite(Stage::Trivial, 0));
    }
    if r == 0 {
        return None;
    }
    let limbs = n.to_u64_digits();
    TrialDivision::get().first_divisor_vartime(&limbs, r).map(|p| {
        let is_p = limbs.len() == 1 && limbs[0] == p as u64;
        Outcome { prime: is_p, stage: Stage::TrialDivision, mr_rounds: 0 }
    })
}
