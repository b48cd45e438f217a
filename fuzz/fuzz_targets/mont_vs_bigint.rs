//! Montgomery arithmetic against num-bigint on fuzzer-chosen modulus and operands, every
//! kernel this CPU has: `mul`, `sqr`, `pow_vartime`, `pow_ct` (with the exact and a padded
//! exponent length), `pow2_vartime`, the to/from-Montgomery conversions, and each
//! kernel's widest lane batch (`SharedModulus`: eight lanes with AVX-512 IFMA) for the
//! square and both exponentiations.
//! Layout: [L][m: L bytes][a: L][b: L][exponent: rest, at most 64 bytes], L in 1..=128.
#![no_main]

use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use primekit::hazmat::lanes::{SharedModulus, Timing};
use primekit::hazmat::limbs::{from_limbs, to_limbs};
use primekit::hazmat::mont::pow2_vartime;
use primekit::hazmat::mont::{pow_ct, pow_vartime};
use primekit::hazmat::mont::{Kernel, MontContext};

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
        let am = ctx.to_mont(&ctx.reduce_vartime(&a), &mut t);
        let bm = ctx.to_mont(&ctx.reduce_vartime(&b), &mut t);
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
        let got = pow2_vartime(&ctx, &e_limbs);
        assert_eq!(from_limbs(&ctx.from_mont(&got, &mut t)), BigUint::from(2u8).modpow(&e, &m), "pow2 {kernel:?}");
        // The widest lane batch of this kernel: each lane its own base.
        for timing in [Timing::Vartime, Timing::ConstantTime] {
            let batch = SharedModulus::for_rounds(&ctx, 8, timing);
            let xs: Vec<BigUint> = (0..batch.lanes() as u32).map(|k| (&a + &b * k) % &m).collect();
            let x = batch.load(&xs.iter().map(|x| to_limbs(x, ctx.len()).unwrap()).collect::<Vec<_>>());
            let sq = batch.sqr(&x);
            let pw = match timing {
                Timing::Vartime => batch.pow_vartime(&x, &e_limbs),
                Timing::ConstantTime => batch.pow_ct(&x, &e_limbs, 64 * e_limbs.len()),
            };
            for (k, xk) in xs.iter().enumerate() {
                assert_eq!(batch.eq_ct(&sq, &batch.target(&(xk * xk % &m))) >> k & 1, 1, "lanes sqr {kernel:?} lane {k} m={m}");
            }
            // Exponentiation: the outer lanes only (num-bigint's modpow dominates the run time).
            for k in [0, xs.len() - 1] {
                assert_eq!(
                    batch.eq_ct(&pw, &batch.target(&xs[k].modpow(&e, &m))) >> k & 1,
                    1,
                    "lanes pow {kernel:?} {timing:?} lane {k} m={m}"
                );
            }
        }
    }
});
