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

/// Sliding-window sizes by exponent length: (largest length in bits, window), the window
/// with the fewest products for lengths up to that bound. A window of w bits costs
/// 2^(w-1) products for the table and about bits / (w + 1) in the scan, so w + 1 wins
/// over w from `2^(w-1) (w + 1) (w + 2)` bits: 672, 1,792, 4,608, 11,520 for w = 5..8.
/// The largest window, 9 bits, keeps the table at 256 entries (2 MiB at the largest
/// modulus).
const VARTIME_WINDOWS: [(usize, usize); 8] = [(23, 1), (79, 3), (239, 4), (671, 5), (1791, 6), (4607, 7), (11519, 8), (usize::MAX, 9)];

/// Sliding-window size for an exponent of `bits` bits.
fn window_vartime(bits: usize) -> usize {
    VARTIME_WINDOWS.iter().find(|&&(max, _)| bits <= max).map_or(9, |&(_, w)| w)
}

/// The products an exponentiation needs, on elements of `width()` words in some
/// Montgomery-like domain: the scalar kernels of a context, or the IFMA domain.
pub(crate) trait Domain {
    fn width(&self) -> usize;
    fn one(&self) -> &[Limb];
    fn mul(&mut self, out: &mut [Limb], a: &[Limb], b: &[Limb]);
    fn sqr(&mut self, out: &mut [Limb], a: &[Limb]);
    /// `out = table[idx]` (entries of `width()` words) reading every entry, for the
    /// constant-time exponentiation; a domain may override it with wider loads.
    fn lookup_ct(&self, out: &mut [Limb], table: &[Limb], idx: usize) {
        lookup_ct(out, table, idx, self.width())
    }
}

/// The context's own kernels, with their scratch.
struct Scalar<'a> {
    ctx: &'a MontContext,
    t: Vec<Limb>,
}

impl Domain for Scalar<'_> {
    fn width(&self) -> usize {
        self.ctx.len()
    }
    fn one(&self) -> &[Limb] {
        self.ctx.one()
    }
    #[inline]
    fn mul(&mut self, out: &mut [Limb], a: &[Limb], b: &[Limb]) {
        self.ctx.mul(out, a, b, &mut self.t)
    }
    #[inline]
    fn sqr(&mut self, out: &mut [Limb], a: &[Limb]) {
        self.ctx.sqr(out, a, &mut self.t)
    }
}

#[cfg(target_arch = "x86_64")]
impl Domain for &super::mont::ifma::IfmaParams {
    fn width(&self) -> usize {
        super::mont::ifma::IfmaParams::width(self)
    }
    fn one(&self) -> &[Limb] {
        super::mont::ifma::IfmaParams::one(self)
    }
    #[inline]
    fn mul(&mut self, out: &mut [Limb], a: &[Limb], b: &[Limb]) {
        super::mont::ifma::amm(self, out, a, b)
    }
    #[inline]
    fn sqr(&mut self, out: &mut [Limb], a: &[Limb]) {
        super::mont::ifma::amm(self, out, a, a)
    }
}

/// Runs `f` in the IFMA domain of `ctx` (entering with `base` and leaving with the
/// result, fully reduced), when the context has one.
#[cfg(target_arch = "x86_64")]
fn in_ifma(
    ctx: &MontContext,
    base: &[Limb],
    f: impl FnOnce(&mut &super::mont::ifma::IfmaParams, &[Limb]) -> Vec<Limb>,
) -> Option<Vec<Limb>> {
    let p = ctx.ifma()?;
    let mut b = vec![0; p.width()];
    p.enter(&mut b, base);
    let r = f(&mut { p }, &b);
    let mut out = vec![0; ctx.len()];
    p.leave(&mut out, &r, ctx.modulus());
    Some(out)
}

/// `base^exp` in Montgomery form, for `base` in Montgomery form (`< m`).
/// Variable time in `exp`; `base` and `m` values influence nothing but the result.
pub fn pow_vartime(ctx: &MontContext, base: &[Limb], exp: &[Limb]) -> Vec<Limb> {
    assert_eq!(base.len(), ctx.len());
    #[cfg(target_arch = "x86_64")]
    if let Some(r) = in_ifma(ctx, base, |d, b| pow_vartime_in(d, b, exp)) {
        return r;
    }
    pow_vartime_in(&mut Scalar { ctx, t: ctx.scratch() }, base, exp)
}

/// The sliding-window exponentiation in any [`Domain`] (base and result in its form).
/// Generic rather than `dyn`: each domain's products are then direct (inlinable) calls
/// in the loop that makes a thousand of them per exponentiation.
pub(crate) fn pow_vartime_in<D: Domain + ?Sized>(d: &mut D, base: &[Limb], exp: &[Limb]) -> Vec<Limb> {
    let n = d.width();
    let bits = bit_len_vartime(exp);
    if bits == 0 {
        return d.one().to_vec();
    }
    let w = window_vartime(bits);
    // Odd powers base^1, base^3, ..., base^(2^w - 1), then acc and tmp, in one buffer.
    let entries = 1usize << (w - 1);
    let mut buf = vec![0 as Limb; (entries + 3) * n];
    let (table, rest) = buf.split_at_mut(entries * n);
    let (b2, rest) = rest.split_at_mut(n);
    let (mut acc, mut tmp) = rest.split_at_mut(n);
    table[..n].copy_from_slice(base);
    if w > 1 {
        d.sqr(b2, base);
        for i in 1..entries {
            let (done, next) = table.split_at_mut(i * n);
            d.mul(&mut next[..n], &done[(i - 1) * n..], b2);
        }
    }
    let mut started = false;
    let mut i = bits as isize - 1;
    while i >= 0 {
        if bit(exp, i as usize) == 0 {
            d.sqr(tmp, acc);
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
        let entry = &table[(val >> 1) * n..][..n];
        if started {
            for _ in j..=i {
                d.sqr(tmp, acc);
                std::mem::swap(&mut acc, &mut tmp);
            }
            d.mul(tmp, acc, entry);
            std::mem::swap(&mut acc, &mut tmp);
        } else {
            acc.copy_from_slice(entry);
            started = true;
        }
        i = j - 1;
    }
    acc.to_vec()
}

/// Fixed window width of the constant-time exponentiation (32-entry table).
const CT_WINDOW: usize = 5;

/// `base^exp` in Montgomery form, processing exactly `exp_bits` exponent bits (bits of
/// `exp` beyond them must be zero; `exp_bits` is public). Constant time: see module docs.
pub fn pow_ct(ctx: &MontContext, base: &[Limb], exp: &[Limb], exp_bits: usize) -> Vec<Limb> {
    assert_eq!(base.len(), ctx.len());
    #[cfg(target_arch = "x86_64")]
    if let Some(r) = in_ifma(ctx, base, |d, b| pow_ct_in(d, b, exp, exp_bits)) {
        return r;
    }
    pow_ct_in(&mut Scalar { ctx, t: ctx.scratch() }, base, exp, exp_bits)
}

/// The fixed-window exponentiation in any [`Domain`] (generic, as [`pow_vartime_in`]).
pub(crate) fn pow_ct_in<D: Domain + ?Sized>(d: &mut D, base: &[Limb], exp: &[Limb], exp_bits: usize) -> Vec<Limb> {
    let n = d.width();
    let size = 1usize << CT_WINDOW;
    // table[k] = base^k, k = 0..32, then acc, tmp and the looked-up entry.
    let mut buf = vec![0 as Limb; (size + 3) * n];
    let (table, rest) = buf.split_at_mut(size * n);
    let (mut acc, rest) = rest.split_at_mut(n);
    let (mut tmp, entry) = rest.split_at_mut(n);
    table[..n].copy_from_slice(d.one());
    table[n..2 * n].copy_from_slice(base);
    for k in 2..size {
        let (done, rest) = table.split_at_mut(k * n);
        d.mul(&mut rest[..n], &done[(k - 1) * n..k * n], base);
    }
    acc.copy_from_slice(d.one());
    let windows = exp_bits.div_ceil(CT_WINDOW);
    for win in (0..windows).rev() {
        for _ in 0..CT_WINDOW {
            d.sqr(tmp, acc);
            std::mem::swap(&mut acc, &mut tmp);
        }
        let mut idx = 0usize;
        for k in (0..CT_WINDOW).rev() {
            idx = (idx << 1) | bit(exp, win * CT_WINDOW + k) as usize;
        }
        d.lookup_ct(entry, table, idx);
        d.mul(tmp, acc, entry);
        std::mem::swap(&mut acc, &mut tmp);
    }
    acc.to_vec()
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
    let ctx = MontContext::new_vartime(m)?;
    Ok(modpow_in(&ctx, base, exp, false))
}

/// `base^exp mod m` in an existing context. With `ct` the exponentiation is [`pow_ct`]
/// over all limbs of m (or of the exponent, if it has more), so its time does not follow
/// the exponent's bit length, and `base` is reduced by [`MontContext::reduce_ct`] (time
/// set by the limb counts of m and of `base`); without it the reduction is num-bigint's
/// (variable time).
pub fn modpow_in(ctx: &MontContext, base: &BigUint, exp: &BigUint, ct: bool) -> BigUint {
    let mut t = ctx.scratch();
    let reduced = if ct { ctx.reduce_ct(&base.to_u64_digits()) } else { ctx.reduce_vartime(base) };
    let b = ctx.to_mont(&reduced, &mut t);
    let mut e = exp.to_u64_digits();
    let r = if ct {
        let limbs = ctx.len().max(e.len());
        e.resize(limbs, 0);
        pow_ct(ctx, &b, &e, limbs * 64)
    } else {
        pow_vartime(ctx, &b, &e)
    };
    super::limbs::from_limbs(&ctx.from_mont(&r, &mut t))
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::RandBigInt;
    use rand::SeedableRng;

    /// Products a sliding window of w bits needs for an exponent of `bits` bits (the
    /// model behind [`VARTIME_WINDOWS`]).
    fn cost(bits: usize, w: usize) -> f64 {
        (1usize << (w - 1)) as f64 + bits as f64 / (w + 1) as f64
    }

    /// From 80 bits on, each length gets the window of least modelled cost (up to 9).
    #[test]
    fn windows_minimise_the_modelled_cost() {
        for bits in 80..40_000 {
            let w = window_vartime(bits);
            let best = (3..=9).min_by(|&x, &y| cost(bits, x).total_cmp(&cost(bits, y))).unwrap();
            assert!(cost(bits, w) <= cost(bits, best) + 1e-9, "bits {bits}: window {w}, best {best}");
        }
    }

    /// Exponents long enough for the 6- to 9-bit windows, on every kernel, against
    /// num-bigint.
    #[test]
    fn long_exponents_match_num_bigint() {
        let mut rng = rand::rngs::StdRng::seed_from_u64(31);
        let m = rng.gen_biguint(1024) | BigUint::from(1u32);
        let a = rng.gen_biguint_below(&m);
        for e_bits in [1000u64, 3000, 8000, 20_000] {
            let e = rng.gen_biguint(e_bits);
            let want = a.modpow(&e, &m);
            for kernel in crate::arith::Kernel::available() {
                let ctx = MontContext::with_kernel(&m, kernel).unwrap();
                assert_eq!(modpow_in(&ctx, &a, &e, false), want, "{kernel:?} e_bits {e_bits}");
            }
        }
    }
}
