//! Modular exponentiation in Montgomery form.
//!
//! Two flavours, named for what their timing reveals:
//! - [`pow_vartime`]: sliding window; time depends on the exponent's bits. For public
//!   values (testing a number someone handed us).
//! - [`pow_ct`]: fixed window with a full-table masked lookup; the sequence of
//!   operations and every memory index depend only on `exp_bits` and the limb count,
//!   never on the base, the exponent or the modulus value. For secret candidates.

use super::limbs::{bit, bit_len_vartime, Limb};
use super::mont::MontContext;
use super::ArithError;
use num_bigint::BigUint;

/// Sliding-window size for an exponent of `bits` bits (fewest products for that length).
fn window_vartime(bits: usize) -> usize {
    match bits {
        0..=23 => 1,
        24..=79 => 3,
        80..=239 => 4,
        240..=671 => 5,
        _ => 6,
    }
}

/// `base^exp` in Montgomery form, for `base` in Montgomery form (`< m`).
/// Variable time in `exp`; `base` and `m` values influence nothing but the result.
pub fn pow_vartime(ctx: &MontContext, base: &[Limb], exp: &[Limb]) -> Vec<Limb> {
    let n = ctx.len();
    let mut t = ctx.scratch();
    let bits = bit_len_vartime(exp);
    if bits == 0 {
        return ctx.one().to_vec();
    }
    let w = window_vartime(bits);
    // Odd powers base^1, base^3, ..., base^(2^w - 1).
    let mut table = vec![base.to_vec()];
    if w > 1 {
        let mut b2 = vec![0; n];
        ctx.sqr(&mut b2, base, &mut t);
        for i in 1..(1usize << (w - 1)) {
            let mut next = vec![0; n];
            ctx.mul(&mut next, &table[i - 1], &b2, &mut t);
            table.push(next);
        }
    }
    let mut acc = vec![0; n];
    let mut tmp = vec![0; n];
    let mut started = false;
    let mut i = bits as isize - 1;
    while i >= 0 {
        if bit(exp, i as usize) == 0 {
            ctx.sqr(&mut tmp, &acc, &mut t);
            std::mem::swap(&mut acc, &mut tmp);
            i -= 1;
            continue;
        }
        // Longest window of at most w bits that starts at bit i and ends in a 1.
        let mut j = (i - w as isize + 1).max(0);
        while bit(exp, j as usize) == 0 {
            j += 1;
        }
        let mut val = 0usize;
        for k in (j..=i).rev() {
            val = (val << 1) | bit(exp, k as usize) as usize;
        }
        if started {
            for _ in j..=i {
                ctx.sqr(&mut tmp, &acc, &mut t);
                std::mem::swap(&mut acc, &mut tmp);
            }
            ctx.mul(&mut tmp, &acc, &table[val >> 1], &mut t);
            std::mem::swap(&mut acc, &mut tmp);
        } else {
            acc.copy_from_slice(&table[val >> 1]);
            started = true;
        }
        i = j - 1;
    }
    acc
}

/// Fixed window width of the constant-time exponentiation (32-entry table).
const CT_WINDOW: usize = 5;

/// `base^exp` in Montgomery form, processing exactly `exp_bits` exponent bits (bits of
/// `exp` beyond them must be zero; `exp_bits` is public). Constant time: see module docs.
pub fn pow_ct(ctx: &MontContext, base: &[Limb], exp: &[Limb], exp_bits: usize) -> Vec<Limb> {
    let n = ctx.len();
    let mut t = ctx.scratch();
    let size = 1usize << CT_WINDOW;
    // table[k] = base^k, k = 0..32.
    let mut table = vec![0 as Limb; size * n];
    table[..n].copy_from_slice(ctx.one());
    table[n..2 * n].copy_from_slice(base);
    let mut tmp = vec![0; n];
    for k in 2..size {
        let (done, rest) = table.split_at_mut(k * n);
        ctx.mul(&mut rest[..n], &done[(k - 1) * n..k * n], base, &mut t);
    }
    let mut acc = ctx.one().to_vec();
    let mut entry = vec![0; n];
    let windows = exp_bits.div_ceil(CT_WINDOW);
    for win in (0..windows).rev() {
        for _ in 0..CT_WINDOW {
            ctx.sqr(&mut tmp, &acc, &mut t);
            std::mem::swap(&mut acc, &mut tmp);
        }
        let mut idx = 0usize;
        for k in (0..CT_WINDOW).rev() {
            idx = (idx << 1) | bit(exp, win * CT_WINDOW + k) as usize;
        }
        lookup_ct(&mut entry, &table, idx, n);
        ctx.mul(&mut tmp, &acc, &entry, &mut t);
        std::mem::swap(&mut acc, &mut tmp);
    }
    acc
}

/// `out = table[idx]`, reading every entry and masking, so the memory access pattern
/// does not depend on `idx`.
fn lookup_ct(out: &mut [Limb], table: &[Limb], idx: usize, n: usize) {
    out.fill(0);
    for (k, entry) in table.chunks_exact(n).enumerate() {
        // mask = !0 when k == idx, computed without a comparison branch.
        let diff = (k ^ idx) as u64;
        // black_box: otherwise LLVM compiles the masked copy as `if k == idx` (found by
        // .ci/ctgrind.sh).
        let mask = core::hint::black_box(((diff | diff.wrapping_neg()) >> 63).wrapping_sub(1));
        for (o, &e) in out.iter_mut().zip(entry) {
            *o |= e & mask;
        }
    }
}

/// `base^exp mod m` on ordinary integers (variable time), for odd `m >= 3`.
pub fn modpow_vartime(base: &BigUint, exp: &BigUint, m: &BigUint) -> Result<BigUint, ArithError> {
    let ctx = MontContext::new(m)?;
    Ok(modpow_in(&ctx, base, exp, false))
}

/// `base^exp mod m` with the constant-time ladder over `exp.bits()` bits.
pub fn modpow_ct(base: &BigUint, exp: &BigUint, m: &BigUint) -> Result<BigUint, ArithError> {
    let ctx = MontContext::new(m)?;
    Ok(modpow_in(&ctx, base, exp, true))
}

/// `base^exp mod m` in an existing context.
pub fn modpow_in(ctx: &MontContext, base: &BigUint, exp: &BigUint, ct: bool) -> BigUint {
    let mut t = ctx.scratch();
    let b = ctx.to_mont(&ctx.reduce(base), &mut t);
    let e = exp.to_u64_digits();
    let r = if ct { pow_ct(ctx, &b, &e, exp.bits() as usize) } else { pow_vartime(ctx, &b, &e) };
    super::limbs::from_limbs(&ctx.from_mont(&r, &mut t))
}
