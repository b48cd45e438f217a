//! Quick timing (minimum of 9 runs, robust to a busy machine) of the base-2 Fermat test
//! per candidate.
//!
//! Default mode, at the generator's sizes: a whole `hazmat::lanes::FermatBatch::test_ct`
//! on every kernel this CPU has, against one candidate at a time on the process kernel
//! (context set-up included, `hazmat::gen::fermat_base_two_scalar_ct`).
//!
//! `mixed [bits ...]` (default 1024 2048), for public numbers of mixed sizes (the
//! elliptic-curve prover's cofactors): 64 random odd numbers of sizes spread over
//! [bits − 40, bits], by `FermatBatch::test_vartime` in full batches on the process kernel
//! (`PRIMEKIT_KERNEL`), against one at a time by `MillerRabin::new_vartime` and
//! `passes_base_two_vartime`; then the time of one batch by its number of candidates.
use num_bigint::{BigUint, RandBigInt};
use primekit::hazmat::gen::fermat_base_two_scalar_ct;
use primekit::hazmat::lanes::FermatBatch;
use primekit::hazmat::mont::Kernel;
use primekit::hazmat::primality::MillerRabin;
use rand::{Rng, SeedableRng};
use std::time::Instant;

/// Fastest of 9 runs of `f`, in microseconds per call.
fn best_us(iters: usize, mut f: impl FnMut()) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..9 {
        let t = Instant::now();
        for _ in 0..iters {
            f();
        }
        best = best.min(t.elapsed().as_secs_f64() * 1e6 / iters as f64);
    }
    best
}

fn mixed(sizes: &[usize]) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for &bits in sizes {
        let cands: Vec<BigUint> = (0..64)
            .map(|_| {
                let b = rng.gen_range(bits - 40..=bits) as u64;
                let mut n = rng.gen_biguint(b) | BigUint::from(1u8);
                n.set_bit(b - 1, true);
                n
            })
            .collect();
        let batch = FermatBatch::new(bits).expect("batch");
        let lanes = batch.lanes();
        let iters = 4 * 1024 * 1024 / (bits * bits) + 1;
        let whole = best_us(iters, || {
            for chunk in cands.chunks(lanes) {
                std::hint::black_box(batch.test_vartime(std::hint::black_box(chunk)).unwrap());
            }
        });
        let mr = best_us(iters, || {
            for q in &cands {
                std::hint::black_box(MillerRabin::new_vartime(std::hint::black_box(q)).unwrap().passes_base_two_vartime());
            }
        });
        let kernel = Kernel::selected().expect("kernel");
        let per = |t: f64| t / cands.len() as f64;
        println!(
            "{bits} mixed [{}, {bits}], {kernel}: test_vartime ({lanes} lanes) {:.1} us per candidate, MillerRabin::new_vartime + base 2 {:.1} us, ratio {:.2}",
            bits - 40,
            per(whole),
            per(mr),
            whole / mr
        );
        let by_count: Vec<String> = (1..=lanes)
            .map(|k| format!("{k}: {:.0}", best_us(iters, || std::hint::black_box(batch.test_vartime(&cands[..k]).map(|_| ())).unwrap())))
            .collect();
        println!("{bits} {kernel}: one test_vartime call by candidates (us): {}", by_count.join(", "));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("mixed") {
        let sizes: Vec<usize> = args[1..].iter().map(|b| b.parse().expect("bits")).collect();
        mixed(if sizes.is_empty() { &[1024, 2048] } else { &sizes });
        return;
    }
    for bits in [1024usize, 1536, 2048, 3072, 4096] {
        let iters = 20 * 1024 * 1024 / (bits * bits) + 1;
        for kernel in Kernel::available() {
            let batch = FermatBatch::with_kernel(bits, kernel).expect("available kernel");
            let cands: Vec<BigUint> = (0..batch.lanes() as u32).map(|k| ((BigUint::from(3u8) << (bits - 2)) - 1u8) - 2u32 * k).collect();
            let best = best_us(iters, || {
                std::hint::black_box(batch.test_ct(std::hint::black_box(&cands)).unwrap());
            });
            println!("{bits}: {kernel} batch of {} {best:.0} us = {:.1} us per candidate", batch.lanes(), best / batch.lanes() as f64);
        }
        let nums: Vec<BigUint> = (0..8u32).map(|k| ((BigUint::from(3u8) << (bits - 2)) - 1u8) - 2u32 * k).collect();
        let one = best_us(iters, || {
            for n in &nums {
                std::hint::black_box(fermat_base_two_scalar_ct(std::hint::black_box(n)).unwrap());
            }
        }) / nums.len() as f64;
        println!("{bits}: one at a time (context + pow2_ct) {one:.1} us");
    }
}
