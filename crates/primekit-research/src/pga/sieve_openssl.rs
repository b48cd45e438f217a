//! The OpenSSL sieve (Dobrosavljević 2021, §3.3.2, Alg. 9–10; safe variant §3.4.3, Alg. 15): a table
//! of n0 mod p_i; candidate n0 + δ is kept when no (rem_i + δ) mod p_i is 0 (safe: <= 1,
//! i.e. neither n nor (n - 1)/2 divisible), δ stepping by 2 (safe: 4).

use super::residues::Residues;
use super::{random_trial, Arithmetic, Candidate, Sieve};
use num_bigint::BigUint;
use primekit::Error;
use rand_core::CryptoRngCore;

/// The OpenSSL sieve state: one remainder per small prime.
pub struct OpensslSieve {
    k: u32,
    safe: bool,
    residues: Residues,
    rems: Vec<u32>,
    n0: BigUint,
    delta: u64,
    max_delta: u64,
    arith: Arithmetic,
}

impl OpensslSieve {
    pub fn new(k: u32, r: usize, safe: bool) -> Self {
        let residues = Residues::new(r);
        // As in OpenSSL: stop before rem + δ could overflow.
        let max_delta = u64::MAX - *residues.primes().last().unwrap_or(&3) as u64;
        OpensslSieve { k, safe, residues, rems: Vec::new(), n0: BigUint::default(), delta: 0, max_delta, arith: Arithmetic::Primekit }
    }

    /// Computes the remainder table on `arith`: with OpenSSL's, one `BN_mod_word` per
    /// prime, as OpenSSL's `probable_prime` (bn_prime.c) fills its `mods` table.
    pub fn with_arithmetic(mut self, arith: Arithmetic) -> Self {
        self.arith = arith;
        self
    }
}

impl OpensslSieve {
    /// Begins a round at an explicit odd trial `n0`; for tests.
    pub fn start_from(&mut self, n0: BigUint) {
        self.n0 = n0;
        match self.arith {
            Arithmetic::Primekit => self.residues.compute(&self.n0.to_u64_digits(), &mut self.rems),
            #[cfg(feature = "compare")]
            Arithmetic::Openssl => crate::peers::openssl_mr::remainders(&self.n0, self.residues.primes(), &mut self.rems),
        }
        self.delta = 0;
    }
}

impl Sieve for OpensslSieve {
    fn start(&mut self, rng: &mut dyn CryptoRngCore) -> Result<(), Error> {
        self.start_from(random_trial(self.k, self.safe, rng)?);
        Ok(())
    }

    fn next(&mut self) -> Option<Candidate> {
        let step = if self.safe { 4 } else { 2 };
        let bad = if self.safe { 1 } else { 0 };
        let primes = self.residues.primes();
        'search: loop {
            if self.delta > self.max_delta {
                return None;
            }
            for (&p, &rem) in primes.iter().zip(&self.rems) {
                if (rem as u64 + self.delta) % p as u64 <= bad {
                    self.delta += step;
                    continue 'search;
                }
            }
            let d = self.delta;
            self.delta += step;
            return Some(Candidate { n: &self.n0 + d, offset: d });
        }
    }
}
