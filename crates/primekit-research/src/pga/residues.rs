//! n mod p for the first r odd primes, the input of the NSS and OpenSSL sieves.
//!
//! Consecutive primes are packed into groups whose product fits in a word, so one
//! pass of word divisions over n's limbs serves a whole group (four groups per pass).

use primekit::hazmat::limbs::rem_limbs_many;
use primekit::hazmat::limbs::Limb;
use primekit::hazmat::sieve::SMALL_ODD_PRIMES;

/// Groups of the first r odd primes, each with its word-sized product.
#[derive(Clone, Debug)]
pub struct Residues {
    groups: Vec<(u64, usize, usize)>,
    r: usize,
}

impl Residues {
    /// Prepares for the first `r` odd primes (`1 <= r <= 9999`, checked by the caller).
    pub fn new(r: usize) -> Self {
        let mut groups = Vec::new();
        let mut i = 0;
        while i < r {
            let start = i;
            let mut prod: u64 = 1;
            while i < r {
                match prod.checked_mul(SMALL_ODD_PRIMES[i] as u64) {
                    Some(x) => {
                        prod = x;
                        i += 1;
                    }
                    None => break,
                }
            }
            groups.push((prod, start, i));
        }
        Residues { groups, r }
    }

    /// The primes p_0..p_{r-1}.
    pub fn primes(&self) -> &'static [u32] {
        &SMALL_ODD_PRIMES[..self.r]
    }

    /// `out[i] = n mod p_i` for little-endian limbs `n`.
    pub fn compute(&self, n: &[Limb], out: &mut Vec<u32>) {
        out.clear();
        let mut push = |g: &(u64, usize, usize), rem: u64| {
            for &p in &SMALL_ODD_PRIMES[g.1..g.2] {
                out.push((rem % p as u64) as u32);
            }
        };
        let mut chunks = self.groups.chunks_exact(4);
        for c in &mut chunks {
            let rems = rem_limbs_many(n, &[c[0].0, c[1].0, c[2].0, c[3].0]);
            for k in 0..4 {
                push(&c[k], rems[k]);
            }
        }
        for g in chunks.remainder() {
            let [rem] = rem_limbs_many(n, &[g.0]);
            push(g, rem);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    #[test]
    fn matches_biguint_remainders() {
        let n = (BigUint::from(3u8) << 1000u32) + 12345u32;
        let res = Residues::new(700);
        let mut out = Vec::new();
        res.compute(&n.to_u64_digits(), &mut out);
        assert_eq!(out.len(), 700);
        for (i, &p) in res.primes().iter().enumerate() {
            assert_eq!(BigUint::from(out[i]), &n % p, "p = {p}");
        }
    }
}
