//! Quick timing (minimum of 9 runs, robust to a busy machine) of the 8-lane base-2 Fermat test
//! (`arith::ifma_fermat::fermat_base_two_lanes`) per candidate, at the generator's sizes.
use num_bigint::BigUint;
use primekit::arith::ifma_fermat::fermat_base_two_lanes;
use std::time::Instant;

fn main() {
    for bits in [1024usize, 2048] {
        let cands: Vec<Vec<u64>> = (0..8u32).map(|k| (((BigUint::from(3u8) << (bits - 2)) - 1u8) - 2u32 * k).to_u64_digits()).collect();
        let refs: Vec<&[u64]> = cands.iter().map(Vec::as_slice).collect();
        let iters = 20 * 1024 * 1024 / (bits * bits) + 1;
        let mut best = f64::MAX;
        for _ in 0..9 {
            let t = Instant::now();
            for _ in 0..iters {
                std::hint::black_box(fermat_base_two_lanes(std::hint::black_box(&refs), bits));
            }
            best = best.min(t.elapsed().as_secs_f64() * 1e6 / iters as f64);
        }
        println!("{bits}: 8-lane Fermat {best:.0} us per batch = {:.1} us per candidate", best / 8.0);
    }
}
