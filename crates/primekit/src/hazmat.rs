//! Expert tier: the pieces the knob-free API is built from, with their contracts.
//!
//! Nothing here is needed to test or generate primes safely; the crate root does that
//! with one call. These items exist for benchmarks, research code, fuzzers and the
//! constant-time checker. Each one states what it expects (input ranges, which values
//! may be secret, what its timing reveals) in its own documentation; calling one outside
//! its contract gives wrong answers, never undefined behaviour.
//!
//! - [`mont`]: Montgomery contexts, kernels and modular exponentiation.
//! - [`lanes`]: batches of exponentiations (several bases, or several moduli, at once).
//! - [`limbs`]: little-endian 64-bit limb slices and word arithmetic on them.
//! - [`primality`]: single Miller-Rabin rounds, the exact test below 2^64, Lucas ladders,
//!   and `is_prime` interruptible between rounds (deadlines, progress, cancellation).
//! - [`sieve`]: trial division, prime lists and the generators' segment sieve.
//! - [`gen`]: generator pieces and tuning knobs (reproducible generation, sieve depth,
//!   counting the candidates tested).
//! - [`random`]: the OS-seeded ChaCha20 generator and uniform sampling below a bound.
//! - [`params`]: the error-bound arithmetic behind the generators' round counts.
//! - [`keys`]: the CRT exponentiations of the RSA pairwise consistency test.
//! - [`timing`]: the cycle counter of the constant-time timing tests.

#![forbid(unsafe_code)]

/// Montgomery contexts, kernels and modular exponentiation.
pub mod mont {
    pub use crate::arith::modexp::{modpow_in, modpow_vartime, pow_ct, pow_vartime};
    pub use crate::arith::pow2::{pow2_ct, pow2_vartime};
    pub use crate::arith::{ArithError, Kernel, MontContext, MAX_MODULUS_BITS};
}

/// Pieces of RSA key generation.
pub mod keys {
    pub use crate::keys::rsa_gen::{crt_exponentiations, crt_exponentiations_in};
}

/// The cycle counter behind the constant-time timing tests (`primekit-lab bench ct`).
pub mod timing {
    pub use crate::arith::cycles::cycles;
}

/// Batches of exponentiations sharing every instruction (the lane backends behind
/// Miller-Rabin rounds and the generators' Fermat tests), whatever the CPU.
pub mod lanes {
    pub use crate::arith::lanes::{lane_mask, FermatBatch, LaneTarget, LaneValues, SharedModulus, Timing, MAX_LANES};
}

/// Little-endian 64-bit limb slices and word arithmetic on them.
pub mod limbs {
    pub use crate::arith::limbs::{add_assign, bit, bit_len_vartime, from_limbs, lt_vartime, sub_into, to_limbs, Limb};
    pub use crate::arith::word::{rem_limbs, rem_limbs_many};
}

/// Single Miller-Rabin rounds, the exact test below 2^64, Lucas ladders.
pub mod primality {
    pub use crate::primality::lucas::{selfridge_method_a, LucasLadder, NoParams, SearchOptions, Selfridge};
    pub use crate::primality::square::{isqrt, isqrt_rem_binary};
    pub use crate::primality::{is_prime_interruptible, is_prime_interruptible_threads, Outcome, Progress};
    pub use crate::primality::{is_prime_u64, MillerRabin};
    pub use crate::primality::{is_prime_with_rng, mr_rounds, trial_division_primes, MAX_INPUT_BITS};
}

/// Trial division, prime lists and the generators' segment sieve.
pub mod sieve {
    pub use crate::sieve::groups::{word_groups, WordGroup};
    pub use crate::sieve::residues::residues;
    pub use crate::sieve::segment::{survivors, SegmentSieve, StepInverses};
    pub use crate::sieve::small_primes::SMALL_ODD_PRIMES;
    pub use crate::sieve::{first_odd_primes, odd_primes_below_2_22, odd_primes_below_2_26};
    pub use crate::sieve::{odd_prime, trial_divide_vartime, TrialDivision, NUM_SMALL_ODD_PRIMES};
}

/// Generator pieces and tuning knobs.
pub mod gen {
    pub use crate::gen::candidate::{
        fermat_base_two_batch_ct, fermat_base_two_ct, fermat_base_two_scalar_ct, random_base_rounds_ct, Verdict,
    };
    pub use crate::gen::generate_prime_with_rng;
    pub use crate::gen::provable::generate_provable_prime_maurer;
    pub use crate::gen::shawe_taylor::{shawe_taylor_random_prime, ShaweTaylorPrime};
    pub use crate::gen::tuning::{
        default_sieve_primes, generate_prime_probed, generate_primes_probed, generate_with_sieve_primes, max_sieve_primes, warm_up, Probe,
    };
}

/// The crate's randomness: the OS-seeded ChaCha20 generator and uniform sampling.
pub mod random {
    pub use crate::random::{os_seeded, seeded_from, uniform_below, MAX_DRAWS};
}

/// The error-bound arithmetic behind the generators' round counts.
pub mod params {
    pub use crate::params::*;
}
