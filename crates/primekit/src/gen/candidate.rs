//! Tests applied to one secret candidate, all in constant time apart from the boolean
//! each returns (a rejected candidate's neighbours are the next candidates, so how a
//! candidate failed must not leak).

use crate::arith::limbs::{add_assign, bit, eq_mask, select_into, sub_into, to_limbs, Limb};
use crate::arith::ifma::LANES;
use crate::arith::ifma_fermat::fermat_base_two_lanes;
use crate::arith::MontContext;
use crate::primality::pocklington::safe_prime_by_pocklington;
use crate::primality::MillerRabin;
use crate::Error;
use num_bigint::BigUint;
use rand_core::CryptoRngCore;

/// Fermat test to base 2: 2^(n-1) = 1 (mod n), for odd n >= 3, with [`pow2_ct`] over all
/// limbs of n. A failure proves n composite; for a safe-prime candidate p = 2q + 1 with q
/// prime and 3 not dividing p, a pass proves p prime
/// ([`safe_prime_by_pocklington`](crate::primality::pocklington::safe_prime_by_pocklington)).
pub fn fermat_base_two_ct(ctx: &MontContext, n_minus_1: &[Limb]) -> bool {
    let r = pow2_ct(ctx, n_minus_1, ctx.len() * 64);
    eq_mask(&r, ctx.one()) != 0
}

/// 2^exp in Montgomery form over exactly `exp_bits` bits (higher bits of `exp` must be
/// zero), by left-to-right square-and-double: the base being 2, "multiply by the base"
/// is a modular doubling (an addition), so there is no table and no multiplication,
/// about a quarter fewer Montgomery operations than the fixed-window `pow_ct`. Constant
/// time: every bit does one squaring, one doubling and one masked select.
pub fn pow2_ct(ctx: &MontContext, exp: &[Limb], exp_bits: usize) -> Vec<Limb> {
    assert!(exp.len() * 64 >= exp_bits);
    // With IFMA the whole ladder stays in radix 2^52 (same steps, same constant time).
    #[cfg(target_arch = "x86_64")]
    if let Some(p) = ctx.ifma() {
        return crate::arith::x86_64_ifma::pow2_ct(p, exp, exp_bits, ctx.modulus());
    }
    let n = ctx.len();
    let m = ctx.modulus();
    let mut t = ctx.scratch();
    let mut acc = ctx.one().to_vec();
    let mut sq = vec![0; n];
    let mut dbl = vec![0; n];
    let mut red = vec![0; n];
    for i in (0..exp_bits).rev() {
        ctx.sqr(&mut sq, &acc, &mut t);
        // dbl = 2 sq mod m: sq < m, so 2 sq < 2m and one conditional subtraction suffices.
        dbl.copy_from_slice(&sq);
        let carry = add_assign(&mut dbl, &sq);
        let borrow = sub_into(&mut red, &dbl, m);
        // Keep the reduced value when 2 sq overflowed the limbs or is >= m.
        // black_box: without it LLVM sees a 0/1-derived mask and emits a branch on it
        // (found by tools/ctgrind under valgrind).
        let use_red = core::hint::black_box((carry | (borrow ^ 1)).wrapping_neg());
        select_into(&mut acc, &red, &dbl, use_red);
        // Now acc = 2 sq; take sq instead when the exponent bit is 0.
        let take_dbl = core::hint::black_box(bit(exp, i).wrapping_neg());
        dbl.copy_from_slice(&acc);
        select_into(&mut acc, &dbl, &sq, take_dbl);
    }
    acc
}

/// Base-2 Fermat tests of odd candidates >= 5 of `bits` or `bits - 1` bits (a safe-prime
/// candidate p and the q of an earlier one may share a batch):
/// eight at a time in the lanes of [`fermat_base_two_lanes`] when the CPU has AVX-512
/// IFMA, otherwise (or for sizes the lanes reject) one by one with [`fermat_base_two_ct`].
/// The lanes are faster at every size: per candidate, lanes vs one at a time (context
/// included), `cargo run --release --example fermat_lanes_speed`: 1024 bits 25 vs 103
/// µs, 1536: 77 vs 225, 2048: 179 vs 394, 3072: 586 vs 1033, 4096: 1385 vs 2143.
pub fn fermat_base_two_batch_ct(cands: &[BigUint], bits: usize) -> Result<Vec<bool>, Error> {
    let mut out = Vec::with_capacity(cands.len());
    for chunk in cands.chunks(LANES) {
        let limbs: Vec<Vec<Limb>> = chunk.iter().map(|n| to_limbs(n, bits.div_ceil(64)).unwrap_or_default()).collect();
        let refs: Vec<&[Limb]> = limbs.iter().map(Vec::as_slice).collect();
        // Bit lengths are public (the lanes need one common size).
        let lanes = if chunk.iter().all(|n| n.bits() == bits as u64 || n.bits() + 1 == bits as u64) { fermat_base_two_lanes(&refs, bits) } else { None };
        match lanes {
            Some(mask) => out.extend((0..chunk.len()).map(|k| mask >> k & 1 == 1)),
            None => {
                for n in chunk {
                    out.push(fermat_base_two_scalar_ct(n)?);
                }
            }
        }
    }
    Ok(out)
}

/// [`fermat_base_two_ct`] on an odd n >= 3 given as a number.
pub fn fermat_base_two_scalar_ct(n: &BigUint) -> Result<bool, Error> {
    let ctx = MontContext::new(n)?;
    let nm1 = to_limbs(&(n - 1u8), ctx.len()).expect("fits");
    Ok(fermat_base_two_ct(&ctx, &nm1))
}

/// `rounds` Miller-Rabin rounds with random bases, the acceptance step after a base-2
/// Fermat pass. `n` odd, n >= 5. The bases are drawn first and the rounds run together
/// ([`MillerRabin::passes_all_ct`]: eight per constant-time IFMA exponentiation), which
/// at 1024 bits costs about one and a half single rounds instead of six.
pub fn random_base_rounds_ct(n: &BigUint, rounds: u32, rng: &mut impl CryptoRngCore) -> Result<Verdict, Error> {
    let mr = MillerRabin::new(n)?;
    let bases = (0..rounds).map(|_| mr.random_base(rng)).collect::<Result<Vec<_>, _>>()?;
    Ok(if mr.passes_all_ct(&bases) { Verdict::ProbablePrime } else { Verdict::Composite })
}

/// Outcome of the full test of a candidate.
pub enum Verdict {
    Composite,
    ProbablePrime,
}

/// A Fermat test to base 2 (cheap rejection: [`pow2_ct`]), then `rounds` Miller-Rabin
/// rounds with random bases (on which the error bound rests) with
/// [`MillerRabin::passes_ct`]. `n` odd, n >= 5.
pub fn miller_rabin_ct(n: &BigUint, rounds: u32, rng: &mut impl CryptoRngCore) -> Result<Verdict, Error> {
    let mr = MillerRabin::new(n)?;
    let nm1 = to_limbs(&(n - 1u8), mr.context().len()).expect("fits");
    if !fermat_base_two_ct(mr.context(), &nm1) {
        return Ok(Verdict::Composite);
    }
    random_base_rounds_ct(n, rounds, rng)
}

/// The safe-prime test of p = 2q + 1 (Wiener 2003 order): Fermat base 2 on p first (one
/// exponentiation rejects almost every candidate), then q's Miller-Rabin rounds, and p
/// is then proven prime by Pocklington from the Fermat result
/// ([`safe_prime_by_pocklington`], which also rejects p divisible by 3). p odd, p >= 11.
pub fn safe_prime_ct(p: &BigUint, rounds: u32, rng: &mut impl CryptoRngCore) -> Result<Verdict, Error> {
    let ctx = MontContext::new(p)?;
    let pm1 = to_limbs(&(p - 1u8), ctx.len()).expect("fits");
    if !fermat_base_two_ct(&ctx, &pm1) {
        return Ok(Verdict::Composite);
    }
    let q: BigUint = p >> 1u8;
    Ok(match miller_rabin_ct(&q, rounds, rng)? {
        Verdict::ProbablePrime if safe_prime_by_pocklington(p, 2, true) => Verdict::ProbablePrime,
        _ => Verdict::Composite,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_traits::One;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn pow2_matches_biguint() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(2);
        use rand_core::RngCore;
        for bits in [64u32, 127, 520, 1024, 2048, 4095] {
            for kernel in crate::arith::Kernel::available() {
                let mut bytes = vec![0u8; bits as usize / 8 + 1];
                rng.fill_bytes(&mut bytes);
                let m = (BigUint::from_bytes_le(&bytes) >> 3u8) | BigUint::from(1u8) | (BigUint::from(1u8) << (bits - 1));
                rng.fill_bytes(&mut bytes);
                let e = BigUint::from_bytes_le(&bytes) % &m;
                // Every kernel: the scalar ladder and the IFMA-domain one.
                let ctx = MontContext::with_kernel(&m, kernel).unwrap();
                let el = to_limbs(&e, ctx.len()).unwrap();
                let r = pow2_ct(&ctx, &el, ctx.len() * 64);
                let mut t = ctx.scratch();
                let got = crate::arith::limbs::from_limbs(&ctx.from_mont(&r, &mut t));
                assert_eq!(got, BigUint::from(2u8).modpow(&e, &m), "bits={bits} {kernel:?}");
            }
        }
        // Moduli with the top limb near 2^64, where 2 sq overflows the limbs, and an
        // all-ones exponent (a doubling at every step).
        for m in [(BigUint::from(1u8) << 128u32) - 159u8, (BigUint::from(1u8) << 2048u32) - 1u8] {
            for kernel in crate::arith::Kernel::available() {
                let ctx = MontContext::with_kernel(&m, kernel).unwrap();
                let e = &m - 2u8;
                let r = pow2_ct(&ctx, &to_limbs(&e, ctx.len()).unwrap(), ctx.len() * 64);
                let mut t = ctx.scratch();
                assert_eq!(crate::arith::limbs::from_limbs(&ctx.from_mont(&r, &mut t)), BigUint::from(2u8).modpow(&e, &m), "{kernel:?}");
            }
        }
    }

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
                    while !BigUint::from(2u8).modpow(&(&n - 1u8), &n).is_one() {
                        n += 2u8;
                    }
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
            let mixed: Vec<BigUint> = cands.iter().enumerate().map(|(k, n)| if k % 2 == 1 { (n >> 1u8) | BigUint::from(1u8) } else { n.clone() }).collect();
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
        assert!(matches!(miller_rabin_ct(&m127, 3, &mut rng).unwrap(), Verdict::ProbablePrime));
        assert!(matches!(miller_rabin_ct(&(&m127 * 3u8), 3, &mut rng).unwrap(), Verdict::Composite));
        // 341 = 11 * 31 is a Fermat pseudoprime to base 2; one random round exposes it
        // with probability >= 3/4, forty with overwhelming probability.
        let ctx = MontContext::new(&BigUint::from(341u32)).unwrap();
        assert!(fermat_base_two_ct(&ctx, &[340]));
        assert!(!fermat_base_two_ct(&MontContext::new(&BigUint::from(343u32)).unwrap(), &[342]));
        assert!(matches!(miller_rabin_ct(&BigUint::from(341u32), 40, &mut rng).unwrap(), Verdict::Composite));
        // 2^127 - 1 is prime but (2^127 - 1 - 1)/2 is even... use a known safe prime:
        // 2^255 - 19's neighbour is not safe; RFC 3526 group primes are. 1019 = 2*509+1.
        assert!(matches!(safe_prime_ct(&BigUint::from(1019u32), 2, &mut rng).unwrap(), Verdict::ProbablePrime));
        // 1031 is prime but 515 = 5 * 103 is not.
        assert!(matches!(safe_prime_ct(&BigUint::from(1031u32), 2, &mut rng).unwrap(), Verdict::Composite));
    }
}
