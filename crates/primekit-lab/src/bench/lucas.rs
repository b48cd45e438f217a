//! `primekit-lab bench lucas`: the Lucas tests against one Miller-Rabin round on the same
//! k-bit primes (where every stage runs in full): `mr_round` (one random-base round),
//! `lucas` and `strong_lucas` (Selfridge search + the Q = 1 Montgomery ladder), `nist_lucas`
//! (Le Masle et al. 2011, Alg. 2: square test, binary Jacobi, 5 products per bit) and `bpsw`
//! (base-2 round + strong Lucas), all with r = 0. Targets: strong Lucas
//! <= 2.0 MR rounds, BPSW <= 3.2, and faster than Le Masle et al.'s (2011) 45 nm ASIC (0.90 ms at 1024
//! bits). The OpenSSL-based Lucas part of Massimo & Paterson 2020 needed 17.04 rounds. With `--features
//! compare`, GMP's BPSW (`mpz_probab_prime_p(n, 24)`) on the same primes is the peer
//! (OpenSSL has no Lucas test). Times are thread CPU time ([`super::cpu_clock`]).

use super::cpu_clock::cpu_pass;
use super::inputs::{pool, random_primes};
use super::timing::mean_median;
use clap::Args as ClapArgs;
use primekit::hazmat::primality::MillerRabin;
use primekit_research::tests::TestKind;
use serde_json::{json, Value};
use std::process::ExitCode;

#[derive(ClapArgs, Clone)]
pub struct Args {
    /// Prime sizes in bits.
    #[arg(long, value_delimiter = ',', default_value = "1024")]
    pub bits: Vec<u32>,
    /// Number of primes per size.
    #[arg(long, default_value_t = 16)]
    pub count: usize,
    /// Interleaved timed passes; medians are reported (`mean_ms` is per input).
    #[arg(long, default_value_t = 9)]
    pub reps: usize,
    /// Seed for the primes.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The tests compared with one MR round, in output order.
const TESTS: [TestKind; 4] = [TestKind::Lucas, TestKind::StrongLucas, TestKind::NistLucas, TestKind::Bpsw];

pub fn measure(a: &Args) -> Result<Vec<Value>, String> {
    let mut out = Vec::new();
    for &bits in &a.bits {
        let primes = pool(0).install(|| random_primes(a.seed ^ bits as u64, bits, a.count));
        let mut rng = primekit::hazmat::random::os_seeded().map_err(|e| e.to_string())?;
        let mrs: Vec<_> = primes.iter().map(|p| MillerRabin::new(p).map_err(|e| e.to_string())).collect::<Result<Vec<_>, _>>()?;
        let based: Vec<_> =
            mrs.iter().map(|m| m.random_base(&mut rng).map(|b| (m, b)).map_err(|e| e.to_string())).collect::<Result<_, _>>()?;
        // Interleaved: each rep times one pass of every op back to back, so a change in
        // machine load between reps moves all of them together; ratios are taken per
        // rep and the median reported.
        let mut ms: Vec<Vec<f64>> = vec![Vec::new(); TESTS.len() + 1];
        #[cfg(feature = "compare")]
        let mpz: Vec<_> = primes.iter().map(primekit_research::peers::gmp::Mpz::from_biguint).collect();
        #[cfg(feature = "compare")]
        let mut gmp_ms = Vec::new();
        for _ in 0..a.reps.max(1) {
            ms[0].push(cpu_pass(&based, |(m, b)| assert!(m.passes_vartime(b))));
            for (i, k) in TESTS.iter().enumerate() {
                ms[i + 1].push(cpu_pass(&primes, |p| assert!(k.run(p, 0, &mut rng).expect("valid input").prime, "prime rejected")));
            }
            // GMP 6.2+: mpz_probab_prime_p with reps <= 24 is a small-factor check plus
            // BPSW (base-2 strong test and strong Lucas), nothing more.
            #[cfg(feature = "compare")]
            gmp_ms.push(cpu_pass(&mpz, |x| assert!(x.probab_prime_p(24) > 0, "GMP rejected a prime")));
        }
        #[cfg(feature = "compare")]
        {
            let per_rep: Vec<f64> = gmp_ms.iter().zip(&ms[0]).map(|(x, m)| x / m).collect();
            out.push(json!({"op": "bpsw", "engine": "gmp", "bits": bits, "count": primes.len(), "mean_ms": mean_median(&gmp_ms).1,
                            "over_mr_round": mean_median(&per_rep).1, "peer": "mpz_probab_prime_p(n, 24)"}));
        }
        let med = |v: &[f64]| mean_median(v).1;
        let mr = med(&ms[0]);
        out.push(json!({"op": "mr_round", "engine": "primekit", "bits": bits, "count": primes.len(), "mean_ms": mr, "over_mr_round": 1.0}));
        let mut ratios = serde_json::Map::new();
        for (i, k) in TESTS.iter().enumerate() {
            let per_rep: Vec<f64> = ms[i + 1].iter().zip(&ms[0]).map(|(x, m)| x / m).collect();
            let ratio = med(&per_rep);
            let t = med(&ms[i + 1]);
            out.push(
                json!({"op": k.name(), "engine": "primekit", "bits": bits, "count": primes.len(), "mean_ms": t, "over_mr_round": ratio}),
            );
            ratios.insert(k.name().into(), json!(ratio));
            if *k == TestKind::StrongLucas && bits == 1024 {
                ratios.insert("strong_lucas_ms_vs_asic_45nm_0.90ms".into(), json!(t / 0.90));
            }
        }
        out.push(json!({"op": "lucas_summary", "engine": "primekit", "bits": bits, "count": primes.len(), "mean_ms": mr,
                        "over_mr_round": ratios, "targets": {"strong_lucas": 2.0, "bpsw": 3.2, "massimo_paterson_lucas_part": 17.04}}));
    }
    Ok(out)
}

pub fn run(a: Args) -> ExitCode {
    if a.count == 0 || a.bits.iter().any(|&b| !(16..=8192).contains(&b)) {
        eprintln!("primekit-lab bench lucas: --count must be positive and --bits within 16..=8192");
        return ExitCode::from(2);
    }
    super::emit::print_records("lucas", measure(&a), None)
}
