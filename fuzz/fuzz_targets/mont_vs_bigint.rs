//! Montgomery arithmetic against num-bigint on fuzzer-chosen modulus and operands, every
//! kernel this CPU has: `mul`, `sqr`, `pow_vartime`, `pow_ct` (with the exact and a padded
//! exponent length) and the to/from-Montgomery conversions.
//! Layout: [L][m: L bytes][a: L][b: L][exponent: rest, at most 64 bytes], L in 1..=128.
#![no_main]

use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use primekit::arith::limbs::from_limbs;
use primekit::arith::modexp::{pow_ct, pow_vartime};
use primekit::arith::{Kernel, MontContext};

fuzz_target!(|data: &[u8]| {
    let Some((&l, rest)) = data.split_first() else { return };
    let l = (l as usize % 128) + 1;
    if rest.len() < 3 * l {
        return;
    }
    let m = BigUint::from_bytes_be(&rest[..l]) | BigUint::from(1u8);
    if m.bits() < 2 {
        return;
    }
    let a = BigUint::from_bytes_be(&rest[l..2 * l]) % &m;
    let b = BigUint::from_bytes_be(&rest[2 * l..3 * l]) % &m;
    let e_bytes = &rest[3 * l..];
    let e = BigUint::from_bytes_be(&e_bytes[..e_bytes.len().min(64)]);
    let e_limbs = e.to_u64_digits();
    for kernel in Kernel::available() {
        let ctx = MontContext::with_kernel(&m, kernel).expect("odd m >= 3");
        let mut t = ctx.scratch();
        let am = ctx.to_mont(&ctx.reduce(&a), &mut t);
        let bm = ctx.to_mont(&ctx.reduce(&b), &mut t);
        assert_eq!(from_limbs(&ctx.from_mont(&am, &mut t)), a, "round trip {kernel:?}");
        let mut out = vec![0; ctx.len()];
        ctx.mul(&mut out, &am, &bm, &mut t);
        assert_eq!(from_limbs(&ctx.from_mont(&out, &mut t)), &a * &b % &m, "mul {kernel:?} m={m}");
        ctx.sqr(&mut out, &am, &mut t);
        assert_eq!(from_limbs(&ctx.from_mont(&out, &mut t)), &a * &a % &m, "sqr {kernel:?} m={m}");
        let want = a.modpow(&e, &m);
        let got = pow_vartime(&ctx, &am, &e_limbs);
        assert_eq!(from_limbs(&ctx.from_mont(&got, &mut t)), want, "pow_vartime {kernel:?}");
        let got = pow_ct(&ctx, &am, &e_limbs, e.bits() as usize);
        assert_eq!(from_limbs(&ctx.from_mont(&got, &mut t)), want, "pow_ct {kernel:?}");
        let got = pow_ct(&ctx, &am, &e_limbs, 64 * e_limbs.len() + 3);
        assert_eq!(from_limbs(&ctx.from_mont(&got, &mut t)), want, "pow_ct padded {kernel:?}");
    }
});
