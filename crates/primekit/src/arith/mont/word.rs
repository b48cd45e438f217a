//! Single-word Montgomery arithmetic for odd moduli below 2^64 (the exact small-number
//! primality path). Variable time: used only on public inputs.

use crate::arith::limbs::neg_inv_mod_word;

/// Montgomery context for an odd modulus `m < 2^64` (R = 2^64).
#[derive(Clone, Copy, Debug)]
pub struct Mont64 {
    m: u64,
    m0inv: u64,
    r2: u64,
}

impl Mont64 {
    /// Context for odd `m >= 3`.
    pub fn new(m: u64) -> Option<Mont64> {
        if m < 3 || m.is_multiple_of(2) {
            return None;
        }
        let r = ((1u128 << 64) % m as u128) as u64;
        let r2 = ((r as u128 * r as u128) % m as u128) as u64;
        Some(Mont64 { m, m0inv: neg_inv_mod_word(m), r2 })
    }

    /// `a*b*2^-64 mod m` for `a, b < m`.
    #[inline]
    pub fn mul(&self, a: u64, b: u64) -> u64 {
        let t = a as u128 * b as u128;
        let q = (t as u64).wrapping_mul(self.m0inv);
        // t + q*m is divisible by 2^64 and < 2^128 + ... : split to avoid overflow.
        let (s, c) = t.overflowing_add(q as u128 * self.m as u128);
        let hi = ((s >> 64) as u64, c);
        let mut r = hi.0;
        if hi.1 || r >= self.m {
            r = r.wrapping_sub(self.m);
        }
        r
    }

    /// Montgomery form of `a` (any u64).
    #[allow(clippy::wrong_self_convention)] // `to_mont` converts `a`, not the context
    pub fn to_mont(&self, a: u64) -> u64 {
        self.mul(a % self.m, self.r2)
    }

    /// 1 in Montgomery form.
    pub fn one(&self) -> u64 {
        self.to_mont(1)
    }

    /// `a^e` for `a` in Montgomery form.
    pub fn pow(&self, a: u64, mut e: u64) -> u64 {
        let mut acc = self.one();
        let mut base = a;
        while e > 0 {
            if e & 1 == 1 {
                acc = self.mul(acc, base);
            }
            base = self.mul(base, base);
            e >>= 1;
        }
        acc
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pow_matches_u128() {
        for m in [3u64, 5, 1_000_000_007, u64::MAX, (1 << 63) + 1, 0xffff_ffff_0000_0001] {
            let c = Mont64::new(m).unwrap();
            for a in [0u64, 1, 2, m - 1, 12345678901234567 % m] {
                for e in [0u64, 1, 2, 65537, m - 1] {
                    let mut want = 1u128;
                    let mut b = a as u128 % m as u128;
                    let mut ee = e;
                    while ee > 0 {
                        if ee & 1 == 1 {
                            want = want * b % m as u128;
                        }
                        b = b * b % m as u128;
                        ee >>= 1;
                    }
                    let got = c.mul(c.pow(c.to_mont(a), e), 1);
                    assert_eq!(got as u128, want % m as u128, "m={m} a={a} e={e}");
                }
            }
        }
        assert!(Mont64::new(4).is_none());
        assert!(Mont64::new(1).is_none());
    }
}
