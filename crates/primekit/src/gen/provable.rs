//! Provable primes: each comes with a [`Certificate`] anyone can check.
//!
//! Construction (Maurer 1995, with relative size 1/2, as in the Shawe-Taylor
//! construction of FIPS 186-5 A.1.2 but drawn from the OS generator instead of a seed):
//! a k-bit prime N is built on a proven prime q of ceil(k/2) + 1 bits as N = 2 R q + 1,
//! R random in the range that gives N exactly k bits. Then q^2 > N, so by Pocklington
//! ([`crate::primality::certificate`]) N is prime as soon as one a has a^(N-1) = 1 and
//! gcd(a^(2R) - 1, N) = 1. q is made the same way, down to 64 bits, where the exact test
//! decides. Each level costs a few exponentiations per candidate.
//!
//! Maurer's full algorithm draws the relative size of q at random in [1/2, 1], which
//! makes the output close to uniform over primes of the size; the fixed 1/2 of
//! [`generate_provable_prime`] is cheaper (each level costs about an eighth of the one
//! above) but less uniform. [`generate_provable_prime_maurer`] (in `hazmat::gen`) draws
//! it: x = 2^(s-1), s uniform in [0, 1], as Maurer 1995 does for k > 2m, keeping at least
//! m = 20 bits for R so the search range never runs dry.
//!
//! Not the FIPS 186-5 seeded Shawe-Taylor procedure (for primes re-derivable from a
//! seed, see [`super::shawe_taylor`], `hazmat::gen::shawe_taylor_random_prime`). Not
//! constant time either (the certificate is published with the prime): meant for public
//! parameters such as Diffie-Hellman groups, not for secret keys.

use crate::arith::lanes::FermatBatch;
use crate::arith::modexp::{modpow_in, modpow_vartime};
use crate::arith::MontContext;
use crate::primality::certificate::{Certificate, Factor, PocklingtonStep, Step};
use crate::primality::is_prime_u64;
use crate::random::{os_seeded, uniform_below};
use crate::sieve::first_odd_primes;
use crate::sieve::segment::{survivors, SegmentSieve, StepInverses};
use crate::Error;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};
use rand_core::CryptoRngCore;

/// Smallest size accepted (a step needs N > 2^64; below, the exact test is the proof).
pub const MIN_PROVABLE_BITS: u32 = 66;
/// Largest size accepted.
pub const MAX_PROVABLE_BITS: u32 = 8192;

fn check_bits(bits: u32) -> Result<(), Error> {
    if !(MIN_PROVABLE_BITS..=MAX_PROVABLE_BITS).contains(&bits) {
        return Err(Error::InvalidArgument(format!("provable primes need bits in {MIN_PROVABLE_BITS}..={MAX_PROVABLE_BITS}, got {bits}")));
    }
    Ok(())
}

/// A random prime of exactly `bits` bits with its certificate.
pub fn generate_provable_prime(bits: u32) -> Result<(BigUint, Certificate), Error> {
    check_bits(bits)?;
    let mut rng = os_seeded()?;
    let mut steps = Vec::new();
    let p = provable(bits, &mut rng, &mut steps, false)?;
    Ok((p.clone(), Certificate::new(p, steps)))
}

/// A random prime of exactly `bits` bits with its certificate, by Maurer's algorithm with
/// the relative size of each level's proven factor drawn at random (see the module
/// documentation): closer to uniform over `bits`-bit primes than [`generate_provable_prime`],
/// at a higher cost (the factors are larger on average).
pub fn generate_provable_prime_maurer(bits: u32) -> Result<(BigUint, Certificate), Error> {
    check_bits(bits)?;
    let mut rng = os_seeded()?;
    let mut steps = Vec::new();
    let p = provable_sized(bits, &mut rng, &mut steps, false, RelativeSize::Random)?;
    Ok((p.clone(), Certificate::new(p, steps)))
}

/// How large each level's proven factor q is relative to N.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum RelativeSize {
    /// ceil(k/2) + 1 bits: the least that keeps q^2 > N.
    Half,
    /// Maurer's random x = 2^(s-1) in [1/2, 1], with at least [`MAURER_MARGIN`] bits left for R.
    Random,
}

/// Bits kept for R in Maurer's random sizing (his m).
const MAURER_MARGIN: u32 = 20;

/// Bits of the proven factor q under `size` for a `bits`-bit N.
fn factor_bits(bits: u32, size: RelativeSize, rng: &mut impl CryptoRngCore) -> u32 {
    let half = bits.div_ceil(2) + 1;
    match size {
        RelativeSize::Half => half,
        RelativeSize::Random => {
            if bits <= 2 * MAURER_MARGIN + 2 {
                return half;
            }
            let s = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64;
            let x = (s - 1.0).exp2();
            ((x * bits as f64) as u32).clamp(half, bits - MAURER_MARGIN)
        }
    }
}

/// A random safe prime p = 2q + 1 of exactly `bits` bits, q prime, both proven: the
/// certificate's first step proves p from q (F = q), the second proves q.
pub fn generate_provable_safe_prime(bits: u32) -> Result<(BigUint, Certificate), Error> {
    check_bits(bits.saturating_sub(1))?;
    let mut rng = os_seeded()?;
    let mut steps = Vec::new();
    let q = provable(bits - 1, &mut rng, &mut steps, true)?;
    let p = (&q << 1u8) + 1u8;
    // p - 1 = 2q with q > sqrt(p): a = 3 is a witness when 3^(p-1) = 1 (checked by the
    // search) since gcd(3^2 - 1, p) = gcd(8, p) = 1.
    steps.insert(0, Step::Pocklington(PocklingtonStep { n: p.clone(), factors: vec![Factor { q, k: 1, witness: BigUint::from(3u8) }] }));
    Ok((p.clone(), Certificate::new(p, steps)))
}

/// Odd primes the candidate windows are sieved by: a quarter of the probable-prime
/// generator's count ([`crate::params::tuning::sieve_primes`]), at most the 2^22 list.
/// Unlike the probable search (step 2), every level here has its own step 2q, whose
/// inverse modulo each sieving prime costs an extended Euclid per prime and level, so
/// the optimum is shallower. Measured (`bench provable --safe --count 60`, the default kernel of an 8-lane CPU):
/// at 1024 bits a sixteenth, an eighth, a quarter, a half and all of the count gave
/// provable safe primes in 1.37, 1.23, 1.25, 1.31 and 1.85 times the probable safe
/// prime's mean time; at 2048 bits the whole 3.95M-prime list took 2.6 times, the
/// 2^22 list (295k primes) 1.3.
fn provable_sieve_primes(bits: u32, safe_top: bool) -> usize {
    (crate::params::tuning::sieve_primes(bits, safe_top) / 4).clamp(256, crate::sieve::odd_primes_below_2_22().len())
}

/// Candidates per window (consecutive R, a multiple of [`SEGMENT`]), segments sieved
/// one at a time so a search that stops early does not pay for the rest, and windows
/// tried before giving up.
const WINDOW: usize = 1 << 16;
const SEGMENT: usize = 1 << 12;
const MAX_WINDOWS: usize = 1 << 10;

/// A witness a in {2, 3, 5, 7, 11, 13} with a^(N-1) = 1 and gcd(a^(2R) - 1, N) = 1 for
/// N = 2Rq + 1 (Pocklington with F = q), or None (N composite, or unlucky). N has
/// passed the base-2 Fermat test already.
fn pocklington_witness(n: &BigUint, r: &BigUint) -> Option<BigUint> {
    let n1 = n - 1u8;
    let ctx = MontContext::new(n).ok()?;
    let two_r = r << 1u8;
    [2u32, 3, 5, 7, 11, 13].into_iter().map(BigUint::from).find(|a| {
        let fermat = a == &BigUint::from(2u8) || modpow_in(&ctx, a, &n1, false).is_one();
        fermat && {
            let x = modpow_in(&ctx, a, &two_r, false);
            !x.is_zero() && (x - 1u8).gcd(n).is_one()
        }
    })
}

fn fermat_base_3(p: &BigUint) -> bool {
    modpow_vartime(&BigUint::from(3u8), &(p - 1u8), p).is_ok_and(|x| x.is_one())
}

/// A proven `bits`-bit prime; its steps (if any) are appended to `steps`, outermost
/// first. `safe_top`: also require 2N + 1 to pass a base-3 Fermat test (for
/// [`generate_provable_safe_prime`]).
fn provable(bits: u32, rng: &mut impl CryptoRngCore, steps: &mut Vec<Step>, safe_top: bool) -> Result<BigUint, Error> {
    provable_sized(bits, rng, steps, safe_top, RelativeSize::Half)
}

/// [`provable`] with the factor sizes chosen by `size` at every level.
fn provable_sized(
    bits: u32,
    rng: &mut impl CryptoRngCore,
    steps: &mut Vec<Step>,
    safe_top: bool,
    size: RelativeSize,
) -> Result<BigUint, Error> {
    if bits <= 64 {
        debug_assert!(!safe_top, "safe primes are at least 67 bits (check_bits)");
        loop {
            let x = uniform_below(rng, &(BigUint::one() << (bits - 1)))? + (BigUint::one() << (bits - 1));
            let x = x | BigUint::one();
            if is_prime_u64(x.to_u64().expect("at most 64 bits")) {
                return Ok(x);
            }
        }
    }
    let mut sub = Vec::new();
    let q_bits = factor_bits(bits, size, rng);
    let q = provable_sized(q_bits, rng, &mut sub, false, size)?;
    let two_q = &q << 1u8;
    // N = 2 R q + 1 in [2^(bits-1), 2^bits): R in [ceil((2^(bits-1) - 1) / 2q), (2^bits - 2) / 2q].
    let r_lo = ((BigUint::one() << (bits - 1)) - 1u8).div_ceil(&two_q);
    let r_hi = ((BigUint::one() << bits) - 2u8) / &two_q;
    let span = &r_hi - &r_lo + 1u8;
    let window = WINDOW.min(span.to_usize().unwrap_or(usize::MAX) / SEGMENT * SEGMENT);
    debug_assert!(window >= SEGMENT, "span 2^(bits - q_bits - 2) is at least 2^18");
    // The sieve runs over N = 2 R q + 1 (step 2q), or for safe primes over their top
    // 2N + 1 = 4 R q + 3 (step 4q), where the safe sieve strikes l | 2N + 1 and
    // l | N = ((2N + 1) - 1) / 2 alike.
    let (step, offset) = if safe_top { (&q << 2u8, 3u8) } else { (two_q.clone(), 1u8) };
    let primes = first_odd_primes(provable_sieve_primes(bits, safe_top));
    let inverses = StepInverses::new(&step.to_u64_digits(), primes);
    let batch = FermatBatch::new(bits as usize)?;
    for _ in 0..MAX_WINDOWS {
        let r0 = &r_lo + uniform_below(rng, &(&span - (window - 1)))?;
        let start = &step * &r0 + offset;
        let mut sieve = SegmentSieve::with_inverses(&start.to_u64_digits(), &inverses, primes, safe_top, SEGMENT, window);
        for seg in 0..window / SEGMENT {
            let alive: Vec<usize> = survivors(sieve.next_segment()).map(|i| seg * SEGMENT + i).collect();
            // Base-2 Fermat tests of N, as many per call as the kernel has lanes.
            for chunk in alive.chunks(batch.lanes()) {
                let cands: Vec<BigUint> = chunk.iter().map(|&i| &two_q * (&r0 + i) + 1u8).collect();
                let passed = batch.test_ct(&cands)?;
                for (k, n) in cands.iter().enumerate().filter(|&(k, _)| passed >> k & 1 == 1) {
                    // The cheap rejection first: most N that pass are not the q of a safe prime.
                    if safe_top && !fermat_base_3(&((n << 1u8) + 1u8)) {
                        continue;
                    }
                    let r = &r0 + chunk[k];
                    let Some(witness) = pocklington_witness(n, &r) else { continue };
                    steps.push(Step::Pocklington(PocklingtonStep { n: n.clone(), factors: vec![Factor { q, k: 1, witness }] }));
                    steps.extend(sub);
                    return Ok(n.clone());
                }
            }
        }
    }
    Err(Error::SelfTestFailed(format!("no provable prime found in {} candidates", MAX_WINDOWS * WINDOW)))
}
