//! Which of many small odd moduli divide words given per pair of moduli, by one product
//! per modulus and no division: for odd p and any x < 2^64, p | x exactly when
//! x p^-1 mod 2^64 <= floor((2^64 - 1) / p) (Granlund & Montgomery 1994, §9).
//!
//! The words are formed per pair k as a_k + b_k or a_k + lift_k - b_k, from two arrays of
//! pair residues (ECPP's orders N + 1 -/+ t from the residues of N + 1 and of t); pair k
//! tests moduli 2k and 2k + 1. On the IFMA backend eight moduli are tested per 64-bit
//! lane product (AVX-512DQ's `vpmullq`, which every IFMA CPU has), the scalar loop is
//! the portable path and the vector one's oracle. Variable time: public values only (the
//! list of hits is the output).

use super::super::cpu::Tokens;

/// Per-modulus constants of the divisibility test, for moduli tested in pairs.
#[derive(Clone, Debug)]
pub struct PairTests {
    /// p^-1 mod 2^64 per modulus.
    inv: Vec<u64>,
    /// floor((2^64 - 1) / p) per modulus.
    lim: Vec<u64>,
    /// The vector backend, when this table runs on one.
    #[cfg(target_arch = "x86_64")]
    ifma: Option<super::super::cpu::Avx512Ifma>,
}

impl PairTests {
    /// Tests by `moduli` (each odd), paired in order, on the process kernel's vector
    /// backend where it has one.
    pub fn new(moduli: &[u64]) -> Self {
        let mut t = Self::portable(moduli);
        #[cfg(target_arch = "x86_64")]
        {
            t.ifma = Tokens::selected().ok().and_then(|c| c.ifma());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = Tokens::selected();
        t
    }

    /// [`Self::new`] on the scalar loop whatever the CPU.
    pub fn portable(moduli: &[u64]) -> Self {
        assert!(moduli.iter().all(|&p| p % 2 == 1), "odd moduli");
        PairTests {
            inv: moduli.iter().map(|&p| super::super::limbs::inv_mod_word(p)).collect(),
            lim: moduli.iter().map(|&p| u64::MAX / p).collect(),
            #[cfg(target_arch = "x86_64")]
            ifma: None,
        }
    }

    /// Appends to `out`, in increasing order, every i < 2 `pairs` with modulus i dividing
    /// x_(i/2), where x_k = a_k + b_k when `add`, else a_k + lift_k - b_k. The caller
    /// keeps every x_k in [0, 2^64) (the x_k are formed with wrapping arithmetic).
    /// Needs `pairs` entries in `a`, `b` and (for a difference) `lift`, and 2 `pairs`
    /// moduli in the table.
    pub fn dividing(&self, a: &[u64], b: &[u64], lift: &[u64], add: bool, pairs: usize, out: &mut Vec<u32>) {
        assert!(a.len() >= pairs && b.len() >= pairs && (add || lift.len() >= pairs) && self.inv.len() >= 2 * pairs);
        let mut done = 0;
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = self.ifma {
            done = super::ifma::pair_dividing(cpu, a, b, lift, add, &self.inv, &self.lim, pairs, out);
        }
        for k in done..pairs {
            let x = if add { a[k].wrapping_add(b[k]) } else { a[k].wrapping_add(lift[k]).wrapping_sub(b[k]) };
            for i in [2 * k, 2 * k + 1] {
                if x.wrapping_mul(self.inv[i]) <= self.lim[i] {
                    out.push(i as u32);
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The vector and scalar paths find exactly the moduli that divide, for words with
    /// many divisors, none, zero, and the largest words.
    #[test]
    fn dividing_matches_remainders() {
        let moduli: Vec<u64> = (0..203u64).map(|k| 2 * k + 3).chain([65_521, (1 << 22) - 3, (1 << 61) - 1]).collect();
        let pairs = moduli.len() / 2;
        let smooth: u64 = [3u64, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37].iter().product();
        let a: Vec<u64> = (0..pairs as u64).map(|k| [smooth * (k + 1), k * 977 + 1, u64::MAX - 3 * k, 0][k as usize % 4]).collect();
        let b: Vec<u64> = (0..pairs as u64).map(|k| [smooth, k, 1 << 40, 0][(k as usize / 4) % 4]).collect();
        let lift: Vec<u64> = (0..pairs as u64).map(|k| [0, smooth, 1 << 52, 3][k as usize % 4]).collect();
        for t in [PairTests::new(&moduli), PairTests::portable(&moduli)] {
            for add in [false, true] {
                for count in [pairs, 9, 8, 1, 0] {
                    let mut got = vec![7];
                    t.dividing(&a, &b, &lift, add, count, &mut got);
                    let mut want = vec![7];
                    for k in 0..count {
                        let x = if add { a[k].wrapping_add(b[k]) } else { a[k].wrapping_add(lift[k]).wrapping_sub(b[k]) };
                        want.extend((2 * k..2 * k + 2).filter(|&i| x % moduli[i] == 0).map(|i| i as u32));
                    }
                    assert!(want.len() > 8 || count < pairs, "the test words have divisors: {}", want.len());
                    assert_eq!(got, want, "add {add}, count {count}");
                }
            }
        }
    }
}
