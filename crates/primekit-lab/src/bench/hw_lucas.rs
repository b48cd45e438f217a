//! `primekit-lab bench hw-lucas --vectors FILE`: the CPU side of the hardware comparison
//! (Le Masle et al. 2011, Tables I-II): primekit's NIST Lucas test (research tier, Alg. 2:
//! square test, binary Jacobi, five Montgomery products per bit, r = 0) on the inputs of a
//! vector file written by `primekit-lab hw-vectors`, the ones the RTL simulation ran. Each
//! class is timed separately (`random` is the paper's workload); thread CPU time, median
//! of `--reps` interleaved passes.

use super::cpu_clock::cpu_pass;
use super::timing::mean_median;
use clap::Args as ClapArgs;
use num_bigint::BigUint;
use primekit_research::tests::TestKind;
use serde_json::json;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(ClapArgs)]
pub struct Args {
    /// A vector file from `primekit-lab hw-vectors`.
    #[arg(long)]
    pub vectors: PathBuf,
    /// Classes to time (comma separated).
    #[arg(long, value_delimiter = ',', default_value = "random,prime")]
    pub classes: Vec<String>,
    /// Timed passes per class; the median is reported.
    #[arg(long, default_value_t = 5)]
    pub reps: usize,
}

pub fn run(a: Args) -> ExitCode {
    let text = match std::fs::read_to_string(&a.vectors) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("primekit-lab bench hw-lucas: cannot read {}: {e}", a.vectors.display());
            return ExitCode::from(2);
        }
    };
    let mut by_class: BTreeMap<String, Vec<BigUint>> = BTreeMap::new();
    for (i, line) in text.lines().enumerate() {
        let mut cols = line.split_whitespace();
        let (Some(class), Some(hex)) = (cols.next(), cols.next()) else { continue };
        if !a.classes.iter().any(|c| c == class) {
            continue;
        }
        match BigUint::parse_bytes(hex.as_bytes(), 16) {
            Some(n) if n.bit(0) && n.bits() >= 2 => by_class.entry(class.to_string()).or_default().push(n),
            Some(_) => {}
            None => {
                eprintln!("primekit-lab bench hw-lucas: {}:{}: not a hex number", a.vectors.display(), i + 1);
                return ExitCode::from(2);
            }
        }
    }
    if by_class.is_empty() {
        eprintln!("primekit-lab bench hw-lucas: no inputs of classes {:?} in {}", a.classes, a.vectors.display());
        return ExitCode::from(2);
    }
    let mut rng = match primekit::hazmat::random::os_seeded() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("primekit-lab bench hw-lucas: {e}");
            return ExitCode::from(1);
        }
    };
    for (class, ns) in &by_class {
        let mut test = |n: &BigUint| TestKind::NistLucas.run(n, 0, &mut rng).map(|o| o.prime).unwrap_or(false);
        let passed = ns.iter().filter(|n| test(n)).count();
        let ms: Vec<f64> = (0..a.reps.max(1))
            .map(|_| {
                cpu_pass(ns, |n| {
                    std::hint::black_box(test(n));
                })
            })
            .collect();
        let bits = ns.iter().map(|n| n.bits()).max().unwrap_or(0);
        super::emit::line(json!({"op": "nist_lucas", "engine": "primekit", "bits": bits, "count": ns.len(), "mean_ms": mean_median(&ms).1,
                                 "class": class, "passed": passed,
                                 "input": a.vectors.file_name().map(|f| f.to_string_lossy().into_owned())}));
    }
    ExitCode::SUCCESS
}
