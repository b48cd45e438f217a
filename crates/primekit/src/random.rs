//! Randomness shared by every layer: the operating-system-seeded ChaCha20 generator and
//! uniform integers below a bound. Imports nothing from the crate but [`Error`].
//!
//! Every draw uses `try_fill_bytes`, so a failing generator is an [`Error::Rng`], never
//! a panic or a silent fallback.

#![forbid(unsafe_code)]

use crate::Error;
use num_bigint::BigUint;
use num_traits::Zero;
use rand_chacha::ChaCha20Rng;
use rand_core::{CryptoRngCore, OsRng, SeedableRng};

/// Draws [`uniform_below`] makes before declaring the generator broken. Each draw is
/// accepted with probability > 1/2 (a draw has the bits of bound - 1), so this many
/// rejections in a row happen with probability < 2^-128.
pub const MAX_DRAWS: u32 = 128;

/// A ChaCha20 generator seeded from the operating system's.
pub fn os_seeded() -> Result<ChaCha20Rng, Error> {
    seeded_from(&mut OsRng)
}

/// A ChaCha20 generator seeded from `rng` (e.g. one per thread from the caller's).
pub fn seeded_from(rng: &mut (impl CryptoRngCore + ?Sized)) -> Result<ChaCha20Rng, Error> {
    let mut seed = <ChaCha20Rng as SeedableRng>::Seed::default();
    rng.try_fill_bytes(&mut seed).map_err(|e| Error::Rng(e.to_string()))?;
    Ok(ChaCha20Rng::from_seed(seed))
}

/// A uniform integer in [0, bound) by rejection sampling: each draw is the bit length
/// of bound - 1 in random bits (one `try_fill_bytes` call), kept when below `bound`.
/// After [`MAX_DRAWS`] rejections in a row the generator is declared broken
/// (`Error::Rng`) rather than looped on. A zero bound is an `Error::InvalidArgument`.
///
/// Variable time: the number of draws depends on the bound and the random values.
pub fn uniform_below(rng: &mut (impl CryptoRngCore + ?Sized), bound: &BigUint) -> Result<BigUint, Error> {
    if bound.is_zero() {
        return Err(Error::InvalidArgument("uniform sampling below 0".into()));
    }
    let bits = (bound - 1u8).bits() as usize;
    let mut bytes = vec![0u8; bits.div_ceil(8)];
    for _ in 0..MAX_DRAWS {
        rng.try_fill_bytes(&mut bytes).map_err(|e| Error::Rng(e.to_string()))?;
        let x = BigUint::from_bytes_le(&bytes) >> (bytes.len() * 8 - bits);
        if &x < bound {
            return Ok(x);
        }
    }
    Err(Error::Rng(format!("uniform sampling rejected {MAX_DRAWS} draws in a row")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_core::RngCore;

    #[test]
    fn uniform_below_covers_the_range_and_nothing_else() {
        let mut rng = ChaCha20Rng::seed_from_u64(1);
        for bound in [1u32, 2, 3, 5, 8, 255, 256, 257] {
            let b = BigUint::from(bound);
            let mut seen = vec![false; bound as usize];
            for _ in 0..40 * bound {
                let x = uniform_below(&mut rng, &b).unwrap();
                assert!(x < b);
                seen[usize::try_from(&x).unwrap()] = true;
            }
            assert!(seen.iter().all(|&s| s), "bound {bound}: not every value drawn");
        }
    }

    /// Serves all-ones bytes: every draw is at least a power-of-two bound.
    struct Stuck(u32);
    impl RngCore for Stuck {
        fn next_u32(&mut self) -> u32 {
            unreachable!()
        }
        fn next_u64(&mut self) -> u64 {
            unreachable!()
        }
        fn fill_bytes(&mut self, _: &mut [u8]) {
            unreachable!()
        }
        fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
            self.0 += 1;
            dest.fill(0xff);
            Ok(())
        }
    }
    impl rand_core::CryptoRng for Stuck {}

    #[test]
    fn a_stuck_generator_is_an_error_after_max_draws() {
        // All-ones draws of 100 bits are >= 2^100 - 1.
        let mut rng = Stuck(0);
        assert!(matches!(uniform_below(&mut rng, &((BigUint::from(1u8) << 100u32) - 1u8)), Err(Error::Rng(_))));
        assert_eq!(rng.0, MAX_DRAWS);
        let mut rng = Stuck(0);
        assert!(matches!(uniform_below(&mut rng, &BigUint::from(0u8)), Err(Error::InvalidArgument(_))));
        assert_eq!(rng.0, 0);
    }

    #[test]
    fn seeding_from_a_generator_is_deterministic() {
        let a = seeded_from(&mut ChaCha20Rng::seed_from_u64(3)).unwrap().next_u64();
        let b = seeded_from(&mut ChaCha20Rng::seed_from_u64(3)).unwrap().next_u64();
        assert_eq!(a, b);
        assert!(os_seeded().is_ok());
    }
}
