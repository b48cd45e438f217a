//! The constants a Montgomery set-up needs (powers of two modulo m, reductions by m),
//! computed on limbs in time that does not depend on the value of m.
//!
//! The prime generators build contexts on secret candidates and the RSA key check on the
//! secret primes, so the set-up must not be num-bigint's `%` (its quotient loop and
//! normalisation follow the values). Contract of every function here (BearSSL style):
//! - `m` is odd, `m >= 3`, with a non-zero top limb `m[n-1]` (n = `m.len()`): the limb
//!   count and the bit length of m are public, the value of m is secret;
//! - outputs are fully reduced (`< m`), n limbs;
//! - time and memory accesses depend only on n, on m's bit length and on the public
//!   exponents and lengths passed in; never on the limb values of m or of the inputs.
//!
//! Building blocks: doubling with a masked conditional subtraction of m
//! ([`super::portable::final_sub`]) and the portable Montgomery product and square
//! (constant time, module contract of [`super::portable`]).

use super::portable::{final_sub, mont_mul, mont_sqr};
use crate::arith::carry;
use crate::arith::cpu::Bmi2Adx;
use crate::arith::lanes::Timing;
use crate::arith::limbs::{from_limbs, neg_inv_mod_word, to_limbs, Limb};
use num_bigint::BigUint;
use num_traits::One;

/// Bit length of `m` (non-zero top limb): public by the module contract.
fn bit_len(m: &[Limb]) -> usize {
    let top = *m.last().expect("m has limbs");
    assert!(top != 0, "the top limb of m must be non-zero");
    64 * m.len() - top.leading_zeros() as usize
}

/// `x = 2x mod m` for `x < m`; `t` is scratch of n limbs. Constant time.
fn double_mod(x: &mut [Limb], m: &[Limb], t: &mut [Limb]) {
    let top = carry::double(x);
    // 2x < 2m: one conditional subtraction, masked (final_sub's contract).
    final_sub(t, x, top, m);
    x.copy_from_slice(t);
}

/// `a = a + b mod m` for `a, b < m`; `t` is scratch of n limbs. Constant time.
fn add_mod(a: &mut [Limb], b: &[Limb], m: &[Limb], t: &mut [Limb]) {
    let top = carry::add_assign(a, b);
    final_sub(t, a, top, m);
    a.copy_from_slice(t);
}

/// `out = a^2 R^{-1} mod m` by the BMI2/ADX kernel when `adx` is given, else the
/// portable one; both constant time (their module contracts).
fn mont_sqr_on(adx: Option<Bmi2Adx>, out: &mut [Limb], a: &[Limb], m: &[Limb], m0inv: Limb, t: &mut [Limb]) {
    #[cfg(target_arch = "x86_64")]
    if let Some(cpu) = adx {
        return super::adx::mont_sqr(cpu, out, a, m, m0inv, t);
    }
    let _ = adx;
    mont_sqr(out, a, m, m0inv, t)
}

/// `2^e mod m` as n limbs; the squarings on the BMI2/ADX kernel when `adx` is given.
///
/// Contract: m as in the module contract; any `e` (public). Output `< m`. Time depends
/// on n, on m's bit length b and on e only: b - 1 <= e < 64n + 64 takes e - b + 1
/// doublings of 2^(b-1) (which is `< m`: m is odd with b bits); a larger e takes the
/// doublings to R = 2^(64n), then f = e - 64n (the Montgomery form of 2^f is 2^e mod m)
/// by left-to-right binary on f: Montgomery squarings (2^j R -> 2^(2j) R) and doublings
/// for f's set bits: log2(f) - 2 squarings after at most 71 doublings.
pub(crate) fn pow2_mod(m: &[Limb], e: usize, adx: Option<Bmi2Adx>) -> Vec<Limb> {
    let n = m.len();
    let b = bit_len(m);
    assert!(m[0] & 1 == 1 && b >= 2, "m must be odd and at least 3");
    let mut x = vec![0; n];
    if e < b {
        x[e / 64] = 1 << (e % 64);
        return x;
    }
    x[(b - 1) / 64] = 1 << ((b - 1) % 64);
    let mut t = vec![0; 2 * n + 2];
    let r_bits = 64 * n;
    if e < r_bits + 64 {
        for _ in b - 1..e {
            double_mod(&mut x, m, &mut t[..n]);
        }
        return x;
    }
    for _ in b - 1..r_bits {
        double_mod(&mut x, m, &mut t[..n]);
    }
    // x = R mod m, the Montgomery form of 1. f >= 64: its top bits as doublings, three
    // of them (4 to 7 doublings) below 24 limbs, six (32 to 63) from 24 limbs, where a
    // Montgomery square costs more than ten doublings.
    let f = e - r_bits;
    let head_bits = if n >= 24 { 6 } else { 3 };
    let rest = (usize::BITS - f.leading_zeros()) as usize - head_bits;
    for _ in 0..f >> rest {
        double_mod(&mut x, m, &mut t[..n]);
    }
    let m0inv = neg_inv_mod_word(m[0]);
    let mut y = vec![0; n];
    for i in (0..rest).rev() {
        mont_sqr_on(adx, &mut y, &x, m, m0inv, &mut t);
        core::mem::swap(&mut x, &mut y);
        if (f >> i) & 1 == 1 {
            double_mod(&mut x, m, &mut t[..n]);
        }
    }
    x
}

/// `2^e mod m` as n limbs: [`pow2_mod`] for [`Timing::ConstantTime`]; for
/// [`Timing::Vartime`] (public moduli only) num-bigint's `%`, variable time in m and
/// about 5 times faster for a 2,048-bit modulus (`examples/mont_setup_speed`).
pub(crate) fn pow2_mod_timed(m: &[Limb], e: usize, timing: Timing, adx: Option<Bmi2Adx>) -> Vec<Limb> {
    match timing {
        Timing::ConstantTime => pow2_mod(m, e, adx),
        Timing::Vartime => to_limbs(&((BigUint::one() << e) % from_limbs(m)), m.len()).expect("reduced"),
    }
}

/// `v * 2^e mod m` for any n-limb `v` (not necessarily `< m`), given `c = 2^(e + 64n)
/// mod m` (from [`pow2_mod`]): one Montgomery product, `v c R^{-1}`. The portable
/// product's bound holds for `v < R` and `c < m` (v c < R m, so the result before its
/// final subtraction is `< 2m`). Output `< m`. Constant time. (Used by the x86_64 lane
/// batches only.)
#[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
pub(crate) fn mul_pow2_mod(v: &[Limb], c: &[Limb], m: &[Limb]) -> Vec<Limb> {
    let n = m.len();
    let mut out = vec![0; n];
    mont_mul(&mut out, v, c, m, neg_inv_mod_word(m[0]), &mut vec![0; 2 * n + 2]);
    out
}

/// `x mod m` for `x` of any number of limbs, given `r2 = R^2 mod m` (R = 2^(64n)).
///
/// Contract: m as in the module contract, `r2 < m`. Output `< m`. Time depends on n and
/// `x.len()` only. Method: x = sum of its n-limb chunks x_i R^i; each term is the
/// Montgomery product of x_i (any value below R: [`mul_pow2_mod`]'s bound) with R^(i+1)
/// mod m, the powers advanced by one Montgomery product with R^2 each, and the terms
/// summed by masked modular additions.
pub(crate) fn reduce(x: &[Limb], m: &[Limb], r2: &[Limb]) -> Vec<Limb> {
    let n = m.len();
    let m0inv = neg_inv_mod_word(m[0]);
    let mut t = vec![0; 2 * n + 2];
    let (mut acc, mut term, mut next) = (vec![0; n], vec![0; n], vec![0; n]);
    let mut chunk = vec![0; n];
    // R^(i+1) mod m for chunk i; R mod m = R^2 R^{-1}: one Montgomery reduction of r2.
    let mut power = vec![0; n];
    chunk[0] = 1;
    mont_mul(&mut power, &chunk, r2, m, m0inv, &mut t);
    for (i, xi) in x.chunks(n).enumerate() {
        if i > 0 {
            mont_mul(&mut next, &power, r2, m, m0inv, &mut t);
            core::mem::swap(&mut power, &mut next);
        }
        chunk.fill(0);
        chunk[..xi.len()].copy_from_slice(xi);
        mont_mul(&mut term, &chunk, &power, m, m0inv, &mut t);
        add_mod(&mut acc, &term, m, &mut t[..n]);
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::RandBigInt;
    use rand::SeedableRng;

    /// Moduli of `bits` bits: the smallest and largest odd ones, an all-ones top limb over
    /// a random rest, and random ones (top bit set).
    fn moduli(bits: u64, rng: &mut impl rand::Rng) -> Vec<BigUint> {
        let one = BigUint::one();
        let mut ms = vec![(&one << (bits - 1)) + 1u8, (&one << bits) - 1u8];
        if bits > 64 {
            let low = rng.gen_biguint(bits - 64) | &one;
            ms.push((((&one << 64) - 1u8) << (bits - 64)) | low);
        }
        for _ in 0..3 {
            ms.push(rng.gen_biguint(bits) | &one | (&one << (bits - 1)));
        }
        ms.retain(|m| m >= &BigUint::from(3u8));
        ms
    }

    /// Sizes at and around limb (64-bit), IFMA digit (52-bit) and AVX2 digit (28-bit)
    /// boundaries, and a few large ones.
    const SIZES: [u64; 16] = [2, 3, 63, 64, 65, 127, 128, 129, 520, 521, 576, 1023, 1024, 1040, 2048, 4160];

    #[test]
    fn pow2_mod_matches_num_bigint() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(41);
        for bits in SIZES {
            for m in moduli(bits, &mut rng) {
                let n = m.bits().div_ceil(64) as usize;
                let ml = to_limbs(&m, n).unwrap();
                let mut es =
                    vec![0, 1, bits as usize - 1, bits as usize, 64 * n - 1, 64 * n, 64 * n + 63, 64 * n + 64, 128 * n, 128 * n + 1];
                es.extend([52 * 2 * (bits as usize + 2).div_ceil(52), 56 * (bits as usize + 2).div_ceil(28), 3 * 64 * n + 77]);
                for e in es {
                    let want = (BigUint::one() << e) % &m;
                    for adx in [None, crate::arith::cpu::bmi2_adx()] {
                        assert_eq!(from_limbs(&pow2_mod(&ml, e, adx)), want, "bits {bits} e {e} m {m:x} adx {}", adx.is_some());
                    }
                    assert_eq!(from_limbs(&pow2_mod_timed(&ml, e, Timing::Vartime, None)), want, "bits {bits} e {e} m {m:x}");
                }
            }
        }
    }

    #[test]
    fn reduce_and_mul_pow2_match_num_bigint() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(42);
        for bits in SIZES {
            for m in moduli(bits, &mut rng) {
                let n = m.bits().div_ceil(64) as usize;
                let ml = to_limbs(&m, n).unwrap();
                let r2 = pow2_mod(&ml, 128 * n, None);
                for len in [1, n, n + 1, 2 * n, 2 * n + 3] {
                    let all_ones = (BigUint::one() << (64 * len)) - 1u8;
                    for x in [BigUint::ZERO, all_ones, rng.gen_biguint(64 * len as u64), &m - 1u8] {
                        let Some(xl) = to_limbs(&x, len) else { continue };
                        assert_eq!(from_limbs(&reduce(&xl, &ml, &r2)), &x % &m, "bits {bits} len {len}");
                    }
                }
                for v in [BigUint::ZERO, BigUint::one(), &m - 1u8, (BigUint::one() << (64 * n)) - 1u8] {
                    let c = pow2_mod(&ml, 52 * 3 + 64 * n, None);
                    let got = mul_pow2_mod(&to_limbs(&v, n).unwrap(), &c, &ml);
                    assert_eq!(from_limbs(&got), (&v << (52 * 3)) % &m, "bits {bits}");
                }
            }
        }
    }

    /// On every kernel this CPU has, contexts (constant-time set-up) and their widest
    /// lane batches built on the edge and random moduli agree with num-bigint: R mod m,
    /// the Montgomery conversions, `reduce_ct`, and the lanes' targets of 1 and m - 1.
    #[test]
    fn contexts_and_lanes_match_num_bigint_on_every_kernel() {
        use crate::arith::lanes::SharedModulus;
        use crate::arith::{Kernel, MontContext};
        let mut rng = rand::rngs::StdRng::seed_from_u64(43);
        for bits in [3u64, 64, 65, 255, 256, 257, 520, 521, 576, 1024, 1040, 2048] {
            for m in moduli(bits, &mut rng) {
                let n = m.bits().div_ceil(64) as usize;
                let x = rng.gen_biguint(128 * n as u64 + 5);
                for kernel in Kernel::available() {
                    let ctx = MontContext::with_kernel(&m, kernel).unwrap();
                    let vt = MontContext::new_vartime(&m).unwrap();
                    assert_eq!(from_limbs(ctx.one()), (BigUint::one() << (64 * n)) % &m, "{kernel:?} bits {bits}");
                    assert_eq!(ctx.one(), vt.one(), "{kernel:?} bits {bits}");
                    let mut t = ctx.scratch();
                    let a = to_limbs(&(&x % &m), n).unwrap();
                    assert_eq!(ctx.from_mont(&ctx.to_mont(&a, &mut t), &mut t), a, "{kernel:?} bits {bits}");
                    let want = to_limbs(&(&x % &m), n).unwrap();
                    assert_eq!(ctx.reduce_ct(&to_limbs(&x, 2 * n + 1).unwrap()), want, "{kernel:?} bits {bits}");
                    if m < BigUint::from(5u8) {
                        continue;
                    }
                    let batch = SharedModulus::widest(&ctx);
                    let vals = [to_limbs(&BigUint::one(), n).unwrap(), to_limbs(&(&m - 1u8), n).unwrap(), a.clone()];
                    let y = batch.load(&vals[..batch.lanes().min(3)]);
                    let ones = batch.eq_ct(&y, &batch.target(&BigUint::one()));
                    let minus = batch.eq_ct(&y, &batch.target(&(&m - 1u8)));
                    assert_eq!(ones & 1, 1, "{kernel:?} bits {bits}: lane 0 holds 1");
                    if batch.lanes() > 1 {
                        assert_eq!(minus & 0b11, 0b10, "{kernel:?} bits {bits}: lane 1 holds m - 1");
                    }
                }
            }
        }
    }
}
