//! `primekit bench test`: the primality test on the same inputs for every engine.
//!
//! Engines: `primekit` (`is_prime`: 64 random-base rounds up to 2048 bits, 128 above),
//! and with `--features compare` OpenSSL 3 `BN_check_prime` (same rule) and GMP
//! `mpz_probab_prime_p(n, 64)` (trial division, BPSW, then 40 Miller-Rabin rounds).

use super::modexp::random_bits;
use super::timing::{mean_median, time_passes};
use clap::{Args as ClapArgs, ValueEnum};
use num_bigint::BigUint;
use rand_chacha::rand_core::SeedableRng;
use serde_json::json;
use std::process::ExitCode;

#[derive(Clone, Copy, ValueEnum, PartialEq)]
pub enum Inputs {
    /// Uniform odd numbers with the top bit set (the workload of Massimo & Paterson 2020, Table 2).
    RandomOdd,
    /// Primes found by testing random odd numbers.
    Primes,
}

impl Inputs {
    fn name(self) -> &'static str {
        match self {
            Inputs::RandomOdd => "random-odd",
            Inputs::Primes => "primes",
        }
    }
}

#[derive(ClapArgs)]
pub struct Args {
    /// Input sizes in bits, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1024")]
    bits: Vec<u32>,
    #[arg(long, value_enum, default_value = "random-odd")]
    inputs: Inputs,
    /// Number of distinct inputs per size.
    #[arg(long, default_value_t = 2000)]
    count: usize,
    /// Timed passes over the inputs.
    #[arg(long, default_value_t = 3)]
    reps: usize,
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn emit(engine: &str, bits: u32, inputs: Inputs, count: usize, samples: &[f64], primes: usize) {
    let (mean, median) = mean_median(samples);
    super::emit::line(json!({"op": "is_prime", "engine": engine, "bits": bits, "inputs": inputs.name(), "count": count,
               "mean_ms": mean, "median_ms": median, "passes": samples.len(), "declared_prime": primes}));
}

pub fn make_inputs(bits: u32, kind: Inputs, count: usize, seed: u64) -> Vec<BigUint> {
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(seed);
    let mut v = Vec::with_capacity(count);
    while v.len() < count {
        let n = random_bits(&mut rng, bits) | BigUint::from(1u8);
        if kind == Inputs::RandomOdd || primekit::is_prime(&n) {
            v.push(n);
        }
    }
    v
}

pub fn run(args: Args) -> ExitCode {
    if let Err(code) = super::begin(args.count, &args.bits, 8..=16384) {
        return code;
    }
    for &bits in &args.bits {
        let inputs = make_inputs(bits, args.inputs, args.count, args.seed);
        let samples = time_passes(&inputs, args.reps, |n| {
            std::hint::black_box(primekit::is_prime(n));
        });
        let primes = inputs.iter().filter(|n| primekit::is_prime(n)).count();
        emit("primekit", bits, args.inputs, args.count, &samples, primes);
        #[cfg(feature = "compare")]
        compare(&inputs, bits, args.inputs, args.reps);
    }
    ExitCode::SUCCESS
}

#[cfg(feature = "compare")]
fn compare(inputs: &[BigUint], bits: u32, kind: Inputs, reps: usize) {
    use primekit_research::peers::{gmp::Mpz, openssl};
    let ctx = openssl::Ctx::new();
    let bns: Vec<_> = inputs.iter().map(openssl::Bn::from_biguint).collect();
    let check = |n: &openssl::Bn| openssl::check_prime(n, &ctx).expect("BN_check_prime error");
    let samples = time_passes(&bns, reps, |n| {
        std::hint::black_box(check(n));
    });
    let primes = bns.iter().filter(|n| check(n)).count();
    emit("openssl", bits, kind, inputs.len(), &samples, primes);
    let zs: Vec<_> = inputs.iter().map(Mpz::from_biguint).collect();
    let samples = time_passes(&zs, reps, |n| {
        std::hint::black_box(n.probab_prime_p(64));
    });
    let primes = zs.iter().filter(|n| n.probab_prime_p(64) > 0).count();
    emit("gmp", bits, kind, inputs.len(), &samples, primes);
}
