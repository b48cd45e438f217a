//! Quick timing (minimum of 9 runs, robust to a busy machine) of the 8-lane base-2 Fermat test
//! (`arith::ifma_fermat::fermat_base_two_lanes`) per candidate, at the generator's sizes.
use num_bigint::BigUint;
use primekit::arith::ifma_fermat::fermat_base_two_lanes;
use primekit::hazmat::gen::fermat_base_two_scalar_ct;
use std::time::Instant;

fn main() {
    for bits in [1024usize, 1536, 2048, 3072, 4096] {
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
        let mut one = f64::MAX;
        let nums: Vec<BigUint> = cands.iter().map(|c| BigUint::from_slice(&c.iter().flat_map(|&l| [l as u32, (l >> 32) as u32]).collect::<Vec<_>>())).collect();
        for _ in 0..9 {
            let t = Instant::now();
            for _ in 0..iters {
                for n in &nums {
                    std::hint::black_box(fermat_base_two_scalar_ct(std::hint::black_box(n)).unwrap());
                }
            }
            one = one.min(t.elapsed().as_secs_f64() * 1e6 / (iters * nums.len()) as f64);
        }
        println!("{bits}: 8-lane Fermat {best:.0} us per batch = {:.1} us per candidate; one at a time (context + pow2_ct) {one:.1} us", best / 8.0);
    }
}
