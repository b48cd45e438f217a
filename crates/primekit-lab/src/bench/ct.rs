//! `primekit-lab bench ct`: the dudect-style constant-time timing tests
//! (`primekit_research::ct_timing`) of every `_ct` entry point on the process kernel
//! (`PRIMEKIT_KERNEL`), plus the deliberately leaky control that must be flagged.
//! One JSON line per target; exit 1 if a constant-time target is flagged in two runs or
//! the control is not flagged, so the command is a test (`.ci/timing.sh` runs it per
//! kernel).

use super::emit;
use clap::{Args as ClapArgs, ValueEnum};
use primekit::hazmat::mont::Kernel;
use primekit_research::ct_timing::{
    self, Candidate, Fermat, FixedSecret, LeakyControl, Outcome, Pow2, RandomCandidates, RsaCrt, Target, CROPS, THRESHOLD,
};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};
use std::process::ExitCode;
use std::time::Instant;

/// Every target, in the order they run.
const TARGETS: [&str; 6] = ["pow2_ct", "fermat_batch", "passes_ct", "candidate_rounds", "rsa_crt", "leaky_control"];

/// Targets run only when named: `rsa_crt_setup` times the constant-time set-up of the CRT
/// contexts and the reductions of c too (a flag in both runs fails, as for the default
/// targets); `passes_all_ct` is `candidate_rounds` without the set-up on the candidate.
const EXTRA_TARGETS: [&str; 2] = ["rsa_crt_setup", "passes_all_ct"];

/// What a target is expected to show.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Expect {
    /// No leak: a flag in both runs fails the command.
    ConstantTime,
    /// The deliberately leaky control: not flagging it fails the command.
    Leak,
}

/// The fixed class's secret (`--fixed`).
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Fixed {
    /// Exponent 0 (pow2_ct), base 2 (passes_ct), a fixed prime (candidate_rounds, passes_all_ct).
    Special,
    /// One random exponent, base or odd candidate of the same size, drawn from the seed.
    Random,
}

/// The random class of candidate_rounds and passes_all_ct (`--random-class`).
#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RandomClass {
    /// A fresh random odd number per call (composite almost surely).
    Odd,
    /// One of 1,000 random primes of the same size (from the seed), picked per call.
    Primes,
}

#[derive(ClapArgs)]
pub struct Args {
    /// Timed calls per target and run (both classes together).
    #[arg(long, default_value_t = 10_000)]
    measurements: usize,
    /// Size of the moduli, candidates and primes: from 513 bits the IFMA kernel runs single
    /// exponentiations in its own domain, and at 768 bits the AVX2 kernel's four Fermat
    /// and Miller-Rabin lanes are used (a length with a kernel of its own).
    #[arg(long, default_value_t = 768)]
    bits: usize,
    /// RSA modulus size of the rsa_crt target (two primes of half the size).
    #[arg(long, default_value_t = 1536)]
    rsa_bits: u32,
    /// Random-base rounds of the candidate_rounds target (from 5 the IFMA kernel runs
    /// them in its lanes).
    #[arg(long, default_value_t = 5)]
    rounds: u32,
    /// Comma-separated subset of: pow2_ct, fermat_batch, passes_ct, candidate_rounds, rsa_crt, leaky_control
    /// (default: all of them), or rsa_crt_setup, passes_all_ct.
    #[arg(long, value_delimiter = ',')]
    targets: Option<Vec<String>>,
    /// Seed of the inputs and of the class order (default: from the OS).
    #[arg(long)]
    seed: Option<u64>,
    /// The fixed class's secret in pow2_ct, passes_ct, candidate_rounds and passes_all_ct:
    /// `special` (exponent 0, base 2, a fixed prime), or `random` (one random exponent,
    /// base in [2, n - 2] or odd candidate, drawn once from the seed and used for every
    /// fixed-class call). A difference seen with `special` but not with `random` follows
    /// the special operand's value, not a code path. fermat_batch and rsa_crt always use
    /// random fixed values; the leaky control keeps exponent 0.
    #[arg(long, value_enum, default_value_t = Fixed::Special)]
    fixed: Fixed,
    /// The random class of candidate_rounds and passes_all_ct: `odd` (a fresh random odd
    /// number, composite almost surely) or `primes` (one of 1,000 random primes of the
    /// same size drawn from the seed before timing): with the default fixed class, a
    /// prime, `primes` leaves the classes without the prime/composite difference.
    #[arg(long, value_enum, default_value_t = RandomClass::Odd)]
    random_class: RandomClass,
    /// passes_ct's public prime n has v2(n - 1) equal to this (1 to 16; default: any, as
    /// the generator gives). The JSON line's detail names n's v2(n - 1) either way.
    #[arg(long)]
    passes_two_adic: Option<u32>,
}

/// Runs `t` and returns its JSON line and whether it met its expectation (constant-time
/// targets not flagged, the control flagged).
fn report<T: Target>(t: &mut T, a: &Args, seed: u64, kernel: Kernel, expect: Expect) -> (serde_json::Value, bool) {
    let start = Instant::now();
    let Outcome { runs, leaky } = ct_timing::run_with_rerun(t, a.measurements, seed, expect == Expect::Leak);
    let runs_json: Vec<_> = runs
        .iter()
        .map(|r| {
            serde_json::json!({
                "per_class": [r.per_class.0, r.per_class.1],
                "max_abs_t": (r.max_abs_t * 100.0).round() / 100.0,
                "t_by_crop": r.t.iter().map(|&(p, v)| serde_json::json!([p, (v * 100.0).round() / 100.0])).collect::<Vec<_>>(),
                "mean_diff_ticks_by_crop": r.mean_diff.iter().map(|&(p, v)| serde_json::json!([p, (v * 10.0).round() / 10.0])).collect::<Vec<_>>(),
                "median_ticks": [r.median_ticks.0, r.median_ticks.1],
                "resolution_ticks": r.resolution_ticks.round(),
            })
        })
        .collect();
    let ok = match expect {
        Expect::ConstantTime => !leaky,
        Expect::Leak => leaky,
    };
    let verdict = match (leaky, expect) {
        (false, Expect::Leak) => "CONTROL NOT FLAGGED",
        (true, Expect::Leak) => "control flagged",
        (false, _) => "no leak seen",
        (true, Expect::ConstantTime) => "LEAK",
    };
    let line = serde_json::json!({
        "op": "ct", "target": t.name(), "kernel": kernel.name(), "detail": t.detail(), "fixed": fixed_secret(a.fixed).name(), "random_class": random_candidates(a.random_class).name(),
        "measurements": a.measurements, "threshold": THRESHOLD, "crops": CROPS.to_vec(),
        "runs": runs_json, "leaky": leaky, "verdict": verdict, "ok": ok,
        "seconds": (start.elapsed().as_secs_f64() * 10.0).round() / 10.0,
    });
    (line, ok)
}

fn random_candidates(r: RandomClass) -> RandomCandidates {
    match r {
        RandomClass::Odd => RandomCandidates::Odd,
        RandomClass::Primes => RandomCandidates::Primes,
    }
}

fn fixed_secret(f: Fixed) -> FixedSecret {
    match f {
        Fixed::Special => FixedSecret::Special,
        Fixed::Random => FixedSecret::Random,
    }
}

pub fn run(a: Args) -> ExitCode {
    if a.measurements < 100 || a.bits < 128 || a.bits > 4096 || a.rsa_bits < 512 || a.rsa_bits > 8192 || a.rounds == 0 {
        eprintln!("primekit-lab bench ct: need --measurements >= 100, --bits in 128..=4096, --rsa-bits in 512..=8192, --rounds >= 1");
        return ExitCode::from(2);
    }
    let chosen: Vec<String> = a.targets.clone().unwrap_or_else(|| TARGETS.iter().map(|s| s.to_string()).collect());
    if let Some(bad) = chosen.iter().find(|t| !TARGETS.contains(&t.as_str()) && !EXTRA_TARGETS.contains(&t.as_str())) {
        eprintln!("primekit-lab bench ct: unknown target {bad:?} (targets: {}, {})", TARGETS.join(", "), EXTRA_TARGETS.join(", "));
        return ExitCode::from(2);
    }
    let kernel = match Kernel::selected() {
        Ok(k) => k,
        Err(e) => {
            eprintln!("primekit-lab bench ct: {e}");
            return ExitCode::from(2);
        }
    };
    let seed = a.seed.unwrap_or_else(|| rand_core::OsRng.next_u64());
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut all_ok = true;
    let fixed = fixed_secret(a.fixed);
    let random = random_candidates(a.random_class);
    for name in &chosen {
        let s = rng.next_u64();
        let built = match name.as_str() {
            "pow2_ct" => Pow2::new(a.bits, kernel, fixed, &mut rng).map(|mut t| report(&mut t, &a, s, kernel, Expect::ConstantTime)),
            "fermat_batch" => Fermat::new(a.bits, kernel, &mut rng).map(|mut t| report(&mut t, &a, s, kernel, Expect::ConstantTime)),
            "passes_ct" => ct_timing::PassesCt::new(a.bits, kernel, fixed, a.passes_two_adic, &mut rng)
                .map(|mut t| report(&mut t, &a, s, kernel, Expect::ConstantTime)),
            "candidate_rounds" => {
                Candidate::new(a.bits, a.rounds, fixed, random, &mut rng).map(|mut t| report(&mut t, &a, s, kernel, Expect::ConstantTime))
            }
            "rsa_crt" => RsaCrt::new(a.rsa_bits, 32, false, &mut rng).map(|mut t| report(&mut t, &a, s, kernel, Expect::ConstantTime)),
            "passes_all_ct" => ct_timing::CandidateRounds::new(a.bits, a.rounds, fixed, random, &mut rng)
                .map(|mut t| report(&mut t, &a, s, kernel, Expect::ConstantTime)),
            "rsa_crt_setup" => RsaCrt::new(a.rsa_bits, 32, true, &mut rng).map(|mut t| report(&mut t, &a, s, kernel, Expect::ConstantTime)),
            _ => LeakyControl::new(a.bits, kernel, &mut rng).map(|mut t| report(&mut t, &a, s, kernel, Expect::Leak)),
        };
        match built {
            Ok((line, ok)) => {
                all_ok &= ok;
                let runs = line["runs"].as_array().map_or(0, Vec::len);
                let ts: Vec<String> = line["runs"].as_array().into_iter().flatten().map(|r| r["max_abs_t"].to_string()).collect();
                eprintln!(
                    "ct-timing: {:<9} {:<17} max|t| {} ({} run{}, {} measurements each): {}",
                    kernel.name(),
                    name,
                    ts.join(" then "),
                    runs,
                    if runs == 1 { "" } else { "s" },
                    a.measurements,
                    line["verdict"].as_str().unwrap_or("")
                );
                emit::line(line);
            }
            Err(e) => {
                eprintln!("primekit-lab bench ct: {name}: {e}");
                return ExitCode::from(1);
            }
        }
    }
    eprintln!("ct-timing: seed {seed}");
    if all_ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
