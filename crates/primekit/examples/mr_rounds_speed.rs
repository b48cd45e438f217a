//! Constant-time Miller-Rabin rounds on one odd number: one base at a time
//! (`MillerRabin::passes_ct`) against `passes_all_ct`, which runs them in the process
//! kernel's widest lanes where they pay (`hazmat::lanes::SharedModulus::for_rounds`),
//! else the same single rounds. Run once per kernel with `PRIMEKIT_KERNEL`; arguments
//! are sizes in bits (default 1024 and 2048). A constant-time round costs the same on a
//! prime and on a composite, so large sizes use random odd numbers.
use num_bigint::BigUint;
use primekit::hazmat::primality::MillerRabin;
use rand_core::{RngCore, SeedableRng};
use std::time::Instant;

fn main() {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
    let args: Vec<u32> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let sizes = if args.is_empty() { vec![1024, 2048] } else { args };
    for bits in sizes {
        let n = if bits <= 2048 {
            primekit::generate_prime(bits).expect("prime")
        } else {
            let mut bytes = vec![0u8; bits.div_ceil(8) as usize];
            rng.fill_bytes(&mut bytes);
            let x = BigUint::from_bytes_be(&bytes) >> (8 * bytes.len() as u32 - bits);
            x | BigUint::from(1u8) | (BigUint::from(1u8) << (bits - 1))
        };
        let mr = MillerRabin::new(&n).expect("odd");
        for rounds in [3usize, 6, 8] {
            let bases: Vec<_> = (0..rounds).map(|_| mr.random_base(&mut rng).expect("rng")).collect();
            let iters = (200_000_000 / (bits as u64).pow(2)).clamp(1, 100) as u32;
            let t = Instant::now();
            for _ in 0..iters {
                std::hint::black_box(bases.iter().all(|a| mr.passes_ct(a)));
            }
            let single = t.elapsed().as_secs_f64() * 1e6 / iters as f64;
            let t = Instant::now();
            for _ in 0..iters {
                std::hint::black_box(mr.passes_all_ct(&bases));
            }
            let all = t.elapsed().as_secs_f64() * 1e6 / iters as f64;
            println!("{bits} bits, {rounds} rounds: one at a time {single:.0} us, passes_all_ct {all:.0} us");
        }
    }
}
