//! `2^e mod m` by left-to-right binary exponentiation in which multiplying by the base
//! is a doubling (a shift and a conditional subtraction) instead of a Montgomery
//! product, so the cost is one squaring per exponent bit and nothing else. This is the
//! Miller-Rabin base-2 round that rejects almost every composite. Variable time: `m`
//! and `e` are public.

use super::limbs::{bit, bit_len_vartime, lt_vartime, sub_into, Limb};
use super::modexp::pow_vartime;
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
/// [`pow_vartime`] instead.
pub fn pow2_vartime(ctx: &MontContext, e: &[Limb]) -> Vec<Limb> {
    let n = ctx.len();
    let m = ctx.modulus();
    let mut acc = ctx.one().to_vec();
    #[cfg(target_arch = "x86_64")]
    if ctx.kernel() == super::Kernel::Ifma {
        let mut tmp = vec![0; n];
        double_mod_vartime(&mut acc, m, &mut tmp); // 2 in Montgomery form
        return pow_vartime(ctx, &acc, e);
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::limbs::from_limbs;
    use num_bigint::BigUint;

    #[test]
    fn matches_modpow() {
        for m in ["3", "5", "18446744073709551557", "340282366920938463463374607431768211297", "1000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000009"] {
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
}
