//! MRAC, MR64 and MR128 on OpenSSL's own big-number arithmetic: the engine Massimo &
//! Paterson 2020 measured (§3, Table 2, Figures 4-7), beside primekit's arithmetic.
//!
//! Built as OpenSSL 1.1.1's `BN_is_prime_fasttest_ex` does it (bn_prime.c): trial division
//! by `primes[1..=r]` with one `BN_mod_word` each (a full pass over n's words per prime:
//! this is the cost C_TD the paper's model uses), then rounds with a uniformly random base
//! in [2, n-2]: `BN_mod_exp_mont` for a^d, then up to s-1 squarings with `BN_mod_mul`,
//! stopping at the first witness. Two differences, both outside the timed arithmetic's
//! character: bases come from the caller's generator (OpenSSL 1.1.1 used
//! `BN_priv_rand_range`), and the odd primes from primekit's table (the same numbers).

use super::openssl::{Bn, Ctx, MontExp};
use crate::instrument::{Outcome, Stage};
use crate::tests::mrac::mrac_rounds;
use crate::tests::TestKind;
use num_bigint::BigUint;
use primekit::hazmat::random::uniform_below;
use primekit::hazmat::sieve::odd_prime;
use primekit::Error;
use rand_core::CryptoRngCore;
use std::os::raw::c_int;

#[link(name = "crypto")]
extern "C" {
    fn BN_mod_word(a: *const std::ffi::c_void, w: u64) -> u64;
    fn BN_mod_mul(
        r: *mut std::ffi::c_void,
        a: *const std::ffi::c_void,
        b: *const std::ffi::c_void,
        m: *const std::ffi::c_void,
        ctx: *mut std::ffi::c_void,
    ) -> c_int;
    fn BN_cmp(a: *const std::ffi::c_void, b: *const std::ffi::c_void) -> c_int;
    fn BN_is_one(a: *const std::ffi::c_void) -> c_int;
}

/// n prepared for OpenSSL-arithmetic Miller-Rabin rounds: n - 1 = 2^s d.
pub struct BnMillerRabin {
    n: Bn,
    n_big: BigUint,
    n_minus_1: Bn,
    d: Bn,
    s: u64,
    mont: MontExp,
    ctx: Ctx,
}

impl BnMillerRabin {
    /// For odd n >= 5.
    pub fn new(n: &BigUint) -> BnMillerRabin {
        let n1 = n - 1u8;
        let s = n1.trailing_zeros().unwrap_or(0);
        BnMillerRabin {
            n: Bn::from_biguint(n),
            n_big: n.clone(),
            n_minus_1: Bn::from_biguint(&n1),
            d: Bn::from_biguint(&(&n1 >> s)),
            s,
            mont: MontExp::new(n),
            ctx: Ctx::new(),
        }
    }

    /// One round with base `a` (2 <= a <= n - 2): true if n passes.
    pub fn passes(&self, a: &Bn) -> bool {
        let mut z = Bn::new();
        self.mont.exp(&mut z, a, &self.d);
        // SAFETY: live BIGNUMs and context owned by self / this frame.
        unsafe {
            if BN_is_one(z.as_ptr()) == 1 || BN_cmp(z.as_ptr(), self.n_minus_1.as_ptr()) == 0 {
                return true;
            }
            for _ in 1..self.s {
                let ok = BN_mod_mul(z.as_mut_ptr(), z.as_ptr(), z.as_ptr(), self.n.as_ptr(), self.ctx.as_mut_ptr());
                assert_eq!(ok, 1, "BN_mod_mul failed");
                if BN_cmp(z.as_ptr(), self.n_minus_1.as_ptr()) == 0 {
                    return true;
                }
                if BN_is_one(z.as_ptr()) == 1 {
                    return false;
                }
            }
        }
        false
    }

    /// A uniformly random base in [2, n - 2], as an OpenSSL number.
    pub fn random_base(&self, rng: &mut impl CryptoRngCore) -> Result<Bn, Error> {
        let a = uniform_below(rng, &(&self.n_big - 3u8))? + 2u8;
        Ok(Bn::from_biguint(&a))
    }
}

/// Trial division by the first `r` odd primes with `BN_mod_word`: `Some(p)` for the
/// first prime dividing n.
pub fn trial_divide(n: &Bn, r: usize) -> Option<u32> {
    (0..r).map(odd_prime).find(|&p| {
        // SAFETY: live BIGNUM; w is non-zero.
        let rem = unsafe { BN_mod_word(n.as_ptr(), u64::from(p)) };
        assert_ne!(rem, u64::MAX, "BN_mod_word failed");
        rem == 0
    })
}

/// `out[i] = n mod primes[i]`, one `BN_mod_word` each: the remainder table of OpenSSL's
/// generator (bn_prime.c, `probable_prime`).
pub fn remainders(n: &BigUint, primes: &[u32], out: &mut Vec<u32>) {
    let bn = Bn::from_biguint(n);
    out.clear();
    out.extend(primes.iter().map(|&p| {
        // SAFETY: live BIGNUM; p is non-zero.
        let rem = unsafe { BN_mod_word(bn.as_ptr(), u64::from(p)) };
        assert_ne!(rem, u64::MAX, "BN_mod_word failed");
        rem as u32
    }));
}

/// t rounds with uniformly random bases on OpenSSL's arithmetic, stopping at the first
/// witness.
fn rounds(mr: &BnMillerRabin, t: u32, rng: &mut dyn CryptoRngCore) -> Result<bool, Error> {
    for _ in 0..t {
        let mut rng = &mut *rng;
        if !mr.passes(&mr.random_base(&mut rng)?) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The research generators' candidate test ([`crate::pga::probable_prime`]) on OpenSSL's
/// arithmetic: trial division by the first `td` odd primes with `BN_mod_word` (0: none),
/// then t rounds; for safe primes q = (n - 1)/2 and n alternate as there (one round each
/// first). Even n or q is rejected at no cost.
pub fn probable_prime(n: &BigUint, td: usize, t: u32, safe: bool, rng: &mut dyn CryptoRngCore) -> Result<bool, Error> {
    if !n.bit(0) || n.bits() < 3 {
        return Ok(false);
    }
    if td > 0 && trial_divide(&Bn::from_biguint(n), td).is_some() {
        return Ok(false);
    }
    let mr_n = BnMillerRabin::new(n);
    if !safe {
        return rounds(&mr_n, t, rng);
    }
    let q = n >> 1u32;
    if !q.bit(0) || q.bits() < 3 {
        return Ok(false);
    }
    let mr_q = BnMillerRabin::new(&q);
    Ok(rounds(&mr_q, 1, rng)? && rounds(&mr_n, 1, rng)? && rounds(&mr_q, t - 1, rng)? && rounds(&mr_n, t - 1, rng)?)
}

/// MRAC, MR64 or MR128 (the others are not built on OpenSSL: `Err`) with trial division
/// by the first `r` odd primes, on OpenSSL's arithmetic. Same instrumentation as the
/// primekit-arithmetic tests.
pub fn run(kind: TestKind, n: &BigUint, r: usize, rng: &mut impl CryptoRngCore) -> Result<Outcome, Error> {
    let t = match kind {
        TestKind::Mrac => mrac_rounds(n.bits()),
        TestKind::Mr64 => 64,
        TestKind::Mr128 => 128,
        _ => return Err(Error::InvalidArgument(format!("{} has no OpenSSL-arithmetic engine", kind.name()))),
    };
    if let Some(o) = crate::instrument::prefilter(n, 0) {
        return Ok(o); // n < 8 or even: decided without arithmetic
    }
    let bn = Bn::from_biguint(n);
    if let Some(p) = trial_divide(&bn, r) {
        let is_p = n == &BigUint::from(p);
        return Ok(Outcome { prime: is_p, stage: Stage::TrialDivision, mr_rounds: 0 });
    }
    let mr = BnMillerRabin::new(n);
    for i in 1..=t {
        if !mr.passes(&mr.random_base(rng)?) {
            return Ok(Outcome::composite(Stage::MillerRabin, i));
        }
    }
    Ok(Outcome::passed(t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn agrees_with_primekit_on_primes_and_composites() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        let p = BigUint::parse_bytes(b"ffffffffffffffffffffffffffffff61", 16).unwrap(); // 2^128 - 159
        let q = BigUint::parse_bytes(b"fffffffffffffffffffffffffffffeff", 16).unwrap() * 3u8 + 2u8; // odd
        for k in [TestKind::Mrac, TestKind::Mr64] {
            assert!(run(k, &p, 64, &mut rng).unwrap().prime);
            assert_eq!(run(k, &BigUint::from(3u32 * 1_000_003), 64, &mut rng).unwrap().stage, Stage::TrialDivision);
            let o = run(k, &(&p * &p), 0, &mut rng).unwrap();
            assert!(!o.prime && o.stage == Stage::MillerRabin && o.mr_rounds == 1);
            assert_eq!(run(k, &q, 0, &mut rng).unwrap().prime, primekit::is_prime(&q));
        }
        // 3215031751 = 151 · 751 · 28351 is a strong pseudoprime to bases 2, 3, 5, 7.
        let spsp = BnMillerRabin::new(&BigUint::from(3_215_031_751u64));
        for a in [2u8, 3, 5, 7] {
            assert!(spsp.passes(&Bn::from_biguint(&BigUint::from(a))), "base {a}");
        }
        assert!(!spsp.passes(&Bn::from_biguint(&BigUint::from(11u8))));
        assert!(run(TestKind::Bpsw, &p, 0, &mut rng).is_err());
    }

    /// The remainder table by `BN_mod_word` equals num-bigint's remainders, and the
    /// candidate test agrees with the known answers (safe and plain, with and without
    /// trial division) on a prime, a safe prime and composites.
    #[test]
    fn generator_pieces_agree_with_num_bigint_and_known_primes() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(9);
        // RFC 3526's 1536-bit MODP group prime: a safe prime.
        let modp = BigUint::parse_bytes(
            b"FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA237327FFFFFFFFFFFFFFFF",
            16,
        )
        .unwrap();
        let primes = &primekit::hazmat::sieve::SMALL_ODD_PRIMES[..2047];
        let mut ours = Vec::new();
        for n in [&modp, &(&modp * 12345u32 + 1u8)] {
            remainders(n, primes, &mut ours);
            let want: Vec<u32> = primes.iter().map(|&p| (n % p).try_into().unwrap()).collect();
            assert_eq!(ours, want);
        }
        // 2^255 - 19 is prime, and (p - 1)/2 is even, so it is not a safe prime.
        let p = (BigUint::from(1u8) << 255u32) - 19u8;
        for td in [0, 64] {
            assert!(probable_prime(&p, td, 8, false, &mut rng).unwrap());
            assert!(!probable_prime(&p, td, 8, true, &mut rng).unwrap());
            assert!(!probable_prime(&(&p * &p), td, 8, false, &mut rng).unwrap());
            assert!(probable_prime(&modp, td, 4, true, &mut rng).unwrap());
            assert!(probable_prime(&modp, td, 4, false, &mut rng).unwrap());
            // A safe prime above 7 is 2 mod 3 (q = 2 mod 3), so modp + 4 is divisible by 3.
            assert!(!probable_prime(&(&modp + 4u8), td, 4, false, &mut rng).unwrap());
        }
        // Trial division alone decides a multiple of a small prime above the sieve's reach.
        assert!(!probable_prime(&(&p * 7919u32), 2047, 1, false, &mut rng).unwrap());
    }

    /// The OpenSSL PGA on OpenSSL's arithmetic returns k-bit primes, safe and plain.
    #[test]
    fn generator_on_openssl_arithmetic() {
        use crate::pga::{Arithmetic, Config, Generator, Pga, SieveKind};
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(11);
        for safe in [false, true] {
            let cfg = Config { pga: Pga::Openssl, sieve: SieveKind::Openssl, safe, bits: 256, r: 128, l: 16000, gamma: 128.0 };
            let mut g =
                Generator::new(&cfg).unwrap().with_mr_rounds(5).with_redundant_trial_division(64).with_arithmetic(Arithmetic::Openssl);
            assert_eq!(g.arithmetic(), Arithmetic::Openssl);
            for _ in 0..4 {
                let p = g.generate_retrying(&mut rng).unwrap().prime;
                assert_eq!(p.bits(), 256);
                assert!(primekit::is_prime(&p));
                if safe {
                    assert!(primekit::is_prime(&(&p >> 1u32)), "safe: (p - 1)/2 prime");
                }
            }
        }
    }
}
