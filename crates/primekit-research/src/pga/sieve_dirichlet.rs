//! The Dirichlet sieve (Dobrosavljević 2021, §3.3.3, Alg. 11–12, §4.3.1; safe variant §3.4.4,
//! Alg. 16): candidates n = z·m_r + a with m_r the product of the first r odd primes and
//! gcd(m_r, a) = 1 (safe: also gcd(m_r, a - 1) = 1, a odd, z even), then n += m_r
//! (safe: 2·m_r). m_r is computed once per generator, not per round (the thesis's
//! suggested optimisation, §6.1.2). The offset reported is the number of additions,
//! which the NSS PGA bounds by L (§4.3.3).

use super::{random_below, Candidate, Sieve};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;
use primekit::hazmat::sieve::SMALL_ODD_PRIMES;
use primekit::Error;
use rand_core::CryptoRngCore;

/// The Dirichlet sieve state.
pub struct DirichletSieve {
    k: u32,
    safe: bool,
    m_r: BigUint,
    step: BigUint,
    n: BigUint,
    additions: u64,
    fresh: bool,
}

/// Bits of z the default r leaves: z then takes at least 2^64 values in the k-bit
/// interval, far more than any search interval L, so the progression never runs short.
pub const DEFAULT_Z_BITS: u64 = 64;

/// The default r for size k: the largest r <= `max_r` with m_r of at most
/// k - [`DEFAULT_Z_BITS`] bits (at least 1), so that every PGA runs with the Dirichlet
/// sieve at every size (a fixed r = 2048 gives m_r of 25,546 bits).
pub fn default_r(k: u32, max_r: usize) -> usize {
    let budget = u64::from(k).saturating_sub(DEFAULT_Z_BITS);
    let mut m = BigUint::one();
    let mut r = 0;
    while r < max_r.min(SMALL_ODD_PRIMES.len()) {
        let next = &m * SMALL_ODD_PRIMES[r];
        if next.bits() > budget {
            break;
        }
        m = next;
        r += 1;
    }
    r.max(1)
}

impl DirichletSieve {
    /// Fails when m_r is too large to leave room for z in the k-bit interval.
    pub fn new(k: u32, r: usize, safe: bool) -> Result<Self, Error> {
        let m_r: BigUint = SMALL_ODD_PRIMES[..r].iter().fold(BigUint::one(), |acc, &p| acc * p);
        if m_r.bits() + 8 > k as u64 {
            return Err(Error::InvalidArgument(format!(
                "Dirichlet sieve: m_r for r = {r} has {} bits, too many for k = {k} (need <= k - 8)",
                m_r.bits()
            )));
        }
        let step = if safe { &m_r << 1u32 } else { m_r.clone() };
        Ok(DirichletSieve { k, safe, m_r, step, n: BigUint::default(), additions: 0, fresh: false })
    }

    /// A uniform a in [1, m_r - 1] with gcd(m_r, a) = 1 (safe: a odd, gcd(m_r, a - 1) = 1).
    fn draw_a(&self, rng: &mut dyn CryptoRngCore) -> Result<BigUint, Error> {
        for _ in 0..1_000_000 {
            let a = random_below(&self.m_r, rng)?;
            // a = 0 is never coprime; safe: a must be odd and a - 1 = 0 never is coprime.
            if a.bits() == 0 || (self.safe && (!a.bit(0) || a.is_one())) {
                continue;
            }
            if a.gcd(&self.m_r).is_one() && (!self.safe || (&a - 1u8).gcd(&self.m_r).is_one()) {
                return Ok(a);
            }
        }
        Err(Error::Rng("Dirichlet sieve: no admissible a in 10^6 draws".into()))
    }
}

impl Sieve for DirichletSieve {
    /// Draws a, then z uniformly such that n = z·m_r + a lies in [2^{k-1} + 2^{k-2}, 2^k - 1]
    /// (top two bits set; the thesis's construction could fall below by up to m_r).
    fn start(&mut self, rng: &mut dyn CryptoRngCore) -> Result<(), Error> {
        let a = self.draw_a(rng)?;
        let lo = (BigUint::from(3u8) << (self.k - 2)) - &a; // n >= 3·2^{k-2}
        let hi = (BigUint::one() << self.k) - 1u8 - &a; // n <= 2^k - 1
        let z_lo = lo.div_ceil(&self.m_r);
        let z_hi = &hi / &self.m_r;
        let z = if self.safe {
            // z even: z = 2w.
            let w_lo = z_lo.div_ceil(&BigUint::from(2u8));
            let w_hi = &z_hi >> 1u32;
            (w_lo.clone() + random_below(&(w_hi - w_lo + 1u8), rng)?) << 1u32
        } else {
            z_lo.clone() + random_below(&(z_hi - z_lo + 1u8), rng)?
        };
        self.n = z * &self.m_r + a;
        self.additions = 0;
        self.fresh = true;
        Ok(())
    }

    fn next(&mut self) -> Option<Candidate> {
        if self.fresh {
            self.fresh = false;
        } else {
            self.n += &self.step;
            self.additions += 1;
        }
        Some(Candidate { n: self.n.clone(), offset: self.additions })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;

    #[test]
    fn progression_is_coprime_and_in_range() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        for safe in [false, true] {
            let mut s = DirichletSieve::new(128, 20, safe).unwrap();
            for _ in 0..20 {
                s.start(&mut rng).unwrap();
                let first = s.next().unwrap();
                assert_eq!(first.offset, 0);
                assert!(first.n.bits() == 128 && first.n.bit(126));
                let a = &first.n % &s.m_r;
                assert!(a.gcd(&s.m_r).is_one());
                if safe {
                    assert!((&a - 1u8).gcd(&s.m_r).is_one() && first.n.bit(0));
                    assert!(!(&first.n / &s.m_r).bit(0), "z even");
                }
                let second = s.next().unwrap();
                assert_eq!(second.offset, 1);
                assert_eq!(&second.n - &first.n, s.step);
            }
        }
        assert!(DirichletSieve::new(128, 40, false).is_err(), "m_r too large for k");
    }
}
