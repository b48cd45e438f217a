//! `primekit bench modexp`: a^e mod m with full-size e, all engines on the same triples.
//!
//! What is timed: for primekit, conversion into Montgomery form, the exponentiation and
//! conversion back, with the context built beforehand; for OpenSSL, `BN_mod_exp_mont`
//! with its `BN_MONT_CTX` built beforehand; for GMP, `mpz_powm` (which has no reusable
//! context, so its setup is inside the call by design).

use super::timing::{mean_median, time_passes};
use clap::Args as ClapArgs;
use num_bigint::BigUint;
use primekit::arith::limbs::{from_limbs, to_limbs};
use primekit::arith::modexp::{pow_ct, pow_vartime};
use primekit::arith::{Kernel, MontContext};
use rand_chacha::rand_core::{RngCore, SeedableRng};
use serde_json::json;
use std::process::ExitCode;

#[derive(ClapArgs)]
pub struct Args {
    /// Modulus sizes in bits, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "512,1024,2048,3072,4096")]
    bits: Vec<u32>,
    /// Number of distinct (modulus, base, exponent) triples per size.
    #[arg(long, default_value_t = 64)]
    count: usize,
    /// Timed passes over the inputs; the mean and median of the passes are reported.
    #[arg(long, default_value_t = 5)]
    reps: usize,
    /// Also measure the portable kernel and the constant-time exponentiation.
    #[arg(long)]
    all_kernels: bool,
    /// RNG seed for the inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn random_bits(rng: &mut impl RngCore, bits: u32) -> BigUint {
    let mut bytes = vec![0u8; (bits as usize).div_ceil(8)];
    rng.fill_bytes(&mut bytes);
    let x = BigUint::from_bytes_be(&bytes) >> (bytes.len() * 8 - bits as usize);
    x | (BigUint::from(1u8) << (bits - 1))
}

struct Triple {
    m: BigUint,
    a: BigUint,
    e: BigUint,
}

fn emit(engine: &str, bits: u32, count: usize, samples: &[f64]) {
    let (mean, median) = mean_median(samples);
    println!("{}", json!({"op": "modexp", "engine": engine, "bits": bits, "count": count, "mean_ms": mean, "median_ms": median, "passes": samples.len()}));
}

pub fn run(args: Args) -> ExitCode {
    if args.count == 0 || args.bits.iter().any(|&b| !(8..=16384).contains(&b)) {
        eprintln!("error: --count must be positive and --bits within 8..=16384");
        return ExitCode::from(2);
    }
    if let Some(n) = super::peers_note() {
        println!("{n}");
    }
    let mut rng = rand_chacha::ChaCha20Rng::seed_from_u64(args.seed);
    for &bits in &args.bits {
        let inputs: Vec<Triple> = (0..args.count)
            .map(|_| {
                let m = random_bits(&mut rng, bits) | BigUint::from(1u8);
                let a = random_bits(&mut rng, bits) % &m;
                let e = random_bits(&mut rng, bits);
                Triple { m, a, e }
            })
            .collect();
        let mut kernels = vec![("primekit", Kernel::best(), false)];
        if args.all_kernels {
            kernels.push(("primekit-portable", Kernel::Portable, false));
            kernels.push(("primekit-ct", Kernel::best(), true));
        }
        for (name, kernel, ct) in kernels {
            let prepared: Vec<_> = inputs
                .iter()
                .map(|t| {
                    let ctx = MontContext::with_kernel(&t.m, kernel).expect("odd modulus");
                    let a = to_limbs(&t.a, ctx.len()).expect("reduced");
                    (ctx, a, t.e.to_u64_digits(), t.e.bits() as usize)
                })
                .collect();
            let mut check = Vec::new();
            let samples = time_passes(&prepared, args.reps, |(ctx, a, e, ebits)| {
                let mut t = ctx.scratch();
                let am = ctx.to_mont(a, &mut t);
                let r = if ct { pow_ct(ctx, &am, e, *ebits) } else { pow_vartime(ctx, &am, e) };
                let r = ctx.from_mont(&r, &mut t);
                std::hint::black_box(&r);
                if check.len() < 2 {
                    check.push(from_limbs(&r));
                }
            });
            for (i, r) in check.iter().take(2).enumerate() {
                assert_eq!(*r, inputs[i].a.modpow(&inputs[i].e, &inputs[i].m), "self-check failed");
            }
            emit(name, bits, args.count, &samples);
        }
        #[cfg(feature = "compare")]
        compare(&inputs, bits, args.reps);
    }
    ExitCode::SUCCESS
}

#[cfg(feature = "compare")]
fn compare(inputs: &[Triple], bits: u32, reps: usize) {
    use primekit::research::peers::{gmp::Mpz, openssl};
    let ossl: Vec<_> = inputs
        .iter()
        .map(|t| (openssl::MontExp::new(&t.m), openssl::Bn::from_biguint(&t.a), openssl::Bn::from_biguint(&t.e)))
        .collect();
    let mut r = openssl::Bn::new();
    let samples = time_passes(&ossl, reps, |(ctx, a, e)| ctx.exp(&mut r, a, e));
    ossl[0].0.exp(&mut r, &ossl[0].1, &ossl[0].2);
    assert_eq!(r.to_biguint(), inputs[0].a.modpow(&inputs[0].e, &inputs[0].m), "openssl self-check");
    emit("openssl", bits, inputs.len(), &samples);

    let g: Vec<_> = inputs.iter().map(|t| (Mpz::from_biguint(&t.m), Mpz::from_biguint(&t.a), Mpz::from_biguint(&t.e))).collect();
    let mut r = Mpz::new();
    let samples = time_passes(&g, reps, |(m, a, e)| r.powm(a, e, m));
    r.powm(&g[0].1, &g[0].2, &g[0].0);
    assert_eq!(r.to_biguint(), inputs[0].a.modpow(&inputs[0].e, &inputs[0].m), "gmp self-check");
    emit("gmp", bits, inputs.len(), &samples);
}
