//! The misuse-resistant primality test of Massimo & Paterson (2020, §3.2 and §3.7, "MR64"):
//! one input, one boolean, error probability at most 2^-128 for every input.
//!
//! # Guarantee
//! - A prime is always declared prime.
//! - Below 2^64 the answer is exact (see [`super::small`]).
//! - A composite n >= 2^64, however it was chosen (adversarially included), is declared
//!   prime only if it passes t Miller-Rabin rounds with bases drawn independently and
//!   uniformly from [2, n-2] by a ChaCha20 generator seeded from the operating system.
//!   Each such round passes a composite with probability <= 1/4 (Monier-Rabin), so the
//!   error is <= 4^-t: t = 64 up to 2048 bits (2^-128) and t = 128 above (2^-256), the
//!   rule of OpenSSL 3's `BN_check_prime`, so comparisons are like for like.
//!
//! # How (cheapest rejection first; a witness proves compositeness whatever its origin)
//! 1. trial division by the first r odd primes (r per size: [`trial_division_primes`]);
//! 2. one Miller-Rabin round to the fixed base 2, which rejects almost every composite
//!    that survives trial division without touching the random generator;
//! 3. the t random-base rounds, on which the bound alone rests.
//!
//! Not constant time: the input is assumed public. Prime generation uses the
//! constant-time building blocks instead.

use super::miller_rabin::MillerRabin;
use super::small::is_prime_u64;
use crate::sieve::trial_divide_vartime;
use crate::Error;
use num_bigint::BigUint;
use rand_core::CryptoRngCore;
use std::ops::ControlFlow;

/// Largest input, in bits, the test accepts. A prime pays every round, so the cap bounds
/// one call's work: at 32,768 bits that is about 12 minutes on a fast x86-64 core and
/// 25 on the portable kernel, at 65,536 bits it was 1.5 to 3 hours (docs/limits.md,
/// measured by `primekit bench worst-case`). Callers that need less should check the
/// size first, or use `hazmat::primality::is_prime_interruptible` with a deadline.
pub const MAX_INPUT_BITS: u64 = 32_768;

/// Random-base Miller-Rabin rounds for a `bits`-bit input: 64 (error <= 2^-128) up to
/// 2048 bits, 128 above, as OpenSSL 3's `BN_check_prime`.
pub const fn mr_rounds(bits: u64) -> usize {
    if bits <= 2048 {
        64
    } else {
        128
    }
}

/// Number of small odd primes tried by trial division at `bits` bits.
///
/// Chosen by redoing Massimo & Paterson's (2020) cost model (eq. 2-6) with this engine's costs: the
/// expected cost on a random odd composite is sum_{i<=r} (1 - sigma_{i-1}) C_TD +
/// (1 - sigma_r) C_MR, minimised near p_r ~ C_MR / C_TD (Massimo & Paterson 2020, §3.2). Grouped trial
/// division (several primes per word division) makes C_TD tiny: measured C_MR / C_TD
/// (C_MR = the base-2 round) is about 5,700 at 512 bits, 10,400 at 1024, 18,000 at 2048,
/// 22,000 at 3072 and 51,000 at 4096, so r is several times Massimo & Paterson's (2020) Table 4. The
/// table takes the measured minimum of the composite-path cost where it is clear and
/// the model's where the measured curve is flat (2 cores, shared machine):
///
/// | bits | measured best (flat range) | model best | r chosen |
/// |---|---|---|---|
/// | <= 512 | 512 (256-2048) | 512-1024 | 512 |
/// | <= 1024 | 1024 (512-2048) | 1024 | 1024 |
/// | <= 2048 | 4096 (1024-4096) | 2048 | 2048 |
/// | <= 3072 | 1024 (1024-2048) | 2048 | 2048 |
/// | <= 4096 | 4096 (2048-4096) | 4096-8192 | 4096 |
/// | > 4096 | - | larger still | 8192 |
///
/// Reproduce: `primekit-lab bench td --bits 512,1024,2048,3072,4096`.
pub const fn trial_division_primes(bits: u64) -> usize {
    // (largest input size in bits, primes), from the table above.
    const BY_SIZE: [(u64, usize); 4] = [(512, 512), (1024, 1024), (3072, 2048), (4096, 4096)];
    let mut i = 0;
    while i < BY_SIZE.len() {
        if bits <= BY_SIZE[i].0 {
            return BY_SIZE[i].1;
        }
        i += 1;
    }
    8192
}

/// True if `n` is prime, wrong with probability at most 2^-128 for any input (exact
/// below 2^64); see the module documentation for the guarantee.
///
/// # Panics
/// If `n` has more than [`MAX_INPUT_BITS`] bits, or if the operating system's random
/// generator fails (there is no silent fallback). Use [`try_is_prime`] to get those as
/// errors instead.
pub fn is_prime(n: &BigUint) -> bool {
    match try_is_prime(n) {
        Ok(b) => b,
        Err(e) => panic!("primekit::is_prime: {e}"),
    }
}

/// [`is_prime`] returning size-cap and RNG failures as errors.
pub fn try_is_prime(n: &BigUint) -> Result<bool, Error> {
    decide(n, crate::random::os_seeded, 1, |_| ControlFlow::Continue(())).map(|v| v.unwrap_or(false))
}

/// [`is_prime`] with a caller-supplied generator for the random bases.
///
/// For reproducible tests only: the guarantee holds only if `rng` is a cryptographically
/// secure generator whose output the party choosing `n` cannot predict. A fixed seed
/// gives an adversary the bases in advance and voids the bound.
pub fn is_prime_with_rng(n: &BigUint, rng: &mut impl CryptoRngCore) -> Result<bool, Error> {
    decide(n, || Ok(rng), 1, |_| ControlFlow::Continue(())).map(|v| v.unwrap_or(false))
}

/// Where a test stands, as reported between rounds to [`super::is_prime_interruptible`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Miller-Rabin rounds finished (the base-2 round counts as one).
    pub rounds_done: usize,
    /// Rounds a prime needs: 1 + [`mr_rounds`] (a composite usually stops after 1).
    pub rounds_total: usize,
}

/// The shared decision procedure; `rng` is only called when random rounds are needed,
/// so composites rejected early never touch the OS generator. `between` is called
/// before the base-2 round and before each batch of random rounds; `Break` returns
/// `Ok(None)`. The random rounds run on `threads` threads (1: the caller's alone).
pub(super) fn decide<R: CryptoRngCore>(
    n: &BigUint,
    rng: impl FnOnce() -> Result<R, Error>,
    threads: usize,
    mut between: impl FnMut(Progress) -> ControlFlow<()>,
) -> Result<Option<bool>, Error> {
    // A misconfigured kernel switch (`PRIMEKIT_KERNEL`) is an error for every input, not
    // only for those that reach the exponentiations.
    crate::arith::Kernel::selected()?;
    let bits = n.bits();
    if bits > MAX_INPUT_BITS {
        return Err(Error::InputTooLarge { bits, max: MAX_INPUT_BITS });
    }
    if bits <= 64 {
        return Ok(Some(is_prime_u64(n.iter_u64_digits().next().unwrap_or(0))));
    }
    if !n.bit(0) {
        return Ok(Some(false));
    }
    // n >= 2^64 exceeds every small prime, so a small divisor means composite.
    let limbs = n.to_u64_digits();
    if trial_divide_vartime(&limbs, trial_division_primes(bits)).is_some() {
        return Ok(Some(false));
    }
    let rounds_total = 1 + mr_rounds(bits);
    if between(Progress { rounds_done: 0, rounds_total }).is_break() {
        return Ok(None);
    }
    let mr = MillerRabin::new_vartime(n)?;
    if !mr.passes_base_two_vartime() {
        return Ok(Some(false));
    }
    let mut rng = rng()?;
    let bases = (0..mr_rounds(bits)).map(|_| mr.random_base_vartime(&mut rng)).collect::<Result<Vec<_>, _>>()?;
    Ok(mr.passes_all_vartime_threads(&bases, threads, |done| between(Progress { rounds_done: 1 + done, rounds_total })))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The size tiers at their edges, evaluated at compile time as well.
    #[test]
    fn size_tiers_at_their_edges() {
        const AT_512: usize = trial_division_primes(512);
        assert_eq!(AT_512, 512);
        for (bits, r) in [
            (0u64, 512usize),
            (513, 1024),
            (1024, 1024),
            (1025, 2048),
            (3072, 2048),
            (3073, 4096),
            (4096, 4096),
            (4097, 8192),
            (MAX_INPUT_BITS, 8192),
        ] {
            assert_eq!(trial_division_primes(bits), r, "bits {bits}");
        }
        const AT_2048: usize = mr_rounds(2048);
        assert_eq!((AT_2048, mr_rounds(2049), mr_rounds(MAX_INPUT_BITS)), (64, 128, 128));
    }
}
