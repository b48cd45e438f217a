//! The Shawe-Taylor random prime routine of FIPS 186-5 Appendix A.1.2.1.2 (FIPS 186-4
//! C.6), with SHA-256: a prime of a given length derived deterministically from a seed,
//! so anyone holding the seed can re-derive it, with a Pocklington proof at each level.
//!
//! Each level above 32 bits builds c = 2 t c0 + 1 on the previous level's prime c0 of
//! ceil(length/2) + 1 bits and accepts it when z = a^(2t) mod c has gcd(z - 1, c) = 1
//! and z^c0 = 1 (mod c): exactly a Pocklington step with F = c0 (c0^2 > c) and witness a,
//! which is how the levels above 2^64 enter the returned [`Certificate`].

use crate::arith::modexp::modpow_vartime;
use crate::primality::certificate::{Certificate, Factor, PocklingtonStep, Step};
use crate::primality::is_prime_u64;
use crate::Error;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive};
use sha2::{Digest, Sha256};

/// SHA-256 output length in bits.
const OUTLEN: u32 = 256;

/// What the routine returns besides the prime: the updated seed and counter, as in the
/// standard (callers chaining several primes continue from them).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShaweTaylorPrime {
    /// The prime.
    pub prime: BigUint,
    /// The seed after the prime (the standard's `prime_seed`).
    pub prime_seed: BigUint,
    /// The counter after the prime (the standard's `prime_gen_counter`).
    pub prime_gen_counter: u64,
    /// The certificate of the prime, from the Pocklington steps the routine took.
    pub certificate: Certificate,
}

/// Hash(x): SHA-256 of x written big-endian on `seedlen` bits (x reduced mod 2^seedlen).
fn hash(x: &BigUint, seedlen: usize) -> BigUint {
    let bytes = seedlen.div_ceil(8);
    let x = x % (BigUint::one() << seedlen);
    let mut be = x.to_bytes_be();
    let mut buf = vec![0u8; bytes.saturating_sub(be.len())];
    buf.append(&mut be);
    BigUint::from_bytes_be(&Sha256::digest(&buf))
}

/// Sum of Hash(seed + i) 2^(i outlen) for i = 0..=iterations.
fn hash_stream(seed: &BigUint, iterations: u32, seedlen: usize) -> BigUint {
    (0..=iterations).fold(BigUint::default(), |acc, i| acc + (hash(&(seed + i), seedlen) << (i * OUTLEN)))
}

/// ST_Random_Prime(length, input_seed) with `seedlen`, the bit length of the seed
/// string (FIPS 186-5 uses seedlen >= the security strength). Errors are the routine's
/// FAILURE returns (a length below 2, or a counter exhausted).
pub fn shawe_taylor_random_prime(length: u32, input_seed: &BigUint, seedlen: usize) -> Result<ShaweTaylorPrime, Error> {
    if !(2..=crate::MAX_GEN_BITS).contains(&length) {
        return Err(Error::InvalidArgument(format!("Shawe-Taylor length must be in 2..={}, got {length}", crate::MAX_GEN_BITS)));
    }
    if seedlen == 0 || input_seed.bits() > seedlen as u64 {
        return Err(Error::InvalidArgument("the seed must fit in seedlen bits".into()));
    }
    let mut steps = Vec::new();
    let (prime, prime_seed, counter) = st(length, input_seed, seedlen, &mut steps)?;
    steps.reverse(); // built innermost first; a certificate lists the proven number first
    let certificate = Certificate::new(prime.clone(), steps);
    Ok(ShaweTaylorPrime { prime, prime_seed, prime_gen_counter: counter, certificate })
}

fn failure(what: &str) -> Error {
    Error::SelfTestFailed(format!("Shawe-Taylor routine failed: {what}"))
}

fn st(length: u32, input_seed: &BigUint, seedlen: usize, steps: &mut Vec<Step>) -> Result<(BigUint, BigUint, u64), Error> {
    if length < 33 {
        // Steps 3-13.
        let mut prime_seed = input_seed.clone();
        let mut counter = 0u64;
        loop {
            let c = hash(&prime_seed, seedlen) ^ hash(&(&prime_seed + 1u8), seedlen);
            let half = BigUint::one() << (length - 1);
            let c = &half + (c % &half);
            let c = ((c >> 1u8) << 1u8) + 1u8;
            counter += 1;
            prime_seed += 2u8;
            if is_prime_u64(c.to_u64().expect("below 2^33")) {
                return Ok((c, prime_seed, counter));
            }
            if counter > 4 * u64::from(length) {
                return Err(failure("no small prime within 4 length draws"));
            }
        }
    }
    // Steps 14-34.
    let (c0, mut prime_seed, mut counter) = st(length.div_ceil(2) + 1, input_seed, seedlen, steps)?;
    let iterations = length.div_ceil(OUTLEN) - 1;
    let old_counter = counter;
    let x = hash_stream(&prime_seed, iterations, seedlen);
    prime_seed += iterations + 1;
    let half = BigUint::one() << (length - 1);
    let x = &half + (x % &half);
    let two_c0 = &c0 << 1u8;
    let mut t = x.div_ceil(&two_c0);
    loop {
        if &two_c0 * &t + 1u8 > BigUint::one() << length {
            t = half.div_ceil(&two_c0);
        }
        let c = &two_c0 * &t + 1u8;
        counter += 1;
        let a = hash_stream(&prime_seed, iterations, seedlen);
        prime_seed += iterations + 1;
        let a = (a % (&c - 3u8)) + 2u8;
        let z = modpow_vartime(&a, &(&t << 1u8), &c)?;
        // z = 0 means gcd(a, c) > 1: rejected like any other failure.
        if z.bits() != 0 && (&z - 1u8).gcd(&c).is_one() && modpow_vartime(&z, &c0, &c)?.is_one() {
            if c.bits() > 64 {
                steps.push(Step::Pocklington(PocklingtonStep { n: c.clone(), factors: vec![Factor { q: c0, k: 1, witness: a }] }));
            }
            return Ok((c, prime_seed, counter));
        }
        if counter >= 4 * u64::from(length) + old_counter {
            return Err(failure("no prime within 4 length candidates"));
        }
        t += 1u8;
    }
}
