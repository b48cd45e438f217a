//! `primekit bench worst-case`: what one `is_prime` call can cost at a size, for the
//! table of docs/limits.md that justifies the input cap.
//!
//! A prime pays every round: trial division, the base-2 round, then `mr_rounds(bits)`
//! random-base rounds, each a full-size exponentiation with the same modulus. So the
//! worst case at a size is (1 + mr_rounds) x (one round), plus the sieve. This measures
//! one round (the base-2 round on an odd number without small factors, whose cost does
//! not depend on the verdict) `count` times and reports the median and the estimate;
//! with `--full-max-bits B` it also runs `is_prime` on a known prime of at most B bits
//! (Mersenne primes, by Lucas-Lehmer) to check the estimate against a measured run.

use super::emit;
use clap::Args as ClapArgs;
use num_bigint::BigUint;
use num_traits::One;
use primekit::hazmat::primality::{mr_rounds, MillerRabin};
use primekit::hazmat::sieve::trial_divide_vartime;
use rand_core::{RngCore, SeedableRng};
use serde_json::json;
use std::process::ExitCode;
use std::time::Instant;

/// Mersenne exponents p with 2^p - 1 prime, for the measured check.
const MERSENNE_PRIME_EXPONENTS: [u32; 8] = [2203, 3217, 4253, 4423, 9689, 9941, 11213, 19937];

#[derive(ClapArgs)]
pub struct Args {
    /// Sizes in bits, comma-separated (at most the input cap).
    #[arg(long, value_delimiter = ',', default_value = "4096,8192,16384,32768")]
    bits: Vec<u32>,
    /// Rounds timed per size (the median is reported).
    #[arg(long, default_value_t = 3)]
    count: usize,
    /// Also time whole `is_prime` calls on the Mersenne primes of at most this many bits.
    #[arg(long, default_value_t = 0)]
    full_max_bits: u32,
    /// RNG seed for the numbers.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

/// An odd `bits`-bit number without prime factors among the first 8192 odd primes.
fn no_small_factors(rng: &mut impl RngCore, bits: u32) -> BigUint {
    let mut bytes = vec![0u8; (bits as usize).div_ceil(8)];
    rng.fill_bytes(&mut bytes);
    let mut n = (BigUint::from_bytes_le(&bytes) >> (bytes.len() * 8 - bits as usize)) | (BigUint::one() << (bits - 1)) | BigUint::one();
    while trial_divide_vartime(&n.to_u64_digits(), 8192).is_some() {
        n += 2u32;
    }
    n
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

pub fn run(a: Args) -> ExitCode {
    let cap = primekit::MAX_INPUT_BITS;
    if a.count == 0 || a.bits.iter().any(|&b| b < 128 || u64::from(b) > cap) {
        eprintln!("primekit bench worst-case: --count must be positive and every size in 128..={cap} bits");
        return ExitCode::from(2);
    }
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(a.seed);
    for &bits in &a.bits {
        let n = no_small_factors(&mut rng, bits);
        let mr = match MillerRabin::new(&n) {
            Ok(mr) => mr,
            Err(e) => {
                eprintln!("primekit bench worst-case: {e}");
                return ExitCode::FAILURE;
            }
        };
        let samples: Vec<f64> = (0..a.count)
            .map(|_| {
                let t = Instant::now();
                std::hint::black_box(mr.passes_base_two_vartime());
                t.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        let round = median(samples.clone());
        let rounds = 1 + mr_rounds(u64::from(bits));
        emit::line(json!({
            "op": "is_prime_round", "engine": "primekit", "bits": bits, "count": a.count,
            "mean_ms": samples.iter().sum::<f64>() / a.count as f64, "median_ms": round,
            "rounds_for_a_prime": rounds, "estimated_prime_s": round * rounds as f64 / 1e3,
        }));
    }
    for p in MERSENNE_PRIME_EXPONENTS.into_iter().filter(|&p| p <= a.full_max_bits) {
        let n = (BigUint::one() << p) - 1u32;
        let t = Instant::now();
        let prime = primekit::is_prime(&n);
        let ms = t.elapsed().as_secs_f64() * 1e3;
        if !prime {
            eprintln!("primekit bench worst-case: 2^{p} - 1 was declared composite");
            return ExitCode::FAILURE;
        }
        emit::line(json!({"op": "is_prime_full", "engine": "primekit", "bits": p, "count": 1, "mean_ms": ms, "input": format!("2^{p}-1")}));
    }
    ExitCode::SUCCESS
}
