//! Quick timing (minimum of 9 runs, robust to a busy machine) of one lane-batch square
//! (`hazmat::lanes::SharedModulus`, the widest batch each kernel offers) against single
//! Montgomery squares on the same kernel, per lane. `PRIMEKIT_KERNEL` is not needed:
//! every kernel this CPU has is measured.
use num_bigint::BigUint;
use primekit::hazmat::lanes::{SharedModulus, Timing};
use primekit::hazmat::limbs::to_limbs;
use primekit::hazmat::mont::{Kernel, MontContext};
use std::time::Instant;

fn main() {
    for kernel in Kernel::available() {
        for bits in [512u64, 1024, 2048, 3072, 4096] {
            let m = (BigUint::from(1u8) << bits) - 159u32;
            let ctx = MontContext::with_kernel(&m, kernel).expect("available kernel");
            let batch = SharedModulus::for_rounds(&ctx, 8, Timing::ConstantTime);
            let xs: Vec<Vec<u64>> = (0..batch.lanes() as u32).map(|k| to_limbs(&((&m >> 3u32) + k), ctx.len()).unwrap()).collect();
            let mut x = batch.load(&xs);
            let iters = 40_000 / (bits as usize / 256).pow(2);
            let mut lane_ns = f64::MAX;
            for _ in 0..9 {
                let t = Instant::now();
                for _ in 0..iters {
                    x = batch.sqr(&x);
                }
                lane_ns = lane_ns.min(t.elapsed().as_nanos() as f64 / iters as f64);
            }
            let mut a = ctx.one().to_vec();
            a[0] ^= 12345;
            let (mut b, mut s) = (vec![0; ctx.len()], ctx.scratch());
            let mut sc_ns = f64::MAX;
            for _ in 0..9 {
                let t = Instant::now();
                for _ in 0..iters {
                    ctx.sqr(&mut b, &a, &mut s);
                    std::mem::swap(&mut a, &mut b);
                }
                sc_ns = sc_ns.min(t.elapsed().as_nanos() as f64 / iters as f64);
            }
            std::hint::black_box((&x, &a));
            let lanes = batch.lanes() as f64;
            println!(
                "{kernel} {bits}: {}-lane square {lane_ns:.0} ns (= {:.0} ns/lane), single square {sc_ns:.0} ns, speed-up {:.2}",
                batch.lanes(),
                lane_ns / lanes,
                sc_ns * lanes / lane_ns
            );
        }
    }
}
