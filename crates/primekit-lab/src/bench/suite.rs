//! `primekit-lab bench suite`: Massimo & Paterson 2020, Table 2 — mean time per test on random odd k-bit
//! inputs that are composite, on primes, and overall, per test and trial-division r.
//!
//! What is timed: one call of the research test (trial division, rounds, Lucas part,
//! random-base generation) per input, in passes over all inputs of a part. "overall" is
//! the weighted sum (1 - q_k)·composite + q_k·prime with q_k = 2/ln 2^k (Massimo & Paterson 2020,
//! §3.1.1), since primes are too rare among random inputs to time them there; the prime
//! inputs come from a generator instead. One `cost` line per size gives C_TD, C_MR and
//! C_L measured here, for the cost model. Times are thread CPU time ([`super::cpu_clock`]).

use super::cpu_clock::{cpu_pass, thread_cpu_ms};
use super::inputs::{pool, random_odds, random_primes, Shard};
use super::paper;
use clap::Args as ClapArgs;
use num_bigint::BigUint;
use primekit::hazmat::primality::MillerRabin;
use primekit::hazmat::primality::{selfridge_method_a, LucasLadder, SearchOptions};
use primekit::hazmat::sieve::trial_divide_vartime;
use primekit_research::cost_model::prime_density;
use primekit_research::instrument::trial_primes_used;
use primekit_research::tests::TestKind;
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;
use serde_json::{json, Value};
use std::process::ExitCode;

#[derive(ClapArgs, Clone)]
pub struct Args {
    /// Input sizes in bits.
    #[arg(long, value_delimiter = ',', default_value = "512,1024,2048")]
    pub bits: Vec<u32>,
    /// Numbers of odd primes used by trial division.
    #[arg(long, value_delimiter = ',', default_value = "0,64,128,384,2047")]
    pub r: Vec<usize>,
    /// Tests to run (mrac, mr64, mr128, bpsw, lucas, strong_lucas, nist_lucas).
    #[arg(long, value_delimiter = ',', default_value = "mrac,mr64,mr128,bpsw")]
    pub tests: Vec<String>,
    /// Random odd inputs per size (the composite part).
    #[arg(long, default_value_t = 2000)]
    pub count: usize,
    /// Prime inputs per size (default: count/100, at least 4).
    #[arg(long)]
    pub primes: Option<usize>,
    /// Worker threads for cells and prime generation (0: one per core). Timings of
    /// concurrent cells share the machine; use 1 for the cleanest numbers.
    #[arg(long, default_value_t = 1)]
    pub jobs: usize,
    /// Run part i of n (0-based), e.g. from a Slurm job array; combine with `bench merge`.
    #[arg(long, default_value = "0/1")]
    pub shard: Shard,
    /// Seed for the inputs (bases are always drawn from the OS generator).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Arithmetic: `primekit`, or `openssl` (MRAC/MR64/MR128 on OpenSSL's BN_mod_word and
    /// BN_mod_exp_mont, as the paper measured; needs `--features compare`).
    #[arg(long, default_value = "primekit")]
    pub engine: String,
}

/// Whose arithmetic runs the tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Primekit,
    /// OpenSSL's BN primitives ([`primekit_research::peers::openssl_mr`]).
    #[cfg(feature = "compare")]
    Openssl,
}

impl Engine {
    pub fn parse(s: &str, tests: &[TestKind]) -> Result<Engine, String> {
        let _ = tests; // only the OpenSSL engine restricts the tests
        match s {
            "primekit" => Ok(Engine::Primekit),
            #[cfg(feature = "compare")]
            "openssl" => {
                if let Some(t) = tests.iter().find(|t| !TestKind::TABLE2[..3].contains(t)) {
                    return Err(format!("engine openssl runs mrac, mr64 and mr128 only, not {}", t.name()));
                }
                Ok(Engine::Openssl)
            }
            #[cfg(not(feature = "compare"))]
            "openssl" => Err("engine openssl needs a build with --features compare".into()),
            _ => Err(format!("unknown engine {s:?} (primekit, openssl)")),
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Engine::Primekit => "primekit",
            #[cfg(feature = "compare")]
            Engine::Openssl => "openssl",
        }
    }

    fn run(self, k: TestKind, n: &BigUint, r: usize, rng: &mut ChaCha20Rng) -> Result<primekit_research::instrument::Outcome, String> {
        match self {
            Engine::Primekit => k.run(n, r, rng).map_err(|e| e.to_string()),
            #[cfg(feature = "compare")]
            Engine::Openssl => primekit_research::peers::openssl_mr::run(k, n, r, rng).map_err(|e| e.to_string()),
        }
    }
}

/// Validated tests from their names.
pub fn parse_tests(names: &[String]) -> Result<Vec<TestKind>, String> {
    names.iter().map(|s| TestKind::parse(s).map_err(|e| e.to_string())).collect()
}

fn os_rng() -> Result<ChaCha20Rng, String> {
    primekit::hazmat::random::os_seeded().map_err(|e| e.to_string())
}

/// Total milliseconds of one pass of `k` over `inputs` (after a warm-up on the first
/// few), and how many inputs the timed pass declared prime.
fn time_test(engine: Engine, k: TestKind, r: usize, inputs: &[BigUint]) -> Result<(f64, usize), String> {
    let mut rng = os_rng()?;
    for n in inputs.iter().take(4) {
        engine.run(k, n, r, &mut rng)?;
    }
    let start = thread_cpu_ms();
    let mut declared = 0;
    for n in inputs {
        declared += engine.run(k, n, r, &mut rng)?.prime as usize;
    }
    Ok((thread_cpu_ms() - start, declared))
}

/// C_MR (one random-base round), C_TD (per prime, r = 2047) and C_L (Selfridge search +
/// strong Lucas) in ms, measured on primes (where every stage runs in full).
pub fn measure_costs(bits: u32, primes: &[BigUint]) -> Result<Value, String> {
    let mut rng = os_rng()?;
    let mrs: Vec<MillerRabin> = primes.iter().map(|p| MillerRabin::new(p).map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
    let bases: Vec<_> = mrs.iter().map(|m| m.random_base(&mut rng).map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
    let pairs: Vec<_> = mrs.iter().zip(&bases).collect();
    let reps = 3;
    let c_mr =
        median(&(0..reps).map(|_| cpu_pass(&pairs, |(m, a)| assert!(m.passes_vartime(a), "prime failed an MR round"))).collect::<Vec<_>>());
    let limbs: Vec<Vec<u64>> = primes.iter().map(|p| p.to_u64_digits()).collect();
    let r_used = trial_primes_used(2047);
    let td = median(&(0..reps * 10).map(|_| cpu_pass(&limbs, |l| assert!(trial_divide_vartime(l, 2047).is_none()))).collect::<Vec<_>>());
    let c_l = median(
        &(0..reps)
            .map(|_| {
                cpu_pass(primes, |p| {
                    let s = selfridge_method_a(p, SearchOptions::BPSW).expect("prime has parameters");
                    assert!(LucasLadder::new(p, &s).expect("odd").strong_test(), "prime failed strong Lucas");
                })
            })
            .collect::<Vec<_>>(),
    );
    Ok(json!({"op": "cost", "engine": "primekit", "bits": bits, "count": primes.len(), "mean_ms": c_mr,
              "c_mr_ms": c_mr, "c_td_ms": td / r_used as f64, "c_lucas_ms": c_l, "td_primes": r_used}))
}

fn median(s: &[f64]) -> f64 {
    super::timing::mean_median(s).1
}

/// C_MR and C_TD on OpenSSL's arithmetic (`BN_mod_exp_mont` round, `BN_mod_word` per
/// prime), measured on primes like [`measure_costs`].
#[cfg(feature = "compare")]
pub fn measure_costs_openssl(bits: u32, primes: &[BigUint]) -> Result<Value, String> {
    use primekit_research::peers::openssl::Bn;
    use primekit_research::peers::openssl_mr::{trial_divide, BnMillerRabin};
    let mut rng = os_rng()?;
    let mrs: Vec<BnMillerRabin> = primes.iter().map(BnMillerRabin::new).collect();
    let pairs: Vec<(&BnMillerRabin, Bn)> =
        mrs.iter().map(|m| m.random_base(&mut rng).map(|b| (m, b)).map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
    let c_mr = median(&(0..3).map(|_| cpu_pass(&pairs, |(m, a)| assert!(m.passes(a), "prime failed a round"))).collect::<Vec<_>>());
    let bns: Vec<Bn> = primes.iter().map(Bn::from_biguint).collect();
    let td = median(&(0..5).map(|_| cpu_pass(&bns, |n| assert!(trial_divide(n, 2047).is_none()))).collect::<Vec<_>>());
    Ok(json!({"op": "cost", "engine": "openssl", "bits": bits, "count": primes.len(), "mean_ms": c_mr,
              "c_mr_ms": c_mr, "c_td_ms": td / 2047.0, "td_primes": 2047}))
}

/// One `suite` record.
fn record(engine: Engine, test: TestKind, bits: u32, r: usize, part: &str, count: usize, total_ms: f64) -> Value {
    json!({"op": "suite", "engine": engine.name(), "test": test.name(), "bits": bits, "r": r, "r_used": trial_primes_used(r),
           "part": part, "count": count, "total_ms": total_ms, "mean_ms": total_ms / count.max(1) as f64})
}

/// The "overall" record from a composite and a prime record of the same cell.
pub fn overall(comp: &Value, prime: &Value) -> Value {
    let bits = comp["bits"].as_u64().unwrap_or(0);
    let q = prime_density(bits);
    let mean = (1.0 - q) * comp["mean_ms"].as_f64().unwrap_or(f64::NAN) + q * prime["mean_ms"].as_f64().unwrap_or(f64::NAN);
    let mut o = comp.clone();
    o["part"] = json!("overall");
    o["count"] = json!(comp["count"].as_u64().unwrap_or(0) + prime["count"].as_u64().unwrap_or(0));
    o["mean_ms"] = json!(mean);
    o["q_k"] = json!(q);
    o.as_object_mut().map(|m| m.remove("total_ms"));
    o
}

/// All records for the given sizes, r values and tests (this shard's share of inputs).
pub fn measure(a: &Args) -> Result<Vec<Value>, String> {
    let tests = parse_tests(&a.tests)?;
    let engine = Engine::parse(&a.engine, &tests)?;
    let nprimes = a.primes.unwrap_or((a.count / 100).max(4));
    let mut out = Vec::new();
    pool(a.jobs).install(|| -> Result<(), String> {
        for &bits in &a.bits {
            let odd = random_odds(a.shard.seed(a.seed, bits, 1), bits, a.shard.share(a.count));
            let composites: Vec<BigUint> = odd.into_par_iter().filter(|n| !primekit::is_prime(n)).collect();
            let primes = random_primes(a.shard.seed(a.seed, bits, 2), bits, a.shard.share(nprimes));
            if !primes.is_empty() {
                out.push(match engine {
                    Engine::Primekit => measure_costs(bits, &primes)?,
                    #[cfg(feature = "compare")]
                    Engine::Openssl => measure_costs_openssl(bits, &primes)?,
                });
            }
            let cells: Vec<(TestKind, usize)> = tests.iter().flat_map(|&t| a.r.iter().map(move |&r| (t, r))).collect();
            let results: Vec<Result<Vec<Value>, String>> = cells
                .par_iter()
                .map(|&(t, r)| {
                    let (ct, wrong) = time_test(engine, t, r, &composites)?;
                    let (pt, declared) = time_test(engine, t, r, &primes)?;
                    let mut c = record(engine, t, bits, r, "composite", composites.len(), ct);
                    c["declared_prime"] = json!(wrong);
                    let mut p = record(engine, t, bits, r, "prime", primes.len(), pt);
                    p["declared_prime"] = json!(declared);
                    let o = overall(&c, &p);
                    Ok(vec![c, p, o])
                })
                .collect();
            for r in results {
                out.extend(r?);
            }
        }
        Ok(())
    })?;
    Ok(out)
}

fn fmt(x: f64) -> String {
    if !x.is_finite() {
        "–".into()
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else if x >= 0.1 {
        format!("{x:.3}")
    } else {
        format!("{x:.4}")
    }
}

/// Table 2's layout in markdown: our times, then MR64/MRAC and BPSW/MRAC as ratios
/// beside the paper's, and each r against r = 2047 (the machines differ, ratios don't).
pub fn markdown(records: &[Value]) -> String {
    let get = |t: &str, bits: u64, r: u64, part: &str| -> Option<f64> {
        records
            .iter()
            .find(|v| v["op"] == "suite" && v["test"] == t && v["bits"] == bits && v["r"] == r && v["part"] == part)
            .and_then(|v| v["mean_ms"].as_f64())
    };
    let mut keys: Vec<(u64, u64)> =
        records.iter().filter(|v| v["op"] == "suite").map(|v| (v["bits"].as_u64().unwrap(), v["r"].as_u64().unwrap())).collect();
    keys.sort();
    keys.dedup();
    let ratio = |a: Option<f64>, b: Option<f64>| a.zip(b).map(|(a, b)| a / b).unwrap_or(f64::NAN);
    let mut s = String::from("| k | r | part | MRAC ms | MR64 ms | MR128 ms | BPSW ms | MR64/MRAC (paper) | BPSW/MRAC (paper) | MR64 r/r=2047 (paper) |\n|---|---|---|---|---|---|---|---|---|---|\n");
    for part in ["composite", "prime", "overall"] {
        for &(bits, r) in &keys {
            let ours = |t| get(t, bits, r, part);
            let pap = |t| paper::table2(bits as u32, r as usize, part, t);
            let vs = |a: f64, b: f64| format!("{} ({})", fmt(a), fmt(b));
            let rr =
                vs(ratio(ours("mr64"), get("mr64", bits, 2047, part)), ratio(pap("mr64"), paper::table2(bits as u32, 2047, part, "mr64")));
            s += &format!(
                "| {bits} | {r} | {part} | {} | {} | {} | {} | {} | {} | {rr} |\n",
                fmt(ours("mrac").unwrap_or(f64::NAN)),
                fmt(ours("mr64").unwrap_or(f64::NAN)),
                fmt(ours("mr128").unwrap_or(f64::NAN)),
                fmt(ours("bpsw").unwrap_or(f64::NAN)),
                vs(ratio(ours("mr64"), ours("mrac")), ratio(pap("mr64"), pap("mrac"))),
                vs(ratio(ours("bpsw"), ours("mrac")), ratio(pap("bpsw"), pap("mrac"))),
            );
        }
    }
    s
}

pub fn run(a: Args) -> ExitCode {
    if a.count == 0
        || a.bits.iter().any(|&b| !(16..=8192).contains(&b))
        || a.r.iter().any(|&r| r > primekit::hazmat::sieve::NUM_SMALL_ODD_PRIMES)
    {
        eprintln!(
            "primekit-lab bench suite: --count must be positive, --bits within 16..=8192, --r at most {}",
            primekit::hazmat::sieve::NUM_SMALL_ODD_PRIMES
        );
        return ExitCode::from(2);
    }
    super::emit::print_records("suite", measure(&a), Some(markdown))
}
