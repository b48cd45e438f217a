//! Modular inversion by the optimized binary GCD of Pornin 2020 (Algorithm 2), in its
//! variable-time form: for public values only (the elliptic-curve prover and checker).
//!
//! Why: an extended Euclid on num-bigint (`num_integer::Integer::extended_gcd`, or
//! `BigUint::modinv`) takes 230-320 us at 1,024 bits on an AMD EPYC Zen 4, more than a
//! modular exponentiation there; this routine, on limbs and 31 binary-GCD steps at a
//! time, takes 57 us (2,048 bits: 134 against 640 us).
//!
//! Each outer step runs 31 binary-GCD steps on 64-bit approximations of a and b (their
//! low 31 bits, exact, and their top 33 bits at the larger one's length), collecting the
//! steps as a 2x2 matrix (f0, g0; f1, g1) with entries below 2^31 in size, then applies
//! it to the full a and b, whose new values (a f0 + b g0) / 2^31 and (a f1 + b g1) / 2^31
//! are exact divisions (the low bits were followed exactly) and no larger than before
//! (Pornin 2020, §3). The cofactors u, v with a = u y and b = v y (mod m) follow the
//! same matrix, with the division by 2^31 done as a one-word Montgomery reduction, so
//! that when a reaches 0, b = gcd(y, m) and v y = b (mod m).

use super::limbs::{bit_len_vartime, from_limbs, inv_mod_word, lt_vartime, to_limbs, Limb};

/// Binary-GCD steps per outer step.
const STEPS: u32 = 31;

/// `y^-1 mod m` for odd `m >= 3` and `y < m` (limbs of m's length): `Ok(inverse)` when
/// gcd(y, m) = 1, else `Err(gcd(y, m))` (m itself for y = 0), each as limbs of m's
/// length. Variable time in both.
pub fn inv_mod_vartime(y: &[Limb], m: &[Limb]) -> Result<Vec<Limb>, Vec<Limb>> {
    let n = m.len();
    assert!(y.len() == n && m[0] & 1 == 1 && lt_vartime(y, m), "odd m, y < m, one length");
    let minv = inv_mod_word(m[0]).wrapping_neg();
    let (mut a, mut b) = (y.to_vec(), m.to_vec());
    let (mut u, mut v) = (vec![0; n], vec![0; n]);
    u[0] = 1;
    // Pornin 2020 proves ceil((2 len - 1) / 31) outer steps enough for len-bit inputs.
    for _ in 0..(2 * 64 * n).div_ceil(STEPS as usize) + 1 {
        if a.iter().all(|&w| w == 0) {
            break;
        }
        let len = bit_len_vartime(&a).max(bit_len_vartime(&b));
        let (mut xa, mut xb) = (approx(&a, len), approx(&b, len));
        let (mut f0, mut g0, mut f1, mut g1) = (1i64, 0i64, 0i64, 1i64);
        for _ in 0..STEPS {
            if xa & 1 == 1 {
                if xa < xb {
                    (xa, xb) = (xb, xa);
                    (f0, g0, f1, g1) = (f1, g1, f0, g0);
                }
                xa -= xb;
                f0 -= f1;
                g0 -= g1;
            }
            xa >>= 1;
            f1 <<= 1;
            g1 <<= 1;
        }
        let (na, neg_a) = combine_shift(&a, f0, &b, g0);
        let (nb, neg_b) = combine_shift(&a, f1, &b, g1);
        if neg_a {
            (f0, g0) = (-f0, -g0);
        }
        if neg_b {
            (f1, g1) = (-f1, -g1);
        }
        let nu = combine_mod(&u, f0, &v, g0, m, minv);
        v = combine_mod(&u, f1, &v, g1, m, minv);
        (a, b, u) = (na, nb, nu);
    }
    if !a.iter().all(|&w| w == 0) {
        // Pornin's bound makes this unreachable; num-bigint's Euclid answers if not.
        debug_assert!(false, "the binary GCD ends within Pornin's bound");
        return euclid_vartime(y, m);
    }
    let mut one = vec![0; n];
    one[0] = 1;
    if b == one {
        Ok(v)
    } else {
        Err(b)
    }
}

/// [`inv_mod_vartime`] by num-bigint's extended Euclid.
fn euclid_vartime(y: &[Limb], m: &[Limb]) -> Result<Vec<Limb>, Vec<Limb>> {
    use num_integer::Integer;
    let (yb, mb) = (from_limbs(y), from_limbs(m));
    match yb.modinv(&mb) {
        Some(i) => Ok(to_limbs(&i, m.len()).expect("below m")),
        None => Err(to_limbs(&yb.gcd(&mb), m.len()).expect("at most m")),
    }
}

/// The 64-bit approximation of x for a GCD step at length `len` bits: x itself when
/// len <= 64, else x's low 31 bits below its bits len - 33 .. len.
fn approx(x: &[Limb], len: usize) -> u64 {
    if len <= 64 {
        return x[0];
    }
    let top = bits_at(x, len - 33, 33);
    (x[0] & ((1 << 31) - 1)) | top << 31
}

/// `count <= 64` bits of x from bit `from` on.
fn bits_at(x: &[Limb], from: usize, count: usize) -> u64 {
    let (i, s) = (from / 64, from % 64);
    let lo = x.get(i).copied().unwrap_or(0) >> s;
    let hi = if s == 0 { 0 } else { x.get(i + 1).copied().unwrap_or(0) << (64 - s) };
    (lo | hi) & (u64::MAX >> (64 - count))
}

/// `x f + y g` for |f|, |g| <= 2^32, as n + 1 limbs in two's complement.
fn combine(x: &[Limb], f: i64, y: &[Limb], g: i64) -> Vec<Limb> {
    let mut out = Vec::with_capacity(x.len() + 1);
    let mut acc: i128 = 0;
    for (&xi, &yi) in x.iter().zip(y) {
        acc += i128::from(xi) * i128::from(f) + i128::from(yi) * i128::from(g);
        out.push(acc as u64);
        acc >>= 64;
    }
    out.push(acc as u64);
    out
}

/// `|x f + y g| / 2^31` as limbs of x's length (the division exact, the quotient no
/// larger than max(x, y): the GCD step's guarantees) and whether x f + y g < 0.
fn combine_shift(x: &[Limb], f: i64, y: &[Limb], g: i64) -> (Vec<Limb>, bool) {
    let mut s = combine(x, f, y, g);
    let negative = (s[s.len() - 1] as i64) < 0;
    if negative {
        negate(&mut s);
    }
    debug_assert_eq!(s[0] & ((1 << STEPS) - 1), 0, "exact division");
    shift_right(&mut s, STEPS);
    debug_assert_eq!(s[s.len() - 1], 0, "no growth");
    s.pop();
    (s, negative)
}

/// `(u f + v g) / 2^31 mod m` for u, v < m, |f|, |g| <= 2^31: a multiple k m of m
/// (k < 2^31, from -m^-1 mod 2^64 in `minv`) makes the sum divisible by 2^31, and the
/// quotient, below 3m in size, is brought into [0, m).
fn combine_mod(u: &[Limb], f: i64, v: &[Limb], g: i64, m: &[Limb], minv: u64) -> Vec<Limb> {
    let mut s = combine(u, f, v, g);
    let k = s[0].wrapping_mul(minv) & ((1 << STEPS) - 1);
    let mut carry: u128 = 0;
    for (si, &mi) in s.iter_mut().zip(m.iter().chain(std::iter::once(&0))) {
        let t = u128::from(*si) + u128::from(mi) * u128::from(k) + carry;
        *si = t as u64;
        carry = t >> 64;
    }
    debug_assert_eq!(s[0] & ((1 << STEPS) - 1), 0, "Montgomery step");
    // Arithmetic shift: the top limb carries the sign.
    let negative = (s[s.len() - 1] as i64) < 0;
    shift_right(&mut s, STEPS);
    if negative {
        let top = s.len() - 1;
        s[top] |= u64::MAX << (64 - STEPS);
    }
    let mut m1 = m.to_vec();
    m1.push(0);
    while (s[s.len() - 1] as i64) < 0 {
        super::limbs::add_assign(&mut s, &m1);
    }
    while !lt_vartime(&s, &m1) {
        super::limbs::sub_assign(&mut s, &m1);
    }
    s.pop();
    s
}

/// Two's complement negation in place.
fn negate(x: &mut [Limb]) {
    let mut carry = 1u64;
    for w in x.iter_mut() {
        let (t, c) = (!*w).overflowing_add(carry);
        *w = t;
        carry = u64::from(c);
    }
}

/// `x >>= k` for 0 < k < 64 (logical).
fn shift_right(x: &mut [Limb], k: u32) {
    for i in 0..x.len() {
        let hi = x.get(i + 1).copied().unwrap_or(0);
        x[i] = x[i] >> k | hi << (64 - k);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::{BigUint, RandBigInt};
    use num_integer::Integer;
    use rand::SeedableRng;

    fn check(y: &BigUint, m: &BigUint) {
        let n = m.bits().div_ceil(64) as usize;
        let got = inv_mod_vartime(&to_limbs(y, n).unwrap(), &to_limbs(m, n).unwrap());
        let g = y.gcd(m);
        if g == BigUint::from(1u8) {
            let inv = from_limbs(&got.expect("invertible"));
            assert!(inv < *m);
            assert_eq!((y * &inv) % m, BigUint::from(1u8) % m, "y = {y}, m = {m}");
        } else {
            assert_eq!(from_limbs(&got.expect_err("not invertible")), g, "y = {y}, m = {m}");
        }
    }

    /// Inverses and gcds against num-bigint: random odd moduli of 1 to 70 limbs, the
    /// largest of each length (all ones), values at the ends of the range, values
    /// sharing a factor with m, and zero.
    #[test]
    fn inverse_matches_num_bigint() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(41);
        for bits in [2u64, 3, 5, 31, 32, 33, 63, 64, 65, 95, 127, 128, 129, 200, 521, 1024, 1279, 2048, 3000, 4096, 4480] {
            for _ in 0..6 {
                let m = rng.gen_biguint(bits) | BigUint::from(1u8) | (BigUint::from(1u8) << (bits - 1));
                if m < BigUint::from(3u8) {
                    continue;
                }
                for y in [BigUint::ZERO, BigUint::from(1u8), &m - 1u8, &m >> 1u8, rng.gen_biguint_below(&m), rng.gen_biguint_below(&m)] {
                    check(&y, &m);
                }
            }
            let ones = (BigUint::from(1u8) << bits) - 1u8;
            if ones >= BigUint::from(3u8) {
                check(&rng.gen_biguint_below(&ones), &ones);
            }
        }
        // Shared factors: m = p q, y a multiple of p.
        for _ in 0..50 {
            let p = rng.gen_biguint(300) | BigUint::from(1u8);
            let q = rng.gen_biguint(500) | BigUint::from(1u8);
            let m = &p * &q;
            check(&((&p * rng.gen_biguint(400)) % &m), &m);
        }
    }
}
