//! Montgomery product, square and reduction for n = 8 limbs (moduli of 449..=512 bits)
//! with the accumulator in registers: the product is CIOS (Koc, Acar and Kaliski 1996)
//! with each row's two carry chains on `adcx`/`adox` (Ozturk, Guilford, Gopal and
//! Feghali 2012), fully unrolled, so the only memory traffic is the operand loads and the
//! final store; the square computes a^2 straight-line (28 cross products once, doubled,
//! plus 8 diagonal squares) and reduces it with the same register rows (36 + 64 word
//! products against the product's 128).
//!
//! Contract (R = 2^512): the one in `adx`'s module doc, for n = 8: the CPU supports BMI2
//! and ADX (the caller holds a `Bmi2Adx` token); `m` odd, `m0inv = -m^{-1} mod 2^64`;
//! `a, b < m`; `out = a*b*R^{-1} mod m`, fully reduced; `out` may alias `a` or `b` (the
//! inputs are read before it is written); time and addresses are the same for every
//! value: straight-line code, the final subtraction is a masked select.
//!
//! Registers: the accumulator T = t0..t8 (t8 in {0, 1}) plus one spare X live in ten
//! registers r8..r15, rbx, rbp; iteration i of the unrolled loop calls them
//! `R[(i + j) mod 10]`, so dividing by 2^64 is a renaming, not a move. In [`mont_mul8`]
//! `a` and `m0inv` are copied to the stack, rsi points at `b`, rdi at `m`; in [`redc8`]
//! `m0inv` and the pointer to `w` are on the stack, rsi points at `out`, rdi at `m`;
//! rax/rcx take each product.

use crate::arith::cpu::Bmi2Adx;
use crate::arith::limbs::Limb;
use core::arch::asm;

/// One row `T += rdx * v[0..8]` on the accumulator registers t0..t8, with the low
/// halves on the OF chain (`adox`) and the high halves on the CF chain (`adcx`). Leaves
/// the carry out of t7 pending in OF and the carry out of t8 pending in CF.
macro_rules! row8 {
    ($v:literal, $t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal, $t5:literal, $t6:literal, $t7:literal, $t8:literal) => {
        concat!(
            "xor eax, eax\n", // CF = OF = 0
            "mulx rcx, rax, qword ptr [",
            $v,
            "]\n",
            "adox ",
            $t0,
            ", rax\n",
            "adcx ",
            $t1,
            ", rcx\n",
            "mulx rcx, rax, qword ptr [",
            $v,
            " + 8]\n",
            "adox ",
            $t1,
            ", rax\n",
            "adcx ",
            $t2,
            ", rcx\n",
            "mulx rcx, rax, qword ptr [",
            $v,
            " + 16]\n",
            "adox ",
            $t2,
            ", rax\n",
            "adcx ",
            $t3,
            ", rcx\n",
            "mulx rcx, rax, qword ptr [",
            $v,
            " + 24]\n",
            "adox ",
            $t3,
            ", rax\n",
            "adcx ",
            $t4,
            ", rcx\n",
            "mulx rcx, rax, qword ptr [",
            $v,
            " + 32]\n",
            "adox ",
            $t4,
            ", rax\n",
            "adcx ",
            $t5,
            ", rcx\n",
            "mulx rcx, rax, qword ptr [",
            $v,
            " + 40]\n",
            "adox ",
            $t5,
            ", rax\n",
            "adcx ",
            $t6,
            ", rcx\n",
            "mulx rcx, rax, qword ptr [",
            $v,
            " + 48]\n",
            "adox ",
            $t6,
            ", rax\n",
            "adcx ",
            $t7,
            ", rcx\n",
            "mulx rcx, rax, qword ptr [",
            $v,
            " + 56]\n",
            "adox ",
            $t7,
            ", rax\n",
            "adcx ",
            $t8,
            ", rcx\n",
        )
    };
}

/// Reduction step `T = (T + q*m) / 2^64` with `q = t0 * m0inv mod 2^64` (m0inv in the
/// memory operand `$m0inv`, m at rdi), on registers `t0..t8` and `x`, the word above t8
/// (zero in [`redc8`]; the top of the a_i*b row in [`iter8`]), into which the carries
/// out of t7 and t8 are folded. On exit the new t0..t8 are the old t1..t8, x, and the old
/// t0 (now zero) is the new spare. The callers keep T + q*m below 2^640: [`redc8`] has
/// T < 2^513, [`iter8`] T < 2^577.
macro_rules! red8 {
    ($m0inv:literal, $t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal, $t5:literal, $t6:literal, $t7:literal, $t8:literal, $x:literal) => {
        concat!(
            "mov rdx, ",
            $t0,
            "\n",
            "imul rdx, ",
            $m0inv,
            "\n",
            row8!("rdi", $t0, $t1, $t2, $t3, $t4, $t5, $t6, $t7, $t8),
            // t0 is now zero: fold the pending carries into t8 and x.
            "adox ",
            $t8,
            ", ",
            $t0,
            "\n",
            "adcx ",
            $x,
            ", ",
            $t0,
            "\n",
            "adox ",
            $x,
            ", ",
            $t0,
            "\n",
        )
    };
}

/// Iteration `i` of CIOS on registers `t0..t8` and the spare `x` (zero on entry):
/// `T = (T + a_i*b + q*m) / 2^64` with `q = (t0 + a_i b_0) * m0inv mod 2^64`. On exit
/// the new t0..t8 are the old t1..t8, x, and the old t0 (now zero) is the new spare.
///
/// Bounds: T < 2m on entry, so T + a_i*b < 2^577 needs x for its top bit, and the
/// result is again < 2m (so the new t8 is 0 or 1).
macro_rules! iter8 {
    ($ai:literal, $t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal, $t5:literal, $t6:literal, $t7:literal, $t8:literal, $x:literal) => {
        concat!(
            "mov rdx, qword ptr [rsp + ",
            $ai,
            "]\n",
            row8!("rsi", $t0, $t1, $t2, $t3, $t4, $t5, $t6, $t7, $t8),
            // x = 0: t8 += OF, then x = CF + OF (mov leaves the flags alone).
            "adox ",
            $t8,
            ", ",
            $x,
            "\n",
            "adcx ",
            $x,
            ", ",
            $x,
            "\n",
            "mov eax, 0\n",
            "adox ",
            $x,
            ", rax\n",
            red8!("qword ptr [rsp + 64]", $t0, $t1, $t2, $t3, $t4, $t5, $t6, $t7, $t8, $x),
        )
    };
}

/// Cross-product row i of an 8-limb square, straight-line: `w[2i+1..i+8] += a_i *
/// a[i+1..8]` and the row's carry word into `w[i+8]`, which no earlier row has written.
/// `$i` and `$len` = 7 - i are literals; `{w}` and `{a}` are read only; `{lo}`, `{hi}`,
/// `{hp}` and rdx are clobbered. Offsets are assembler symbols (`.Lsqk`, local to the object), so the row has
/// no pointer updates and no loop.
macro_rules! sqr8_row {
    ($i:literal, $len:literal) => {
        concat!(
            "mov rdx, qword ptr [{a} + 8*",
            $i,
            "]\n",
            "xor {hp:e}, {hp:e}\n", // CF = OF = 0
            ".set .Lsqk, ",
            $i,
            " + 1\n",
            ".rept ",
            $len,
            "\n",
            "mulx {hi}, {lo}, qword ptr [{a} + 8*.Lsqk]\n",
            "adcx {lo}, qword ptr [{w} + 8*(",
            $i,
            " + .Lsqk)]\n",
            "adox {lo}, {hp}\n",
            "mov qword ptr [{w} + 8*(",
            $i,
            " + .Lsqk)], {lo}\n",
            "mov {hp}, {hi}\n",
            ".set .Lsqk, .Lsqk + 1\n",
            ".endr\n",
            "mov {lo:e}, 0\n", // mov leaves the flags alone
            "adox {hp}, {lo}\n",
            "adcx {hp}, {lo}\n",
            "mov qword ptr [{w} + 8*(",
            $i,
            " + 8)], {hp}\n",
        )
    };
}

/// The eight steps of a register kernel, step i with its first argument `$ai` and the
/// ten registers r8..r15, rbx, rbp rotated by i (dividing by 2^64 is a renaming). After
/// the eighth, t0..t8 are rbx, rbp, r8..r14 and r15 is the spare.
macro_rules! steps8 {
    ($mac:ident, $a0:literal, $a1:literal, $a2:literal, $a3:literal, $a4:literal, $a5:literal, $a6:literal, $a7:literal) => {
        concat!(
            $mac!($a0, "r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rbx", "rbp"),
            $mac!($a1, "r9", "r10", "r11", "r12", "r13", "r14", "r15", "rbx", "rbp", "r8"),
            $mac!($a2, "r10", "r11", "r12", "r13", "r14", "r15", "rbx", "rbp", "r8", "r9"),
            $mac!($a3, "r11", "r12", "r13", "r14", "r15", "rbx", "rbp", "r8", "r9", "r10"),
            $mac!($a4, "r12", "r13", "r14", "r15", "rbx", "rbp", "r8", "r9", "r10", "r11"),
            $mac!($a5, "r13", "r14", "r15", "rbx", "rbp", "r8", "r9", "r10", "r11", "r12"),
            $mac!($a6, "r14", "r15", "rbx", "rbp", "r8", "r9", "r10", "r11", "r12", "r13"),
            $mac!($a7, "r15", "rbx", "rbp", "r8", "r9", "r10", "r11", "r12", "r13", "r14"),
        )
    };
}

/// Final reduction of T = t0..t7 + t8*2^512 < 2m: store T to `[rsi]`, subtract m in
/// registers; mask = t8 - borrow is 0 when T >= m (keep T - m) and !0 otherwise (keep
/// T), selected limb by limb with and/xor.
macro_rules! final8 {
    ($t0:literal, $t1:literal, $t2:literal, $t3:literal, $t4:literal, $t5:literal, $t6:literal, $t7:literal, $t8:literal) => {
        concat!(
            "mov qword ptr [rsi], ", $t0, "\n",
            "mov qword ptr [rsi + 8], ", $t1, "\n",
            "mov qword ptr [rsi + 16], ", $t2, "\n",
            "mov qword ptr [rsi + 24], ", $t3, "\n",
            "mov qword ptr [rsi + 32], ", $t4, "\n",
            "mov qword ptr [rsi + 40], ", $t5, "\n",
            "mov qword ptr [rsi + 48], ", $t6, "\n",
            "mov qword ptr [rsi + 56], ", $t7, "\n",
            "sub ", $t0, ", qword ptr [rdi]\n",
            "sbb ", $t1, ", qword ptr [rdi + 8]\n",
            "sbb ", $t2, ", qword ptr [rdi + 16]\n",
            "sbb ", $t3, ", qword ptr [rdi + 24]\n",
            "sbb ", $t4, ", qword ptr [rdi + 32]\n",
            "sbb ", $t5, ", qword ptr [rdi + 40]\n",
            "sbb ", $t6, ", qword ptr [rdi + 48]\n",
            "sbb ", $t7, ", qword ptr [rdi + 56]\n",
            "sbb ", $t8, ", 0\n",
            final8!(@ "0", $t0, $t8),
            final8!(@ "8", $t1, $t8),
            final8!(@ "16", $t2, $t8),
            final8!(@ "24", $t3, $t8),
            final8!(@ "32", $t4, $t8),
            final8!(@ "40", $t5, $t8),
            final8!(@ "48", $t6, $t8),
            final8!(@ "56", $t7, $t8),
        )
    };
    (@ $off:literal, $d:literal, $mask:literal) => {
        concat!(
            "mov rax, qword ptr [rsi + ", $off, "]\n",
            "xor rax, ", $d, "\n",
            "and rax, ", $mask, "\n",
            "xor rax, ", $d, "\n",
            "mov qword ptr [rsi + ", $off, "], rax\n",
        )
    };
}

/// `out = a*b*R^{-1} mod m` for n = 8 (see the module doc).
pub(crate) fn mont_mul8(_: Bmi2Adx, out: &mut [Limb; 8], a: &[Limb; 8], b: &[Limb; 8], m: &[Limb; 8], m0inv: Limb) {
    // SAFETY: the token proves BMI2/ADX. Reads a[0..8], b[0..8], m[0..8], writes
    // out[0..8] after every read of a and b; rbx and rbp are saved and restored on the
    // stack, which is balanced on exit (nostack is not claimed).
    unsafe {
        asm!(
            "push rbx",
            "push rbp",
            "push rax", // out
            "push rdx", // m0inv at [rsp + 64] below
            "push qword ptr [rcx + 56]",
            "push qword ptr [rcx + 48]",
            "push qword ptr [rcx + 40]",
            "push qword ptr [rcx + 32]",
            "push qword ptr [rcx + 24]",
            "push qword ptr [rcx + 16]",
            "push qword ptr [rcx + 8]",
            "push qword ptr [rcx]", // a_i at [rsp + 8i]
            "xor r8d, r8d",
            "xor r9d, r9d",
            "xor r10d, r10d",
            "xor r11d, r11d",
            "xor r12d, r12d",
            "xor r13d, r13d",
            "xor r14d, r14d",
            "xor r15d, r15d",
            "xor ebx, ebx",
            "xor ebp, ebp",
            steps8!(iter8, "0", "8", "16", "24", "32", "40", "48", "56"),
            // After eight renamings t0..t8 are rbx, rbp, r8..r14 (r15 is the spare).
            "add rsp, 72",
            "pop rsi", // out
            final8!("rbx", "rbp", "r8", "r9", "r10", "r11", "r12", "r13", "r14"),
            "pop rbp",
            "pop rbx",
            inout("rax") out.as_mut_ptr() => _,
            inout("rcx") a.as_ptr() => _,
            inout("rdx") m0inv => _,
            inout("rsi") b.as_ptr() => _,
            inout("rdi") m.as_ptr() => _,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
            out("r14") _,
            out("r15") _,
        );
    }
}

/// `w = a^2` (16 limbs) for n = 8, straight-line: the 28 cross products once as seven
/// rows, then one pass that doubles them and adds the eight diagonal squares. Same
/// timing contract as the rest of this module.
fn sqr8_wide(_: Bmi2Adx, w: &mut [Limb; 16], a: &[Limb; 8]) {
    *w = [0; 16];
    // SAFETY: the token proves BMI2/ADX. Reads a[0..8]; reads and writes w[0..16] (every
    // offset is a constant below 16).
    unsafe {
        asm!(
            sqr8_row!("0", "7"),
            sqr8_row!("1", "6"),
            sqr8_row!("2", "5"),
            sqr8_row!("3", "4"),
            sqr8_row!("4", "3"),
            sqr8_row!("5", "2"),
            sqr8_row!("6", "1"),
            // Double and add the diagonal: the CF chain doubles, the OF chain adds a_k^2;
            // both end clear because a^2 < 2^1024.
            "xor {hp:e}, {hp:e}",
            ".set .Lsqk, 0",
            ".rept 8",
            "mov rdx, qword ptr [{a} + 8*.Lsqk]",
            "mulx {hi}, {lo}, rdx",
            "mov rdx, qword ptr [{w} + 16*.Lsqk]",
            "mov {hp}, qword ptr [{w} + 16*.Lsqk + 8]",
            "adcx rdx, rdx",
            "adcx {hp}, {hp}",
            "adox rdx, {lo}",
            "adox {hp}, {hi}",
            "mov qword ptr [{w} + 16*.Lsqk], rdx",
            "mov qword ptr [{w} + 16*.Lsqk + 8], {hp}",
            ".set .Lsqk, .Lsqk + 1",
            ".endr",
            a = in(reg) a.as_ptr(),
            w = in(reg) w.as_mut_ptr(),
            lo = out(reg) _,
            hi = out(reg) _,
            hp = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }
}

/// `out = a^2 R^{-1} mod m` for n = 8: [`sqr8_wide`] (36 word products) then [`redc8`]
/// (64), against 128 for [`mont_mul8`] on a = b. Contract as [`mont_mul8`].
pub(crate) fn mont_sqr8(cpu: Bmi2Adx, out: &mut [Limb; 8], a: &[Limb; 8], m: &[Limb; 8], m0inv: Limb) {
    let mut w = [0; 16];
    sqr8_wide(cpu, &mut w, a);
    redc8(cpu, out, &w, m, m0inv);
}

/// `out = w*R^{-1} mod m` for n = 8 and a 16-limb `w < m*R` (Montgomery reduction of a
/// full product), with the 8-limb window in registers: eight [`red8`] steps on the low
/// half, whose result `(w_lo + Q*m) / 2^512 <= m` then takes the high half (the sum is
/// `< 2m`) and one masked subtraction. Contract as [`mont_mul8`] (`w` is only read);
/// time and addresses are the same for every value.
pub(crate) fn redc8(_: Bmi2Adx, out: &mut [Limb; 8], w: &[Limb; 16], m: &[Limb; 8], m0inv: Limb) {
    // SAFETY: the token proves BMI2/ADX. Reads w[0..16] and m[0..8], writes out[0..8];
    // rbx and rbp are saved and restored on the stack, which is balanced on exit.
    unsafe {
        asm!(
            "push rbx",
            "push rbp",
            "push rcx", // w at [rsp + 8]
            "push rdx", // m0inv at [rsp]
            "mov r8, qword ptr [rcx]",
            "mov r9, qword ptr [rcx + 8]",
            "mov r10, qword ptr [rcx + 16]",
            "mov r11, qword ptr [rcx + 24]",
            "mov r12, qword ptr [rcx + 32]",
            "mov r13, qword ptr [rcx + 40]",
            "mov r14, qword ptr [rcx + 48]",
            "mov r15, qword ptr [rcx + 56]",
            "xor ebx, ebx",
            "xor ebp, ebp",
            steps8!(red8, "qword ptr [rsp]", "qword ptr [rsp]", "qword ptr [rsp]", "qword ptr [rsp]", "qword ptr [rsp]", "qword ptr [rsp]", "qword ptr [rsp]", "qword ptr [rsp]"),
            // t0..t8 = rbx, rbp, r8..r14, with t8 = 0 (the window is <= m < 2^512):
            // add the high half, the carry going to t8.
            "mov rcx, qword ptr [rsp + 8]",
            "add rbx, qword ptr [rcx + 64]",
            "adc rbp, qword ptr [rcx + 72]",
            "adc r8, qword ptr [rcx + 80]",
            "adc r9, qword ptr [rcx + 88]",
            "adc r10, qword ptr [rcx + 96]",
            "adc r11, qword ptr [rcx + 104]",
            "adc r12, qword ptr [rcx + 112]",
            "adc r13, qword ptr [rcx + 120]",
            "adc r14, 0",
            "add rsp, 16",
            final8!("rbx", "rbp", "r8", "r9", "r10", "r11", "r12", "r13", "r14"),
            "pop rbp",
            "pop rbx",
            out("rax") _,
            inout("rcx") w.as_ptr() => _,
            inout("rdx") m0inv => _,
            inout("rsi") out.as_mut_ptr() => _,
            inout("rdi") m.as_ptr() => _,
            out("r8") _,
            out("r9") _,
            out("r10") _,
            out("r11") _,
            out("r12") _,
            out("r13") _,
            out("r14") _,
            out("r15") _,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::limbs::{from_limbs, neg_inv_mod_word, to_limbs};
    use num_bigint::BigUint;
    use num_traits::One;

    /// `redc8` against num-bigint on inputs up to its bound w < m R (m R - 1, m (R - 1),
    /// (m - 1)^2, random), for the extreme moduli 2^512 - 1, 2^511 + 1 and random ones;
    /// `mont_sqr8` and `mont_mul8` on m - 1 and random operands.
    #[test]
    fn register_kernels_match_num_bigint() {
        let Some(cpu) = crate::arith::cpu::bmi2_adx() else {
            eprintln!("no BMI2/ADX on this CPU: adx_fixed not exercised");
            return;
        };
        let r = BigUint::one() << 512u32;
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut rand512 = || -> BigUint {
            let limbs: Vec<u64> = (0..8)
                .map(|_| {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    x
                })
                .collect();
            from_limbs(&limbs)
        };
        let mut moduli = vec![&r - 1u32, (BigUint::one() << 511u32) + 1u32];
        for _ in 0..6 {
            moduli.push(rand512() | BigUint::one() | (BigUint::one() << 511u32));
        }
        for m in &moduli {
            let ml: [u64; 8] = to_limbs(m, 8).unwrap().try_into().unwrap();
            let m0inv = neg_inv_mod_word(ml[0]);
            let r_inv = r.modinv(m).expect("m odd");
            let (a, b) = (rand512() % m, rand512() % m);
            let ws = [m * &r - 1u32, m * (&r - 1u32), (m - 1u32) * (m - 1u32), (rand512() * rand512()) % (m * &r)];
            for w in &ws {
                let wl: [u64; 16] = to_limbs(w, 16).unwrap().try_into().unwrap();
                let mut out = [0; 8];
                redc8(cpu, &mut out, &wl, &ml, m0inv);
                assert_eq!(from_limbs(&out), w * &r_inv % m, "redc8 m={m:x} w={w:x}");
            }
            for (a, b) in [(m - 1u32, m - 1u32), (a.clone(), b), (a, m - 1u32)] {
                let (al, bl): ([u64; 8], [u64; 8]) =
                    (to_limbs(&a, 8).unwrap().try_into().unwrap(), to_limbs(&b, 8).unwrap().try_into().unwrap());
                let mut out = [0; 8];
                mont_sqr8(cpu, &mut out, &al, &ml, m0inv);
                assert_eq!(from_limbs(&out), &a * &a * &r_inv % m, "mont_sqr8 m={m:x} a={a:x}");
                mont_mul8(cpu, &mut out, &al, &bl, &ml, m0inv);
                assert_eq!(from_limbs(&out), &a * &b * &r_inv % m, "mont_mul8 m={m:x} a={a:x} b={b:x}");
            }
        }
    }
}
