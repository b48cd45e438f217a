//! Quick timing (minimum over 9 runs, robust to a busy machine) of the set-up of a
//! Montgomery context on moduli of 576 to 4096 bits: the constant-time set-up
//! (`MontContext::with_kernel`, every kernel this CPU has, and the widest lane batch on
//! it, `SharedModulus::widest`) and num-bigint's (`MontContext::new_vartime`, for public
//! moduli, on the process kernel: `PRIMEKIT_KERNEL` selects it, with its lanes).
use num_bigint::BigUint;
use primekit::hazmat::lanes::SharedModulus;
use primekit::hazmat::mont::{Kernel, MontContext};
use std::time::Instant;

/// Minimum over 9 runs of the mean time of `f` over `iters` calls, in microseconds.
fn min_us(iters: usize, mut f: impl FnMut(usize)) -> f64 {
    (0..9)
        .map(|_| {
            let t = Instant::now();
            (0..iters).for_each(&mut f);
            t.elapsed().as_nanos() as f64 / iters as f64 / 1e3
        })
        .fold(f64::MAX, f64::min)
}

fn main() {
    let build = |kernel: Option<Kernel>, m: &BigUint| match kernel {
        Some(k) => MontContext::with_kernel(m, k).expect("available kernel"),
        None => MontContext::new_vartime(m).expect("odd modulus"),
    };
    for kernel in Kernel::available().into_iter().map(Some).chain([None]) {
        for bits in [576u64, 1024, 2048, 4096] {
            // Sixteen different moduli of the size, top bit set.
            let ms: Vec<BigUint> = (0..16u32).map(|i| (BigUint::from(1u8) << bits) - 159u32 - 2u32 * i * 0x9e37_79b9).collect();
            let iters = 400_000 / bits as usize;
            let ctx_us = min_us(iters, |i| drop(std::hint::black_box(build(kernel, &ms[i % ms.len()]))));
            let ctx = build(kernel, &ms[0]);
            let lanes_us = min_us(iters / 4, |_| drop(std::hint::black_box(SharedModulus::widest(&ctx))));
            let name = kernel.map_or(format!("new_vartime ({:?})", ctx.kernel()), |k| format!("{k:?}"));
            println!("{name} {bits} bits: MontContext {ctx_us:.2} us, widest lanes {lanes_us:.2} us");
        }
    }
}
