//! `primekit-lab bench modexp`: a^e mod m with full-size e, all engines on the same triples.
//!
//! What is timed: for primekit, conversion into Montgomery form, the exponentiation and
//! conversion back, with the context built beforehand; for OpenSSL, `BN_mod_exp_mont`
//! with its `BN_MONT_CTX` built beforehand; for GMP, `mpz_powm` (which has no reusable
//! context, so its setup is inside the call by design).
//!
//! The `primekit` and `primekit-ct` lines run the process-wide kernel (`PRIMEKIT_KERNEL`,
//! else the fastest); every line names the kernel that ran in its `kernel` field.

use super::inputs::random_bits;
use super::timing::{mean_median, measure, Engine};
use clap::Args as ClapArgs;
use num_bigint::BigUint;
use primekit::hazmat::limbs::{from_limbs, to_limbs};
use primekit::hazmat::mont::{pow_ct, pow_vartime};
use primekit::hazmat::mont::{Kernel, MontContext};
use rand_chacha::rand_core::SeedableRng;
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
    /// Also measure the constant-time exponentiation, the ADX kernel (when another one is
    /// selected) and the portable kernel.
    #[arg(long)]
    all_kernels: bool,
    /// RNG seed for the inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Run the engines round-robin, one pass each per repetition, instead of all passes
    /// of one engine before the next: on a shared, noisy machine every engine then sees
    /// the same background load, so ratios between engines are more trustworthy.
    #[arg(long)]
    interleave: bool,
}

struct Triple {
    m: BigUint,
    a: BigUint,
    e: BigUint,
}

fn emit(engine: &str, kernel: &str, bits: u32, count: usize, samples: &[f64]) {
    let (mean, median) = mean_median(samples);
    // The fastest pass is the least disturbed by other load on a shared machine.
    let min = samples.iter().copied().fold(f64::INFINITY, f64::min);
    primekit_cli::files::print_or_exit(&format!(
        "{}\n",
        json!({"op": "modexp", "engine": engine, "kernel": kernel, "bits": bits, "count": count, "mean_ms": mean, "median_ms": median, "min_ms": min, "passes": samples.len()})
    ));
}

pub fn run(args: Args) -> ExitCode {
    if let Err(code) = super::begin("modexp", args.count, &args.bits, 8..=16384) {
        return code;
    }
    // The primekit line runs the process-wide kernel, so PRIMEKIT_KERNEL chooses it.
    let selected = match Kernel::selected() {
        Ok(k) => k,
        Err(e) => {
            eprintln!("primekit-lab bench modexp: {e}");
            return ExitCode::from(2);
        }
    };
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
        let mut kernels = vec![("primekit", selected, false)];
        if args.all_kernels {
            kernels.push(("primekit-ct", selected, true));
            if selected != Kernel::Adx && Kernel::Adx.is_available() {
                kernels.push(("primekit-adx", Kernel::Adx, false));
            }
            if selected != Kernel::Portable {
                kernels.push(("primekit-portable", Kernel::Portable, false));
            }
        }
        let mut engines: Vec<Engine<'static, '_>> = Vec::new();
        for (name, kernel, ct) in kernels {
            let prepared: Vec<_> = inputs
                .iter()
                .map(|t| {
                    let ctx = MontContext::with_kernel(&t.m, kernel).expect("odd modulus");
                    let a = to_limbs(&t.a, ctx.len()).expect("reduced");
                    (ctx, a, t.e.to_u64_digits(), t.e.bits() as usize)
                })
                .collect();
            let one = move |(ctx, a, e, ebits): &(MontContext, Vec<u64>, Vec<u64>, usize)| {
                let mut t = ctx.scratch();
                let am = ctx.to_mont(a, &mut t);
                let r = if ct { pow_ct(ctx, &am, e, *ebits) } else { pow_vartime(ctx, &am, e) };
                ctx.from_mont(&r, &mut t)
            };
            for (i, p) in prepared.iter().take(2).enumerate() {
                let r = from_limbs(&one(p));
                assert_eq!(r, inputs[i].a.modpow(&inputs[i].e, &inputs[i].m), "self-check failed");
            }
            engines.push((
                name,
                kernel.name(),
                Box::new(move || {
                    for p in &prepared {
                        std::hint::black_box(one(p));
                    }
                }),
            ));
        }
        #[cfg(feature = "compare")]
        peer_engines(&inputs, &mut engines);
        for ((name, kernel), samples) in measure(&mut engines, args.reps, args.interleave) {
            let per_input: Vec<f64> = samples.iter().map(|ms| ms / args.count as f64).collect();
            emit(name, kernel, bits, args.count, &per_input);
        }
    }
    ExitCode::SUCCESS
}

#[cfg(feature = "compare")]
fn peer_engines<'a>(inputs: &'a [Triple], engines: &mut Vec<Engine<'static, 'a>>) {
    use primekit_research::peers::{gmp::Mpz, openssl};
    let ossl: Vec<_> =
        inputs.iter().map(|t| (openssl::MontExp::new(&t.m), openssl::Bn::from_biguint(&t.a), openssl::Bn::from_biguint(&t.e))).collect();
    let mut r = openssl::Bn::new();
    ossl[0].0.exp(&mut r, &ossl[0].1, &ossl[0].2);
    assert_eq!(r.to_biguint(), inputs[0].a.modpow(&inputs[0].e, &inputs[0].m), "openssl self-check");
    // OpenSSL picks its own code path (x86_64-mont5 assembly on x86_64).
    engines.push((
        "openssl",
        "openssl-bn",
        Box::new(move || {
            for (ctx, a, e) in &ossl {
                ctx.exp(&mut r, a, e);
            }
        }),
    ));

    let g: Vec<_> = inputs.iter().map(|t| (Mpz::from_biguint(&t.m), Mpz::from_biguint(&t.a), Mpz::from_biguint(&t.e))).collect();
    let mut r = Mpz::new();
    r.powm(&g[0].1, &g[0].2, &g[0].0);
    assert_eq!(r.to_biguint(), inputs[0].a.modpow(&inputs[0].e, &inputs[0].m), "gmp self-check");
    engines.push((
        "gmp",
        "gmp-mpn",
        Box::new(move || {
            for (m, a, e) in &g {
                r.powm(a, e, m);
            }
        }),
    ));
}
