//! Constant-time Miller-Rabin rounds on one prime: one base at a time
//! (`MillerRabin::passes_ct`) against `passes_all_ct`, which runs them in the process
//! kernel's widest lanes where they pay (`hazmat::lanes::SharedModulus::for_rounds`),
//! else the same single rounds. Run once per kernel with `PRIMEKIT_KERNEL`.
use primekit::hazmat::primality::MillerRabin;
use rand_core::SeedableRng;
use std::time::Instant;

fn main() {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(1);
    for bits in [1024u32, 2048] {
        let p = primekit::generate_prime(bits).expect("prime");
        let mr = MillerRabin::new(&p).expect("odd");
        for rounds in [3usize, 6] {
            let bases: Vec<_> = (0..rounds).map(|_| mr.random_base(&mut rng).expect("rng")).collect();
            let iters = 100;
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
