//! The Montgomery engine against num-bigint (an independent implementation), on every
//! kernel this CPU supports: products, squares, conversions and both exponentiations.

use num_bigint::{BigUint, RandBigInt};
use num_traits::{One, Zero};
use primekit::hazmat::limbs::{from_limbs, to_limbs};
use primekit::hazmat::mont::{pow_ct, pow_vartime};
use primekit::hazmat::mont::{ArithError, Kernel, MontContext};
use proptest::prelude::*;
use rand::SeedableRng;

fn rand_odd(rng: &mut rand::rngs::StdRng, bits: u64) -> BigUint {
    let mut m = rng.gen_biguint(bits);
    m.set_bit(0, true);
    if m.bits() < 2 {
        m = BigUint::from(3u32);
    }
    m
}

/// Checks mul, sqr, to/from Montgomery and both pows for one modulus and operands.
fn check_all(m: &BigUint, a: &BigUint, b: &BigUint, e: &BigUint) {
    let a = a % m;
    let b = b % m;
    let r = BigUint::one() << (64 * m.bits().div_ceil(64));
    let r_inv = r.modinv(m).unwrap();
    for kernel in Kernel::available() {
        let ctx = MontContext::with_kernel(m, kernel).unwrap();
        let n = ctx.len();
        let mut t = ctx.scratch();
        let al = to_limbs(&a, n).unwrap();
        let bl = to_limbs(&b, n).unwrap();
        let mut out = vec![0; n];
        ctx.mul(&mut out, &al, &bl, &mut t);
        assert_eq!(from_limbs(&out), (&a * &b * &r_inv) % m, "mul {kernel:?} m={m:x}");
        ctx.sqr(&mut out, &al, &mut t);
        assert_eq!(from_limbs(&out), (&a * &a * &r_inv) % m, "sqr {kernel:?} m={m:x}");
        let am = ctx.to_mont(&al, &mut t);
        assert_eq!(from_limbs(&am), (&a * &r) % m, "to_mont {kernel:?}");
        assert_eq!(from_limbs(&ctx.from_mont(&am, &mut t)), a, "from_mont {kernel:?}");
        let want = a.modpow(e, m);
        let el = e.to_u64_digits();
        let got = ctx.from_mont(&pow_vartime(&ctx, &am, &el), &mut t);
        assert_eq!(from_limbs(&got), want, "pow_vartime {kernel:?} m={m:x} a={a:x} e={e:x}");
        let got = ctx.from_mont(&pow_ct(&ctx, &am, &el, e.bits() as usize + 3), &mut t);
        assert_eq!(from_limbs(&got), want, "pow_ct {kernel:?} m={m:x} a={a:x} e={e:x}");
    }
}

#[test]
fn both_kernels_exercised_where_available() {
    let ks = Kernel::available();
    assert!(ks.contains(&Kernel::Portable));
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("adx") && std::is_x86_feature_detected!("bmi2") {
        assert!(ks.contains(&Kernel::Adx));
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512dq")
            && std::is_x86_feature_detected!("avx512ifma")
        {
            assert!(ks.contains(&Kernel::Ifma));
            assert_eq!(Kernel::best(), Kernel::Ifma);
        } else {
            // Avx2 where 256-bit multiplies run at full width (a CPUID table), else Adx.
            assert!(matches!(Kernel::best(), Kernel::Adx | Kernel::Avx2));
        }
    }
    assert!(Kernel::Portable.is_available());
}

#[test]
#[cfg(target_arch = "x86_64")]
fn unavailable_kernels_are_refused() {
    let m = BigUint::from(1_000_003u32);
    for k in [Kernel::Adx, Kernel::Ifma] {
        assert_eq!(MontContext::with_kernel(&m, k).is_ok(), k.is_available());
        if !k.is_available() {
            assert_eq!(MontContext::with_kernel(&m, k).unwrap_err(), ArithError::KernelUnavailable);
        }
    }
}

#[test]
fn edge_moduli_and_operands() {
    let mut moduli: Vec<BigUint> = vec![BigUint::from(3u32), BigUint::from(5u32), BigUint::from(u64::MAX)];
    for k in [64u32, 65, 127, 128, 521, 1024, 1279, 2048] {
        moduli.push((BigUint::one() << k) - 1u32); // 2^k - 1
        moduli.push((BigUint::one() << k) + 1u32); // 2^k + 1
    }
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    for m in &moduli {
        let m1 = m - 1u32;
        let bases = [BigUint::zero(), BigUint::one(), m1.clone(), m.clone(), m + 5u32, rng.gen_biguint(m.bits() + 70)];
        let exps = [BigUint::zero(), BigUint::one(), BigUint::from(2u32), BigUint::one() << 64u32, BigUint::one() << 100u32, m1.clone()];
        for a in &bases {
            for e in &exps {
                check_all(m, a, &m1, e);
            }
        }
    }
}

#[test]
fn bad_moduli_are_errors() {
    assert_eq!(MontContext::new(&BigUint::from(10u32)).unwrap_err(), ArithError::EvenModulus);
    assert_eq!(MontContext::new(&BigUint::zero()).unwrap_err(), ArithError::ModulusTooSmall);
    assert_eq!(MontContext::new(&BigUint::one()).unwrap_err(), ArithError::ModulusTooSmall);
    let huge = BigUint::one() << (primekit::hazmat::mont::MAX_MODULUS_BITS as u32 + 1);
    assert!(matches!(MontContext::new(&(huge + 1u32)), Err(ArithError::ModulusTooLarge { .. })));
}

#[test]
fn large_sizes_products() {
    // Up to 16384 bits: products and squares (exponentiation at these sizes is covered
    // with shorter exponents to keep the oracle's time reasonable).
    let mut rng = rand::rngs::StdRng::seed_from_u64(2);
    for bits in [4096u64, 8192, 16384, 16383] {
        let m = rand_odd(&mut rng, bits);
        let a = rng.gen_biguint(bits);
        let b = rng.gen_biguint(bits);
        check_all(&m, &a, &b, &rng.gen_biguint(96));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]
    #[test]
    fn random_sizes_match(seed in any::<u64>(), bits in 64u64..=8192) {
        // Full-size exponents up to 2048 bits; shorter above so num-bigint stays quick.
        check_random(seed, bits, bits + 10, bits.min(2048));
    }

    #[test]
    fn small_sizes_match(seed in any::<u64>(), bits in 2u64..=300) {
        check_random(seed, bits, bits + 64, bits + 64);
    }
}

/// [`check_all`] on a random odd modulus of `bits` bits, a first operand of `a_bits`
/// (possibly above the modulus), a second of `bits` and an exponent of `e_bits`, all
/// drawn from `seed`.
fn check_random(seed: u64, bits: u64, a_bits: u64, e_bits: u64) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let m = rand_odd(&mut rng, bits);
    let a = rng.gen_biguint(a_bits);
    let b = rng.gen_biguint(bits);
    let e = rng.gen_biguint(e_bits);
    check_all(&m, &a, &b, &e);
}

/// The limb counts with dedicated kernels (512..4096 bits) and their neighbours, at the
/// edges: moduli just below 2^(64n), m = 2^(64n-1)+1, operands m-1 (all ones when m is
/// 2^(64n)-1), 0, 1, and random values, on every kernel.
#[test]
fn fixed_sizes_edges() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x5eed_f17e);
    for n in [7u64, 8, 9, 16, 24, 32, 48, 64] {
        let top = BigUint::one() << (64 * n);
        let moduli =
            [&top - 1u32, &top - 3u32, &top - 0x1_0000_0001u64, (BigUint::one() << (64 * n - 1)) + 1u32, rand_odd(&mut rng, 64 * n)];
        for m in &moduli {
            let r = rng.gen_biguint_below(m);
            let e = rng.gen_biguint(if n <= 16 { 64 * n } else { 96 });
            let pairs = [
                (m - 1u32, m - 1u32),
                (BigUint::zero(), m - 1u32),
                (BigUint::one(), m - 1u32),
                (r.clone(), m - 1u32),
                (r.clone(), rng.gen_biguint_below(m)),
            ];
            for (a, b) in &pairs {
                check_all(m, a, b, &e);
            }
        }
    }
}
