//! Linear carry chains (add, subtract, propagate): the one implementation behind
//! `limbs::{add_assign, sub_assign, sub_into}` and the masked and carry-through passes
//! of the Karatsuba and reduction-by-products recursions, whose O(n) passes would
//! otherwise cost a third of their time: Rust's `overflowing_add` pairs compile to about
//! five instructions per limb, a carry chain in `adc`/`sbb` to one.
//!
//! Contract of every function here: equal lengths where two slices are combined (checked);
//! a carry or borrow in is 0 or 1 and the one returned is 0 or 1; time and memory
//! accesses depend only on the lengths (masks select, never branches). On x86_64 the
//! chains are `asm!` with baseline instructions only (`add`, `adc`, `sbb`, `mov`, `lea`,
//! `dec`, `jrcxz`/`jnz` and SSE2 `movq`/`movdqu`/`pand`/`pxor`/`punpck*`), so they hold on every
//! x86_64 CPU whatever the kernel; elsewhere they are Rust loops.

use crate::arith::limbs::Limb;

// How the second operand `b` of a chain enters it (a const parameter of `chain`):
/// `b[i] & mask` (through SSE2 on x86_64, which leaves CF alone).
const MASKED: u8 = 0;
/// `b[i]` itself, read by the `adc`/`sbb` from memory: no mask, no SSE2 round trip.
const PLAIN: u8 = 1;
/// Nothing (`b` unused): only the carry or borrow runs through.
const NONE: u8 = 2;
/// `b[i] ^ mask` (through SSE2, as `MASKED`): with mask = !0 and a carry in of 1, the
/// two's complement of b, so one pass adds or subtracts b as a mask says.
const XORED: u8 = 3;

/// One chain over n limbs: `out[i] = a[i] +/- src(b[i]) +/- carry` with `src` as `S`
/// says (`MASKED`, `PLAIN`, `NONE`, `XORED`), returning the final carry (add) or borrow (sub).
///
/// # Safety
/// `out`, `a` (and `b` unless `S` is `NONE`) valid for n limbs; `out` may equal
/// `a` or `b` (each limb is read before it is written), otherwise disjoint from them.
#[cfg(target_arch = "x86_64")]
#[inline]
unsafe fn chain<const SUB: bool, const S: u8>(out: *mut Limb, a: *const Limb, b: *const Limb, n: usize, mask: Limb, cin: Limb) -> Limb {
    use core::arch::asm;
    let mut c = cin;
    if n == 0 {
        return c;
    }
    // `$op` is adc or sbb. `$load1`/`$load4` fetch limb 0 (resp. limbs 0..4) of the
    // second operand into {y} / y0..y3 where a register is needed, without touching the
    // flags (`and` would clear CF: the mask goes through SSE2, baseline on x86_64);
    // `$s`, `$s0..$s3` name the source of each `$op`. rcx = n mod 4 single limbs, then
    // n / 4 blocks of four.
    macro_rules! body {
        ($op:literal, $setup:expr, $load1:expr, $s:literal, $load4:expr, $s0:literal, $s1:literal, $s2:literal, $s3:literal) => {
            concat!(
                $setup,
                // CF = cin: cin + (2^64 - 1) carries exactly when cin = 1. From here
                // on only mov, lea, SSE2, dec and jrcxz/jnz, which leave CF alone.
                "add {c}, -1\n",
                "jrcxz 3f\n",
                "2:\n",
                $load1,
                "mov {x}, qword ptr [{a}]\n",
                $op,
                " {x}, ",
                $s,
                "\n",
                "mov qword ptr [{out}], {x}\n",
                "lea {a}, [{a} + 8]\n",
                "lea {b}, [{b} + 8]\n",
                "lea {out}, [{out} + 8]\n",
                "dec ecx\n",
                "jnz 2b\n",
                "3:\n",
                "mov rcx, {q4}\n",
                "jrcxz 5f\n",
                "4:\n",
                $load4,
                "mov {x}, qword ptr [{a}]\n",
                $op,
                " {x}, ",
                $s0,
                "\n",
                "mov qword ptr [{out}], {x}\n",
                "mov {x}, qword ptr [{a} + 8]\n",
                $op,
                " {x}, ",
                $s1,
                "\n",
                "mov qword ptr [{out} + 8], {x}\n",
                "mov {x}, qword ptr [{a} + 16]\n",
                $op,
                " {x}, ",
                $s2,
                "\n",
                "mov qword ptr [{out} + 16], {x}\n",
                "mov {x}, qword ptr [{a} + 24]\n",
                $op,
                " {x}, ",
                $s3,
                "\n",
                "mov qword ptr [{out} + 24], {x}\n",
                "lea {a}, [{a} + 32]\n",
                "lea {b}, [{b} + 32]\n",
                "lea {out}, [{out} + 32]\n",
                "dec rcx\n",
                "jnz 4b\n",
                "5:\n",
                "mov {c:e}, 0\n",
                "adc {c:e}, 0\n",
            )
        };
    }
    macro_rules! masked {
        ($op:literal, $sse:literal) => {
            body!(
                $op,
                // The mask in both halves of xmm1, once per chain.
                "movq xmm1, {mask}\npunpcklqdq xmm1, xmm1\n",
                concat!("movq xmm0, qword ptr [{b}]\n", $sse, " xmm0, xmm1\nmovq {y}, xmm0\n"),
                "{y}",
                concat!(
                    "movdqu xmm0, xmmword ptr [{b}]\n",
                    "movdqu xmm2, xmmword ptr [{b} + 16]\n",
                    $sse,
                    " xmm0, xmm1\n",
                    $sse,
                    " xmm2, xmm1\n",
                    "movq {y0}, xmm0\n",
                    "movq {y2}, xmm2\n",
                    "punpckhqdq xmm0, xmm0\n",
                    "punpckhqdq xmm2, xmm2\n",
                    "movq {y1}, xmm0\n",
                    "movq {y3}, xmm2\n",
                ),
                "{y0}",
                "{y1}",
                "{y2}",
                "{y3}"
            )
        };
    }
    macro_rules! plain {
        ($op:literal) => {
            body!(
                $op,
                "",
                "",
                "qword ptr [{b}]",
                "",
                "qword ptr [{b}]",
                "qword ptr [{b} + 8]",
                "qword ptr [{b} + 16]",
                "qword ptr [{b} + 24]"
            )
        };
    }
    macro_rules! none {
        ($op:literal) => {
            body!($op, "", "", "0", "", "0", "0", "0", "0")
        };
    }
    // SAFETY: the caller guarantees the ranges; the loops touch out/a/b[0..n] only.
    unsafe {
        macro_rules! run {
            // The plain and carry-only forms use neither the mask nor the SSE2 registers.
            ($text:expr) => {
                asm!(
                    $text,
                    c = inout(reg) c, q4 = in(reg) n / 4, a = inout(reg) a => _, b = inout(reg) b => _,
                    out = inout(reg) out => _, x = out(reg) _,
                    inout("rcx") n % 4 => _,
                    options(nostack),
                )
            };
            ($text:expr, masked) => {
                asm!(
                    $text,
                    c = inout(reg) c, q4 = in(reg) n / 4, a = inout(reg) a => _, b = inout(reg) b => _,
                    out = inout(reg) out => _, mask = in(reg) mask, x = out(reg) _,
                    y = out(reg) _, y0 = out(reg) _, y1 = out(reg) _, y2 = out(reg) _, y3 = out(reg) _,
                    inout("rcx") n % 4 => _, out("xmm0") _, out("xmm1") _, out("xmm2") _,
                    options(nostack),
                )
            };
        }
        match (SUB, S) {
            (false, MASKED) => run!(masked!("adc", "pand"), masked),
            (true, MASKED) => run!(masked!("sbb", "pand"), masked),
            (false, XORED) => run!(masked!("adc", "pxor"), masked),
            (true, XORED) => run!(masked!("sbb", "pxor"), masked),
            (false, PLAIN) => run!(plain!("adc")),
            (true, PLAIN) => run!(plain!("sbb")),
            (false, _) => run!(none!("adc")),
            (true, _) => run!(none!("sbb")),
        }
    }
    c
}

/// The same chain in Rust, for targets without the assembly.
#[cfg(not(target_arch = "x86_64"))]
#[inline]
unsafe fn chain<const SUB: bool, const S: u8>(out: *mut Limb, a: *const Limb, b: *const Limb, n: usize, mask: Limb, cin: Limb) -> Limb {
    let mut c = cin;
    for i in 0..n {
        // SAFETY: as above; raw reads and writes because out may equal a or b.
        unsafe {
            let x = *a.add(i);
            let y = match S {
                MASKED => *b.add(i) & mask,
                PLAIN => *b.add(i),
                XORED => *b.add(i) ^ mask,
                _ => 0,
            };
            let (r, c1, c2) = if SUB {
                let (d1, b1) = x.overflowing_sub(y);
                let (d2, b2) = d1.overflowing_sub(c);
                (d2, b1, b2)
            } else {
                let (s1, c1) = x.overflowing_add(y);
                let (s2, c2) = s1.overflowing_add(c);
                (s2, c1, c2)
            };
            *out.add(i) = r;
            c = (c1 | c2) as Limb;
        }
    }
    c
}

/// `x -= (y & mask) + bin`; returns the borrow.
pub(crate) fn sub_masked(x: &mut [Limb], y: &[Limb], mask: Limb, bin: Limb) -> Limb {
    assert_eq!(x.len(), y.len());
    // SAFETY: equal lengths; x is a distinct &mut, written where it is read.
    unsafe { chain::<true, MASKED>(x.as_mut_ptr(), x.as_ptr(), y.as_ptr(), x.len(), mask, bin) }
}

/// `x += (y ^ mask) + cin`; returns the carry. With mask = !0 and cin = 1 this adds
/// `B^len - y`, i.e. subtracts y with the borrow showing as a missing carry.
pub(crate) fn add_xored(x: &mut [Limb], y: &[Limb], mask: Limb, cin: Limb) -> Limb {
    assert_eq!(x.len(), y.len());
    // SAFETY: equal lengths; x is a distinct &mut, written where it is read.
    unsafe { chain::<false, XORED>(x.as_mut_ptr(), x.as_ptr(), y.as_ptr(), x.len(), mask, cin) }
}

/// `x += y`; returns the carry.
pub(crate) fn add_assign(x: &mut [Limb], y: &[Limb]) -> Limb {
    assert_eq!(x.len(), y.len());
    // SAFETY: equal lengths; x is a distinct &mut, written where it is read.
    unsafe { chain::<false, PLAIN>(x.as_mut_ptr(), x.as_ptr(), y.as_ptr(), x.len(), !0, 0) }
}

/// `x -= y`; returns the borrow.
pub(crate) fn sub_assign(x: &mut [Limb], y: &[Limb]) -> Limb {
    assert_eq!(x.len(), y.len());
    // SAFETY: equal lengths; x is a distinct &mut, written where it is read.
    unsafe { chain::<true, PLAIN>(x.as_mut_ptr(), x.as_ptr(), y.as_ptr(), x.len(), !0, 0) }
}

/// `out = a + b`; returns the carry.
pub(crate) fn add(out: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    assert!(out.len() == a.len() && a.len() == b.len());
    // SAFETY: equal lengths; out is a distinct &mut.
    unsafe { chain::<false, PLAIN>(out.as_mut_ptr(), a.as_ptr(), b.as_ptr(), out.len(), !0, 0) }
}

/// `out = a - b`; returns the borrow.
pub(crate) fn sub(out: &mut [Limb], a: &[Limb], b: &[Limb]) -> Limb {
    assert!(out.len() == a.len() && a.len() == b.len());
    // SAFETY: equal lengths; out is a distinct &mut.
    unsafe { chain::<true, PLAIN>(out.as_mut_ptr(), a.as_ptr(), b.as_ptr(), out.len(), !0, 0) }
}

/// `x = y - x`; returns the borrow.
pub(crate) fn sub_from(x: &mut [Limb], y: &[Limb]) -> Limb {
    assert_eq!(x.len(), y.len());
    // SAFETY: equal lengths; the output is the second operand, read before written.
    unsafe { chain::<true, PLAIN>(x.as_mut_ptr(), y.as_ptr(), x.as_ptr(), x.len(), !0, 0) }
}

/// `x = 2x` (x + x in one chain); returns the bit shifted out.
pub(crate) fn double(x: &mut [Limb]) -> Limb {
    let p = x.as_mut_ptr();
    // SAFETY: x is valid for its length; both operands are the output, each limb read
    // before it is written.
    unsafe { chain::<false, PLAIN>(p, p, p, x.len(), !0, 0) }
}

/// `x += c` for c in {0, 1}, carried through all of x; returns the carry out.
pub(crate) fn carry_through(x: &mut [Limb], c: Limb) -> Limb {
    // SAFETY: x is valid for its length; `b` is not read.
    unsafe { chain::<false, NONE>(x.as_mut_ptr(), x.as_ptr(), x.as_ptr(), x.len(), 0, c) }
}

/// `x -= b` for b in {0, 1}, borrowed through all of x; returns the borrow out.
pub(crate) fn borrow_through(x: &mut [Limb], b: Limb) -> Limb {
    // SAFETY: as in carry_through.
    unsafe { chain::<true, NONE>(x.as_mut_ptr(), x.as_ptr(), x.as_ptr(), x.len(), 0, b) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::limbs::from_limbs;
    use num_bigint::BigUint;
    use rand_core::{RngCore, SeedableRng};

    /// Every function (each operand form) against num-bigint over lengths around the 4-limb unrolling, with
    /// all-ones and zero operands (carries and borrows through every limb).
    #[test]
    fn chains_match_num_bigint() {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        for n in 0..11usize {
            for kind in 0..3 {
                let gen = |rng: &mut rand_chacha::ChaCha20Rng| -> Vec<Limb> { (0..n).map(|_| [rng.next_u64(), !0, 0][kind]).collect() };
                let (x, y) = (gen(&mut rng), gen(&mut rng));
                let (bx, by) = (from_limbs(&x), from_limbs(&y));
                for cin in [0, 1] {
                    for mask in [0, !0] {
                        let yy = if mask == 0 { BigUint::from(0u32) } else { by.clone() };
                        let mut z = x.clone();
                        let c = add_xored(&mut z, &y, mask, cin);
                        let yx = if mask == 0 { by.clone() } else { (BigUint::from(1u32) << (64 * n)) - 1u32 - &by };
                        assert_eq!(from_limbs(&z) + (BigUint::from(c) << (64 * n)), &bx + &yx + cin, "add_xored n={n}");
                        let mut z = x.clone();
                        let b = sub_masked(&mut z, &y, mask, cin);
                        assert_eq!(from_limbs(&z) + &yy + cin, &bx + (BigUint::from(b) << (64 * n)), "sub n={n}");
                    }
                    let mut z = x.clone();
                    let c = carry_through(&mut z, cin);
                    assert_eq!(from_limbs(&z) + (BigUint::from(c) << (64 * n)), &bx + cin);
                    let mut z = x.clone();
                    let b = borrow_through(&mut z, cin);
                    assert_eq!(from_limbs(&z) + cin, &bx + (BigUint::from(b) << (64 * n)));
                }
                let mut out = vec![0; n];
                let b = sub(&mut out, &x, &y);
                assert_eq!(from_limbs(&out) + &by, &bx + (BigUint::from(b) << (64 * n)));
                let c = add(&mut out, &x, &y);
                assert_eq!(from_limbs(&out) + (BigUint::from(c) << (64 * n)), &bx + &by);
                let mut z = x.clone();
                let c = add_assign(&mut z, &y);
                assert_eq!(from_limbs(&z) + (BigUint::from(c) << (64 * n)), &bx + &by);
                let mut z = y.clone();
                let b = sub_from(&mut z, &x);
                assert_eq!(from_limbs(&z) + &by, &bx + (BigUint::from(b) << (64 * n)));
                let mut z = x.clone();
                let c = double(&mut z);
                assert_eq!(from_limbs(&z) + (BigUint::from(c) << (64 * n)), &bx * 2u32, "double n={n}");
                let mut z = x.clone();
                let b = sub_assign(&mut z, &y);
                assert_eq!(from_limbs(&z) + &by, &bx + (BigUint::from(b) << (64 * n)));
            }
        }
    }
}
