//! Inputs found by the fuzz targets in `fuzz/` (`.ci/fuzz-smoke.sh`), kept as tests.

use num_bigint::BigUint;
use primekit::arith::ifma::Ifma8;
use primekit::hazmat::limbs::from_limbs;
use primekit::hazmat::mont::{pow_ct, pow_vartime};
use primekit::hazmat::mont::{Kernel, MontContext};

/// mont_vs_bigint crash-fc62652b (input 00 78 ef fa): one-byte modulus m = 121,
/// a = 118, b = 8. The harness had assumed the IFMA context's R is 2^(52 l) for the
/// smallest l; the context pads l to a fixed kernel size (10 limbs), so R mod m must come
/// from `one_and_minus_one`. Library behaviour was correct; the case stays covered.
#[test]
fn tiny_modulus_on_every_kernel() {
    let (m, a, e) = (BigUint::from(121u8), BigUint::from(118u8), BigUint::from(250u8));
    for kernel in Kernel::available() {
        let ctx = MontContext::with_kernel(&m, kernel).unwrap();
        let mut t = ctx.scratch();
        let am = ctx.to_mont(&ctx.reduce(&a), &mut t);
        let mut out = vec![0; ctx.len()];
        ctx.sqr(&mut out, &am, &mut t);
        assert_eq!(from_limbs(&ctx.from_mont(&out, &mut t)), &a * &a % &m, "{kernel:?}");
        let want = a.modpow(&e, &m);
        let got = pow_vartime(&ctx, &am, &e.to_u64_digits());
        assert_eq!(from_limbs(&ctx.from_mont(&got, &mut t)), want, "{kernel:?}");
        let got = pow_ct(&ctx, &am, &e.to_u64_digits(), 8);
        assert_eq!(from_limbs(&ctx.from_mont(&got, &mut t)), want, "{kernel:?}");
    }
    if let Some(c) = Ifma8::new(&m) {
        let (r, _) = c.one_and_minus_one();
        let x = c.to_mont(&[a.clone()]);
        assert_eq!(c.lanes_reduced(&c.mul(&x, &x))[0], &a * &a * &r % &m);
        assert_eq!(c.lanes_reduced(&c.pow_vartime(&x, &e.to_u64_digits()))[0], a.modpow(&e, &m) * &r % &m);
    }
}
