//! Multiplication modulo three special-form primes with their dedicated reductions, the
//! comparison point for Hamburg (CFRG mailing list, 2014: a general Montgomery product costs
//! about 2n^2 + n word products against n^2 + n for a special prime, "~2x at 256 bits,
//! higher for longer numbers").
//!
//! - p25519 = 2^255 - 19 (4 limbs): 2^256 ≡ 38;
//! - p448 = 2^448 - 2^224 - 1 (7 limbs): 2^448 ≡ 2^224 + 1;
//! - p521 = 2^521 - 1 (9 limbs): 2^521 ≡ 1.
//!
//! Schoolbook products on fixed-size arrays (portable Rust, u128), then the fold.
//! Inputs and outputs are fully reduced (< p). Variable time only in the final
//! conditional subtraction; research code for benchmarks, not for secrets.

use num_bigint::BigUint;

/// `a * b` as a 2N-limb (W = 2N) product.
#[inline(always)]
pub fn mul_wide<const N: usize, const W: usize>(a: &[u64; N], b: &[u64; N]) -> [u64; W] {
    let mut out = [0u64; W];
    for i in 0..N {
        let mut carry = 0u128;
        for j in 0..N {
            let v = out[i + j] as u128 + a[i] as u128 * b[j] as u128 + carry;
            out[i + j] = v as u64;
            carry = v >> 64;
        }
        out[i + N] = carry as u64;
    }
    out
}

/// `a^2` as a 2N-limb product: off-diagonal products once, doubled, plus the squares.
#[inline(always)]
pub fn sqr_wide<const N: usize, const W: usize>(a: &[u64; N]) -> [u64; W] {
    let mut out = [0u64; W];
    for i in 0..N {
        let mut carry = 0u128;
        for j in i + 1..N {
            let v = out[i + j] as u128 + a[i] as u128 * a[j] as u128 + carry;
            out[i + j] = v as u64;
            carry = v >> 64;
        }
        out[i + N] = carry as u64;
    }
    let mut top = 0u64;
    for l in out.iter_mut() {
        let next = *l >> 63;
        *l = (*l << 1) | top;
        top = next;
    }
    let mut carry = 0u128;
    for i in 0..N {
        let sq = a[i] as u128 * a[i] as u128;
        let v = out[2 * i] as u128 + (sq as u64) as u128 + carry;
        out[2 * i] = v as u64;
        let v2 = out[2 * i + 1] as u128 + (sq >> 64) + (v >> 64);
        out[2 * i + 1] = v2 as u64;
        carry = v2 >> 64;
    }
    out
}

/// `x - p` if `x >= p` (one conditional subtraction).
#[inline(always)]
fn cond_sub<const N: usize>(x: &mut [u64; N], p: &[u64; N]) {
    let mut d = [0u64; N];
    let mut borrow = 0u64;
    for i in 0..N {
        let (s1, b1) = x[i].overflowing_sub(p[i]);
        let (s2, b2) = s1.overflowing_sub(borrow);
        d[i] = s2;
        borrow = (b1 | b2) as u64;
    }
    if borrow == 0 {
        *x = d;
    }
}

/// Adds the small word `c` at limb `at`, propagating the carry; returns the carry out.
#[inline(always)]
fn add_word_at<const N: usize>(x: &mut [u64; N], mut c: u64, at: usize) -> u64 {
    for l in x.iter_mut().skip(at) {
        if c == 0 {
            break;
        }
        let (s, o) = l.overflowing_add(c);
        *l = s;
        c = o as u64;
    }
    c
}

/// A prime with a dedicated reduction of double-length products.
pub trait SpecialPrime<const N: usize, const W: usize> {
    /// The prime's limbs.
    const P: [u64; N];
    /// `x mod p` for `x < p^2`.
    fn reduce(x: &[u64; W]) -> [u64; N];
    /// `a * b mod p`.
    #[inline]
    fn mul(a: &[u64; N], b: &[u64; N]) -> [u64; N] {
        Self::reduce(&mul_wide::<N, W>(a, b))
    }
    /// `a^2 mod p`.
    #[inline]
    fn sqr(a: &[u64; N]) -> [u64; N] {
        Self::reduce(&sqr_wide::<N, W>(a))
    }
    /// The prime as a big integer.
    fn modulus() -> BigUint {
        primekit::hazmat::limbs::from_limbs(&Self::P)
    }
}

/// 2^255 - 19.
pub struct P25519;

impl SpecialPrime<4, 8> for P25519 {
    const P: [u64; 4] = [!0 - 18, !0, !0, !0 >> 1];
    #[inline]
    fn reduce(x: &[u64; 8]) -> [u64; 4] {
        let mut t = [0u64; 4];
        let mut carry = 0u128;
        for i in 0..4 {
            let v = x[i] as u128 + x[i + 4] as u128 * 38 + carry;
            t[i] = v as u64;
            carry = v >> 64;
        }
        // 2^256 ≡ 38, twice at most (the second carry is 0 or 1).
        let c = add_word_at(&mut t, carry as u64 * 38, 0);
        add_word_at(&mut t, c * 38, 0);
        // Fold bit 255: 2^255 ≡ 19.
        let top = t[3] >> 63;
        t[3] &= !0 >> 1;
        add_word_at(&mut t, top * 19, 0);
        cond_sub(&mut t, &Self::P);
        t
    }
}

/// 2^448 - 2^224 - 1 (Ed448-Goldilocks).
pub struct P448;

impl SpecialPrime<7, 14> for P448 {
    const P: [u64; 7] = [!0, !0, !0, !0 - (1 << 32), !0, !0, !0];
    #[inline]
    fn reduce(x: &[u64; 14]) -> [u64; 7] {
        // x = H 2^448 + L, H = a 2^224 + b:  x ≡ L + H + a + (a + b) 2^224.
        let h = &x[7..14];
        let a = [(h[3] >> 32) | (h[4] << 32), (h[4] >> 32) | (h[5] << 32), (h[5] >> 32) | (h[6] << 32), h[6] >> 32];
        let b = [h[0], h[1], h[2], h[3] & 0xffff_ffff];
        let mut s = [0u64; 5];
        let mut c = 0u128;
        for i in 0..4 {
            let v = a[i] as u128 + b[i] as u128 + c;
            s[i] = v as u64;
            c = v >> 64;
        }
        s[4] = c as u64;
        // (a + b) << 224 as limbs 3..=7 (< 2^449).
        let sh = [
            0,
            0,
            0,
            s[0] << 32,
            (s[0] >> 32) | (s[1] << 32),
            (s[1] >> 32) | (s[2] << 32),
            (s[2] >> 32) | (s[3] << 32),
            (s[3] >> 32) | (s[4] << 32),
        ];
        let mut acc = [0u64; 8];
        let mut c = 0u128;
        for i in 0..8 {
            let (l, hh, aa) = if i < 7 { (x[i], h[i], if i < 4 { a[i] } else { 0 }) } else { (0, 0, 0) };
            let v = l as u128 + hh as u128 + aa as u128 + sh[i] as u128 + c;
            acc[i] = v as u64;
            c = v >> 64;
        }
        // Fold the few bits above 2^448 until none are left.
        while acc[7] != 0 {
            let t = acc[7];
            acc[7] = 0;
            add_word_at(&mut acc, t, 0);
            let lo = t << 32;
            let hi = t >> 32;
            let carry = add_word_at(&mut acc, lo, 3);
            debug_assert_eq!(carry, 0);
            add_word_at(&mut acc, hi, 4);
        }
        let mut out = [0u64; 7];
        out.copy_from_slice(&acc[..7]);
        cond_sub(&mut out, &Self::P);
        out
    }
}

/// 2^521 - 1 (a Mersenne prime, NIST P-521's field).
pub struct P521;

impl SpecialPrime<9, 18> for P521 {
    const P: [u64; 9] = [!0, !0, !0, !0, !0, !0, !0, !0, 0x1ff];
    #[inline]
    fn reduce(x: &[u64; 18]) -> [u64; 9] {
        // x = hi 2^521 + lo ≡ lo + hi.
        let mut s = [0u64; 9];
        let mut c = 0u128;
        for i in 0..9 {
            let lo = if i < 8 { x[i] } else { x[8] & 0x1ff };
            let hi = (x[8 + i] >> 9) | if 9 + i < 18 { x[9 + i] << 55 } else { 0 };
            let v = lo as u128 + hi as u128 + c;
            s[i] = v as u64;
            c = v >> 64;
        }
        // s < 2^522: fold bit 521 once more (then s <= 2^521 - 1 + 1 ... fold again if needed).
        while s[8] >> 9 != 0 {
            let top = s[8] >> 9;
            s[8] &= 0x1ff;
            add_word_at(&mut s, top, 0);
        }
        cond_sub(&mut s, &Self::P);
        s
    }
}

/// 2^384 - 2^128 - 2^96 + 2^32 - 1 (NIST P-384's field). Reduced by folding: with
/// c = 2^128 + 2^96 - 2^32 + 1, 2^384 ≡ c, so H 2^384 + L ≡ L + H c, whose terms sit on
/// 32-bit boundaries. Two folds bring any product below 2^385, a third (at most a few
/// units) and conditional subtractions finish. The signed 32-bit-word accumulation is the
/// generic Solinas method, not NIST's hand-scheduled ten-term formula.
pub struct P384;

impl P384 {
    /// One fold of the 32-bit words `w` (low 12 words L, the rest H): L + H c, as words.
    #[inline(always)]
    fn fold(w: &[u64]) -> [u64; 18] {
        let mut acc = [0i64; 18];
        for (i, &x) in w.iter().enumerate().take(12) {
            acc[i] += x as i64;
        }
        for (j, &h) in w.iter().enumerate().skip(12) {
            let (h, i) = (h as i64, j - 12);
            acc[i] += h; // H
            acc[i + 1] -= h; // -H 2^32
            acc[i + 3] += h; // +H 2^96
            acc[i + 4] += h; // +H 2^128
        }
        // Signed carries: each word ends in [0, 2^32).
        let mut out = [0u64; 18];
        let mut carry = 0i64;
        for i in 0..18 {
            let v = acc[i] + carry;
            out[i] = (v & 0xffff_ffff) as u64;
            carry = v >> 32;
        }
        debug_assert_eq!(carry, 0, "L + H c is positive and below 2^576");
        out
    }
}

impl SpecialPrime<6, 12> for P384 {
    const P: [u64; 6] = [0x0000_0000_ffff_ffff, 0xffff_ffff_0000_0000, !0 - 1, !0, !0, !0];
    #[inline]
    fn reduce(x: &[u64; 12]) -> [u64; 6] {
        let mut w = [0u64; 24];
        for i in 0..12 {
            w[2 * i] = x[i] & 0xffff_ffff;
            w[2 * i + 1] = x[i] >> 32;
        }
        let mut t = Self::fold(&w); // < 2^(384 + 130)
        while t[12..].iter().any(|&v| v != 0) {
            t = Self::fold(&t);
        }
        let mut out = [0u64; 6];
        for i in 0..6 {
            out[i] = t[2 * i] | (t[2 * i + 1] << 32);
        }
        cond_sub(&mut out, &Self::P);
        cond_sub(&mut out, &Self::P);
        out
    }
}

/// x^(p-2) mod p (Fermat inversion, x != 0) by left-to-right square-and-multiply with the
/// special form's own products: the exponentiation Hamburg's note compares.
pub fn invert<const N: usize, const W: usize, P: SpecialPrime<N, W>>(x: &[u64; N]) -> [u64; N] {
    let e = P::modulus() - 2u8;
    let mut acc = *x;
    for i in (0..e.bits() - 1).rev() {
        acc = P::sqr(&acc);
        if e.bit(i) {
            acc = P::mul(&acc, x);
        }
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use primekit::hazmat::limbs::{from_limbs, to_limbs};
    use rand_chacha::rand_core::{RngCore, SeedableRng};

    fn check<const N: usize, const W: usize, P: SpecialPrime<N, W>>(seed: u64) {
        let p = P::modulus();
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
        let mut rand = || {
            let mut v = [0u64; N];
            for l in v.iter_mut() {
                *l = rng.next_u64();
            }
            let x = from_limbs(&v) % &p;
            let l = to_limbs(&x, N).unwrap();
            let mut a = [0u64; N];
            a.copy_from_slice(&l);
            (x, a)
        };
        let edge = &p - 1u8;
        let mut e = [0u64; N];
        e.copy_from_slice(&to_limbs(&edge, N).unwrap());
        for k in 0..300 {
            let ((x, a), (y, b)) = if k == 0 { ((edge.clone(), e), (edge.clone(), e)) } else { (rand(), rand()) };
            assert_eq!(from_limbs(&P::mul(&a, &b)), &x * &y % &p);
            assert_eq!(from_limbs(&P::sqr(&a)), &x * &x % &p);
        }
    }

    #[test]
    fn reductions_match_biguint() {
        assert_eq!(P25519::modulus(), (BigUint::from(1u8) << 255u32) - 19u8);
        assert_eq!(P448::modulus(), (BigUint::from(1u8) << 448u32) - (BigUint::from(1u8) << 224u32) - 1u8);
        assert_eq!(P521::modulus(), (BigUint::from(1u8) << 521u32) - 1u8);
        check::<4, 8, P25519>(1);
        check::<7, 14, P448>(2);
        check::<9, 18, P521>(3);
        let p384 = (BigUint::from(1u8) << 384u32) - (BigUint::from(1u8) << 128u32) - (BigUint::from(1u8) << 96u32)
            + (BigUint::from(1u8) << 32u32)
            - 1u8;
        assert_eq!(P384::modulus(), p384);
        check::<6, 12, P384>(4);
    }

    #[test]
    fn fermat_inversion_inverts() {
        let x = [12345u64, 6789, 0, 0, 0, 1];
        let inv = invert::<6, 12, P384>(&x);
        assert_eq!(from_limbs(&P384::mul(&x, &inv)), BigUint::from(1u8));
        let y = [7u64, 0, 0, 0];
        assert_eq!(from_limbs(&P25519::mul(&y, &invert::<4, 8, P25519>(&y))), BigUint::from(1u8));
    }
}
