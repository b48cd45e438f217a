//! The NSS sieve (Dobrosavljević 2021, §3.3.1, Alg. 7–8; safe variant §3.4.2, Alg. 13–14): a bit
//! array over L/2 entries, entry i standing for n0 + 2i (safe: n0 + 4i), a set bit
//! meaning "divisible by one of the first r odd primes" (safe: n or n - 1 divisible).

use super::residues::Residues;
use super::{random_trial, Candidate, Sieve};
use num_bigint::BigUint;
use primekit::Error;
use rand_core::CryptoRngCore;

/// The NSS sieve state: one bit per candidate.
pub struct NssSieve {
    k: u32,
    safe: bool,
    /// Reinitialise past the end instead of failing (safe Natural PGA, §4.3.4).
    wrap: bool,
    bits: Vec<u64>,
    size: usize,
    residues: Residues,
    rems: Vec<u32>,
    n0: BigUint,
    /// Distance of `n0` from the round's first trial (grows when the sieve wraps).
    base: u64,
    iter: usize,
}

impl NssSieve {
    /// A sieve of `l / 2` entries over the first `r` odd primes for k-bit candidates.
    pub fn new(k: u32, r: usize, l: u64, safe: bool, wrap: bool) -> Self {
        let size = (l / 2).max(1) as usize;
        NssSieve {
            k,
            safe,
            wrap,
            bits: vec![0; size.div_ceil(64)],
            size,
            residues: Residues::new(r),
            rems: Vec::new(),
            n0: BigUint::default(),
            base: 0,
            iter: 0,
        }
    }

    /// Begins a round at an explicit odd trial `n0` (safe: n0 = 3 mod 4); for tests.
    pub fn start_from(&mut self, n0: BigUint) {
        self.n0 = n0;
        self.base = 0;
        self.fill();
    }

    fn step(&self) -> u64 {
        if self.safe {
            4
        } else {
            2
        }
    }

    /// Alg. 7 / Alg. 13 for the current `n0`.
    fn fill(&mut self) {
        self.bits.iter_mut().for_each(|w| *w = 0);
        self.residues.compute(&self.n0.to_u64_digits(), &mut self.rems);
        let size = self.size;
        let bits = &mut self.bits;
        let mut mark = |start: usize, p: usize| {
            let mut i = start;
            while i < size {
                bits[i / 64] |= 1 << (i % 64);
                i += p;
            }
        };
        for (&p, &rem) in self.residues.primes().iter().zip(&self.rems) {
            let (p64, rem) = (p as u64, rem as u64);
            if self.safe {
                // p | n0 + 4i  <=>  i = -rem / 4 (mod p); p | n0 + 4i - 1  <=>  i = (1 - rem) / 4.
                let half = p64.div_ceil(2);
                let inv4 = half * half % p64;
                mark(((p64 - rem) % p64 * inv4 % p64) as usize, p as usize);
                mark(((p64 + 1 - rem) % p64 * inv4 % p64) as usize, p as usize);
            } else {
                // The first j >= 0 with p | n0 + j, made even (j = 2i), then every p-th i.
                let mut j = (p64 - rem) % p64;
                if j % 2 == 1 {
                    j += p64;
                }
                mark((j / 2) as usize, p as usize);
            }
        }
        self.iter = 0;
    }

    fn next_clear(&self, from: usize) -> Option<usize> {
        let mut w = from / 64;
        if w >= self.bits.len() {
            return None;
        }
        let mut word = !self.bits[w] & (!0u64 << (from % 64));
        loop {
            if word != 0 {
                let i = w * 64 + word.trailing_zeros() as usize;
                return (i < self.size).then_some(i);
            }
            w += 1;
            if w >= self.bits.len() {
                return None;
            }
            word = !self.bits[w];
        }
    }
}

impl Sieve for NssSieve {
    fn start(&mut self, rng: &mut dyn CryptoRngCore) -> Result<(), Error> {
        self.start_from(random_trial(self.k, self.safe, rng)?);
        Ok(())
    }

    fn next(&mut self) -> Option<Candidate> {
        loop {
            if let Some(i) = self.next_clear(self.iter) {
                self.iter = i + 1;
                let d = self.step() * i as u64;
                return Some(Candidate { n: &self.n0 + d, offset: self.base + d });
            }
            if !self.wrap {
                return None;
            }
            let span = self.step() * self.size as u64;
            self.n0 += span;
            self.base += span;
            if self.n0.bits() != self.k as u64 {
                return None;
            }
            self.fill();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pga::sieve_openssl::OpensslSieve;

    /// Brute force: offsets d in [0, span) (step 2 or 4) with n0 + d free of the first r
    /// odd primes (safe: and (n0 + d - 1)/2 free of them too).
    fn brute(n0: &BigUint, r: usize, span: u64, safe: bool) -> Vec<u64> {
        let step = if safe { 4 } else { 2 };
        (0..span / step)
            .map(|i| i * step)
            .filter(|&d| {
                let n = n0 + d;
                primekit::hazmat::sieve::SMALL_ODD_PRIMES[..r].iter().all(|&p| {
                    let m = (&n % p).to_u64_digits().first().copied().unwrap_or(0);
                    m != 0 && !(safe && m == 1)
                })
            })
            .collect()
    }

    #[test]
    fn nss_and_openssl_sieves_match_brute_force() {
        let k = 200;
        for (seed, safe) in [(1u64, false), (2, true), (3, false), (4, true)] {
            let mut n0: BigUint = (BigUint::from(0xDEADBEEF_u64 * seed) << 150u32) | (BigUint::from(3u8) << (k - 2));
            n0.set_bit(0, true);
            n0.set_bit(1, safe);
            let (r, l) = (150, 3000);
            let mut s = NssSieve::new(k, r, l, safe, false);
            s.start_from(n0.clone());
            let got: Vec<u64> = std::iter::from_fn(|| s.next()).map(|c| c.offset).collect();
            let span = l / 2 * if safe { 4 } else { 2 };
            let want = brute(&n0, r, span, safe);
            assert!(!want.is_empty());
            assert_eq!(got, want, "NSS sieve, safe = {safe}");
            let mut o = OpensslSieve::new(k, r, safe);
            o.start_from(n0.clone());
            let got: Vec<u64> = std::iter::from_fn(|| o.next()).take(want.len()).map(|c| c.offset).collect();
            assert_eq!(got, want, "OpenSSL sieve, safe = {safe}");
        }
    }

    #[test]
    fn wrapping_sieve_continues_past_its_end() {
        let mut n0 = BigUint::from(3u8) << 98u32;
        n0.set_bit(0, true);
        n0.set_bit(1, true);
        let mut s = NssSieve::new(100, 20, 40, true, true);
        s.start_from(n0.clone());
        let got: Vec<u64> = std::iter::from_fn(|| s.next()).take(50).map(|c| c.offset).collect();
        assert_eq!(got, brute(&n0, 20, *got.last().unwrap() + 4, true));
        assert!(*got.last().unwrap() > 80, "went past the 20-entry array");
    }
}
