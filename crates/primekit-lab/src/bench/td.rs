//! `primekit-lab bench td`: calibrates how many small primes `is_prime` trial-divides by.
//!
//! For each size and each r, on the same random odd inputs, it times the composite
//! path of `is_prime` (trial division by the first r odd primes, then the base-2
//! Miller-Rabin round for survivors) and prints the prediction of Massimo & Paterson 2020, eq. (6),
//! beside the measurement: sum_{i<=r} (1 - sigma_{i-1}) C_TD + (1 - sigma_r) C_MR, with C_MR
//! the measured base-2 round and C_TD the measured cost per prime of a full scan.

use super::test::{make_inputs, Inputs};
use super::timing::{mean_median, time_passes};
use clap::Args as ClapArgs;
use primekit::hazmat::primality::MillerRabin;
use primekit::hazmat::sieve::SMALL_ODD_PRIMES;
use primekit::hazmat::sieve::{trial_divide_vartime, TrialDivision};
use serde_json::json;
use std::process::ExitCode;

#[derive(ClapArgs)]
pub struct Args {
    #[arg(long, value_delimiter = ',', default_value = "512,1024,2048,3072,4096")]
    bits: Vec<u32>,
    #[arg(long, value_delimiter = ',', default_value = "0,64,128,256,512,1024,2048,4096,8192")]
    r: Vec<usize>,
    #[arg(long, default_value_t = 2000)]
    count: usize,
    #[arg(long, default_value_t = 3)]
    reps: usize,
}

/// 1 - sigma_r: the fraction of random odd numbers with no factor among the first r odd primes (eq. 2).
fn survivors(r: usize) -> f64 {
    SMALL_ODD_PRIMES[..r].iter().map(|&p| 1.0 - 1.0 / p as f64).product()
}

pub fn run(args: Args) -> ExitCode {
    if args.count == 0 || args.bits.iter().any(|&b| !(128..=16384).contains(&b)) || args.r.iter().any(|&r| r > SMALL_ODD_PRIMES.len()) {
        eprintln!("primekit-lab bench td: --count must be positive, --bits within 128..=16384, --r at most {}", SMALL_ODD_PRIMES.len());
        return ExitCode::from(2);
    }
    let td = TrialDivision::get();
    for &bits in &args.bits {
        let inputs = make_inputs(bits, Inputs::RandomOdd, args.count, 7);
        let limbs: Vec<Vec<u64>> = inputs.iter().map(|n| n.to_u64_digits()).collect();
        let mrs: Vec<MillerRabin> = inputs.iter().map(|n| MillerRabin::new(n).expect("odd")).collect();
        let idx: Vec<usize> = (0..inputs.len()).collect();
        let c_mr = mean_median(&time_passes(&idx, args.reps, |&i| {
            std::hint::black_box(mrs[i].passes_base_two_vartime());
        }))
        .1;
        // Cost per prime of a full scan: numbers with no small factor scan every group.
        let rmax = *args.r.iter().max().unwrap_or(&0);
        let full = td.primes_covering(rmax.max(1));
        let rough: Vec<Vec<u64>> = limbs.iter().filter(|l| trial_divide_vartime(l, full).is_none()).cloned().collect();
        let c_td = if rough.is_empty() {
            f64::NAN
        } else {
            mean_median(&time_passes(&rough, args.reps, |l| {
                std::hint::black_box(trial_divide_vartime(l, full));
            }))
            .1 / full as f64
        };
        for &r in &args.r {
            let samples = time_passes(&idx, args.reps, |&i| {
                let composite = r > 0 && trial_divide_vartime(&limbs[i], r).is_some();
                std::hint::black_box(composite || !mrs[i].passes_base_two_vartime());
            });
            let (mean, median) = mean_median(&samples);
            let used = if r == 0 { 0 } else { td.primes_covering(r) };
            let model: f64 = (0..used).map(|i| survivors(i) * c_td).sum::<f64>() + survivors(used) * c_mr;
            super::emit::line(json!({"op": "td", "engine": "primekit", "bits": bits, "r": r, "primes_used": used, "count": args.count,
                       "mean_ms": mean, "median_ms": median, "model_ms": model, "c_td_ms": c_td, "c_mr_ms": c_mr,
                       "sigma_r": 1.0 - survivors(used)}));
        }
    }
    ExitCode::SUCCESS
}
