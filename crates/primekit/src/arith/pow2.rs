//! `2^e mod m` by left-to-right binary exponentiation in which multiplying by the base
//! is a doubling (a shift and a conditional subtraction) instead of a Montgomery
//! product, so the cost is one squaring per exponent bit and nothing else: no table and
//! about a quarter fewer Montgomery operations than a windowed exponentiation. This is
//! the base-2 round that rejects almost every composite.
//!
//! Two flavours: [`pow2_vartime`] for public `m` and `e`, [`pow2_ct`] for a secret
//! modulus and exponent (every bit does one squaring, one doubling and masked selects).

use super::limbs::{add_assign, bit, bit_len_vartime, lt_vartime, select_into, sub_into, Limb};
use super::mont::MontContext;

/// `x = 2x mod m` for `x < m`.
fn double_mod_vartime(x: &mut [Limb], m: &[Limb], tmp: &mut [Limb]) {
    let mut carry = 0;
    for l in x.iter_mut() {
        let next = *l >> 63;
        *l = (*l << 1) | carry;
        carry = next;
    }
    if carry == 1 || !lt_vartime(x, m) {
        sub_into(tmp, x, m);
        x.copy_from_slice(tmp);
    }
}

/// `2^e` in Montgomery form modulo the context's modulus.
///
/// With the IFMA kernel a whole exponentiation stays in radix 2^52, which beats the
/// doubling ladder's one-call-at-a-time squarings; there the base 2 goes through
/// [`pow_vartime`](super::modexp::pow_vartime) instead.
pub fn pow2_vartime(ctx: &MontContext, e: &[Limb]) -> Vec<Limb> {
    let n = ctx.len();
    let m = ctx.modulus();
    let mut acc = ctx.one().to_vec();
    #[cfg(target_arch = "x86_64")]
    if ctx.ifma().is_some() {
        let mut tmp = vec![0; n];
        double_mod_vartime(&mut acc, m, &mut tmp); // 2 in Montgomery form
        return super::modexp::pow_vartime(ctx, &acc, e);
    }
    let bits = bit_len_vartime(e);
    if bits == 0 {
        return acc;
    }
    let mut t = ctx.scratch();
    let mut tmp = vec![0; n];
    double_mod_vartime(&mut acc, m, &mut tmp); // 2 in Montgomery form: the top bit
    for i in (0..bits - 1).rev() {
        ctx.sqr(&mut tmp, &acc, &mut t);
        std::mem::swap(&mut acc, &mut tmp);
        if bit(e, i) == 1 {
            double_mod_vartime(&mut acc, m, &mut tmp);
        }
    }
    acc
}

/// 2^exp in Montgomery form over exactly `exp_bits` bits of `exp` (higher bits must be
/// zero), by left-to-right square-and-double. Constant time: the sequence of operations
/// and every memory index depend only on `exp_bits` and the limb count, never on the
/// modulus or exponent values.
pub fn pow2_ct(ctx: &MontContext, exp: &[Limb], exp_bits: usize) -> Vec<Limb> {
    assert!(exp.len() * 64 >= exp_bits);
    // With IFMA the whole ladder stays in radix 2^52 (same steps, same constant time).
    #[cfg(target_arch = "x86_64")]
    if let Some(p) = ctx.ifma() {
        return super::mont::ifma::pow2_ct(p, exp, exp_bits, ctx.modulus());
    }
    let n = ctx.len();
    let m = ctx.modulus();
    let mut t = ctx.scratch();
    let mut acc = ctx.one().to_vec();
    let mut sq = vec![0; n];
    let mut dbl = vec![0; n];
    let mut red = vec![0; n];
    for i in (0..exp_bits).rev() {
        ctx.sqr(&mut sq, &acc, &mut t);
        // dbl = 2 sq mod m: sq < m, so 2 sq < 2m and one conditional subtraction suffices.
        dbl.copy_from_slice(&sq);
        let carry = add_assign(&mut dbl, &sq);
        let borrow = sub_into(&mut red, &dbl, m);
        // Keep the reduced value when 2 sq overflowed the limbs or is >= m.
        // black_box: without it LLVM sees a 0/1-derived mask and emits a branch on it
        // (found by tools/ctgrind under valgrind).
        let use_red = core::hint::black_box((carry | (borrow ^ 1)).wrapping_neg());
        select_into(&mut acc, &red, &dbl, use_red);
        // Now acc = 2 sq; take sq instead when the exponent bit is 0.
        let take_dbl = core::hint::black_box(bit(exp, i).wrapping_neg());
        dbl.copy_from_slice(&acc);
        select_into(&mut acc, &dbl, &sq, take_dbl);
    }
    acc
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::limbs::from_limbs;
    use num_bigint::BigUint;

    #[test]
    fn matches_modpow() {
        for m in [
            "3",
            "5",
            "18446744073709551557",
            "340282366920938463463374607431768211297",
            "1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000009",
        ] {
            let m = BigUint::parse_bytes(m.as_bytes(), 10).unwrap();
            for kernel in crate::arith::Kernel::available() {
                let ctx = MontContext::with_kernel(&m, kernel).unwrap();
                let mut t = ctx.scratch();
                for e in [0u64, 1, 2, 3, 0xffff, 0x8000_0000_0000_0001, u64::MAX] {
                    for extra in [0u64, 1, 0xdead_beef] {
                        let el = vec![e, extra];
                        let want = BigUint::from(2u8).modpow(&from_limbs(&el), &m);
                        let got = from_limbs(&ctx.from_mont(&pow2_vartime(&ctx, &el), &mut t));
                        assert_eq!(got, want, "m={m} e={e} extra={extra}");
                    }
                }
            }
        }
    }

    #[test]
    fn pow2_ct_matches_biguint() {
        use crate::arith::limbs::to_limbs;
        use rand::{RngCore, SeedableRng};
        let mut rng = rand::rngs::StdRng::seed_from_u64(2);
        for bits in [64u32, 127, 520, 1024, 2048, 4095] {
            for kernel in crate::arith::Kernel::available() {
                let mut bytes = vec![0u8; bits as usize / 8 + 1];
                rng.fill_bytes(&mut bytes);
                let m = (BigUint::from_bytes_le(&bytes) >> 3u8) | BigUint::from(1u8) | (BigUint::from(1u8) << (bits - 1));
                rng.fill_bytes(&mut bytes);
                let e = BigUint::from_bytes_le(&bytes) % &m;
                // Every kernel: the scalar ladder and the IFMA-domain one.
                let ctx = MontContext::with_kernel(&m, kernel).unwrap();
                let el = to_limbs(&e, ctx.len()).unwrap();
                let r = pow2_ct(&ctx, &el, ctx.len() * 64);
                let mut t = ctx.scratch();
                let got = from_limbs(&ctx.from_mont(&r, &mut t));
                assert_eq!(got, BigUint::from(2u8).modpow(&e, &m), "bits={bits} {kernel:?}");
            }
        }
        // Moduli with the top limb near 2^64, where 2 sq overflows the limbs, and an
        // all-ones exponent (a doubling at every step).
        for m in [(BigUint::from(1u8) << 128u32) - 159u8, (BigUint::from(1u8) << 2048u32) - 1u8] {
            for kernel in crate::arith::Kernel::available() {
                let ctx = MontContext::with_kernel(&m, kernel).unwrap();
                let e = &m - 2u8;
                let r = pow2_ct(&ctx, &to_limbs(&e, ctx.len()).unwrap(), ctx.len() * 64);
                let mut t = ctx.scratch();
                assert_eq!(from_limbs(&ctx.from_mont(&r, &mut t)), BigUint::from(2u8).modpow(&e, &m), "{kernel:?}");
            }
        }
    }
}
