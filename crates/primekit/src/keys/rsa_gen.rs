//! RSA key generation by FIPS 186-5 Appendix A.1.3 (random probable primes).
//!
//! For a modulus of `bits` = nlen bits and public exponent e:
//! - e is odd with 2^16 < e < 2^256 (FIPS 186-5 A.1.1);
//! - p and q are nlen/2-bit probable primes with p, q >= sqrt(2) 2^(nlen/2 - 1), so that
//!   n = pq has exactly nlen bits, and gcd(p - 1, e) = gcd(q - 1, e) = 1 (A.1.3 steps
//!   4-5, from [`crate::generate_prime_with`] with [`LowerBound::Fips186Sqrt2`]);
//! - |p - q| > 2^(nlen/2 - 100), else q is drawn again (step 5.4: Fermat's method would
//!   factor n);
//! - d = e^{-1} mod lcm(p - 1, q - 1) with d > 2^(nlen/2), else both primes are drawn
//!   again (A.1.1: a small d would fall to Wiener-style attacks);
//! - a pairwise consistency test (encrypt, then decrypt both with d and by the CRT)
//!   before the key is returned.
//!
//! Each prime's error probability is at most 2^-128, by the average-case bound of the
//! generators (`params::error_bound`), and never uses fewer Miller-Rabin rounds than FIPS
//! 186-5 Table B.1 asks for an nlen-bit key ([`fips_min_rounds`]). The candidates are
//! tested in constant time, as in every generator here. The secret values live in
//! `BigUint`s, which are not zeroed on drop.

use crate::arith::limbs::{add_assign, from_limbs, sub_assign, to_limbs, Limb};
use crate::arith::{modexp::modpow_in, MontContext};
use crate::gen::{generate_prime_with, LowerBound, PrimeOptions};
use crate::Error;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;

/// Smallest modulus generated without [`RsaKeyOptions::insecure`] (NIST SP 800-131A).
pub const RSA_MIN_BITS: u32 = 2048;
/// Smallest modulus generated at all, even with [`RsaKeyOptions::insecure`] (for tests).
pub const RSA_INSECURE_MIN_BITS: u32 = 512;
/// Largest modulus generated: 16,384 bits (primes of 8,192 bits, the generators' cap).
pub const RSA_GEN_MAX_BITS: u32 = 2 * crate::MAX_GEN_BITS;
/// Redraws allowed for the |p - q| and d conditions before giving up (each fails with
/// probability below 2^-90 for a correct generator; exhausting them means a fault).
const MAX_REDRAWS: usize = 64;

/// A two-prime RSA private key, with its CRT values (the PKCS#1 `RSAPrivateKey` fields):
/// what key generation returns and what the audit ([`crate::keys::rsa`]) reads from PEM.
#[derive(Clone, PartialEq, Eq)]
pub struct RsaPrivateKey {
    /// The modulus n = p q.
    pub n: BigUint,
    /// The public exponent e.
    pub e: BigUint,
    /// The private exponent d.
    pub d: BigUint,
    /// The first prime (PKCS#1 `prime1`; the larger one in generated keys).
    pub p: BigUint,
    /// The smaller prime.
    pub q: BigUint,
    /// d mod (p - 1).
    pub dp: BigUint,
    /// d mod (q - 1).
    pub dq: BigUint,
    /// q^{-1} mod p.
    pub qinv: BigUint,
}

impl core::fmt::Debug for RsaPrivateKey {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "RsaPrivateKey {{ bits: {}, e: {}, .. }}", self.n.bits(), self.e)
    }
}

/// What key to generate. [`RsaKeyOptions::new`] then the chained setters.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RsaKeyOptions {
    bits: u32,
    e: BigUint,
    jobs: usize,
    insecure: bool,
}

impl RsaKeyOptions {
    /// A `bits`-bit modulus, e = 65537, one core.
    pub fn new(bits: u32) -> Self {
        RsaKeyOptions { bits, e: BigUint::from(65_537u32), jobs: 1, insecure: false }
    }
    /// The public exponent (odd, 2^16 < e < 2^256).
    pub fn e(mut self, e: BigUint) -> Self {
        self.e = e;
        self
    }
    /// Threads searching each prime.
    pub fn jobs(mut self, jobs: usize) -> Self {
        self.jobs = jobs;
        self
    }
    /// Allow moduli from [`RSA_INSECURE_MIN_BITS`] up (tests only: below 2048 bits a key
    /// does not meet NIST SP 800-131A).
    pub fn insecure(mut self, insecure: bool) -> Self {
        self.insecure = insecure;
        self
    }
}

/// Fewest Miller-Rabin rounds FIPS 186-5 Table B.1 allows for the primes of an
/// nlen-bit key (probable primes, M-R only): 5 for nlen 2048, 4 from 3072 on.
pub const fn fips_min_rounds(nlen: u32) -> u32 {
    if nlen < 3072 {
        5
    } else {
        4
    }
}

/// A `bits`-bit RSA key with public exponent `e` (FIPS 186-5 A.1.3; module docs).
pub fn generate_rsa_key(bits: u32, e: &BigUint) -> Result<RsaPrivateKey, Error> {
    generate_rsa_key_with(&RsaKeyOptions::new(bits).e(e.clone()))
}

impl RsaKeyOptions {
    /// The request's errors, without generating anything: what
    /// [`generate_rsa_key_with`] would refuse before its search (size, parity, cap, e,
    /// jobs). Lets a caller fail fast before reserving files or starting threads.
    pub fn validate(&self) -> Result<(), Error> {
        check(self)
    }
}

fn check(o: &RsaKeyOptions) -> Result<(), Error> {
    if o.jobs == 0 || o.jobs > 1024 {
        return Err(Error::InvalidArgument(format!("jobs must be in 1..=1024 (got {})", o.jobs)));
    }
    let min = if o.insecure { RSA_INSECURE_MIN_BITS } else { RSA_MIN_BITS };
    if o.bits < min {
        let hint = if o.insecure { "" } else { " (smaller keys only with the insecure option, for tests)" };
        return Err(Error::InvalidArgument(format!("RSA modulus must have at least {min} bits, got {}{hint}", o.bits)));
    }
    if o.bits > RSA_GEN_MAX_BITS {
        return Err(Error::InputTooLarge { bits: o.bits.into(), max: RSA_GEN_MAX_BITS.into() });
    }
    if !o.bits.is_multiple_of(2) {
        return Err(Error::InvalidArgument(format!("RSA modulus size must be even (two primes of bits/2), got {}", o.bits)));
    }
    let e = &o.e;
    if e.is_even() || e.bits() <= 16 || e.bits() > 256 {
        return Err(Error::InvalidArgument("e must be odd with 2^16 < e < 2^256 (FIPS 186-5 A.1.1)".into()));
    }
    Ok(())
}

/// One nlen/2-bit prime with gcd(p - 1, e) = 1 and p >= sqrt(2) 2^(nlen/2 - 1).
fn rsa_prime(o: &RsaKeyOptions) -> Result<BigUint, Error> {
    let mut opts = PrimeOptions::new(o.bits / 2).lower_bound(LowerBound::Fips186Sqrt2).jobs(o.jobs).min_rounds(fips_min_rounds(o.bits));
    // The generator sieves gcd(p - 1, e) = 1 for word-sized e; a larger e is checked here.
    let small_e = u64::try_from(&o.e).ok();
    if let Some(e) = small_e {
        opts = opts.rsa_exponent(e);
    }
    for _ in 0..MAX_REDRAWS {
        let p = generate_prime_with(&opts)?;
        if small_e.is_some() || (&p - 1u8).gcd(&o.e).is_one() {
            return Ok(p);
        }
    }
    Err(Error::InvalidArgument("no prime p with gcd(p - 1, e) = 1 found: e has too many small factors".into()))
}

/// A key as the module documentation describes.
pub fn generate_rsa_key_with(o: &RsaKeyOptions) -> Result<RsaPrivateKey, Error> {
    check(o)?;
    let half = u64::from(o.bits / 2);
    let min_gap = BigUint::one() << (half - 100);
    let d_floor = BigUint::one() << half;
    for _ in 0..MAX_REDRAWS {
        let p = rsa_prime(o)?;
        let mut q = rsa_prime(o)?;
        let mut redraws = 0;
        while (if p > q { &p - &q } else { &q - &p }) <= min_gap {
            redraws += 1;
            if redraws > MAX_REDRAWS {
                return Err(Error::SelfTestFailed("no q far enough from p in 64 draws".into()));
            }
            q = rsa_prime(o)?;
        }
        let (p, q) = if p > q { (p, q) } else { (q, p) };
        let (p1, q1) = (&p - 1u8, &q - 1u8);
        let lambda = p1.lcm(&q1);
        let Some(d) = o.e.modinv(&lambda) else { continue };
        if d <= d_floor {
            continue;
        }
        let key = RsaPrivateKey {
            n: &p * &q,
            e: o.e.clone(),
            dp: &d % &p1,
            dq: &d % &q1,
            qinv: q.modinv(&p).expect("distinct primes are coprime"),
            d,
            p,
            q,
        };
        pairwise_consistency(&key)?;
        return Ok(key);
    }
    Err(Error::SelfTestFailed("d <= 2^(nlen/2) in 64 draws".into()))
}

/// Encrypts a random m < n and decrypts it with d and by the CRT; both must give m back.
/// The private exponentiations run in constant time (they involve d, dP, dQ).
fn pairwise_consistency(k: &RsaPrivateKey) -> Result<(), Error> {
    let mut rng = crate::random::os_seeded()?;
    let m = crate::random::uniform_below(&mut rng, &(&k.n - 3u8))? + 2u8;
    let ctx_n = MontContext::new_vartime(&k.n)?;
    let c = modpow_in(&ctx_n, &m, &k.e, false);
    let by_d = modpow_in(&ctx_n, &c, &k.d, true);
    let (mp, mq) = crt_exponentiations(k, &c)?;
    let by_crt = garner(k, &mp, &mq)?;
    if by_d != m || by_crt != m {
        return Err(Error::SelfTestFailed("pairwise consistency: the key does not decrypt what it encrypts".into()));
    }
    Ok(())
}

/// Garner's recombination m = mq + q h with h = qInv (mp - mq) mod p, for mp < p and
/// mq < q, in the context of p: the reduction of mq, the subtraction mod p (masked) and
/// the product (two Montgomery products) run in time set by the limb counts; the final
/// product and sum are num-bigint's on values of public sizes.
fn garner(k: &RsaPrivateKey, mp: &BigUint, mq: &BigUint) -> Result<BigUint, Error> {
    let ctx_p = MontContext::new(&k.p)?;
    let len = ctx_p.len();
    let limbs = |x: &BigUint| to_limbs(x, len).ok_or_else(|| Error::InvalidArgument("a CRT value exceeds p's limbs".into()));
    let mut diff = limbs(mp)?;
    let borrow = sub_assign(&mut diff, &ctx_p.reduce_ct(&mq.to_u64_digits()));
    let p_masked: Vec<Limb> = ctx_p.modulus().iter().map(|&l| l & borrow.wrapping_neg()).collect();
    add_assign(&mut diff, &p_masked);
    let mut t = ctx_p.scratch();
    let qinv = ctx_p.to_mont(&ctx_p.reduce_ct(&k.qinv.to_u64_digits()), &mut t);
    let mut h = vec![0; len];
    ctx_p.mul(&mut h, &qinv, &diff, &mut t);
    Ok(mq + &k.q * from_limbs(&h))
}

/// The two half-size exponentiations of a CRT decryption, (c^dP mod p, c^dQ mod q), for
/// `c < n`: the private-key step of the pairwise consistency test. Builds the contexts
/// for p and q (constant time in their values, [`MontContext`]'s contract) and reduces c
/// by each with [`MontContext::reduce_ct`] (time set by the limb counts of c, p and q);
/// then [`crt_exponentiations_in`].
pub fn crt_exponentiations(k: &RsaPrivateKey, c: &BigUint) -> Result<(BigUint, BigUint), Error> {
    let (ctx_p, ctx_q) = (MontContext::new(&k.p)?, MontContext::new(&k.q)?);
    let c = c.to_u64_digits();
    let (cp, cq) = (from_limbs(&ctx_p.reduce_ct(&c)), from_limbs(&ctx_q.reduce_ct(&c)));
    Ok(crt_exponentiations_in(&ctx_p, &ctx_q, k, &cp, &cq))
}

/// (cp^dP mod p, cq^dQ mod q) in the contexts of p and q, for cp < p and cq < q:
/// constant time in cp, cq, dP, dQ, p and q (`modpow_in` with constant time, over all
/// limbs of p and q). `primekit-lab bench ct` measures it (target `rsa_crt`).
pub fn crt_exponentiations_in(
    ctx_p: &MontContext,
    ctx_q: &MontContext,
    k: &RsaPrivateKey,
    cp: &BigUint,
    cq: &BigUint,
) -> (BigUint, BigUint) {
    (modpow_in(ctx_p, cp, &k.dp, true), modpow_in(ctx_q, cq, &k.dq, true))
}
