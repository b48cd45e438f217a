//! Inputs found by the fuzz targets in `fuzz/` (`.ci/fuzz-smoke.sh`), kept as tests.

use num_bigint::BigUint;
use primekit::hazmat::lanes::{SharedModulus, Timing};
use primekit::hazmat::limbs::{from_limbs, to_limbs};
use primekit::hazmat::mont::{pow_ct, pow_vartime, Kernel, MontContext};

/// mont_vs_bigint crash-fc62652b (input 00 78 ef fa): one-byte modulus m = 121,
/// a = 118, b = 8. The harness had assumed the 8-lane IFMA context's R is 2^(52 l) for
/// the smallest l; the context pads l to a fixed kernel size (10 limbs). Library
/// behaviour was correct; the case stays covered, now through the backend-neutral lane
/// batch on every kernel.
#[test]
fn tiny_modulus_on_every_kernel() {
    let (m, a, e) = (BigUint::from(121u8), BigUint::from(118u8), BigUint::from(250u8));
    for kernel in Kernel::available() {
        let ctx = MontContext::with_kernel(&m, kernel).unwrap();
        let mut t = ctx.scratch();
        let am = ctx.to_mont(&ctx.reduce_vartime(&a), &mut t);
        let mut out = vec![0; ctx.len()];
        ctx.sqr(&mut out, &am, &mut t);
        assert_eq!(from_limbs(&ctx.from_mont(&out, &mut t)), &a * &a % &m, "{kernel:?}");
        let want = a.modpow(&e, &m);
        let got = pow_vartime(&ctx, &am, &e.to_u64_digits());
        assert_eq!(from_limbs(&ctx.from_mont(&got, &mut t)), want, "{kernel:?}");
        let got = pow_ct(&ctx, &am, &e.to_u64_digits(), 8);
        assert_eq!(from_limbs(&ctx.from_mont(&got, &mut t)), want, "{kernel:?}");
        for timing in [Timing::Vartime, Timing::ConstantTime] {
            let batch = SharedModulus::for_rounds(&ctx, 8, timing);
            let x = batch.load(&[to_limbs(&a, ctx.len()).unwrap()]);
            assert_eq!(batch.eq_ct(&batch.sqr(&x), &batch.target(&(&a * &a % &m))) & 1, 1, "{kernel:?}");
            let got = match timing {
                Timing::Vartime => batch.pow_vartime(&x, &e.to_u64_digits()),
                Timing::ConstantTime => batch.pow_ct(&x, &e.to_u64_digits(), 8),
            };
            assert_eq!(batch.eq_ct(&got, &batch.target(&want)) & 1, 1, "{kernel:?} {timing:?}");
        }
    }
}
