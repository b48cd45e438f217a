//! The check every base kernel family (ADX, portable) runs against num-bigint: each of
//! its products at every length up to 41 limbs and a few longer, on random and on
//! all-ones operands (the longest carries).

use crate::arith::limbs::{from_limbs, neg_inv_mod_word, to_limbs, Limb};
use num_bigint::BigUint;
use num_traits::One;
use rand_core::{RngCore, SeedableRng};

/// `w = a b` (full or low half).
type Product<'a> = &'a dyn Fn(&mut [Limb], &[Limb], &[Limb]);
/// `out = a b R^{-1} mod m` given m, -m^{-1} mod 2^64 and scratch.
type MontProduct<'a> = &'a dyn Fn(&mut [Limb], &[Limb], &[Limb], &[Limb], Limb, &mut [Limb]);
/// `out = a^2 R^{-1} mod m`, as [`MontProduct`].
type MontSquare<'a> = &'a dyn Fn(&mut [Limb], &[Limb], &[Limb], Limb, &mut [Limb]);

/// One family's kernels (`mul_full` where it has one).
pub(crate) struct Kernels<'a> {
    pub(crate) mul_full: Option<Product<'a>>,
    pub(crate) sqr_full: &'a dyn Fn(&mut [Limb], &[Limb]),
    pub(crate) mul_low: Product<'a>,
    pub(crate) mont_mul: MontProduct<'a>,
    pub(crate) mont_sqr: MontSquare<'a>,
}

/// Runs `k` at n = 1..=41, 63, 64, 65 and 96 limbs against num-bigint; the Montgomery
/// kernels on operands reduced below a random odd modulus with its top bit set and on
/// m - 1 (all-ones limbs when m is).
pub(crate) fn check_every_small_length(k: &Kernels, seed: u64) {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    for n in (1..=41).chain([63, 64, 65, 96]) {
        for ones in [false, true] {
            let gen =
                |rng: &mut rand_chacha::ChaCha20Rng| -> Vec<Limb> { (0..n).map(|_| if ones { !0 } else { rng.next_u64() }).collect() };
            let (a, b) = (gen(&mut rng), gen(&mut rng));
            let (ba, bb) = (from_limbs(&a), from_limbs(&b));
            let mut w = vec![0; 2 * n];
            if let Some(mul_full) = k.mul_full {
                mul_full(&mut w, &a, &b);
                assert_eq!(from_limbs(&w), &ba * &bb, "mul n={n}");
            }
            (k.sqr_full)(&mut w, &a);
            assert_eq!(from_limbs(&w), &ba * &ba, "sqr n={n}");
            let r = BigUint::one() << (64 * n);
            (k.mul_low)(&mut w[..n], &a, &b);
            assert_eq!(from_limbs(&w[..n]), &ba * &bb % &r, "mul_low n={n}");
            let mut ml = gen(&mut rng);
            ml[0] |= 1;
            ml[n - 1] |= 1 << 63;
            let m = from_limbs(&ml);
            let m0 = neg_inv_mod_word(ml[0]);
            let r_inv = r.modinv(&m).expect("m odd");
            for (x, y) in [(&ba % &m, &bb % &m), (&m - 1u8, &m - 1u8)] {
                let (xa, xb) = (to_limbs(&x, n).expect("below m"), to_limbs(&y, n).expect("below m"));
                let mut out = vec![0; n];
                let mut t = vec![0; 2 * n + 2];
                (k.mont_mul)(&mut out, &xa, &xb, &ml, m0, &mut t);
                assert_eq!(from_limbs(&out), &x * &y * &r_inv % &m, "mont_mul n={n}");
                (k.mont_sqr)(&mut out, &xa, &ml, m0, &mut t);
                assert_eq!(from_limbs(&out), &x * &x * &r_inv % &m, "mont_sqr n={n}");
            }
        }
    }
}
