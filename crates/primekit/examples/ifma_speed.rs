//! Quick timing (minimum of 9 runs, robust to a busy machine) of one 8-lane IFMA product against eight scalar Montgomery products.
use num_bigint::BigUint;
use primekit::arith::ifma::Ifma8;
use primekit::hazmat::mont::MontContext;
use std::time::Instant;

fn main() {
    for bits in [512u64, 1024, 2048, 3072, 4096] {
        let m = (BigUint::from(1u8) << bits) - 159u32;
        let Some(c) = Ifma8::new(&m) else { println!("no ifma"); return; };
        let xs: Vec<BigUint> = (0..8u32).map(|k| (&m >> 3u32) + k).collect();
        let mut x = c.to_mont(&xs);
        let iters = 40_000 / (bits as usize / 256).pow(2);
        let mut lane_ns = f64::MAX;
        for _ in 0..9 {
            let t = Instant::now();
            for _ in 0..iters { x = c.mul(&x, &x); }
            lane_ns = lane_ns.min(t.elapsed().as_nanos() as f64 / iters as f64);
        }
        let ctx = MontContext::new(&m).unwrap();
        let mut a = ctx.one().to_vec(); a[0] ^= 12345; let mut b = vec![0; ctx.len()]; let mut s = ctx.scratch();
        let mut sc_ns = f64::MAX;
        for _ in 0..9 {
            let t = Instant::now();
            for _ in 0..iters { ctx.sqr(&mut b, &a, &mut s); std::mem::swap(&mut a, &mut b); }
            sc_ns = sc_ns.min(t.elapsed().as_nanos() as f64 / iters as f64);
        }
        std::hint::black_box((&x, &a));
        println!("{bits}: ifma8 mul {lane_ns:.0} ns (= {:.0} ns/lane), scalar sqr {sc_ns:.0} ns, speedup {:.2}", lane_ns / 8.0, sc_ns * 8.0 / lane_ns);
    }
}
