//! Segmented sieve over an arithmetic progression of candidates c_i = c_0 + step*i
//! (seed 002 §3.3.1 NSS sieve over a bit array; §3.4.2 safe variant; Wiener 2003
//! combined sieve): one bit per position, struck when c_i has a small prime factor, or
//! (safe primes) when (c_i - 1)/2 has one, i.e. c_i = 1 (mod l).
//!
//! Each prime keeps the offset of its next struck position, so moving to the next
//! segment costs O(1) per prime and no big-number division.

use super::residues::residues;
use crate::arith::limbs::Limb;

/// Marker for "this prime never strikes" (it divides the step).
const NEVER: u64 = u64::MAX;

/// Sieve state for one progression.
pub struct SegmentSieve<'a> {
    primes: &'a [u32],
    /// Next struck position (relative to the current segment start) per prime, for
    /// c = 0 (mod l) and, when `safe`, for c = 1 (mod l).
    next0: Vec<u64>,
    next1: Vec<u64>,
    safe: bool,
    len: usize,
    bits: Vec<u64>,
}

/// `a^-1 mod m` for gcd(a, m) = 1, m odd prime (extended Euclid).
fn inv_mod(a: u64, m: u64) -> u64 {
    let (mut r0, mut r1) = (m as i128, a as i128);
    let (mut s0, mut s1) = (0i128, 1i128);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    s0.rem_euclid(m as i128) as u64
}

impl<'a> SegmentSieve<'a> {
    /// Sieve for c_i = c_0 + step*i with `c0` as limbs and `step` as limbs; segments of
    /// `len` positions (a multiple of 64). Primes must all be odd and smaller than every
    /// candidate (so a struck candidate is certainly composite).
    pub fn new(c0: &[Limb], step: &[Limb], primes: &'a [u32], safe: bool, len: usize) -> Self {
        debug_assert!(len % 64 == 0 && len > 0);
        let mut r = Vec::new();
        residues(c0, primes, &mut r);
        let step_small = if step.len() == 1 { Some(step[0]) } else { None };
        let mut step_res = Vec::new();
        if step_small.is_none() {
            residues(step, primes, &mut step_res);
        }
        let mut next0 = Vec::with_capacity(primes.len());
        let mut next1 = Vec::with_capacity(if safe { primes.len() } else { 0 });
        for (j, &p) in primes.iter().enumerate() {
            let l = p as u64;
            let sm = match step_small {
                Some(s) => s % l,
                None => step_res[j] as u64,
            };
            if sm == 0 {
                next0.push(NEVER);
                if safe {
                    next1.push(NEVER);
                }
                continue;
            }
            let inv = if sm == 2 { (l + 1) / 2 } else { inv_mod(sm, l) };
            let rj = r[j] as u64;
            // c_i = a (mod l)  <=>  i = (a - r) * inv (mod l).
            next0.push(((l - rj) % l) * inv % l);
            if safe {
                next1.push(((l + 1 - rj) % l) * inv % l);
            }
        }
        SegmentSieve { primes, next0, next1, safe, len, bits: vec![0; len / 64] }
    }

    /// Sieves the next segment and returns its bit array (bit i clear = position i of
    /// the segment survived).
    pub fn next_segment(&mut self) -> &[u64] {
        self.bits.fill(0);
        let len = self.len as u64;
        let bits = &mut self.bits;
        let strike = |next: &mut u64, l: u64, bits: &mut [u64]| {
            if *next == NEVER {
                return;
            }
            let mut j = *next;
            while j < len {
                bits[(j / 64) as usize] |= 1 << (j % 64);
                j += l;
            }
            *next = j - len;
        };
        for (k, &p) in self.primes.iter().enumerate() {
            strike(&mut self.next0[k], p as u64, bits);
        }
        if self.safe {
            for (k, &p) in self.primes.iter().enumerate() {
                strike(&mut self.next1[k], p as u64, bits);
            }
        }
        &self.bits
    }
}

/// Positions whose bit is clear, in increasing order.
pub fn survivors(bits: &[u64]) -> impl Iterator<Item = usize> + '_ {
    bits.iter().enumerate().flat_map(|(w, &word)| {
        let mut free = !word;
        std::iter::from_fn(move || {
            if free == 0 {
                return None;
            }
            let b = free.trailing_zeros() as usize;
            free &= free - 1;
            Some(w * 64 + b)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gen::residues::first_odd_primes;
    use num_bigint::BigUint;
    use num_integer::Integer;

    fn check(c0: &BigUint, step: &BigUint, safe: bool) {
        let primes = first_odd_primes(200);
        let mut s = SegmentSieve::new(&c0.to_u64_digits(), &step.to_u64_digits(), primes, safe, 128);
        for seg in 0..3u32 {
            let bits = s.next_segment().to_vec();
            let alive: Vec<usize> = survivors(&bits).collect();
            for i in 0..128usize {
                let c = c0 + step * BigUint::from(seg as usize * 128 + i);
                let bad = primes.iter().any(|&p| {
                    let r = (&c % p).iter_u64_digits().next().unwrap_or(0);
                    r == 0 || (safe && r == 1)
                });
                assert_eq!(alive.contains(&i), !bad, "seg {seg} pos {i} c={c}");
            }
        }
    }

    #[test]
    fn matches_trial_division() {
        let c0 = (BigUint::from(1u8) << 200u32) + 1u8;
        check(&c0, &BigUint::from(2u8), false);
        check(&(&c0 + 2u8), &BigUint::from(4u8), true);
        // A step sharing factors with small primes (3 * 5 * 2), and a multi-limb step.
        check(&(&c0 + 2u8), &BigUint::from(30u8), false);
        let big_step = (BigUint::from(1u8) << 70u32) * 2u8;
        assert!(big_step.is_even());
        check(&c0, &big_step, false);
    }

    #[test]
    fn inverse() {
        for m in [3u64, 5, 7, 104729] {
            for a in 1..m.min(50) {
                assert_eq!(a * inv_mod(a, m) % m, 1);
            }
        }
    }
}
