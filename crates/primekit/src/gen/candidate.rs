//! Tests applied to one secret candidate, all in constant time apart from the boolean
//! each returns (a rejected candidate's neighbours are the next candidates, so how a
//! candidate failed must not leak).

use crate::arith::lanes::FermatBatch;
use crate::arith::limbs::{eq_mask, to_limbs, Limb};
use crate::arith::pow2::pow2_ct;
use crate::arith::MontContext;
use crate::primality::MillerRabin;
use crate::Error;
use num_bigint::BigUint;
use rand_core::CryptoRngCore;

/// Fermat test to base 2: 2^(n-1) = 1 (mod n), for odd n >= 3, with [`pow2_ct`] over all
/// limbs of n. A failure proves n composite; for a safe-prime candidate p = 2q + 1 with q
/// prime and 3 not dividing p, a pass proves p prime
/// (`primality::pocklington::safe_prime_by_pocklington`).
pub fn fermat_base_two_ct(ctx: &MontContext, n_minus_1: &[Limb]) -> bool {
    let r = pow2_ct(ctx, n_minus_1, ctx.len() * 64);
    eq_mask(&r, ctx.one()) != 0
}

/// Base-2 Fermat tests of odd candidates >= 5 of `bits` or `bits - 1` bits (a safe-prime
/// candidate p and the q of an earlier one may share a batch), as many per call as the
/// process kernel's lanes hold ([`FermatBatch`], whose documentation gives the measured
/// cost per candidate of each backend).
pub fn fermat_base_two_batch_ct(cands: &[BigUint], bits: usize) -> Result<Vec<bool>, Error> {
    let batch = FermatBatch::new(bits)?;
    let mut out = Vec::with_capacity(cands.len());
    for chunk in cands.chunks(batch.lanes()) {
        let mask = batch.test_ct(chunk)?;
        out.extend((0..chunk.len()).map(|k| mask >> k & 1 == 1));
    }
    Ok(out)
}

/// [`fermat_base_two_ct`] on an odd n >= 3 given as a number, one at a time on the
/// process kernel.
pub fn fermat_base_two_scalar_ct(n: &BigUint) -> Result<bool, Error> {
    let ctx = MontContext::new(n)?;
    let nm1 = to_limbs(&(n - 1u8), ctx.len()).expect("fits");
    Ok(fermat_base_two_ct(&ctx, &nm1))
}

/// `rounds` Miller-Rabin rounds with random bases, the acceptance step after a base-2
/// Fermat pass. `n` odd, n >= 5. The bases are drawn first and the rounds run together
/// ([`MillerRabin::passes_all_ct`]: several bases per constant-time exponentiation where
/// the kernel has wide lanes, which at 1024 bits costs about one and a half single rounds
/// instead of six).
pub fn random_base_rounds_ct(n: &BigUint, rounds: u32, rng: &mut impl CryptoRngCore) -> Result<Verdict, Error> {
    let mr = MillerRabin::new(n)?;
    let bases = (0..rounds).map(|_| mr.random_base(rng)).collect::<Result<Vec<_>, _>>()?;
    Ok(if mr.passes_all_ct(&bases) { Verdict::ProbablePrime } else { Verdict::Composite })
}

/// Outcome of the full test of a candidate.
pub enum Verdict {
    /// A test proved the candidate composite.
    Composite,
    /// Every round passed: prime with error probability at most the rounds' bound.
    ProbablePrime,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::lanes::test_support::next_fermat_pass;
    use num_traits::One;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn batch_matches_scalar_and_modpow() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        use rand_core::RngCore;
        for bits in [64usize, 200, 1024, 2048] {
            // 11 candidates: a full batch of 8 plus a partial one; 2^127-1-like primes are
            // not needed, random odd numbers of the size plus base-2 pseudoprime-free mix.
            let mut cands = Vec::new();
            for k in 0..11 {
                let mut bytes = vec![0u8; bits / 8];
                rng.fill_bytes(&mut bytes);
                let mut n = BigUint::from_bytes_le(&bytes) | BigUint::from(1u8);
                n.set_bit(bits as u64 - 1, true);
                if k % 3 == 0 {
                    // Move to the next base-2 probable prime so that some lanes pass.
                    n = next_fermat_pass(&n);
                }
                cands.push(n);
            }
            let got = fermat_base_two_batch_ct(&cands, bits).unwrap();
            for (n, g) in cands.iter().zip(&got) {
                let want = BigUint::from(2u8).modpow(&(n - 1u8), n).is_one();
                assert_eq!(*g, want, "batch bits={bits}");
                assert_eq!(fermat_base_two_scalar_ct(n).unwrap(), want, "scalar bits={bits}");
            }
            assert!(got.iter().filter(|&&g| g).count() >= 4);
            // Mixed sizes, as a safe-prime search batches them: some numbers one bit shorter.
            let mixed: Vec<BigUint> =
                cands.iter().enumerate().map(|(k, n)| if k % 2 == 1 { (n >> 1u8) | BigUint::from(1u8) } else { n.clone() }).collect();
            let got = fermat_base_two_batch_ct(&mixed, bits).unwrap();
            for (n, g) in mixed.iter().zip(&got) {
                assert_eq!(*g, BigUint::from(2u8).modpow(&(n - 1u8), n).is_one(), "mixed bits={bits}");
            }
        }
    }

    #[test]
    fn verdicts() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
        let m127 = (BigUint::from(1u8) << 127u32) - 1u8;
        assert!(matches!(random_base_rounds_ct(&m127, 3, &mut rng).unwrap(), Verdict::ProbablePrime));
        assert!(matches!(random_base_rounds_ct(&(&m127 * 3u8), 3, &mut rng).unwrap(), Verdict::Composite));
        // 341 = 11 * 31 is a Fermat pseudoprime to base 2; one random round exposes it
        // with probability >= 3/4, forty with overwhelming probability.
        let ctx = MontContext::new(&BigUint::from(341u32)).unwrap();
        assert!(fermat_base_two_ct(&ctx, &[340]));
        assert!(!fermat_base_two_ct(&MontContext::new(&BigUint::from(343u32)).unwrap(), &[342]));
        assert!(matches!(random_base_rounds_ct(&BigUint::from(341u32), 40, &mut rng).unwrap(), Verdict::Composite));
    }
}
