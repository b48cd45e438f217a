//! Montgomery product, square and reduction, and the full product, for a limb count N
//! fixed at compile time (9..=48: moduli of 513..=3,072 bits, and the Karatsuba base
//! products of that size), on BMI2/ADX like `adx`, with what a fixed N allows: every row
//! is straight-line code (unrolled by the assembler, `.rept`), so no instruction goes to
//! loop control inside a row or to a row's odd limbs and every offset is a constant;
//! each reduction row takes the next row's multiplier q from the register that held
//! w[i+1] rather than reloading the limb it has just stored; and up to 16 limbs the
//! square's cross products, whose rows shrink by one limb each, are straight-line as a
//! whole. The rows themselves still loop (one trip per row), and the accumulator stays
//! in memory (N limbs do not fit the registers, unlike `adx_fixed`'s eight), so the code
//! stays within the decoded-instruction caches of x86-64 cores (the square of 16 limbs
//! is about a thousand micro-ops; Skylake's cache holds 1,536). Larger straight-line
//! squares measured slower (48 and 64 limbs: 1.24-1.28x the loops of `adx`).
//!
//! Measured on Intel Xeon Emerald Rapids (`fixed_length_against_loops` below, fastest of
//! nine passes, two runs): against `adx`'s loops, Montgomery squares take 0.81-0.89x the
//! time at 9-16 limbs and 0.94-1.0x at 20-48; products 0.92-0.95x. With these base
//! products under Karatsuba, a Montgomery square at 128 and 256 limbs took 0.97-0.99x.
//!
//! Contract (R = 2^(64N)), the one in `adx`'s module doc: the CPU supports BMI2 and ADX
//! (the caller holds a `Bmi2Adx` token); `m` odd, `m0inv = -m^{-1} mod 2^64`; inputs
//! `< m`; `out = a*b*R^{-1} mod m` (or `a^2 R^{-1}`, or `w R^{-1}`), fully reduced;
//! `out` may alias `a` or `b` (they are read before `out` is written); `w` is scratch of
//! 2N limbs whose contents on entry are ignored (except for [`redc`], whose input it
//! holds); time and addresses are the same for every value: every trip count is N,
//! the final subtraction is a masked select.
//!
//! Each step `w[p] += rdx * v[j] + pending` keeps the low words on the CF chain
//! (`adcx`) and the pending high word on the OF chain (`adox`), as in `adx`; two steps
//! swap the roles of the `{hi}` and `{hp}` registers, so a pair leaves the pending word
//! where it found it.

use crate::arith::cpu::Bmi2Adx;
use crate::arith::limbs::Limb;
use core::arch::asm;

/// Assembly text of the steps `w[$w + j] += rdx * v[j] + pending` for j = 0..len
/// (assembler expressions: `$v` and `$w` are base-plus-offset texts in limbs, `$len`
/// the row length), starting from no pending word and ending with the row's carry word
/// (its value at position `$w + len`) in `{hp}`. After the pair at j = 0 the value at
/// position `$w + 1`, final for this row, is in `{lo}`; `$after_first` runs there and
/// must leave CF and OF alone (both chains are live). Needs len >= 2 when
/// `$after_first` is not empty. Clobbers `{lo}`, `{hi}`, `{hp}`, CF, OF, and the
/// assembler symbol `pk_j` (the `pk_*` symbols are this module's own).
macro_rules! row_text {
    ($v:literal, $w:literal, $len:literal, $after_first:literal) => {
        concat!(
            "xor {hp:e}, {hp:e}\n",
            ".set pk_j, 0\n",
            ".rept (",
            $len,
            ") / 2\n",
            "mulx {hi}, {lo}, qword ptr [",
            $v,
            " + 8*pk_j]\n",
            "adcx {lo}, qword ptr [",
            $w,
            " + 8*pk_j]\n",
            "adox {lo}, {hp}\n",
            "mov qword ptr [",
            $w,
            " + 8*pk_j], {lo}\n",
            "mulx {hp}, {lo}, qword ptr [",
            $v,
            " + 8*pk_j + 8]\n",
            "adcx {lo}, qword ptr [",
            $w,
            " + 8*pk_j + 8]\n",
            "adox {lo}, {hi}\n",
            "mov qword ptr [",
            $w,
            " + 8*pk_j + 8], {lo}\n",
            ".if pk_j == 0\n",
            $after_first,
            ".endif\n",
            ".set pk_j, pk_j + 2\n",
            ".endr\n",
            ".if (",
            $len,
            ") & 1\n",
            "mulx {hi}, {lo}, qword ptr [",
            $v,
            " + 8*pk_j]\n",
            "adcx {lo}, qword ptr [",
            $w,
            " + 8*pk_j]\n",
            "adox {lo}, {hp}\n",
            "mov qword ptr [",
            $w,
            " + 8*pk_j], {lo}\n",
            "mov {hp}, {hi}\n",
            ".endif\n",
            // Both chains' carries land at position len, with the pending word.
            "mov {lo:e}, 0\n",
            "adox {hp}, {lo}\n",
            "adcx {hp}, {lo}\n",
        )
    };
}

/// Smallest limb count with kernels here (`adx_fixed` has 8; a row needs two steps).
pub(crate) const MIN_LIMBS: usize = 9;
/// Largest limb count with kernels here (each N is its own code: about 100N bytes for a
/// product with its reduction).
pub(crate) const MAX_LIMBS: usize = 48;
/// Largest limb count of [`mont_sqr`] (straight-line cross products).
pub(crate) const MAX_SQUARE_LIMBS: usize = 16;

/// `out = a*b*R^{-1} mod m`, N limbs: [`mul_full`], then [`redc`]. 2N^2 word products.
pub(crate) fn mont_mul<const N: usize>(
    cpu: Bmi2Adx,
    out: &mut [Limb; N],
    a: &[Limb; N],
    b: &[Limb; N],
    m: &[Limb; N],
    m0inv: Limb,
    w: &mut [Limb],
) {
    mul_full(cpu, w, a, b);
    redc(cpu, out, w, m, m0inv);
}

/// `w[..2N] = a * b`: N product rows `w[i..i+N] += a_i * b` (a loop over straight-line
/// rows).
pub(crate) fn mul_full<const N: usize>(_: Bmi2Adx, w: &mut [Limb], a: &[Limb; N], b: &[Limb; N]) {
    assert!((MIN_LIMBS..=MAX_LIMBS).contains(&N) && w.len() >= 2 * N);
    // Row i reads w[i..i+N] (w[0..N] zeroed here; w[i+N-1] and below written by earlier
    // rows) and writes its carry word into w[i+N], untouched before.
    w[..N].fill(0);
    // SAFETY: the arrays fix every length; all accesses are within a[0..N], b[0..N] and
    // w[0..2N]; the token proves BMI2 and ADX.
    unsafe {
        asm!(
            ".set pk_n, {n}",
            "mov {wrow}, {w}",
            "mov {i:e}, {n}",
            "3:",
            "mov rdx, qword ptr [{a}]",
            row_text!("{b}", "{wrow}", "pk_n", ""),
            "mov qword ptr [{wrow} + 8*pk_n], {hp}",
            "lea {a}, [{a} + 8]",
            "lea {wrow}, [{wrow} + 8]",
            "dec {i:e}",
            "jnz 3b",
            n = const N,
            a = inout(reg) a.as_ptr() => _,
            b = in(reg) b.as_ptr(),
            w = in(reg) w.as_mut_ptr(),
            wrow = out(reg) _,
            i = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            hp = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }
}

/// `out = a^2 R^{-1} mod m`, N limbs: the cross products `a_i a_j` (i < j) as rows of
/// decreasing length, one pass doubling them and adding the squares `a_i^2`, then the
/// reduction. N(N-1)/2 + N + N^2 word products.
pub(crate) fn mont_sqr<const N: usize>(cpu: Bmi2Adx, out: &mut [Limb; N], a: &[Limb; N], m: &[Limb; N], m0inv: Limb, w: &mut [Limb]) {
    assert!((MIN_LIMBS..=MAX_SQUARE_LIMBS).contains(&N) && w.len() >= 2 * N);
    w[..2 * N].fill(0);
    // SAFETY: the arrays fix every length; all accesses are within a[0..N] and w[0..2N];
    // the token proves BMI2 and ADX. Cross row i adds a_i*a[i+1..N] into w[2i+1..i+N]
    // and writes its carry word into w[i+N], untouched by earlier rows.
    unsafe {
        asm!(
            ".set pk_n, {n}",
            ".set pk_i, 0",
            ".rept pk_n - 1",
            "mov rdx, qword ptr [{a} + 8*pk_i]",
            row_text!("{a} + 8*pk_i + 8", "{w} + 16*pk_i + 8", "pk_n - 1 - pk_i", ""),
            "mov qword ptr [{w} + 8*(pk_i + pk_n)], {hp}",
            ".set pk_i, pk_i + 1",
            ".endr",
            // Double and add the diagonal: CF doubles (x + x + CF), OF adds a_i^2; both
            // chains end clear because a^2 < 2^(128N).
            "xor {hp:e}, {hp:e}",
            ".set pk_i, 0",
            ".rept pk_n",
            "mov rdx, qword ptr [{a} + 8*pk_i]",
            "mulx {hi}, {lo}, rdx",
            "mov {hp}, qword ptr [{w} + 16*pk_i]",
            "mov {x}, qword ptr [{w} + 16*pk_i + 8]",
            "adcx {hp}, {hp}",
            "adcx {x}, {x}",
            "adox {hp}, {lo}",
            "adox {x}, {hi}",
            "mov qword ptr [{w} + 16*pk_i], {hp}",
            "mov qword ptr [{w} + 16*pk_i + 8], {x}",
            ".set pk_i, pk_i + 1",
            ".endr",
            n = const N,
            a = in(reg) a.as_ptr(),
            w = in(reg) w.as_mut_ptr(),
            lo = out(reg) _,
            hi = out(reg) _,
            hp = out(reg) _,
            x = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }
    redc(cpu, out, w, m, m0inv);
}

/// `out = w * R^{-1} mod m` for the 2N-limb value `w[..2N] < m*R`; destroys `w`.
///
/// Row i adds `q_i*m` at offset i, q_i = w_i * m0inv, which zeroes w_i, and parks the
/// row's carry word (position i + N) in w_i; then `w[N..2N] + w[0..N]` (< 2m) less m
/// where that does not borrow past the top.
pub(crate) fn redc<const N: usize>(_: Bmi2Adx, out: &mut [Limb; N], w: &mut [Limb], m: &[Limb; N], m0inv: Limb) {
    assert!((MIN_LIMBS..=MAX_LIMBS).contains(&N) && w.len() >= 2 * N);
    // SAFETY: all accesses are within m[0..N], w[0..2N] and out[0..N]; the token
    // proves BMI2 and ADX.
    unsafe {
        asm!(
            ".set pk_n, {n}",
            "mov rdx, qword ptr [{w}]",
            "imul rdx, {k}",
            "mov {wrow}, {w}",
            "mov {i:e}, {n}",
            "2:",
            // The next row's q from the register that held w[i+1] (imul there would
            // clobber both carry chains; here its flags are dead).
            row_text!("{m}", "{wrow}", "pk_n", "mov {nq}, {lo}\n"),
            "mov qword ptr [{wrow}], {hp}",
            "imul {nq}, {k}",
            "mov rdx, {nq}",
            "lea {wrow}, [{wrow} + 8]",
            "dec {i:e}",
            "jnz 2b",
            // s = w[N..2N] + w[0..N] into w[N..2N], its carry into {hp}.
            "mov {hp:e}, 0",
            "mov {lo}, qword ptr [{w} + 8*pk_n]",
            "add {lo}, qword ptr [{w}]",
            "mov qword ptr [{w} + 8*pk_n], {lo}",
            ".set pk_i, 1",
            ".rept pk_n - 1",
            "mov {lo}, qword ptr [{w} + 8*(pk_n + pk_i)]",
            "adc {lo}, qword ptr [{w} + 8*pk_i]",
            "mov qword ptr [{w} + 8*(pk_n + pk_i)], {lo}",
            ".set pk_i, pk_i + 1",
            ".endr",
            "adc {hp}, 0",
            // out = s - m; {hp} = carry - borrow: 0 keeps the difference, !0 (s < m) s.
            "mov {lo}, qword ptr [{w} + 8*pk_n]",
            "sub {lo}, qword ptr [{m}]",
            "mov qword ptr [{out}], {lo}",
            ".set pk_i, 1",
            ".rept pk_n - 1",
            "mov {lo}, qword ptr [{w} + 8*(pk_n + pk_i)]",
            "sbb {lo}, qword ptr [{m} + 8*pk_i]",
            "mov qword ptr [{out} + 8*pk_i], {lo}",
            ".set pk_i, pk_i + 1",
            ".endr",
            "sbb {hp}, 0",
            ".set pk_i, 0",
            ".rept pk_n",
            "mov {lo}, qword ptr [{out} + 8*pk_i]",
            "mov {hi}, qword ptr [{w} + 8*(pk_n + pk_i)]",
            "xor {hi}, {lo}",
            "and {hi}, {hp}",
            "xor {lo}, {hi}",
            "mov qword ptr [{out} + 8*pk_i], {lo}",
            ".set pk_i, pk_i + 1",
            ".endr",
            n = const N,
            m = in(reg) m.as_ptr(),
            w = in(reg) w.as_mut_ptr(),
            out = in(reg) out.as_mut_ptr(),
            k = in(reg) m0inv,
            wrow = out(reg) _,
            i = out(reg) _,
            lo = out(reg) _,
            hi = out(reg) _,
            hp = out(reg) _,
            nq = out(reg) _,
            out("rdx") _,
            options(nostack),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::super::adx;
    use super::*;
    use crate::arith::limbs::{from_limbs, neg_inv_mod_word, to_limbs};
    use num_bigint::BigUint;
    use num_traits::One;
    use rand_core::{RngCore, SeedableRng};

    /// Product, square (where N has one) and reduction at N limbs against num-bigint:
    /// a random modulus and an all-ones one (top bit and bit 0 set either way), operands
    /// random and m - 1 (the longest carries), and for the reduction the largest input
    /// it admits, (m - 1) R + (R - 1) < m R.
    fn check<const N: usize>(cpu: Bmi2Adx, rng: &mut rand_chacha::ChaCha20Rng) {
        let r = BigUint::one() << (64 * N);
        for ones in [false, true] {
            let mut ml: Vec<Limb> = (0..N).map(|_| if ones { !0 } else { rng.next_u64() }).collect();
            ml[0] |= 1;
            ml[N - 1] |= 1 << 63;
            let m = from_limbs(&ml);
            let mp: [Limb; N] = ml.clone().try_into().unwrap();
            let m0 = neg_inv_mod_word(ml[0]);
            let r_inv = r.modinv(&m).expect("m odd");
            let x = from_limbs(&(0..N).map(|_| rng.next_u64()).collect::<Vec<_>>()) % &m;
            let arr = |v: &BigUint| -> [Limb; N] { to_limbs(v, N).unwrap().try_into().unwrap() };
            let mut w = vec![!0; 2 * N];
            let mut out = [0; N];
            for (x, y) in [(x.clone(), &m - 1u8), (&m - 1u8, &m - 1u8), (x.clone(), x.clone())] {
                mont_mul(cpu, &mut out, &arr(&x), &arr(&y), &mp, m0, &mut w);
                assert_eq!(from_limbs(&out), &x * &y * &r_inv % &m, "mul N={N} ones={ones}");
                if N <= MAX_SQUARE_LIMBS {
                    mont_sqr(cpu, &mut out, &arr(&x), &mp, m0, &mut w);
                    assert_eq!(from_limbs(&out), &x * &x * &r_inv % &m, "sqr N={N} ones={ones}");
                }
            }
            for t in [&x * &(&m - 1u8), (&m - 1u8) * &r + (&r - 1u8)] {
                w.copy_from_slice(&to_limbs(&t, 2 * N).unwrap());
                redc(cpu, &mut out, &mut w, &mp, m0);
                assert_eq!(from_limbs(&out), &t * &r_inv % &m, "redc N={N} ones={ones}");
            }
        }
    }

    #[test]
    fn match_num_bigint() {
        let Some(cpu) = crate::arith::cpu::Tokens::detect(crate::arith::Kernel::Adx).and_then(|t| t.adx()) else {
            eprintln!("no BMI2/ADX on this CPU: the fixed-length kernels are not exercised");
            return;
        };
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
        for _ in 0..8 {
            check::<9>(cpu, &mut rng);
            check::<10>(cpu, &mut rng);
            check::<15>(cpu, &mut rng);
            check::<16>(cpu, &mut rng);
            check::<17>(cpu, &mut rng);
            check::<24>(cpu, &mut rng);
            check::<31>(cpu, &mut rng);
            check::<32>(cpu, &mut rng);
            check::<33>(cpu, &mut rng);
            check::<47>(cpu, &mut rng);
            check::<48>(cpu, &mut rng);
        }
    }

    /// Fastest of nine passes, ns per call, of `adx`'s loops and of what `adx` now runs
    /// (these kernels) for a chain of squares and of products at N limbs.
    fn time<const N: usize>(cpu: Bmi2Adx) {
        let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
        let mut m = [0; N];
        m.iter_mut().for_each(|x| *x = rng.next_u64());
        m[0] |= 1;
        m[N - 1] |= 1 << 63;
        let m0 = neg_inv_mod_word(m[0]);
        let mut a = [0; N];
        a.iter_mut().for_each(|x| *x = rng.next_u64());
        a[N - 1] >>= 1;
        let k = 40_000 / N;
        let mut t = vec![0; 2 * N + 2];
        let mut best = [f64::MAX; 4];
        for _ in 0..9 {
            for (v, b) in best.iter_mut().enumerate() {
                let (mut x, mut y) = (a, [0; N]);
                let s = std::time::Instant::now();
                for _ in 0..k {
                    match v {
                        0 => adx::mont_sqr_loops(cpu, &mut y, &x, &m, m0, &mut t),
                        1 => adx::mont_sqr(cpu, &mut y, &x, &m, m0, &mut t),
                        2 => adx::mont_mul_loops(cpu, &mut y, &x, &a, &m, m0, &mut t),
                        _ => adx::mont_mul(cpu, &mut y, &x, &a, &m, m0, &mut t),
                    }
                    std::mem::swap(&mut x, &mut y);
                }
                std::hint::black_box(&x);
                *b = b.min(s.elapsed().as_secs_f64() / k as f64 * 1e9);
            }
        }
        eprintln!(
            "{N} limbs: square {:.1} ns (loops {:.1}, ratio {:.3}); product {:.1} ns (loops {:.1}, ratio {:.3})",
            best[1],
            best[0],
            best[1] / best[0],
            best[3],
            best[2],
            best[3] / best[2]
        );
    }

    /// `cargo test --release -p primekit --lib fixed_length_against_loops -- --ignored
    /// --nocapture --test-threads=1`
    #[test]
    #[ignore = "measurement"]
    fn fixed_length_against_loops() {
        let Some(cpu) = crate::arith::cpu::Tokens::detect(crate::arith::Kernel::Adx).and_then(|t| t.adx()) else {
            return eprintln!("no BMI2/ADX on this CPU");
        };
        time::<9>(cpu);
        time::<12>(cpu);
        time::<16>(cpu);
        time::<20>(cpu);
        time::<24>(cpu);
        time::<32>(cpu);
        time::<40>(cpu);
        time::<48>(cpu);
    }
}
