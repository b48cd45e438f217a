//! Montgomery arithmetic against num-bigint on fuzzer-chosen modulus and operands, every
//! kernel this CPU has: `mul`, `sqr`, `pow_vartime`, `pow_ct` (with the exact and a padded
//! exponent length), `pow2_vartime`, the to/from-Montgomery conversions, and, on CPUs with
//! AVX-512 IFMA, the eight-lane `Ifma8` product and exponentiation.
//! Layout: [L][m: L bytes][a: L][b: L][exponent: rest, at most 64 bytes], L in 1..=128.
#![no_main]

use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use primekit::hazmat::limbs::from_limbs;
use primekit::arith::ifma::Ifma8;
use primekit::hazmat::mont::{pow_ct, pow_vartime};
use primekit::hazmat::mont::pow2_vartime;
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
        let got = pow2_vartime(&ctx, &e_limbs);
        assert_eq!(from_limbs(&ctx.from_mont(&got, &mut t)), BigUint::from(2u8).modpow(&e, &m), "pow2 {kernel:?}");
    }
    if let Some(c) = Ifma8::new(&m) {
        // Lanes hold Montgomery residues x*R mod m; R mod m is the context's 1 (its limb
        // count, hence R, is rounded up to a fixed kernel size, so do not recompute it).
        let (r, _) = c.one_and_minus_one();
        let xs: Vec<BigUint> = (0..8u32).map(|k| (&a + &b * k) % &m).collect();
        let x = c.to_mont(&xs);
        let pw = c.lanes_reduced(&c.pow_vartime(&x, &e_limbs));
        let sq = c.lanes_reduced(&c.mul(&x, &x));
        for k in 0..8 {
            assert_eq!(sq[k], &xs[k] * &xs[k] % &m * &r % &m, "ifma sqr lane {k} m={m}");
        }
        // Exponentiation: the outer lanes only (num-bigint's modpow dominates the run time).
        for k in [0, 7] {
            assert_eq!(pw[k], xs[k].modpow(&e, &m) * &r % &m, "ifma pow lane {k} m={m}");
        }
    }
});
