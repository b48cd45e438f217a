//! The NIST FIPS 186-4 C.3.3 Lucas test as Le Masle et al. 2011 build it: squareness first
//! (integer square root), Selfridge's D by the binary Jacobi symbol (Alg. 3), then the
//! U/V ladder of Alg. 2 decomposed as Alg. 4 — per bit of n + 1, four or five Montgomery
//! products (UV, V^2, U^2, D·U^2, and D·U_temp on 1 bits) and one or three modular
//! add-shifts (A + B)/2 mod n (Alg. 5). Halving commutes with the Montgomery factor R,
//! so the whole ladder stays in Montgomery form. n passes when U_{n+1} ≡ 0.

use crate::instrument::Outcome;
use num_bigint::BigUint;
use primekit::hazmat::limbs::{add_assign, bit, bit_len_vartime, lt_vartime, sub_into, to_limbs, Limb};
use primekit::hazmat::mont::MontContext;
use primekit::hazmat::primality::SearchOptions;
use primekit::Error;

/// Alg. 5: `out = (a + b)/2 mod m` for `a, b < m`, m odd.
pub fn add_shift_mod(out: &mut [Limb], a: &[Limb], b: &[Limb], m: &[Limb]) {
    out.copy_from_slice(a);
    let mut carry = add_assign(out, b);
    if out[0] & 1 == 1 {
        carry += add_assign(out, m); // a + b + m: even, < 3m
    }
    // Shift the (len+1)-limb value (carry <= 2 on top) right by one; the result is
    // below 1.5 m, so it may still exceed len limbs by one bit (`ext`).
    for i in 0..out.len() {
        let next = if i + 1 < out.len() { out[i + 1] } else { carry };
        out[i] = (out[i] >> 1) | (next << 63);
    }
    let ext = carry >> 1;
    if ext != 0 || !lt_vartime(out, m) {
        let x = out.to_vec();
        sub_into(out, &x, m);
    }
}

/// Le Masle et al. 2011, Alg. 2 with trial division by the first `r` odd primes first.
pub fn nist_lucas(n: &BigUint, r: usize) -> Result<Outcome, Error> {
    super::stand_alone_lucas(n, r, SearchOptions::NIST, |params| Ok(u_n_plus_one_is_zero(&MontContext::new(n)?, n, params.d)))
}

/// Lines 6-19 of Alg. 2 (P = 1): U_{n+1}(1, (1-D)/4) ≡ 0 mod n.
pub fn u_n_plus_one_is_zero(ctx: &MontContext, n: &BigUint, d: i64) -> bool {
    let len = ctx.len();
    let m = ctx.modulus();
    let mut t = ctx.scratch();
    let d_mod = if d >= 0 { BigUint::from(d as u64) % n } else { (n - (BigUint::from(d.unsigned_abs()) % n)) % n };
    let dm = ctx.to_mont(&to_limbs(&d_mod, len).expect("reduced"), &mut t);
    let k = to_limbs(&(n + 1u8), len + 1).expect("n + 1 fits one more limb");
    let (mut u, mut v) = (ctx.one().to_vec(), ctx.one().to_vec());
    let (mut ut, mut vt, mut t1, mut t2) = (vec![0; len], vec![0; len], vec![0; len], vec![0; len]);
    for i in (0..bit_len_vartime(&k) - 1).rev() {
        ctx.mul(&mut ut, &u, &v, &mut t); // 1: U_temp = UV
        ctx.sqr(&mut vt, &v, &mut t); // 2: V_temp = V^2
        ctx.sqr(&mut t1, &u, &mut t); // 3: temp1 = U^2
        ctx.mul(&mut t2, &dm, &t1, &mut t); // 4: temp1 = D temp1
        add_shift_mod(&mut t1, &vt, &t2, m); // 5: V_temp = (V_temp + temp1)/2
        std::mem::swap(&mut vt, &mut t1);
        if bit(&k, i) == 1 {
            add_shift_mod(&mut u, &ut, &vt, m); // 7: U = (U_temp + V_temp)/2
            ctx.mul(&mut t2, &dm, &ut, &mut t); // 8: temp2 = D U_temp
            add_shift_mod(&mut v, &vt, &t2, m); // 9: V = (V_temp + temp2)/2
        } else {
            std::mem::swap(&mut u, &mut ut);
            std::mem::swap(&mut v, &mut vt);
        }
    }
    u.iter().all(|&l| l == 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use primekit::hazmat::limbs::from_limbs;

    #[test]
    fn add_shift_matches_biguint() {
        let m = (BigUint::from(1u8) << 127u32) - 1u8;
        let ml = to_limbs(&m, 2).unwrap();
        let inv2 = (&m + 1u8) >> 1u32;
        for (a, b) in [
            ((1 << 127) - 2, (1 << 127) - 3),
            (0u128, 0u128),
            (1, 0),
            (1, 1),
            ((1 << 127) - 2, (1 << 127) - 2),
            ((1 << 127) - 2, 1),
            (12345, 678901),
        ] {
            let (ab, bb) = (BigUint::from(a), BigUint::from(b));
            let mut out = vec![0; 2];
            add_shift_mod(&mut out, &to_limbs(&ab, 2).unwrap(), &to_limbs(&bb, 2).unwrap(), &ml);
            assert_eq!(from_limbs(&out), (ab + bb) * &inv2 % &m);
        }
    }
}
