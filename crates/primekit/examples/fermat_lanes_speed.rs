//! Quick timing (minimum of 9 runs, robust to a busy machine) of the base-2 Fermat test
//! per candidate at the generator's sizes: a whole `hazmat::lanes::FermatBatch` on every
//! kernel this CPU has, against one candidate at a time on the process kernel (context
//! set-up included, `hazmat::gen::fermat_base_two_scalar_ct`).
use num_bigint::BigUint;
use primekit::hazmat::gen::fermat_base_two_scalar_ct;
use primekit::hazmat::lanes::FermatBatch;
use primekit::hazmat::mont::Kernel;
use std::time::Instant;

fn main() {
    for bits in [1024usize, 1536, 2048, 3072, 4096] {
        let iters = 20 * 1024 * 1024 / (bits * bits) + 1;
        for kernel in Kernel::available() {
            let batch = FermatBatch::with_kernel(bits, kernel).expect("available kernel");
            let cands: Vec<BigUint> = (0..batch.lanes() as u32).map(|k| ((BigUint::from(3u8) << (bits - 2)) - 1u8) - 2u32 * k).collect();
            let mut best = f64::MAX;
            for _ in 0..9 {
                let t = Instant::now();
                for _ in 0..iters {
                    std::hint::black_box(batch.test_ct(std::hint::black_box(&cands)).unwrap());
                }
                best = best.min(t.elapsed().as_secs_f64() * 1e6 / iters as f64);
            }
            println!("{bits}: {kernel} batch of {} {best:.0} us = {:.1} us per candidate", batch.lanes(), best / batch.lanes() as f64);
        }
        let nums: Vec<BigUint> = (0..8u32).map(|k| ((BigUint::from(3u8) << (bits - 2)) - 1u8) - 2u32 * k).collect();
        let mut one = f64::MAX;
        for _ in 0..9 {
            let t = Instant::now();
            for _ in 0..iters {
                for n in &nums {
                    std::hint::black_box(fermat_base_two_scalar_ct(std::hint::black_box(n)).unwrap());
                }
            }
            one = one.min(t.elapsed().as_secs_f64() * 1e6 / (iters * nums.len()) as f64);
        }
        println!("{bits}: one at a time (context + pow2_ct) {one:.1} us");
    }
}
