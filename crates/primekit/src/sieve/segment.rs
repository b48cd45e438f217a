//! Segmented sieve over an arithmetic progression of candidates c_i = c_0 + step*i
//! (Dobrosavljević 2021, §3.3.1 NSS sieve over a bit array; §3.4.2 safe variant; Wiener 2003
//! combined sieve): one bit per position, struck when c_i has a small prime factor, or
//! (safe primes) when (c_i - 1)/2 has one, i.e. c_i = 1 (mod l).
//!
//! The bit array covers a whole search window. Primes at least as large as a segment
//! strike it once, when the sieve is built (each has at most a few multiples in the
//! window, so keeping per-segment state for them would cost more than the strikes);
//! smaller primes keep the offset of their next struck position and strike one segment
//! at a time, so a search that stops early does not pay for the rest of the window.
//! No big-number division after the start's residues.

use super::residues::residues;
use crate::arith::limbs::Limb;

/// Marker for "this prime never strikes" (it divides the step).
const NEVER: u32 = u32::MAX;

/// `step^-1 mod l` for each sieving prime l (`NEVER` where l divides the step): fixed
/// for a whole search, so computed once per search rather than once per window.
pub struct StepInverses {
    inv: Vec<u32>,
}

impl StepInverses {
    /// Inverses of the step (little-endian limbs, nonzero) modulo each odd prime.
    pub fn new(step: &[Limb], primes: &[u32]) -> Self {
        let pow2 = (step.len() == 1 && step[0].is_power_of_two()).then(|| step[0].trailing_zeros());
        let mut res = Vec::new();
        if pow2.is_none() {
            residues(step, primes, &mut res);
        }
        let inv = primes
            .iter()
            .enumerate()
            .map(|(j, &l)| match pow2 {
                // 2^-k mod l by k halvings (l odd): cheaper than a division.
                Some(k) => {
                    let mut x = 1u32;
                    for _ in 0..k {
                        x = if x.is_multiple_of(2) { x / 2 } else { ((x as u64 + l as u64) / 2) as u32 };
                    }
                    x % l
                }
                None if res[j] == 0 => NEVER,
                None => inv_mod(res[j] as u64, l as u64) as u32,
            })
            .collect();
        StepInverses { inv }
    }
}

/// Sieve state for one progression over one window.
pub struct SegmentSieve<'a> {
    /// The primes smaller than a segment (a prefix of the sieving primes).
    small: &'a [u32],
    /// Next struck position (relative to the next segment's start) per small prime, for
    /// c = 0 (mod l) and, when `safe`, for c = 1 (mod l).
    next0: Vec<u32>,
    next1: Vec<u32>,
    safe: bool,
    seg_len: usize,
    /// Index of the next segment.
    seg: usize,
    /// The whole window, one bit per position (set = struck).
    bits: Vec<u64>,
}

/// `a^-1 mod m` for gcd(a, m) = 1, m an odd prime below 2^32 (extended Euclid).
fn inv_mod(a: u64, m: u64) -> u64 {
    let (mut r0, mut r1) = (m as i64, (a % m) as i64);
    let (mut s0, mut s1) = (0i64, 1i64);
    while r1 != 0 {
        let q = r0 / r1;
        (r0, r1) = (r1, r0 - q * r1);
        (s0, s1) = (s1, s0 - q * s1);
    }
    s0.rem_euclid(m as i64) as u64
}

impl<'a> SegmentSieve<'a> {
    /// One-window sieve for c_i = c_0 + step*i, i < `len` (a multiple of 64), with `c0`
    /// and `step` as limbs. Primes must all be odd and smaller than every candidate (so a
    /// struck candidate is certainly composite).
    pub fn new(c0: &[Limb], step: &[Limb], primes: &'a [u32], safe: bool, len: usize) -> Self {
        Self::with_inverses(c0, &StepInverses::new(step, primes), primes, safe, len, len)
    }

    /// Sieve for c_i = c_0 + step*i, i < `window`, segments of `seg_len` positions
    /// (`seg_len` a multiple of 64 dividing `window`), with the step's inverses modulo
    /// `primes` (as for [`SegmentSieve::new`]) from [`StepInverses::new`].
    pub fn with_inverses(c0: &[Limb], inverses: &StepInverses, primes: &'a [u32], safe: bool, seg_len: usize, window: usize) -> Self {
        assert!(seg_len.is_multiple_of(64) && seg_len > 0 && window.is_multiple_of(seg_len) && window <= 1 << 30);
        assert_eq!(inverses.inv.len(), primes.len());
        let mut r = Vec::new();
        residues(c0, primes, &mut r);
        let n_small = primes.partition_point(|&l| (l as usize) < seg_len);
        let mut next0 = Vec::with_capacity(n_small);
        let mut next1 = Vec::with_capacity(if safe { n_small } else { 0 });
        let mut bits = vec![0u64; window / 64];
        let w = window as u64;
        for (j, (&l, &inv)) in primes.iter().zip(&inverses.inv).enumerate() {
            let (i0, i1) = if inv == NEVER {
                (NEVER, NEVER)
            } else {
                let l64 = l as u64;
                // c_i = a (mod l)  <=>  i = (a - r) * inv (mod l).
                let i0 = (l64 - r[j] as u64) * inv as u64 % l64;
                let i1 = if i0 + (inv as u64) >= l64 { i0 + inv as u64 - l64 } else { i0 + inv as u64 };
                (i0 as u32, i1 as u32)
            };
            if j < n_small {
                next0.push(i0);
                if safe {
                    next1.push(i1);
                }
                continue;
            }
            for (first, wanted) in [(i0, true), (i1, safe)] {
                if !wanted || first == NEVER {
                    continue;
                }
                let mut i = first as u64;
                while i < w {
                    bits[(i / 64) as usize] |= 1 << (i % 64);
                    i += l as u64;
                }
            }
        }
        SegmentSieve { small: &primes[..n_small], next0, next1, safe, seg_len, seg: 0, bits }
    }

    /// Sieves the next segment and returns its bits (bit i clear = position i of the
    /// segment survived). Panics past the end of the window.
    pub fn next_segment(&mut self) -> &[u64] {
        let words = self.seg_len / 64;
        let bits = &mut self.bits[self.seg * words..(self.seg + 1) * words];
        self.seg += 1;
        // Offsets stay below seg_len + l < 2^31, so u32 arithmetic cannot overflow.
        let len = self.seg_len as u32;
        let strike = |next: &mut u32, l: u32, bits: &mut [u64]| {
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
        for (k, &p) in self.small.iter().enumerate() {
            strike(&mut self.next0[k], p, bits);
        }
        if self.safe {
            for (k, &p) in self.small.iter().enumerate() {
                strike(&mut self.next1[k], p, bits);
            }
        }
        bits
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
    use crate::sieve::primes::first_odd_primes;
    use num_bigint::BigUint;
    use num_integer::Integer;
    use num_traits::Zero;

    fn check(c0: &BigUint, step: &BigUint, safe: bool) {
        // Primes up to 1223 with segments of 128 positions: both the per-segment small
        // primes and the once-per-window large ones are exercised.
        let primes = first_odd_primes(200);
        let inv = StepInverses::new(&step.to_u64_digits(), primes);
        let mut s = SegmentSieve::with_inverses(&c0.to_u64_digits(), &inv, primes, safe, 128, 384);
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
        // Steps with sieving primes as factors (never striking) and a multi-limb one; the
        // start avoids 0 and 1 modulo those factors, as the generator's plans do.
        let mut c = &c0 + 2u8;
        while [3u32, 7, 1009, 1223].iter().any(|&l| (&c % l) < BigUint::from(2u8)) {
            c += 4u8;
        }
        check(&c, &(BigUint::from(4u8) * 3u8 * 7u8 * 1223u32), true);
        check(&c, &((BigUint::from(1u8) << 64u32) * 4u8 * 1009u32), true);
        // The one-segment form (neighbour search).
        let primes = first_odd_primes(200);
        let mut s = SegmentSieve::new(&c0.to_u64_digits(), &[2], primes, false, 256);
        let alive: Vec<usize> = survivors(s.next_segment()).collect();
        for i in 0..256usize {
            let c = &c0 + 2u32 * i as u32;
            let bad = primes.iter().any(|&p| (&c % p).is_zero());
            assert_eq!(alive.contains(&i), !bad);
        }
    }

    #[test]
    fn inverse() {
        for m in [3u64, 5, 7, 104729, 67_108_859] {
            for a in 1..m.min(50) {
                assert_eq!(a * inv_mod(a, m) % m, 1);
            }
        }
    }
}
