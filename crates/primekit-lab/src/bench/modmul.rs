//! `primekit-lab bench modmul`: Hamburg 2014 — our general Montgomery product and
//! squaring against a dedicated special-form reduction for 2^255-19, NIST P-384's
//! 2^384-2^128-2^96+2^32-1, 2^448-2^224-1 and 2^521-1, on the same values, and a Fermat
//! inversion x^(p-2) built from each form's products (`kind: inv`). Each engine runs a dependent chain x <- x·y (or x <- x^2)
//! so latency, not throughput, is measured; both chains end on the same value (checked).
//!
//! Caveat for the ratio: our Montgomery kernel is x86_64 mulx/adcx/adox assembly when the
//! CPU has it, while the special-form code is portable Rust (u128), so the ratio is a
//! lower bound on what assembly special-form code would reach.

use super::cpu_clock::thread_cpu_ms;
use super::timing::mean_median;
use clap::Args as ClapArgs;
use num_bigint::BigUint;
use primekit::hazmat::limbs::{from_limbs, to_limbs};
use primekit::hazmat::mont::{Kernel, MontContext};
use primekit_research::special_form::{invert, SpecialPrime, P25519, P384, P448, P521};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use serde_json::{json, Value};
use std::process::ExitCode;

#[derive(ClapArgs, Clone)]
pub struct Args {
    /// Field sizes: 256 (2^255-19), 384 (P-384), 448 (2^448-2^224-1), 521 (2^521-1).
    #[arg(long, value_delimiter = ',', default_value = "256,384,448,521")]
    pub bits: Vec<u32>,
    /// Operations per timed chain.
    #[arg(long, default_value_t = 200_000)]
    pub count: usize,
    /// Timed chains; the median is reported.
    #[arg(long, default_value_t = 5)]
    pub reps: usize,
}

/// Median ns (thread CPU time) per op of `reps` chains of `iters` calls of `step`.
fn chain_ns(iters: usize, reps: usize, mut step: impl FnMut()) -> f64 {
    for _ in 0..iters / 10 {
        step();
    }
    let s: Vec<f64> = (0..reps.max(1))
        .map(|_| {
            let t = thread_cpu_ms();
            for _ in 0..iters {
                step();
            }
            (thread_cpu_ms() - t) * 1e6 / iters as f64
        })
        .collect();
    mean_median(&s).1
}

/// (engine, kernel, operation, ns) for the special form's and Montgomery's mul and sqr,
/// with the results checked. The special form is portable Rust whatever the kernel switch
/// says; Montgomery runs on the process-wide kernel.
fn compare<const N: usize, const W: usize, P: SpecialPrime<N, W>>(
    iters: usize,
    reps: usize,
) -> [(&'static str, &'static str, &'static str, f64); 6] {
    let p = P::modulus();
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(3);
    let mut rand = || {
        let mut b = vec![0u8; N * 8 + 8];
        rng.fill_bytes(&mut b);
        BigUint::from_bytes_le(&b) % &p
    };
    let (x0, y0) = (rand(), rand());
    let arr = |v: &BigUint| -> [u64; N] { to_limbs(v, N).expect("reduced").try_into().expect("N limbs") };
    // Special form.
    let (mut x, y) = (arr(&x0), arr(&y0));
    let s_mul = chain_ns(iters, reps, || x = std::hint::black_box(P::mul(&x, &y)));
    let s_mul_end = from_limbs(&x);
    let mut x = arr(&x0);
    let s_sqr = chain_ns(iters, reps, || x = std::hint::black_box(P::sqr(&x)));
    let s_sqr_end = from_limbs(&x);
    // Montgomery on the same prime and the same values (converted in and out).
    let ctx = MontContext::new(&p).expect("odd prime");
    let mut t = ctx.scratch();
    let len = ctx.len();
    let ym = ctx.to_mont(&to_limbs(&y0, len).unwrap(), &mut t);
    let mut xm = ctx.to_mont(&to_limbs(&x0, len).unwrap(), &mut t);
    let mut o = vec![0; len];
    let m_mul = chain_ns(iters, reps, || {
        ctx.mul(&mut o, &xm, &ym, &mut t);
        std::mem::swap(&mut xm, &mut o);
    });
    let m_mul_end = from_limbs(&ctx.from_mont(&xm, &mut t));
    let mut xm = ctx.to_mont(&to_limbs(&x0, len).unwrap(), &mut t);
    let m_sqr = chain_ns(iters, reps, || {
        ctx.sqr(&mut o, &xm, &mut t);
        std::mem::swap(&mut xm, &mut o);
    });
    let m_sqr_end = from_limbs(&ctx.from_mont(&xm, &mut t));
    // Both chains ran the same number of steps (warm-up included), so they must agree.
    assert_eq!(s_mul_end, m_mul_end, "special and Montgomery mul chains disagree");
    assert_eq!(s_sqr_end, m_sqr_end, "special and Montgomery sqr chains disagree");
    // Fermat inversion: the same left-to-right ladder over p - 2 on both forms.
    let inv_iters = (iters / 1000).max(10);
    let x = arr(&x0);
    let mut s_inv_out = x;
    let s_inv = chain_ns(inv_iters, reps, || s_inv_out = std::hint::black_box(invert::<N, W, P>(&x)));
    let e = &p - 2u8;
    let xm0 = ctx.to_mont(&to_limbs(&x0, len).unwrap(), &mut t);
    let mut acc = xm0.clone();
    let m_inv = chain_ns(inv_iters, reps, || {
        acc.copy_from_slice(&xm0);
        for i in (0..e.bits() - 1).rev() {
            ctx.sqr(&mut o, &acc, &mut t);
            if e.bit(i) {
                ctx.mul(&mut acc, &o, &xm0, &mut t);
            } else {
                std::mem::swap(&mut acc, &mut o);
            }
        }
        std::hint::black_box(&acc);
    });
    assert_eq!(from_limbs(&s_inv_out), from_limbs(&ctx.from_mont(&acc, &mut t)), "the two inversions disagree");
    assert_eq!(&x0 * from_limbs(&s_inv_out) % &p, BigUint::from(1u8), "not an inverse");
    let (special, mont) = (Kernel::Portable.name(), ctx.kernel().name());
    [
        ("special", special, "mul", s_mul),
        ("special", special, "sqr", s_sqr),
        ("montgomery", mont, "mul", m_mul),
        ("montgomery", mont, "sqr", m_sqr),
        ("special", special, "inv", s_inv),
        ("montgomery", mont, "inv", m_inv),
    ]
}

pub fn measure(a: &Args) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    for &bits in &a.bits {
        let (name, res) = match bits {
            256 | 255 => ("2^255-19", compare::<4, 8, P25519>(a.count, a.reps)),
            384 => ("2^384-2^128-2^96+2^32-1", compare::<6, 12, P384>(a.count, a.reps)),
            448 => ("2^448-2^224-1", compare::<7, 14, P448>(a.count, a.reps)),
            521 => ("2^521-1", compare::<9, 18, P521>(a.count, a.reps)),
            _ => return Err(format!("--bits {bits}: only 256, 384, 448 and 521 have a special form here")),
        };
        for (engine, kernel, kind, ns) in &res {
            out.push(json!({"op": "modmul", "engine": engine, "kernel": kernel, "kind": kind, "prime": name, "bits": bits, "count": a.count, "mean_ns": ns, "mean_ms": ns * 1e-6}));
        }
        out.push(json!({"op": "modmul_ratio", "engine": "montgomery/special", "kernel": res[2].1, "prime": name, "bits": bits, "count": a.count,
                        "mul_ratio": res[2].3 / res[0].3, "sqr_ratio": res[3].3 / res[1].3, "inv_ratio": res[5].3 / res[4].3, "mean_ms": res[2].3 * 1e-6,
                        "hamburg_estimate": "about 2x at 256 bits (100 vs 55 cycles mul, 90 vs 45 sqr), rising towards 2.5-3x near 512 bits"}));
    }
    Ok(out)
}

pub fn run(a: Args) -> ExitCode {
    if a.count == 0 {
        eprintln!("primekit-lab bench modmul: --count must be positive");
        return ExitCode::from(2);
    }
    super::emit::print_records("modmul", measure(&a), None)
}
