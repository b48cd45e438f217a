//! Cost per exponent bit of a variable-time exponentiation, per kernel, across sizes
//! 2048-32768 bits: where the IFMA domain (radix 2^52 vectors) beats the scalar kernels
//! and how it scales. Thread-independent wall time of one exponentiation with a 1024-bit
//! exponent, best of three. Arguments: kernel names and sizes in bits to time only those
//! (default: all).
use num_bigint::BigUint;
use primekit::hazmat::mont::{pow_vartime, Kernel, MontContext};
use std::time::Instant;

fn main() {
    let (sizes, only): (Vec<String>, Vec<String>) = std::env::args().skip(1).partition(|a| a.parse::<u64>().is_ok());
    let sizes: Vec<u64> = sizes.iter().map(|s| s.parse().expect("checked")).collect();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut random = |bits: u64| {
        let words: Vec<u32> = (0..bits.div_ceil(32))
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u32
            })
            .collect();
        BigUint::from_slice(&words) >> (32 * bits.div_ceil(32) - bits)
    };
    for bits in [2048u64, 4096, 6144, 8192, 12288, 16384, 24576, 32768] {
        if !sizes.is_empty() && !sizes.contains(&bits) {
            continue;
        }
        let m = random(bits) | BigUint::from(1u8) | (BigUint::from(1u8) << (bits - 1));
        let base = random(bits - 1);
        let e = random(1024).to_u64_digits();
        let mut line = format!("{bits:>6} bits:");
        for kernel in Kernel::available().into_iter().filter(|k| only.is_empty() || only.iter().any(|o| o == k.name())) {
            let ctx = MontContext::with_kernel(&m, kernel).expect("odd modulus");
            let mut t = ctx.scratch();
            let b = ctx.to_mont(&primekit::hazmat::limbs::to_limbs(&(&base % &m), ctx.len()).expect("fits"), &mut t);
            let best = (0..3)
                .map(|_| {
                    let start = Instant::now();
                    std::hint::black_box(pow_vartime(&ctx, &b, &e));
                    start.elapsed().as_secs_f64()
                })
                .fold(f64::INFINITY, f64::min);
            line += &format!("  {}: {:.2} us/bit", kernel.name(), best * 1e6 / 1024.0);
        }
        println!("{line}");
    }
}
