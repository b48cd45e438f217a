//! What the wide backends (`ifma`, `avx2`) share: numbers as rows of radix-2^w digits
//! with one lane per column, and the constant-time comparison of lanes with a target.

use crate::arith::limbs::to_limbs;
use crate::arith::radix::digit;
use num_bigint::BigUint;

/// The l digits of radix 2^w of `x < 2^(w l)`.
pub(super) fn to_radix(x: &BigUint, w: usize, l: usize) -> Vec<u64> {
    let limbs = to_limbs(x, (w * l).div_ceil(64)).expect("x < 2^(w l)");
    (0..l).map(|j| digit(&limbs, w, j)).collect()
}

/// `x < 2^(w l)` in every one of `N` lanes: l rows of radix-2^w digits.
pub(super) fn broadcast<const N: usize>(x: &BigUint, w: usize, l: usize) -> Vec<[u64; N]> {
    to_radix(x, w, l).into_iter().map(|d| [d; N]).collect()
}

/// A value prepared for [`eq_lanes_ct`]: the digits of a target `t < m` (in the lanes'
/// Montgomery form) and of t + m, the two values a lane (< 2m) congruent to it can hold.
#[derive(Clone, Debug)]
pub(super) struct LaneTarget {
    t: Vec<u64>,
    tm: Vec<u64>,
}

impl LaneTarget {
    /// `t < m` as l digits of radix 2^w, with t + m.
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
