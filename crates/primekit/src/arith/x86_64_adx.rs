//! x86_64 Montgomery kernels on BMI2/ADX: `mulx` for flag-free products and the two
//! independent carry chains `adcx` (CF) and `adox` (OF), so the low and high halves of
//! each row of products are accumulated in one pass without serialising on one carry.
//!
//! Callers must have checked `has_bmi2_adx()`; every function here has the same contract
//! as its namesake in `portable` (inputs `< m`, output fully reduced, `out` not aliasing
//! inputs, scratch of `2n + 2` limbs). Timing and memory accesses depend only on lengths.

use super::limbs::Limb;
use super::portable::final_sub;
use core::arch::asm;

/// True when the CPU supports the instructions these kernels use.
pub fn has_bmi2_adx() -> bool {
    std::is_x86_feature_detected!("bmi2") && std::is_x86_feature_detected!("adx")
}

/// `t[..len] += x * v[..len]`; returns the carry limb (the value fits in len+1 limbs).
///
/// # Safety
/// `t` and `v` must be valid for `len >= 1` limbs (writes to `t`, reads of `v`), they
/// must not overlap, and the CPU must support BMI2 and ADX.
#[inline(always)]
unsafe fn addmul_1(t: *mut Limb, v: *const Limb, len: usize, x: Limb) -> Limb {
    let carry: Limb;
    // Single steps first (len % 4), then 4 limbs per iteration. Loop control uses only
    // lea/mov/jrcxz, which leave CF and OF alone, so both carry chains survive it.
    // SAFETY: the caller guarantees the pointer ranges and CPU support.
    unsafe { asm!(
        "xor {hp:e}, {hp:e}",
        "mov rcx, {rem}",
        "jrcxz 3f",
        "2:",
        "mulx {hi}, {lo}, qword ptr [{v}]",
        "adcx {lo}, qword ptr [{t}]",
        "adox {lo}, {hp}",
        "mov qword ptr [{t}], {lo}",
        "mov {hp}, {hi}",
        "lea {v}, [{v} + 8]",
        "lea {t}, [{t} + 8]",
        "lea rcx, [rcx - 1]",
        "jrcxz 3f",
        "jmp 2b",
        "3:",
        "mov rcx, {quads}",
        "jrcxz 5f",
        "4:",
        "mulx {hi}, {lo}, qword ptr [{v}]",
        "adcx {lo}, qword ptr [{t}]",
        "adox {lo}, {hp}",
        "mov qword ptr [{t}], {lo}",
        "mulx {hp}, {lo}, qword ptr [{v} + 8]",
        "adcx {lo}, qword ptr [{t} + 8]",
        "adox {lo}, {hi}",
        "mov qword ptr [{t} + 8], {lo}",
        "mulx {hi}, {lo}, qword ptr [{v} + 16]",
        "adcx {lo}, qword ptr [{t} + 16]",
        "adox {lo}, {hp}",
        "mov qword ptr [{t} + 16], {lo}",
        "mulx {hp}, {lo}, qword ptr [{v} + 24]",
        "adcx {lo}, qword ptr [{t} + 24]",
        "adox {lo}, {hi}",
        "mov qword ptr [{t} + 24], {lo}",
        "lea {v}, [{v} + 32]",
        "lea {t}, [{t} + 32]",
        "lea rcx, [rcx - 1]",
        "jrcxz 5f",
        "jmp 4b",
        "5:",
        "mov {lo}, 0",
        "adox {hp}, {lo}",
        "adcx {hp}, {lo}",
        v = inout(reg) v => _,
        t = inout(reg) t => _,
        rem = in(reg) len % 4,
        quads = in(reg) len / 4,
        in("rdx") x,
        out("rcx") _,
        lo = out(reg) _,
        hi = out(reg) _,
        hp = out(reg) carry,
        options(nostack),
    ) };
    carry
}

/// Adds `c` at `t[k]` and a possible carry at `t[k+1]`.
#[inline(always)]
fn add_carry_at(t: &mut [Limb], k: usize, c: Limb) {
    let (s, o) = t[k].overflowing_add(c);
    t[k] = s;
    t[k + 1] = t[k + 1].wrapping_add(o as Limb);
}

/// Montgomery product, CIOS with a sliding window over `t` instead of a shift:
/// iteration i adds `a_i*b` and `q_i*m` at offset i, so the result ends in `t[n..=2n]`.
pub fn mont_mul(out: &mut [Limb], a: &[Limb], b: &[Limb], m: &[Limb], m0inv: Limb, t: &mut [Limb]) {
    let n = m.len();
    assert!(a.len() == n && b.len() == n && out.len() == n && t.len() >= 2 * n + 2);
    let t = &mut t[..2 * n + 2];
    t.fill(0);
    for i in 0..n {
        // SAFETY: t[i..i+n] and b/m are in bounds and distinct buffers; the caller of
        // the context checked BMI2/ADX before selecting this kernel.
        let c = unsafe { addmul_1(t.as_mut_ptr().add(i), b.as_ptr(), n, a[i]) };
        add_carry_at(t, i + n, c);
        let q = t[i].wrapping_mul(m0inv);
        let c = unsafe { addmul_1(t.as_mut_ptr().add(i), m.as_ptr(), n, q) };
        add_carry_at(t, i + n, c);
    }
    final_sub(out, &t[n..2 * n], t[2 * n], m);
}

/// Montgomery reduction of `t[..2n]` (value `< m*R`), rows of `q_i*m` at offset i.
pub fn redc(out: &mut [Limb], t: &mut [Limb], m: &[Limb], m0inv: Limb) {
    let n = m.len();
    assert!(t.len() >= 2 * n + 1);
    t[2 * n] = 0;
    let mut top = 0;
    for i in 0..n {
        let q = t[i].wrapping_mul(m0inv);
        // SAFETY: as in mont_mul.
        let c = unsafe { addmul_1(t.as_mut_ptr().add(i), m.as_ptr(), n, q) };
        let s = (t[i + n] as u128) + (c as u128) + (top as u128);
        t[i + n] = s as Limb;
        top = (s >> 64) as Limb;
    }
    final_sub(out, &t[n..2 * n], top, m);
}

/// Montgomery square: cross products once (rows of decreasing length), doubled, plus
/// the diagonal, then `redc`.
pub fn mont_sqr(out: &mut [Limb], a: &[Limb], m: &[Limb], m0inv: Limb, t: &mut [Limb]) {
    let n = m.len();
    assert!(a.len() == n && out.len() == n && t.len() >= 2 * n + 2);
    let w = &mut t[..2 * n];
    w.fill(0);
    for i in 0..n.saturating_sub(1) {
        // Row i adds a_i * a[i+1..n] at offset 2i+1; its carry lands in the still-empty
        // limb i+n.
        // SAFETY: indices 2i+1 .. i+n-1 < 2n and i+1 .. n are in bounds; CPU checked.
        let c = unsafe { addmul_1(w.as_mut_ptr().add(2 * i + 1), a.as_ptr().add(i + 1), n - 1 - i, a[i]) };
        w[i + n] = c;
    }
    super::portable::double_add_diagonal(w, a);
    redc(out, t, m, m0inv);
}
