//! `primekit bench test`: the primality test on the same inputs for every engine.
//!
//! Engines: `primekit` (`is_prime`: 64 random-base rounds up to 2048 bits, 128 above),
//! and with `--features compare` OpenSSL 3 `BN_check_prime` (same rule) and GMP
//! `mpz_probab_prime_p(n, 64)` (trial division, BPSW, then 40 Miller-Rabin rounds).

use super::inputs::random_bits;
use super::timing::{mean_median, measure, Engine};
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
    /// Run the engines round-robin, one pass each per repetition, instead of all passes
    /// of one engine before the next: on a shared, noisy machine every engine then sees
    /// the same background load, so ratios between engines are more trustworthy.
    #[arg(long)]
    interleave: bool,
}

#[allow(clippy::too_many_arguments)]
fn emit(engine: &str, kernel: &str, bits: u32, inputs: Inputs, count: usize, samples: &[f64], primes: usize) {
    let (mean, median) = mean_median(samples);
    super::emit::line(json!({"op": "is_prime", "engine": engine, "kernel": kernel, "bits": bits, "inputs": inputs.name(), "count": count,
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
    if let Err(code) = super::begin("test", args.count, &args.bits, 8..=16384) {
        return code;
    }
    for &bits in &args.bits {
        let inputs = make_inputs(bits, args.inputs, args.count, args.seed);
        #[cfg(feature = "compare")]
        let peers = Peers::new(&inputs);
        // Inputs each engine declares prime, in the order of `engines`.
        #[cfg_attr(not(feature = "compare"), allow(unused_mut))] // the peers add theirs
        let mut declared = vec![inputs.iter().filter(|n| primekit::is_prime(n)).count()];
        let mut engines: Vec<Engine<'static, '_>> = vec![(
            "primekit",
            super::emit::process_kernel(),
            Box::new(|| {
                for n in &inputs {
                    std::hint::black_box(primekit::is_prime(n));
                }
            }),
        )];
        #[cfg(feature = "compare")]
        peers.engines(&mut engines, &mut declared);
        for (((name, kernel), samples), primes) in measure(&mut engines, args.reps, args.interleave).into_iter().zip(declared) {
            let per_input: Vec<f64> = samples.iter().map(|ms| ms / args.count as f64).collect();
            emit(name, kernel, bits, args.inputs, args.count, &per_input, primes);
        }
    }
    ExitCode::SUCCESS
}

/// The inputs converted for OpenSSL 3 `BN_check_prime` and GMP `mpz_probab_prime_p(n, 64)`.
#[cfg(feature = "compare")]
struct Peers {
    ctx: primekit_research::peers::openssl::Ctx,
    bns: Vec<primekit_research::peers::openssl::Bn>,
    zs: Vec<primekit_research::peers::gmp::Mpz>,
}

#[cfg(feature = "compare")]
impl Peers {
    fn new(inputs: &[BigUint]) -> Peers {
        use primekit_research::peers::{gmp::Mpz, openssl};
        Peers {
            ctx: openssl::Ctx::new(),
            bns: inputs.iter().map(openssl::Bn::from_biguint).collect(),
            zs: inputs.iter().map(Mpz::from_biguint).collect(),
        }
    }

    /// Adds the OpenSSL and GMP engines, and the number of inputs each declares prime.
    fn engines<'a>(&'a self, engines: &mut Vec<Engine<'static, 'a>>, declared: &mut Vec<usize>) {
        use primekit_research::peers::openssl;
        let check = |n: &openssl::Bn| openssl::check_prime(n, &self.ctx).expect("BN_check_prime error");
        declared.push(self.bns.iter().filter(|n| check(n)).count());
        engines.push((
            "openssl",
            "openssl",
            Box::new(move || {
                for n in &self.bns {
                    std::hint::black_box(check(n));
                }
            }),
        ));
        declared.push(self.zs.iter().filter(|n| n.probab_prime_p(64) > 0).count());
        engines.push((
            "gmp",
            "gmp",
            Box::new(move || {
                for n in &self.zs {
                    std::hint::black_box(n.probab_prime_p(64));
                }
            }),
        ));
    }
}
