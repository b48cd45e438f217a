//! Tests applied to one secret candidate, all in constant time apart from the boolean
//! each returns (a rejected candidate's neighbours are the next candidates, so how a
//! candidate failed must not leak).

use crate::arith::limbs::{eq_mask, to_limbs, Limb};
use crate::arith::modexp::pow_ct;
use crate::arith::MontContext;
use crate::primality::MillerRabin;
use crate::Error;
use num_bigint::BigUint;
use rand_core::CryptoRngCore;

/// Fermat test to base 2: 2^(n-1) = 1 (mod n), for odd n >= 3, with [`pow_ct`] over all
/// limbs of n. A failure proves n composite; for a safe-prime candidate p = 2q + 1 with q
/// prime and 3 not dividing p, a pass proves p prime (Pocklington, since q > sqrt(p):
/// 2^(p-1) = 1 and gcd(2^((p-1)/q) - 1, p) = gcd(3, p) = 1).
pub fn fermat_base_two_ct(ctx: &MontContext, n_minus_1: &[Limb]) -> bool {
    let mut t = ctx.scratch();
    let mut two = vec![0; ctx.len()];
    two[0] = 2;
    let base = ctx.to_mont(&two, &mut t);
    let r = pow_ct(ctx, &base, n_minus_1, ctx.len() * 64);
    eq_mask(&r, ctx.one()) != 0
}

/// Outcome of the full test of a candidate.
pub enum Verdict {
    Composite,
    ProbablePrime,
}

/// Miller-Rabin to base 2, then `rounds` rounds with random bases (on which the error
/// bound rests), all with [`MillerRabin::passes_ct`]. `n` odd, n >= 5.
pub fn miller_rabin_ct(n: &BigUint, rounds: u32, rng: &mut impl CryptoRngCore) -> Result<Verdict, Error> {
    let mr = MillerRabin::new(n)?;
    let mut two = vec![0; mr.context().len()];
    two[0] = 2;
    if !mr.passes_ct(&two) {
        return Ok(Verdict::Composite);
    }
    for _ in 0..rounds {
        let a = mr.random_base(rng)?;
        if !mr.passes_ct(&a) {
            return Ok(Verdict::Composite);
        }
    }
    Ok(Verdict::ProbablePrime)
}

/// The safe-prime test of p = 2q + 1 (Wiener 2003 order): Fermat base 2 on p first (one
/// exponentiation rejects almost every candidate), then q's Miller-Rabin rounds, and p
/// is then proven prime by Pocklington from the Fermat result (see
/// [`fermat_base_two_ct`]). The caller guarantees 3 does not divide p and p >= 11.
pub fn safe_prime_ct(p: &BigUint, rounds: u32, rng: &mut impl CryptoRngCore) -> Result<Verdict, Error> {
    let ctx = MontContext::new(p)?;
    let pm1 = to_limbs(&(p - 1u8), ctx.len()).expect("fits");
    if !fermat_base_two_ct(&ctx, &pm1) {
        return Ok(Verdict::Composite);
    }
    let q: BigUint = p >> 1u8;
    miller_rabin_ct(&q, rounds, rng)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn verdicts() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
        let m127 = (BigUint::from(1u8) << 127u32) - 1u8;
        assert!(matches!(miller_rabin_ct(&m127, 3, &mut rng).unwrap(), Verdict::ProbablePrime));
        assert!(matches!(miller_rabin_ct(&(&m127 * 3u8), 3, &mut rng).unwrap(), Verdict::Composite));
        // 341 = 11 * 31 is a Fermat pseudoprime to base 2 (but not a strong one).
        let ctx = MontContext::new(&BigUint::from(341u32)).unwrap();
        assert!(fermat_base_two_ct(&ctx, &[340]));
        assert!(matches!(miller_rabin_ct(&BigUint::from(341u32), 0, &mut rng).unwrap(), Verdict::Composite));
        // 2^127 - 1 is prime but (2^127 - 1 - 1)/2 is even... use a known safe prime:
        // 2^255 - 19's neighbour is not safe; RFC 3526 group primes are. 1019 = 2*509+1.
        assert!(matches!(safe_prime_ct(&BigUint::from(1019u32), 2, &mut rng).unwrap(), Verdict::ProbablePrime));
        // 1031 is prime but 515 = 5 * 103 is not.
        assert!(matches!(safe_prime_ct(&BigUint::from(1031u32), 2, &mut rng).unwrap(), Verdict::Composite));
    }
}
