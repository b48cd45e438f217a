//! Montgomery arithmetic for large moduli (thousands of bits) on Karatsuba products.
//!
//! Why: the schoolbook kernels cost about 2n^2 word products per Montgomery product
//! (n^2 for the product, n^2 for the reduction). Above a few thousand bits Karatsuba's
//! three half-size products instead of four (Karatsuba & Ofman 1963) win, recursively:
//! n^1.585. The reduction can then be made of products too (Montgomery 1985):
//! [`redc_products`] does it with a short product and a product modulo R - 1, about 1.4
//! full products. Whether the Karatsuba product pays, with which reduction, and from
//! which size, is measured per kernel: see [`plan`]. Products and squares of several
//! hundred limbs split in three instead ([`toom3`]).
//!
//! Contract of [`BigMont::mul`] / [`BigMont::sqr`] (n = limbs of m, R = 2^(64n)): inputs
//! `< m`; output `a*b*R^{-1} mod m`, fully reduced; `out` distinct from the inputs.
//! Timing: every branch and memory index depends only on n (the signs of Karatsuba's
//! differences are applied with masks), as for the schoolbook kernels.

use super::{redc_products, toom3};
use crate::arith::carry::{self, carry_through};
#[cfg(target_arch = "x86_64")]
use crate::arith::cpu::Bmi2Adx;
use crate::arith::limbs::{add_assign, sub_into, Limb};
use num_bigint::BigUint;
use num_traits::One;

/// Below this many limbs no base kernel gains from Karatsuba (the smallest of the
/// thresholds in [`Base::threshold`]).
pub(crate) const BASE_LIMBS: usize = 24;

/// Test-only overrides of the thresholds below (0: none), indexed by [`Knob`], so that
/// one process can time several settings interleaved: on a shared host that is the only
/// way differences of a few percent stand out from the load of other tenants.
#[cfg(test)]
pub(crate) static OVERRIDE: [std::sync::atomic::AtomicUsize; 6] = [const { std::sync::atomic::AtomicUsize::new(0) }; 6];

/// The thresholds below, as [`OVERRIDE`] indexes them.
#[derive(Clone, Copy)]
pub(crate) enum Knob {
    Mul = 0,
    Sqr = 1,
    Bm1 = 2,
    Low = 3,
    Toom3Mul = 4,
    Toom3Sqr = 5,
}

/// `default`, unless a test has overridden `knob`.
#[inline]
fn knob(#[allow(unused_variables)] knob: Knob, default: usize) -> usize {
    #[cfg(test)]
    {
        let o = OVERRIDE[knob as usize].load(std::sync::atomic::Ordering::Relaxed);
        if o != 0 {
            return o;
        }
    }
    default
}

/// The schoolbook full products the recursion bottoms out in.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Base {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Adx(Bmi2Adx),
}

impl Base {
    /// Operand size from which one Karatsuba level beats this kernel's schoolbook
    /// product (`square`: its squaring, which is already 1.5-2x cheaper than a product).
    ///
    /// Portable: measured with `cargo test --release -p primekit --lib
    /// karatsuba_crossover -- --ignored --nocapture` on AMD Zen 5. ADX: chosen on the whole
    /// Montgomery square of the contexts that use this module, since a product's own
    /// crossover misleads here (a level pays off differently inside the reduction's
    /// products): `cargo test --release -p primekit --lib threshold_settings -- --ignored
    /// --nocapture` on Intel Xeon Emerald Rapids, where the fixed-length kernels make
    /// 16-limb products and 32-limb squares cheap leaves. There (fastest of 41 rounds;
    /// `results/kernels/2026-11-27-big-thresholds/`), going back to products from 48
    /// limbs made the Montgomery square at 128/192/256/384/512 limbs 1.032/1.015/1.024/
    /// 1.018/1.005x slower, squares from 96 1.019/1.000/1.017/1.008/1.041x; the same
    /// direction in two more comparisons of the settings.
    fn threshold(self, square: bool) -> usize {
        knob(
            if square { Knob::Sqr } else { Knob::Mul },
            match (self, square) {
                (Base::Portable, false) => 24,
                (Base::Portable, true) => 64,
                #[cfg(target_arch = "x86_64")]
                (Base::Adx(_), false) => 32,
                #[cfg(target_arch = "x86_64")]
                (Base::Adx(_), true) => 64,
            },
        )
    }

    /// Operand size from which a product (`square`: a square) is split in three
    /// ([`toom3`]) rather than two.
    ///
    /// Chosen on the whole Montgomery square, as [`Base::threshold`] (`threshold_settings`;
    /// Intel Xeon Emerald Rapids, fastest of 41 interleaved rounds; the figures in
    /// `results/kernels/2026-11-27-toom3-thresholds/`). ADX: squares from 256 limbs and
    /// products from 128 made it 0.977 / 0.977 / 0.990 / 0.991x as long at 128 / 256 /
    /// 384 / 512 limbs against squares from 384 and products from 288; squares from 192
    /// lost 0.6% at 192 limbs, products from 96 lost 1-2% at 128-192. Portable: products
    /// from 96 made it 0.972 / 0.977 / 0.979 / 0.992x as long at 192 / 256 / 384 / 512
    /// limbs; squares from 256 gained nothing at 256 limbs, so they keep 384.
    ///
    /// These thresholds hold since the exact division by 3 of the interpolation runs the
    /// subtraction recurrence rather than the multiplicative one (four times faster): with
    /// the latter, Toom-3 was no faster than Karatsuba below 288 (products) and 384 limbs
    /// (squares).
    fn threshold_toom3(self, square: bool) -> usize {
        knob(
            if square { Knob::Toom3Sqr } else { Knob::Toom3Mul },
            match (self, square) {
                (Base::Portable, false) => 96,
                (Base::Portable, true) => 384,
                #[cfg(target_arch = "x86_64")]
                (Base::Adx(_), false) => 128,
                #[cfg(target_arch = "x86_64")]
                (Base::Adx(_), true) => 256,
            },
        )
    }

    /// Operand size from which [`redc_products::mul_low`] splits the short product
    /// rather than running the base kernel's rows.
    pub(crate) fn threshold_low(self) -> usize {
        knob(
            Knob::Low,
            match self {
                Base::Portable => 24,
                #[cfg(target_arch = "x86_64")]
                Base::Adx(_) => 48,
            },
        )
    }

    /// Even operand size from which [`redc_products::mul_mod_bm1`] splits the product
    /// modulo `B^n - 1` into its two half-size residues rather than folding a full one.
    /// On ADX, 64 instead of 32 made the Montgomery square 1.015/1.017/1.005/1.008/1.001x
    /// slower at 128/192/256/384/512 limbs (`threshold_settings`, as for
    /// [`Base::threshold`]). The portable kernel's value was not re-measured: one run of
    /// the settings on a noisy host was inconclusive.
    pub(crate) fn threshold_bm1(self) -> usize {
        knob(
            Knob::Bm1,
            match self {
                Base::Portable => 48,
                #[cfg(target_arch = "x86_64")]
                Base::Adx(_) => 32,
            },
        )
    }

    /// `w[..n] = a * b mod 2^(64n)`, n = a.len() = b.len().
    pub(crate) fn mul_low(self, w: &mut [Limb], a: &[Limb], b: &[Limb]) {
        match self {
            Base::Portable => super::portable::mul_low(w, a, b),
            #[cfg(target_arch = "x86_64")]
            Base::Adx(cpu) => super::adx::mul_low(cpu, w, a, b),
        }
    }

    /// `w[..2n] = a * b`, n = a.len() = b.len().
    fn mul(self, w: &mut [Limb], a: &[Limb], b: &[Limb]) {
        match self {
            Base::Portable => schoolbook_mul(w, a, b),
            #[cfg(target_arch = "x86_64")]
            Base::Adx(cpu) => super::adx::mul_full(cpu, w, a, b),
        }
    }

    /// `w[..2n] = a^2`.
    fn sqr(self, w: &mut [Limb], a: &[Limb]) {
        match self {
            Base::Portable => super::portable::square_wide(w, a),
            #[cfg(target_arch = "x86_64")]
            Base::Adx(cpu) => super::adx::sqr_full(cpu, w, a),
        }
    }
}

/// `w[..2n] = a * b` by rows of `u128` multiply-accumulates.
fn schoolbook_mul(w: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = a.len();
    let w = &mut w[..2 * n];
    w.fill(0);
    for (i, &ai) in a.iter().enumerate() {
        let mut c = 0u64;
        for (j, &bj) in b.iter().enumerate() {
            let s = (w[i + j] as u128) + (ai as u128) * (bj as u128) + (c as u128);
            w[i + j] = s as Limb;
            c = (s >> 64) as Limb;
        }
        w[i + n] = c;
    }
}

/// Scratch limbs the recursion needs for n-limb operands (product or square).
pub(crate) const fn scratch_len(n: usize) -> usize {
    if n < BASE_LIMBS {
        return 0;
    }
    let k = n - n / 2;
    // |a0 - a1|, |b0 - b1| (k each), their product (2k), z0 + z2 - ... (2k + 1).
    let two_way = 6 * k + 1 + scratch_len(k);
    if n < toom3::MIN_LIMBS {
        return two_way;
    }
    let three_way = toom3::own_scratch(n) + scratch_len(n.div_ceil(3) + 1);
    if three_way > two_way {
        three_way
    } else {
        two_way
    }
}

/// `out = |x - y|` for `x.len() <= y.len() = out.len() <= x.len() + 1` (x zero-extended);
/// returns !0 if x < y, else 0. Constant time: the negation is a masked two's complement.
pub(crate) fn abs_diff(out: &mut [Limb], x: &[Limb], y: &[Limb]) -> Limb {
    let h = x.len();
    let (lo, hi) = out.split_at_mut(h);
    let borrow = sub_into(lo, x, &y[..h]);
    // The limb x lacks (if any): 0 - y_h - borrow.
    hi.fill(0);
    let borrow = carry::sub_masked(hi, &y[h..], !0, borrow);
    let neg = borrow.wrapping_neg();
    // out = (out ^ neg) + (neg & 1): the two's complement when x < y.
    for o in out.iter_mut() {
        *o ^= neg;
    }
    carry_through(out, neg & 1);
    neg
}

/// `acc += x` (`x.len() <= acc.len()`), carrying through all of `acc`; returns the carry.
pub(crate) fn add_into(acc: &mut [Limb], x: &[Limb]) -> Limb {
    let (lo, hi) = acc.split_at_mut(x.len());
    let c = add_assign(lo, x);
    carry_through(hi, c)
}

/// `mid = z0 + z2 - d` when mask = !0, `z0 + z2 + d` when mask = 0, over `mid.len()` =
/// d.len() + 1 limbs, with z2.len() = d.len() >= z0.len() (z0 zero-extended); the true
/// value fits, so the passes run modulo B^len. Two passes: z0 + z2, then d added as
/// `(d ^ mask) + (mask & 1)`, which is `B^len(d) - d` when subtracting: the top limb
/// takes the carry less that `B^len(d)`.
fn middle(mid: &mut [Limb], z0: &[Limb], z2: &[Limb], d: &[Limb], mask: Limb) {
    let (k2, h2) = (d.len(), z0.len());
    let (lo, hi) = mid.split_at_mut(h2);
    let c = carry::add(lo, &z2[..h2], z0);
    // z2's limbs above z0 (two when n is odd, else none), then the top limb.
    hi[..k2 - h2].copy_from_slice(&z2[h2..]);
    hi[k2 - h2] = 0;
    carry_through(hi, c);
    let c = carry::add_xored(&mut mid[..k2], d, mask, mask & 1);
    mid[k2] = mid[k2].wrapping_add(c).wrapping_sub(mask & 1);
}

/// `w[..2n] = a * b` (`square`: b is ignored and a^2 computed), Karatsuba above
/// [`BASE_LIMBS`]. `s` holds at least `scratch_len(n)` limbs.
pub(crate) fn product(base: Base, w: &mut [Limb], a: &[Limb], b: &[Limb], square: bool, s: &mut [Limb]) {
    let n = a.len();
    if n < base.threshold(square) {
        return if square { base.sqr(w, a) } else { base.mul(w, a, b) };
    }
    if n >= base.threshold_toom3(square) {
        return toom3::product3(base, w, a, b, square, s);
    }
    let (h, k) = (n / 2, n - n / 2);
    let (a0, a1) = a.split_at(h);
    let (b0, b1) = if square { (a0, a1) } else { b.split_at(h) };
    let (z0, z2) = w[..2 * n].split_at_mut(2 * h);
    product(base, z0, a0, b0, square, s);
    product(base, z2, a1, b1, square, s);
    let (da, rest) = s.split_at_mut(k);
    let (db, rest) = rest.split_at_mut(k);
    let (d, rest) = rest.split_at_mut(2 * k);
    let (mid, rest) = rest.split_at_mut(2 * k + 1);
    // (a0 - a1)(b0 - b1) = z0 + z2 - (a0 b1 + a1 b0), with the sign of the two factors.
    let sign = if square {
        abs_diff(da, a0, a1);
        product(base, d, da, da, true, rest);
        0
    } else {
        let sa = abs_diff(da, a0, a1);
        let sb = abs_diff(db, b0, b1);
        product(base, d, da, db, false, rest);
        sa ^ sb
    };
    // mid = z0 + z2 - sign * d, i.e. subtract d when the factors' signs agree.
    middle(mid, z0, z2, d, !sign);
    // w += mid * B^h (the true sum fits in 2n limbs, so the final carry is 0).
    add_into(&mut w[h..2 * n], mid);
}

/// The two ways to reduce, measured against each other per kernel and size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Reduction {
    /// The kernel's schoolbook Montgomery reduction (n^2 word products).
    Schoolbook,
    /// Reduction by products: a short product for q and a product modulo R - 1 for the
    /// high half of q*m ([`redc_products`]).
    Products,
}

/// Whether (and how) a context of `n` limbs on the kernel of `cpu` uses Karatsuba.
///
/// Measured per kernel with `cargo test --release -p primekit --lib reduction_crossover
/// -- --ignored --nocapture` (Montgomery square, schoolbook vs by-products reduction) and
/// `primekit-lab bench modexp --bits 8192,16384 --interleave` (Intel Xeon Emerald Rapids;
/// docs/limits.md has the figures). On ADX the by-products reduction pays from 128 limbs
/// (8,192 bits: 8.1 vs 8.7 us; 16,384 bits: 25.2 vs 36.5 us), on the portable kernel from
/// 96 (9.4 vs 10.2 us).
/// At an odd n the product modulo `B^n - 1` cannot split and costs a full product: on
/// ADX the reduction by products then loses or ties at 97, 129 and 193 limbs (193: 22.3
/// vs 20.9 us and 22.4 vs 23.5 us in two runs, results/bigmod-crossover-2026-11-26-
/// emerald-rapids.txt), so odd sizes keep the schoolbook
/// reduction; on the portable kernel it still wins from 192 limbs (193: 39.8 vs 42.3 us
/// and 39.6 vs 42.5 us), as the reduction by two full products did before it.
pub(crate) fn plan(cpu: crate::arith::cpu::Tokens, n: usize) -> Option<(Base, Reduction)> {
    let products = |odd_from: usize| if n.is_multiple_of(2) || n >= odd_from { Reduction::Products } else { Reduction::Schoolbook };
    #[cfg(target_arch = "x86_64")]
    if let Some(adx) = cpu.adx() {
        return (n >= 128).then_some((Base::Adx(adx), products(usize::MAX)));
    }
    let _ = cpu;
    (n >= 96).then_some((Base::Portable, products(192)))
}

/// Montgomery product for one large modulus.
#[derive(Clone, Debug)]
pub(crate) struct BigMont {
    base: Base,
    reduction: Reduction,
    m: Vec<Limb>,
    /// -m^{-1} mod R, for [`Reduction::Products`].
    m_prime: Vec<Limb>,
    /// m's residues for the product modulo R - 1, for [`Reduction::Products`].
    m_res: Vec<Limb>,
    m0inv: Limb,
}

impl BigMont {
    pub(crate) fn new(base: Base, reduction: Reduction, m: &[Limb], m0inv: Limb) -> Self {
        let n = m.len();
        let r = BigUint::one() << (64 * n);
        let mm = crate::arith::limbs::from_limbs(m);
        let inv = mm.modinv(&r).expect("m is odd, so invertible mod 2^(64n)");
        let m_prime = crate::arith::limbs::to_limbs(&(&r - inv), n).expect("below R");
        // The high half of q*m is read modulo R - 1, which is ambiguous for m = R - 1.
        let reduction = if m.iter().all(|&l| l == !0) { Reduction::Schoolbook } else { reduction };
        let m_res = redc_products::bm1_residues(base, m);
        BigMont { base, reduction, m: m.to_vec(), m_prime, m_res, m0inv }
    }

    /// Scratch limbs [`Self::mul`] and [`Self::sqr`] need.
    pub(crate) fn scratch_len(&self) -> usize {
        let n = self.m.len();
        // T (2n + 1), then the product's recursion or the reduction's scratch.
        2 * n + 1 + scratch_len(n).max(redc_products::redc_scratch(n))
    }

    pub(crate) fn mul(&self, out: &mut [Limb], a: &[Limb], b: &[Limb], t: &mut [Limb]) {
        self.montgomery(out, a, b, false, t)
    }

    pub(crate) fn sqr(&self, out: &mut [Limb], a: &[Limb], t: &mut [Limb]) {
        self.montgomery(out, a, a, true, t)
    }

    fn montgomery(&self, out: &mut [Limb], a: &[Limb], b: &[Limb], square: bool, t: &mut [Limb]) {
        let n = self.m.len();
        let mut owned;
        let t = if t.len() >= self.scratch_len() {
            t
        } else {
            owned = vec![0; self.scratch_len()];
            &mut owned[..]
        };
        let (prod, s) = t.split_at_mut(2 * n + 1);
        product(self.base, prod, a, b, square, s);
        prod[2 * n] = 0;
        let w = &mut prod[..2 * n];
        match (self.reduction, self.base) {
            (Reduction::Products, base) => redc_products::redc(base, out, w, &self.m, &self.m_prime, &self.m_res, s),
            (Reduction::Schoolbook, Base::Portable) => super::portable::redc(out, w, &self.m, self.m0inv),
            #[cfg(target_arch = "x86_64")]
            (Reduction::Schoolbook, Base::Adx(cpu)) => super::adx::redc(cpu, out, w, &self.m, self.m0inv),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::arith::limbs::{from_limbs, neg_inv_mod_word, to_limbs};
    use proptest::prelude::*;

    /// The scratch bounds of both recursions assume these floors (see `scratch_len`,
    /// `redc_products::low_scratch` and `redc_products::bm1_scratch`).
    #[test]
    fn thresholds_respect_the_scratch_bounds() {
        for base in tests_bases() {
            for square in [false, true] {
                assert!(base.threshold(square) >= BASE_LIMBS, "{base:?}");
            }
            assert!(base.threshold_low() >= BASE_LIMBS, "{base:?}");
            for square in [false, true] {
                assert!(base.threshold_toom3(square) >= toom3::MIN_LIMBS, "{base:?}");
            }
            assert!(base.threshold_bm1() >= 4, "{base:?}");
        }
    }

    /// Every base kernel this CPU has.
    pub(crate) fn tests_bases() -> Vec<Base> {
        #[allow(unused_mut)]
        let mut v = vec![Base::Portable];
        #[cfg(target_arch = "x86_64")]
        if let Some(cpu) = crate::arith::cpu::Tokens::detect(crate::arith::Kernel::Adx).and_then(|t| t.adx()) {
            v.push(Base::Adx(cpu));
        }
        v
    }

    fn limbs(x: &BigUint, n: usize) -> Vec<Limb> {
        to_limbs(x, n).unwrap()
    }

    /// Products across the base and Toom-3 thresholds and odd splits, against num-bigint.
    #[test]
    fn products_match_num_bigint() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(7);
        use rand_core::{RngCore, SeedableRng};
        for n in [1, 2, BASE_LIMBS - 1, BASE_LIMBS, BASE_LIMBS + 1, 47, 48, 63, 64, 95, 96, 97, 127, 128, 130, 255, 256, 384, 385, 386] {
            for &edge in &[false, true] {
                let gen =
                    |rng: &mut rand_chacha::ChaCha20Rng| -> Vec<Limb> { (0..n).map(|_| if edge { !0 } else { rng.next_u64() }).collect() };
                let (a, b) = (gen(&mut rng), gen(&mut rng));
                let want = from_limbs(&a) * from_limbs(&b);
                let want_sq = from_limbs(&a) * from_limbs(&a);
                for base in tests_bases() {
                    let mut w = vec![0; 2 * n];
                    let mut s = vec![0; scratch_len(n)];
                    product(base, &mut w, &a, &b, false, &mut s);
                    assert_eq!(from_limbs(&w), want, "mul n={n} edge={edge} {base:?}");
                    product(base, &mut w, &a, &a, true, &mut s);
                    assert_eq!(from_limbs(&w), want_sq, "sqr n={n} edge={edge} {base:?}");
                }
            }
        }
    }

    fn check_mont(m: &BigUint, a: &BigUint, b: &BigUint) {
        let n = m.bits().div_ceil(64) as usize;
        let ml = limbs(m, n);
        let r_inv = (BigUint::one() << (64 * n)).modinv(m).unwrap();
        for base in tests_bases() {
            for red in [Reduction::Schoolbook, Reduction::Products] {
                let bm = BigMont::new(base, red, &ml, neg_inv_mod_word(ml[0]));
                let mut out = vec![0; n];
                let mut t = vec![0; bm.scratch_len()];
                bm.mul(&mut out, &limbs(a, n), &limbs(b, n), &mut t);
                assert_eq!(from_limbs(&out), a * b * &r_inv % m, "mul {base:?} {red:?} bits {}", m.bits());
                // Short scratch: allocated inside.
                bm.sqr(&mut out, &limbs(a, n), &mut [0; 4]);
                assert_eq!(from_limbs(&out), a * a * &r_inv % m, "sqr {base:?} {red:?} bits {}", m.bits());
            }
        }
    }

    #[test]
    fn montgomery_at_edges() {
        for bits in [1500u64, 4096, 8192, 8193, 16384] {
            let m = (BigUint::one() << bits) - 1u32; // odd, all ones: maximal carries
            let m2 = (BigUint::one() << (bits - 1)) + 1u32; // just above 2^(bits-1)
            for m in [m, m2] {
                let top = &m - 1u32;
                check_mont(&m, &top, &top);
                check_mont(&m, &top, &BigUint::one());
                check_mont(&m, &BigUint::from(0u32), &top);
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        #[test]
        fn montgomery_matches_num_bigint(bits in 1400u64..9000, seed in any::<u64>()) {
            use rand_core::SeedableRng;
            let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
            let m = num_bigint::RandBigInt::gen_biguint(&mut rng, bits) | BigUint::one() | (BigUint::one() << (bits - 1));
            let a = num_bigint::RandBigInt::gen_biguint_below(&mut rng, &m);
            let b = num_bigint::RandBigInt::gen_biguint_below(&mut rng, &m);
            check_mont(&m, &a, &b);
        }
    }

    /// Contexts above the thresholds of [`plan`] (each kernel this CPU has) against
    /// num-bigint, through the exponentiations every caller uses.
    ///
    /// The constant-time path runs the steps of `modpow_in(.., true)` (`reduce_ct`,
    /// `to_mont`, `pow_ct`, `from_mont`) with the exponent's own 128 bits, not padded to
    /// the modulus's 6k-24k: the padding adds leading zero windows, each squaring the
    /// Montgomery one and multiplying it by table[0] (the same one), which the 128-bit
    /// exponent's own leading zero windows already do. `modpow_in` with `ct` and its
    /// padding run in every RSA key generation of tests/rsa_gen.rs (the pairwise
    /// consistency check decrypts by d and by the CRT through it).
    #[test]
    fn contexts_above_the_thresholds_match_num_bigint() {
        use crate::arith::modexp::{modpow_in, pow_ct};
        use crate::arith::{Kernel, MontContext};
        // The same sizes on every target: with the short constant-time exponent the
        // whole test takes about 2 s under emulation (.ci/aarch64.sh, portable kernel).
        let sizes: &[u64] = &[6144, 6200, 8192, 8200, 12288, 12300, 16384, 24576, 24640];
        for &bits in sizes {
            let m = (BigUint::one() << bits) - 159u32; // odd
            let base = (BigUint::one() << (bits - 3)) + 12345u32;
            let exp = BigUint::from(0xdead_beef_u64) << 64u32 | BigUint::from(77u32);
            let want = base.modpow(&exp, &m);
            for kernel in [Kernel::Portable, Kernel::Adx] {
                let Ok(ctx) = MontContext::with_kernel(&m, kernel) else { continue };
                let n = ctx.len();
                assert_eq!(ctx.big.is_some(), plan(ctx.tokens(), n).is_some());
                assert_eq!(modpow_in(&ctx, &base, &exp, false), want, "{kernel:?} {bits} vartime");
                let mut t = ctx.scratch();
                let b = ctx.to_mont(&ctx.reduce_ct(&base.to_u64_digits()), &mut t);
                let e = exp.to_u64_digits();
                let r = ctx.from_mont(&pow_ct(&ctx, &b, &e, e.len() * 64), &mut t);
                assert_eq!(from_limbs(&r), want, "{kernel:?} {bits} ct");
            }
        }
    }

    /// Crossover measurement behind [`Base::threshold`] (not a pass/fail test).
    #[test]
    #[ignore]
    fn karatsuba_crossover() {
        for base in tests_bases() {
            for n in [16usize, 24, 32, 48, 64, 96, 128, 192, 256] {
                let a: Vec<Limb> = (0..n as u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15)).collect();
                let mut w = vec![0; 2 * n];
                let mut s = vec![0; scratch_len(n)];
                let reps = 2_000_000 / (n * n) + 10;
                let mut time = |f: &mut dyn FnMut(&mut [Limb], &mut [Limb])| {
                    let t = std::time::Instant::now();
                    for _ in 0..reps {
                        f(&mut w, &mut s);
                    }
                    t.elapsed().as_nanos() as f64 / reps as f64
                };
                let school = time(&mut |w, _| base.mul(w, &a, &a));
                let school_sq = time(&mut |w, _| base.sqr(w, &a));
                let kara = time(&mut |w, s| product(base, w, &a, &a, false, s));
                let kara_sq = time(&mut |w, s| product(base, w, &a, &a, true, s));
                eprintln!("{base:?} n={n}: schoolbook mul {school:.0} ns, sqr {school_sq:.0} ns; with Karatsuba mul {kara:.0} ns, sqr {kara_sq:.0} ns");
            }
        }
    }

    /// Measurement behind the ADX thresholds (not a pass/fail test): the Montgomery square
    /// of a context per size under the default thresholds and under each setting of
    /// `PRIMEKIT_THRESHOLDS` (`;`-separated settings of `knob=limbs,...`, knobs `mul`,
    /// `sqr`, `bm1`, `low`, `toom3mul`, `toom3sqr`; default: the thresholds before the
    /// last retuning), fastest of 41 interleaved rounds, each as a ratio to the default.
    /// `cargo test --release -p primekit --lib threshold_settings -- --ignored --nocapture`
    /// (`PRIMEKIT_KERNEL=portable` for the portable kernel's thresholds).
    #[test]
    #[ignore]
    fn threshold_settings() {
        use std::sync::atomic::Ordering::Relaxed;
        let spec = std::env::var("PRIMEKIT_THRESHOLDS").unwrap_or_else(|_| "mul=48,sqr=96,bm1=64;mul=48;sqr=96;bm1=64".into());
        let names = ["mul", "sqr", "bm1", "low", "toom3mul", "toom3sqr"];
        let mut settings = vec![("default".to_string(), [0usize; 6])];
        for setting in spec.split(';') {
            let mut v = [0usize; 6];
            for kv in setting.split(',') {
                let (k, x) = kv.split_once('=').expect("knob=limbs");
                v[names.iter().position(|&n| n == k).expect("known knob")] = x.parse().expect("limbs");
            }
            settings.push((setting.to_string(), v));
        }
        let cpu = crate::arith::cpu::Tokens::selected().expect("a kernel this CPU has");
        for n in [128usize, 192, 256, 384, 512] {
            let Some((base, reduction)) = plan(cpu, n) else { continue };
            let r = BigUint::one() << (64 * n);
            let m = to_limbs(&(&r - 24_691u32), n).unwrap();
            let a: Vec<Limb> = (0..n as u64).map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 1).collect();
            let m0 = neg_inv_mod_word(m[0]);
            let reps = 2_000_000 / (n * n) + 2;
            let mut best = vec![f64::INFINITY; settings.len()];
            let mut out = vec![0; n];
            for _ in 0..41 {
                for (i, (_, v)) in settings.iter().enumerate() {
                    for (o, &x) in OVERRIDE.iter().zip(v) {
                        o.store(x, Relaxed);
                    }
                    let bm = BigMont::new(base, reduction, &m, m0);
                    let mut s = vec![0; bm.scratch_len()];
                    let t = std::time::Instant::now();
                    for _ in 0..reps {
                        bm.sqr(&mut out, &a, &mut s);
                    }
                    best[i] = best[i].min(t.elapsed().as_nanos() as f64 / reps as f64);
                }
            }
            OVERRIDE.iter().for_each(|o| o.store(0, Relaxed));
            let row: Vec<String> =
                settings.iter().zip(&best).map(|((name, _), t)| format!("{name}: {t:.0} ns ({:.3})", t / best[0])).collect();
            eprintln!("{base:?} n={n}: {}", row.join(" | "));
        }
    }
}
