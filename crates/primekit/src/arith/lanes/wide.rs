//! What the wide backends (`ifma`, `avx2`) share: numbers as rows of radix-2^w digits
//! with one lane per column, and the constant-time comparison of lanes with a target.

use super::Timing;
use crate::arith::cpu::Bmi2Adx;
use crate::arith::limbs::{add_assign, to_limbs, Limb};
use crate::arith::mont::setup;
use crate::arith::radix::digit;
use num_bigint::BigUint;

/// The l digits of radix 2^w of `x < 2^(w l)`.
pub(super) fn to_radix(x: &BigUint, w: usize, l: usize) -> Vec<u64> {
    radix_of_limbs(&to_limbs(x, (w * l).div_ceil(64)).expect("x < 2^(w l)"), w, l)
}

/// The l digits of radix 2^w of the little-endian limbs `x` (`x < 2^(w l)`; any limb
/// count, missing limbs read as zero). Time depends on l and the limb count only, so it
/// takes secret values (a `BigUint` would trim their zero top limbs first).
pub(super) fn radix_of_limbs(x: &[Limb], w: usize, l: usize) -> Vec<u64> {
    (0..l).map(|j| digit(x, w, j)).collect()
}

/// The limbs of each of `xs` (test values to load into lanes).
#[cfg(test)]
pub(super) fn limbs_of(xs: &[BigUint]) -> Vec<Vec<Limb>> {
    xs.iter().map(BigUint::to_u64_digits).collect()
}

/// `x < 2^(w l)` in every one of `N` lanes: l rows of radix-2^w digits.
pub(super) fn broadcast<const N: usize>(x: &BigUint, w: usize, l: usize) -> Vec<[u64; N]> {
    to_radix(x, w, l).into_iter().map(|d| [d; N]).collect()
}

/// The modulus-dependent constants of a lane backend with l digits of radix 2^w (R' =
/// 2^(w l)), computed on limbs by [`setup`]: constant time in the value of m (its limb
/// count and bit length are public), unlike num-bigint's `%`.
#[derive(Clone, Debug)]
pub(super) struct WideSetup {
    /// m as limbs (n = its limb count).
    m: Vec<Limb>,
    /// 2^(w l + 64 n) mod m: one Montgomery product with it maps v to v R' mod m.
    to_target: Vec<Limb>,
    w: usize,
    l: usize,
}

impl WideSetup {
    /// The set-up for odd `m >= 3` and R' = 2^(w l) with m < R', and R'^2 mod m as l
    /// digits of radix 2^w in every one of `N` lanes (the lanes' conversion constant).
    /// With [`Timing::Vartime`] (public moduli) the powers are num-bigint's.
    pub(super) fn new<const N: usize>(m: &BigUint, w: usize, l: usize, timing: Timing, adx: Option<Bmi2Adx>) -> (WideSetup, Vec<[u64; N]>) {
        let m = to_limbs(m, m.bits().div_ceil(64) as usize).expect("sized from m");
        let r2 = setup::pow2_mod_timed(&m, 2 * w * l, timing, adx);
        let to_target = setup::pow2_mod_timed(&m, w * l + 64 * m.len(), timing, adx);
        let r2 = radix_of_limbs(&r2, w, l).into_iter().map(|d| [d; N]).collect();
        (WideSetup { m, to_target, w, l }, r2)
    }

    /// `v` (ordinary form, `< m`, not checked) as a [`LaneTarget`]: the digits of t = v R'
    /// mod m and of t + m, the two values a lane (< 2m) congruent to it can hold. Time
    /// depends on the sizes only (v is taken as m's limb count of limbs).
    pub(super) fn target(&self, v: &BigUint) -> LaneTarget {
        let v = to_limbs(v, self.m.len()).expect("v < m");
        let mut t = setup::mul_pow2_mod(&v, &self.to_target, &self.m);
        t.push(0);
        let mut tm = self.m.clone();
        tm.push(0);
        add_assign(&mut tm, &t);
        LaneTarget { t: radix_of_limbs(&t, self.w, self.l), tm: radix_of_limbs(&tm, self.w, self.l) }
    }

    /// The first `count` lanes of `x` (digit j of lane k in `x[j][k]`, each lane's value
    /// < 2m) reduced mod m, in ordinary binary as limbs of m's length. Variable time: for
    /// public values (the backends' `store_vartime`, after their product by 1 left the
    /// Montgomery form).
    pub(super) fn reduced_limbs_vartime<const N: usize>(&self, x: &[[u64; N]], count: usize) -> Vec<Vec<Limb>> {
        let n = self.m.len();
        (0..count.min(N))
            .map(|k| {
                // One limb more than m: a value < 2m may carry out of m's top limb.
                let mut v = vec![0; n + 1];
                for (j, row) in x.iter().enumerate() {
                    // Digits above 2m's length are zero (l may be rounded up).
                    let (i, s) = (j * self.w / 64, j * self.w % 64);
                    if let Some(limb) = v.get_mut(i) {
                        *limb |= row[k] << s;
                    }
                    if s + self.w > 64 {
                        if let Some(limb) = v.get_mut(i + 1) {
                            *limb |= row[k] >> (64 - s);
                        }
                    }
                }
                let mut m = self.m.clone();
                m.push(0);
                if !crate::arith::limbs::lt_vartime(&v, &m) {
                    crate::arith::limbs::sub_assign(&mut v, &m);
                }
                v.truncate(n);
                v
            })
            .collect()
    }

    /// The modulus m.
    #[cfg(test)]
    pub(super) fn modulus(&self) -> BigUint {
        crate::arith::limbs::from_limbs(&self.m)
    }
}

/// A value prepared for [`eq_lanes_ct`]: the digits of a target `t < m` (in the lanes'
/// Montgomery form) and of t + m, the two values a lane (< 2m) congruent to it can hold.
#[derive(Clone, Debug)]
pub(super) struct LaneTarget {
    t: Vec<u64>,
    tm: Vec<u64>,
}

impl LaneTarget {
    /// `t < m` as l digits of radix 2^w, with t + m (num-bigint: tests with known values).
    #[cfg(test)]
    pub(super) fn new(t: &BigUint, m: &BigUint, w: usize, l: usize) -> LaneTarget {
        LaneTarget { t: to_radix(t, w, l), tm: to_radix(&(t + m), w, l) }
    }
}

/// Lanes (bit k for lane k) whose value (< 2m, digit j of lane k in `x[j][k]`) is
/// congruent to the target modulo m, in constant time: every digit compared with both
/// forms, no early exit.
pub(super) fn eq_lanes_ct<const N: usize>(x: &[[u64; N]], target: &LaneTarget) -> u8 {
    const { assert!(N <= 8, "lane mask in a u8") };
    let (mut d0, mut d1) = ([0u64; N], [0u64; N]);
    for (j, digit) in x.iter().enumerate() {
        for k in 0..N {
            d0[k] |= digit[k] ^ target.t[j];
            d1[k] |= digit[k] ^ target.tm[j];
        }
    }
    let mut mask = 0u8;
    for k in 0..N {
        // (d | -d) has its top bit set exactly when d != 0.
        let zero = |d: u64| (((d | d.wrapping_neg()) >> 63) ^ 1) as u8;
        mask |= core::hint::black_box(zero(d0[k]) | zero(d1[k])) << k;
    }
    mask
}

/// All ones when `i == idx`, else zero, without a branch: `(i ^ idx) - 1` borrows out of
/// bit 63 only for 0. The per-entry masks of the backends' constant-time table reads.
pub(super) fn select_mask(i: usize, idx: usize) -> i64 {
    core::hint::black_box(((i ^ idx) as u64).wrapping_sub(1) >> 63).wrapping_neg() as i64
}
