//! x86_64 Montgomery kernels on BMI2/ADX: `mulx` for flag-free products and the two
//! independent carry chains `adcx` (CF) and `adox` (OF), so the low and high halves of
//! each row of products are accumulated in one pass without serialising on one carry.
//!
//! Contract of every public kernel here (n = `m.len()` limbs, R = 2^(64n)), the same as
//! its namesake in `portable`:
//! - the CPU supports BMI2 and ADX: each safe entry point takes a [`Bmi2Adx`] token,
//!   which only exists when it does (see `arith::cpu`);
//! - `m` is odd, `m[n-1] != 0`, `m0inv = -m^{-1} mod 2^64`;
//! - inputs are `< m`; the output is fully reduced (`< m`);
//! - `out` does not alias any input; `t` is scratch of at least `2n + 2` limbs whose
//!   contents on entry are ignored (except for `redc`, whose input lives in it);
//! - time and memory accesses depend only on n: every loop trip count and address is a
//!   function of n, the final subtraction is a masked select.
//!
//! Structure: a product is computed in full (`mul_wide` / `sqr_wide`, 2n limbs), then
//! reduced by `redc_wide`, each one `asm!` block whose loops run entirely in assembly.
//! The reduction defers each row's carry word into the limb the row has just zeroed, and
//! adds those carries to the high half in one pass at the end, so rows never wait on a
//! read-modify-write of the row's top limb.
//!
//! Which code runs at n limbs: 8, the register kernels of `adx_fixed`; 9..=48, the
//! fixed-length kernels of `adx_unrolled` (products, reductions, and squares up to 16
//! limbs; from 17 the square's cross products are `sqr_wide`'s loops); every other n, the
//! loops here. The same holds for the full products of the Karatsuba base case.

use crate::arith::cpu::Bmi2Adx;
use crate::arith::limbs::Limb;
use core::arch::asm;

/// Assembly text of four products of a row, `t[o..o+4] += rdx * v[o..o+4]` plus the
/// pending carry word `{hp}`, which on exit holds the high word of the fourth product;
/// the byte offsets `$o0..$o3` are `8o..8o+24`. Touches only `{lo}`, `{hi}`, `{hp}` and
/// the flags CF (the chain of the low words) and OF (the chain of the high words).
macro_rules! addmul_four {
    ($o0:literal, $o1:literal, $o2:literal, $o3:literal) => {
        concat!(
            "mulx {hi}, {lo}, qword ptr [{v} + ",
            $o0,
            "]\n",
            "adcx {lo}, qword ptr [{t} + ",
            $o0,
            "]\n",
            "adox {lo}, {hp}\n",
            "mov qword ptr [{t} + ",
            $o0,
            "], {lo}\n",
            "mulx {hp}, {lo}, qword ptr [{v} + ",
            $o1,
            "]\n",
            "adcx {lo}, qword ptr [{t} + ",
            $o1,
            "]\n",
            "adox {lo}, {hi}\n",
            "mov qword ptr [{t} + ",
            $o1,
            "], {lo}\n",
            "mulx {hi}, {lo}, qword ptr [{v} + ",
            $o2,
            "]\n",
            "adcx {lo}, qword ptr [{t} + ",
            $o2,
            "]\n",
            "adox {lo}, {hp}\n",
            "mov qword ptr [{t} + ",
            $o2,
            "], {lo}\n",
            "mulx {hp}, {lo}, qword ptr [{v} + ",
            $o3,
            "]\n",
            "adcx {lo}, qword ptr [{t} + ",
            $o3,
            "]\n",
            "adox {lo}, {hi}\n",
            "mov qword ptr [{t} + ",
            $o3,
            "], {lo}\n",
        )
    };
}

/// Assembly text of one row `t[0..len] += rdx * v[0..len]`, leaving the carry word (the
/// limb at position `len`) in `{hp}`. Registers: `{t}` and `{v}` are advanced past the
/// row; the operands `$len` = len (>= 1), `$has4` = (len / 4) mod 2 and `$q8` = len / 8
/// (registers or memory) are read only; rcx, `{lo}`, `{hi}` are clobbered, rdx (the
/// multiplier) is preserved. len mod 4 single limbs first, then one block of four if
/// `$has4`, then eight per iteration. Loop control uses only lea/mov/jrcxz/jmp, which
/// leave CF and OF alone, so both carry chains survive it; the products themselves
/// keep ports 0 and 6 busy with the two chains (one `adcx` and one `adox` per limb),
/// so the eight-limb body spends fewer of those ports' cycles on loop control (three
/// branch micro-ops per eight limbs instead of per four). Uses local labels 2..7.
macro_rules! addmul_row {
    ($len:literal, $has4:literal, $q8:literal) => {
        concat!(
            "mov rcx, ",
            $len,
            "\n",
            "and ecx, 3\n",
            "xor {hp:e}, {hp:e}\n", // CF = OF = 0
            "jrcxz 3f\n",
            "2:\n",
            "mulx {hi}, {lo}, qword ptr [{v}]\n",
            "adcx {lo}, qword ptr [{t}]\n",
            "adox {lo}, {hp}\n",
            "mov qword ptr [{t}], {lo}\n",
            "mov {hp}, {hi}\n",
            "lea {v}, [{v} + 8]\n",
            "lea {t}, [{t} + 8]\n",
            "lea rcx, [rcx - 1]\n",
            "jrcxz 3f\n",
            "jmp 2b\n",
            "3:\n",
            "mov rcx, ",
            $has4,
            "\n",
            "jrcxz 4f\n",
            addmul_four!("0", "8", "16", "24"),
            "lea {v}, [{v} + 32]\n",
            "lea {t}, [{t} + 32]\n",
            // The count test sits at the bottom: jrcxz reaches only 127 bytes ahead.
            "4:\n",
            "mov rcx, ",
            $q8,
            "\n",
            "lea rcx, [rcx + 1]\n",
            "jmp 7f\n",
            "5:\n",
            addmul_four!("0", "8", "16", "24"),
            addmul_four!("32", "40", "48", "56"),
            "lea {v}, [{v} + 64]\n",
            "lea {t}, [{t} + 64]\n",
            "7:\n",
            "lea rcx, [rcx - 1]\n",
            "jrcxz 6f\n",
            "jmp 5b\n",
            "6:\n",
            // rcx = 0 here: fold both pending carries into the carry word (it cannot
            // overflow: the row's value fits in len + 1 limbs).
            "adox {hp}, rcx\n",
            "adcx {hp}, rcx\n",
        )
    };
}

/// `w[0..2n] = a * b` (full product).
///
/// # Safety
/// `w` valid for 2n limbs, `a` and `b` for n >= 1 limbs, `w` disjoint from both; the
/// CPU supports BMI2 and ADX.
#[inline(always)]
unsafe fn mul_wide(w: *mut Limb, a: *const Limb, b: *const Limb, n: usize) {
    // The row's block counts, read from memory to stay within the 13 allocatable registers.
    let counts: [u64; 3] = [n as u64, ((n / 4) % 2) as u64, (n / 8) as u64];
    // SAFETY: the caller guarantees the ranges; w[0..n] is zeroed here, row i adds into
    // w[i..i+n] and writes its carry into w[i+n], which no earlier row has written.
    unsafe {
        core::ptr::write_bytes(w, 0, n);
        asm!(
            "20:",
            "mov rdx, qword ptr [{a}]",
            "mov {t}, {wrow}",
            "mov {v}, {b}",
            addmul_row!("qword ptr [{c}]", "qword ptr [{c} + 8]", "qword ptr [{c} + 16]"),
            "mov qword ptr [{t}], {hp}",
            "lea {a}, [{a} + 8]",
            "lea {wrow}, [{wrow} + 8]",
            "dec {i}",
            "jnz 20b",
            a = inout(reg) a => _,
            b = in(reg) b,
            wrow = inout(reg) w => _,
            i = inout(reg) n => _,
            c = in(reg) counts.as_ptr(),
            t = out(reg) _,
            v = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            hp = out(reg) _,
            out("rcx") _,
            out("rdx") _,
            options(nostack),
        );
    }
}

/// `w[0..2n] = a^2`: the cross products `a_i a_j` (i < j) once, as rows of decreasing
/// length, then one pass that doubles them and adds the diagonal squares `a_i^2`.
///
/// # Safety
/// `w` valid for 2n limbs, `a` for n >= 1 limbs, disjoint; the CPU supports BMI2/ADX.
#[inline(always)]
unsafe fn sqr_wide(w: *mut Limb, a: *const Limb, n: usize) {
    // SAFETY: the caller guarantees the ranges. Row i (0 <= i < n-1) adds a_i*a[i+1..n]
    // into w[2i+1..i+n] and writes its carry into w[i+n], untouched by earlier rows; the
    // final pass reads and writes w[0..2n] and a[0..n].
    unsafe {
        core::ptr::write_bytes(w, 0, 2 * n);
        asm!(
            // Cross products: rows of len = n - 1 - i limbs.
            "mov {len}, {n}",
            "20:",
            "dec {len}",
            "jz 21f",
            "mov {q8}, {len}",
            "shr {q8}, 3",
            "mov {has4}, {len}",
            "shr {has4}, 2",
            "and {has4}, 1",
            "mov rdx, qword ptr [{ap}]",
            "lea {v}, [{ap} + 8]",
            "mov {t}, {wrow}",
            addmul_row!("{len}", "{has4}", "{q8}"),
            "mov qword ptr [{t}], {hp}",
            "lea {ap}, [{ap} + 8]",
            "lea {wrow}, [{wrow} + 16]",
            "jmp 20b",
            "21:",
            // Back to a and w: ap = a + 8(n-1), wrow = w + 8 + 16(n-1).
            "mov rcx, {n}",
            "shl rcx, 3",
            "sub {ap}, rcx",
            "sub {wrow}, rcx",
            "sub {wrow}, rcx",
            "lea {ap}, [{ap} + 8]",
            "lea {t}, [{wrow} + 8]",
            // Double and add the diagonal: CF chain doubles (x + x + CF), OF chain adds
            // a_i^2; both end clear because a^2 < 2^(128n).
            "mov rcx, {n}",
            "xor {hp:e}, {hp:e}",
            "22:",
            "mov rdx, qword ptr [{ap}]",
            "mulx {hi}, {lo}, rdx",
            "mov {v}, qword ptr [{t}]",
            "mov {q8}, qword ptr [{t} + 8]",
            "adcx {v}, {v}",
            "adcx {q8}, {q8}",
            "adox {v}, {lo}",
            "adox {q8}, {hi}",
            "mov qword ptr [{t}], {v}",
            "mov qword ptr [{t} + 8], {q8}",
            "lea {ap}, [{ap} + 8]",
            "lea {t}, [{t} + 16]",
            "lea rcx, [rcx - 1]",
            "jrcxz 23f",
            "jmp 22b",
            "23:",
            n = in(reg) n,
            ap = inout(reg) a => _,
            wrow = inout(reg) w.add(1) => _,
            len = out(reg) _,
            q8 = out(reg) _,
            has4 = out(reg) _,
            t = out(reg) _,
            v = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            hp = out(reg) _,
            out("rcx") _,
            out("rdx") _,
            options(nostack),
        );
    }
}

/// `w[0..n] = a*b mod 2^(64n)` (the low half of the product): row i adds
/// `a_i * b[0..n-i]` into `w[i..n]` and drops its carry word, which would land at
/// position n. About n^2/2 word products.
///
/// # Safety
/// `w` valid for n limbs, `a` and `b` for n >= 1 limbs, `w` disjoint from both; the
/// CPU supports BMI2 and ADX.
#[inline(always)]
unsafe fn mul_low_rows(w: *mut Limb, a: *const Limb, b: *const Limb, n: usize) {
    // SAFETY: the caller guarantees the ranges; row i reads and writes w[i..n] and reads
    // a[i] and b[0..n-i].
    unsafe {
        core::ptr::write_bytes(w, 0, n);
        asm!(
            "20:",
            "mov {q8}, {len}",
            "shr {q8}, 3",
            "mov {has4}, {len}",
            "shr {has4}, 2",
            "and {has4}, 1",
            "mov rdx, qword ptr [{ap}]",
            "mov {t}, {wrow}",
            "mov {v}, {b}",
            addmul_row!("{len}", "{has4}", "{q8}"),
            "lea {ap}, [{ap} + 8]",
            "lea {wrow}, [{wrow} + 8]",
            "dec {len}",
            "jnz 20b",
            b = in(reg) b,
            ap = inout(reg) a => _,
            wrow = inout(reg) w => _,
            len = inout(reg) n => _,
            q8 = out(reg) _,
            has4 = out(reg) _,
            t = out(reg) _,
            v = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            hp = out(reg) _,
            out("rcx") _,
            out("rdx") _,
            options(nostack),
        );
    }
}

/// `out = w * R^{-1} mod m` for the 2n-limb value `w < m*R`, fully reduced; destroys `w`.
///
/// Row i adds `q_i*m` at offset i with `q_i = w_i * m0inv`, which zeroes `w_i`; its carry
/// word (position i+n) is parked in `w_i`. Then `w[n..2n] + w[0..n]` (< 2m) is the
/// reduced value plus possibly m, removed by a subtraction and a masked select.
///
/// # Safety
/// `w` valid for 2n limbs, `m` and `out` for n >= 1 limbs, `out` disjoint from both;
/// the CPU supports BMI2 and ADX.
#[inline(always)]
unsafe fn redc_wide(out: *mut Limb, w: *mut Limb, m: *const Limb, m0inv: Limb, n: usize) {
    // Parameters read from memory to stay within the 13 allocatable registers.
    let p: [u64; 6] = [out as u64, w as u64, m0inv, (n / 4) as u64, ((n / 4) % 2) as u64, (n / 8) as u64];
    // SAFETY: the caller guarantees the ranges; every access is within w[0..2n],
    // m[0..n], out[0..n] and p[0..6].
    unsafe {
        asm!(
            "mov {i}, {n}",
            "mov {wrow}, qword ptr [{p} + 8]",
            "20:",
            "mov rdx, qword ptr [{wrow}]",
            "imul rdx, qword ptr [{p} + 16]",
            "mov {t}, {wrow}",
            "mov {v}, {m}",
            addmul_row!("{n}", "qword ptr [{p} + 32]", "qword ptr [{p} + 40]"),
            "mov qword ptr [{wrow}], {hp}",
            "lea {wrow}, [{wrow} + 8]",
            "dec {i}",
            "jnz 20b",
            // w[0..n] += w[n..2n]; top = carry. Each pass runs n mod 4 single limbs, then
            // four per iteration; `dec` and `jrcxz` keep CF.
            "mov {t}, qword ptr [{p} + 8]",
            "mov ecx, {n:e}",
            "and ecx, 3",
            "xor {hp:e}, {hp:e}",
            "jrcxz 31f",
            "30:",
            "mov {lo}, qword ptr [{t}]",
            "adc {lo}, qword ptr [{t} + {n}*8]",
            "mov qword ptr [{t}], {lo}",
            "lea {t}, [{t} + 8]",
            "dec ecx",
            "jnz 30b",
            "31:",
            "mov rcx, qword ptr [{p} + 24]",
            "jrcxz 33f",
            "32:",
            "mov {lo}, qword ptr [{t}]",
            "adc {lo}, qword ptr [{t} + {n}*8]",
            "mov qword ptr [{t}], {lo}",
            "mov {lo}, qword ptr [{t} + 8]",
            "adc {lo}, qword ptr [{t} + {n}*8 + 8]",
            "mov qword ptr [{t} + 8], {lo}",
            "mov {lo}, qword ptr [{t} + 16]",
            "adc {lo}, qword ptr [{t} + {n}*8 + 16]",
            "mov qword ptr [{t} + 16], {lo}",
            "mov {lo}, qword ptr [{t} + 24]",
            "adc {lo}, qword ptr [{t} + {n}*8 + 24]",
            "mov qword ptr [{t} + 24], {lo}",
            "lea {t}, [{t} + 32]",
            "dec rcx",
            "jnz 32b",
            "33:",
            "adc {hp}, 0",
            // out = w[0..n] - m; mask = top - borrow: 0 keeps the difference, !0 (the
            // sum was already < m) keeps the sum.
            "mov {t}, qword ptr [{p} + 8]",
            "mov {v}, {m}",
            "mov {wrow}, qword ptr [{p}]",
            "mov ecx, {n:e}",
            "and ecx, 3",
            "clc",
            "jrcxz 41f",
            "40:",
            "mov {lo}, qword ptr [{t}]",
            "sbb {lo}, qword ptr [{v}]",
            "mov qword ptr [{wrow}], {lo}",
            "lea {t}, [{t} + 8]",
            "lea {v}, [{v} + 8]",
            "lea {wrow}, [{wrow} + 8]",
            "dec ecx",
            "jnz 40b",
            "41:",
            "mov rcx, qword ptr [{p} + 24]",
            "jrcxz 43f",
            "42:",
            "mov {lo}, qword ptr [{t}]",
            "sbb {lo}, qword ptr [{v}]",
            "mov qword ptr [{wrow}], {lo}",
            "mov {lo}, qword ptr [{t} + 8]",
            "sbb {lo}, qword ptr [{v} + 8]",
            "mov qword ptr [{wrow} + 8], {lo}",
            "mov {lo}, qword ptr [{t} + 16]",
            "sbb {lo}, qword ptr [{v} + 16]",
            "mov qword ptr [{wrow} + 16], {lo}",
            "mov {lo}, qword ptr [{t} + 24]",
            "sbb {lo}, qword ptr [{v} + 24]",
            "mov qword ptr [{wrow} + 24], {lo}",
            "lea {t}, [{t} + 32]",
            "lea {v}, [{v} + 32]",
            "lea {wrow}, [{wrow} + 32]",
            "dec rcx",
            "jnz 42b",
            "43:",
            "sbb {hp}, 0",
            "mov {t}, qword ptr [{p} + 8]",
            "mov {wrow}, qword ptr [{p}]",
            "mov ecx, {n:e}",
            "and ecx, 3",
            "jrcxz 51f",
            "50:",
            "mov {lo}, qword ptr [{t}]",
            "mov {hi}, qword ptr [{wrow}]",
            "xor {lo}, {hi}",
            "and {lo}, {hp}",
            "xor {lo}, {hi}",
            "mov qword ptr [{wrow}], {lo}",
            "lea {t}, [{t} + 8]",
            "lea {wrow}, [{wrow} + 8]",
            "dec ecx",
            "jnz 50b",
            "51:",
            "mov rcx, qword ptr [{p} + 24]",
            "jrcxz 53f",
            "52:",
            "mov {lo}, qword ptr [{t}]",
            "mov {hi}, qword ptr [{wrow}]",
            "xor {lo}, {hi}",
            "and {lo}, {hp}",
            "xor {lo}, {hi}",
            "mov qword ptr [{wrow}], {lo}",
            "mov {lo}, qword ptr [{t} + 8]",
            "mov {hi}, qword ptr [{wrow} + 8]",
            "xor {lo}, {hi}",
            "and {lo}, {hp}",
            "xor {lo}, {hi}",
            "mov qword ptr [{wrow} + 8], {lo}",
            "mov {lo}, qword ptr [{t} + 16]",
            "mov {hi}, qword ptr [{wrow} + 16]",
            "xor {lo}, {hi}",
            "and {lo}, {hp}",
            "xor {lo}, {hi}",
            "mov qword ptr [{wrow} + 16], {lo}",
            "mov {lo}, qword ptr [{t} + 24]",
            "mov {hi}, qword ptr [{wrow} + 24]",
            "xor {lo}, {hi}",
            "and {lo}, {hp}",
            "xor {lo}, {hi}",
            "mov qword ptr [{wrow} + 24], {lo}",
            "lea {t}, [{t} + 32]",
            "lea {wrow}, [{wrow} + 32]",
            "dec rcx",
            "jnz 52b",
            "53:",
            p = in(reg) p.as_ptr(),
            m = in(reg) m,
            n = in(reg) n,
            i = out(reg) _,
            wrow = out(reg) _,
            t = out(reg) _,
            v = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            hp = out(reg) _,
            out("rcx") _,
            out("rdx") _,
            options(nostack),
        );
    }
}

/// The n = 8 register kernel for `out = a*b*R^{-1}`, when the sizes match.
#[inline(always)]
fn try_fixed(cpu: Bmi2Adx, out: &mut [Limb], a: &[Limb], b: &[Limb], m: &[Limb], m0inv: Limb) -> bool {
    match (<&mut [Limb; 8]>::try_from(out), <&[Limb; 8]>::try_from(a), <&[Limb; 8]>::try_from(b), <&[Limb; 8]>::try_from(m)) {
        (Ok(out), Ok(a), Ok(b), Ok(m)) => {
            super::adx_fixed::mont_mul8(cpu, out, a, b, m, m0inv);
            true
        }
        _ => false,
    }
}

/// Evaluates `$body` with the constant `$N` = `$n` when `$n` is one of 9..=48, the
/// sizes of `adx_unrolled` (the body converts its slices to arrays of `$N`).
macro_rules! for_unrolled_len {
    ($n:expr, |$N:ident| $body:expr) => {
        for_unrolled_len!(@arms $n, $N, $body, 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48)
    };
    (@arms $n:expr, $N:ident, $body:expr, $($len:literal)*) => {
        match $n {
            $($len => {
                const $N: usize = $len;
                $body
            })*
            _ => {}
        }
    };
}

/// Montgomery product: full product then reduction; 2n^2 word products. For n = 8,
/// the register kernel of `adx_fixed`; for 9..=48 limbs, `adx_unrolled`'s.
pub(crate) fn mont_mul(cpu: Bmi2Adx, out: &mut [Limb], a: &[Limb], b: &[Limb], m: &[Limb], m0inv: Limb, t: &mut [Limb]) {
    let n = m.len();
    assert!(n >= 1 && a.len() == n && b.len() == n && out.len() == n && t.len() >= 2 * n + 2);
    if try_fixed(cpu, out, a, b, m, m0inv) {
        return;
    }
    use super::adx_unrolled as u;
    for_unrolled_len!(n, |N| return u::mont_mul::<N>(cpu, arr_mut(out), arr(a), arr(b), arr(m), m0inv, t));
    mont_mul_loops(cpu, out, a, b, m, m0inv, t)
}

/// [`mont_mul`] on this module's loops, at any n: what the sizes outside 8..=48 run,
/// and the baseline of `adx_unrolled`'s measurement.
pub(super) fn mont_mul_loops(_: Bmi2Adx, out: &mut [Limb], a: &[Limb], b: &[Limb], m: &[Limb], m0inv: Limb, t: &mut [Limb]) {
    let n = m.len();
    assert!(n >= 1 && a.len() == n && b.len() == n && out.len() == n && t.len() >= 2 * n + 2);
    // SAFETY: lengths checked above; `out` is a distinct &mut, `t` a distinct &mut; the
    // token proves the CPU runs BMI2 and ADX.
    unsafe {
        mul_wide(t.as_mut_ptr(), a.as_ptr(), b.as_ptr(), n);
        redc_wide(out.as_mut_ptr(), t.as_mut_ptr(), m.as_ptr(), m0inv, n);
    }
}

/// Montgomery reduction of `t[..2n]` (value `< m*R`); `t` may be destroyed.
pub(crate) fn redc(cpu: Bmi2Adx, out: &mut [Limb], t: &mut [Limb], m: &[Limb], m0inv: Limb) {
    let n = m.len();
    assert!(n >= 1 && out.len() == n && t.len() >= 2 * n);
    if let (Ok(o), Some(Ok(w)), Ok(m)) =
        (<&mut [Limb; 8]>::try_from(&mut *out), t.get(..16).map(<&[Limb; 16]>::try_from), <&[Limb; 8]>::try_from(m))
    {
        return super::adx_fixed::redc8(cpu, o, w, m, m0inv);
    }
    use super::adx_unrolled as u;
    for_unrolled_len!(n, |N| return u::redc::<N>(cpu, arr_mut(out), t, arr(m), m0inv));
    // SAFETY: as in mont_mul.
    unsafe { redc_wide(out.as_mut_ptr(), t.as_mut_ptr(), m.as_ptr(), m0inv, n) }
}

/// Montgomery square: cross products once, doubled, plus the diagonal, then the
/// reduction; about 1.5n^2 word products. For n = 8, the straight-line square and
/// register reduction of `adx_fixed`; for 9..=48 limbs, `adx_unrolled`'s kernels (see
/// the module doc).
pub(crate) fn mont_sqr(cpu: Bmi2Adx, out: &mut [Limb], a: &[Limb], m: &[Limb], m0inv: Limb, t: &mut [Limb]) {
    let n = m.len();
    assert!(n >= 1 && a.len() == n && out.len() == n && t.len() >= 2 * n + 2);
    if let (Ok(o), Ok(a), Ok(m)) = (<&mut [Limb; 8]>::try_from(&mut *out), <&[Limb; 8]>::try_from(a), <&[Limb; 8]>::try_from(m)) {
        return super::adx_fixed::mont_sqr8(cpu, o, a, m, m0inv);
    }
    use super::adx_unrolled as u;
    if n <= u::MAX_SQUARE_LIMBS {
        for_unrolled_len!(n, |N| return u::mont_sqr::<N>(cpu, arr_mut(out), arr(a), arr(m), m0inv, t));
    }
    // SAFETY: as in mont_mul.
    unsafe { sqr_wide(t.as_mut_ptr(), a.as_ptr(), n) };
    for_unrolled_len!(n, |N| return u::redc::<N>(cpu, arr_mut(out), t, arr(m), m0inv));
    // SAFETY: as in mont_mul.
    unsafe { redc_wide(out.as_mut_ptr(), t.as_mut_ptr(), m.as_ptr(), m0inv, n) }
}

/// [`mont_sqr`] on the loops of this module at every n, for the measurement in
/// `adx_unrolled`.
#[cfg(test)]
pub(super) fn mont_sqr_loops(_: Bmi2Adx, out: &mut [Limb], a: &[Limb], m: &[Limb], m0inv: Limb, t: &mut [Limb]) {
    let n = m.len();
    assert!(n >= 1 && a.len() == n && out.len() == n && t.len() >= 2 * n + 2);
    // SAFETY: as in mont_mul.
    unsafe {
        sqr_wide(t.as_mut_ptr(), a.as_ptr(), n);
        redc_wide(out.as_mut_ptr(), t.as_mut_ptr(), m.as_ptr(), m0inv, n);
    }
}

/// `x` as an array of its own length (the callers match the length first).
fn arr<const N: usize>(x: &[Limb]) -> &[Limb; N] {
    x.try_into().expect("length checked by the caller")
}

/// `x` as a mutable array of its own length (the callers match the length first).
fn arr_mut<const N: usize>(x: &mut [Limb]) -> &mut [Limb; N] {
    x.try_into().expect("length checked by the caller")
}

/// `w[..2n] = a * b` (full product, n = a.len() = b.len() >= 1), for the Karatsuba
/// recursion's base case. Same timing contract as the Montgomery kernels.
pub(crate) fn mul_full(cpu: Bmi2Adx, w: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = a.len();
    assert!(n >= 1 && b.len() == n && w.len() >= 2 * n);
    for_unrolled_len!(n, |N| return super::adx_unrolled::mul_full::<N>(cpu, w, arr(a), arr(b)));
    // SAFETY: lengths checked; `w` is a distinct &mut; the token proves BMI2/ADX.
    unsafe { mul_wide(w.as_mut_ptr(), a.as_ptr(), b.as_ptr(), n) }
}

/// `w[..2n] = a^2` (n = a.len() >= 1), for the Karatsuba recursion's base case.
pub(crate) fn sqr_full(_: Bmi2Adx, w: &mut [Limb], a: &[Limb]) {
    let n = a.len();
    assert!(n >= 1 && w.len() >= 2 * n);
    // SAFETY: as in mul_full.
    unsafe { sqr_wide(w.as_mut_ptr(), a.as_ptr(), n) }
}

/// `w[..n] = a*b mod 2^(64n)` (n = a.len() = b.len() >= 1), for the reduction by products.
pub(crate) fn mul_low(_: Bmi2Adx, w: &mut [Limb], a: &[Limb], b: &[Limb]) {
    let n = a.len();
    assert!(n >= 1 && b.len() == n && w.len() >= n);
    // SAFETY: as in mul_full.
    unsafe { mul_low_rows(w.as_mut_ptr(), a.as_ptr(), b.as_ptr(), n) }
}

#[cfg(test)]
mod tests {
    use super::super::kernel_tests::{check_every_small_length, Kernels};
    use super::*;

    /// Every row length class of `addmul_row` (n mod 4, the optional block of four, zero
    /// to several blocks of eight) through each kernel, against num-bigint, with random
    /// and all-ones operands (carries through every limb of both chains).
    #[test]
    fn kernels_match_num_bigint_at_every_small_length() {
        let Some(cpu) = crate::arith::cpu::Tokens::detect(crate::arith::Kernel::Adx).and_then(|t| t.adx()) else {
            eprintln!("no BMI2/ADX on this CPU: the ADX kernels are not exercised");
            return;
        };
        check_every_small_length(
            &Kernels {
                mul_full: Some(&|w, a, b| mul_full(cpu, w, a, b)),
                sqr_full: &|w, a| sqr_full(cpu, w, a),
                mul_low: &|w, a, b| mul_low(cpu, w, a, b),
                mont_mul: &|out, a, b, m, m0, t| mont_mul(cpu, out, a, b, m, m0, t),
                mont_sqr: &|out, a, m, m0, t| mont_sqr(cpu, out, a, m, m0, t),
            },
            17,
        );
    }

    /// The dispatch macro's list of lengths is exactly the range the fixed-length
    /// kernels accept.
    #[test]
    fn unrolled_lengths_are_the_kernels_range() {
        fn covered(n: usize) -> bool {
            for_unrolled_len!(n, |N| return N == n);
            false
        }
        use super::super::adx_unrolled::{MAX_LIMBS, MIN_LIMBS};
        for n in 1..=2 * MAX_LIMBS {
            assert_eq!(covered(n), (MIN_LIMBS..=MAX_LIMBS).contains(&n), "n = {n}");
        }
    }
}
