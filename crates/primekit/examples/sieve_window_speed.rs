//! Quick timing (minimum of 5 runs) of one safe-prime search window's sieve setup
//! (`gen::segment::SegmentSieve::with_inverses`: residues, offsets, large-prime strikes)
//! plus three segments, against the number of sieving primes; for tuning `sieve_primes`.
use num_bigint::BigUint;
use primekit::hazmat::sieve::first_odd_primes;
use primekit::hazmat::sieve::{SegmentSieve, StepInverses};
use std::time::Instant;

fn main() {
    for bits in [1024u32, 2048] {
        let log2_window = if bits == 1024 { 19 } else { 21 };
        let c0 = (BigUint::from(3u8) << (bits - 2)) + 12345u32 * 4u32 + 3u32;
        for n in [100_000usize, 200_000, 400_000, 800_000, 1_600_000, 3_200_000] {
            let primes = first_odd_primes(n);
            let inv = StepInverses::new(&[4], primes);
            let mut best = f64::MAX;
            for _ in 0..5 {
                let t = Instant::now();
                let mut s = SegmentSieve::with_inverses(&c0.to_u64_digits(), &inv, primes, true, 1 << 16, 1 << log2_window);
                for _ in 0..3 {
                    std::hint::black_box(s.next_segment());
                }
                best = best.min(t.elapsed().as_secs_f64() * 1e3);
            }
            println!("{bits} bits, {n} primes: {best:.2} ms per window");
        }
    }
}
