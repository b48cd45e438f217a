//! `primekit-lab hw-vectors`: test vectors for the RTL Lucas tester in `hw/`, from the
//! cycle-free model (`primekit_research::hw_model`). The Verilator testbench
//! (`hw/sim/tb_lucas.cpp`) reads them; `hw/run.sh` ties the two together. `--out` goes
//! through [`crate::files`] (an existing file is replaced only with `--force`).

use crate::files;
use clap::Args as ClapArgs;
use num_bigint::{BigInt, BigUint, Sign};
use primekit_research::hw_model::HwConfig;
use primekit_research::hw_vectors::{vectors, VectorCounts};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(ClapArgs)]
pub struct Args {
    /// Operand width K in bits (a multiple of 32, at most 4096).
    #[arg(long, default_value_t = 128)]
    pub k: u32,
    /// Multiplier pipeline stages N_p (1 to 8).
    #[arg(long, default_value_t = 1)]
    pub np: u32,
    /// Carry-save replications N_r (1 to 64).
    #[arg(long, default_value_t = 1)]
    pub nr: u32,
    /// Random odd K-bit inputs.
    #[arg(long, default_value_t = 100)]
    pub random: usize,
    /// Random K-bit primes.
    #[arg(long, default_value_t = 10)]
    pub primes: usize,
    /// Odd squares.
    #[arg(long, default_value_t = 5)]
    pub squares: usize,
    /// Inputs whose D search tries at least 6 values.
    #[arg(long, default_value_t = 5)]
    pub long_d: usize,
    /// Public vectors (`corpus/vectors.tsv` format: value, expected, ...); those of at most
    /// K bits are added.
    #[arg(long)]
    pub corpus: Option<PathBuf>,
    /// Only corpus numbers of at most this many bits (small ones carry the pseudoprimes;
    /// each large one costs a full ladder in simulation).
    #[arg(long)]
    pub corpus_max_bits: Option<u64>,
    /// Seed for the generated inputs.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write here instead of standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Replace an existing --out file.
    #[arg(long)]
    pub force: bool,
}

fn read_corpus(path: &PathBuf) -> Result<Vec<(BigUint, bool)>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut cols = line.split('\t');
        let (Some(v), Some(want)) = (cols.next(), cols.next()) else { continue };
        let Ok(x) = v.trim().parse::<BigInt>() else {
            return Err(format!("{}:{}: not an integer: {v:.40}", path.display(), i + 1));
        };
        if x.sign() == Sign::Minus {
            continue;
        }
        out.push((x.magnitude().clone(), want.trim() == "prime"));
    }
    Ok(out)
}

pub fn run(a: Args) -> ExitCode {
    if a.k == 0 || !a.k.is_multiple_of(32) || a.k > 4096 || !(1..=8).contains(&a.np) || !(1..=64).contains(&a.nr) {
        eprintln!("primekit-lab hw-vectors: need K a multiple of 32 up to 4096, N_p in 1..=8, N_r in 1..=64");
        return ExitCode::from(2);
    }
    let corpus = match a.corpus.as_ref().map(read_corpus).transpose() {
        Ok(c) => c.unwrap_or_default().into_iter().filter(|(n, _)| a.corpus_max_bits.is_none_or(|m| n.bits() <= m)).collect::<Vec<_>>(),
        Err(e) => {
            eprintln!("primekit-lab hw-vectors: {e}");
            return ExitCode::from(2);
        }
    };
    let [pending] = match files::reserve_or_exit("hw-vectors", [files::Output::public("--out", a.out.as_deref())], a.force) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let counts = VectorCounts { random: a.random, primes: a.primes, squares: a.squares, long_d: a.long_d };
    let vs = match vectors(HwConfig::new(a.k, a.np, a.nr), counts, a.seed, &corpus) {
        Ok(v) => v,
        Err(e) => {
            eprintln!("primekit-lab hw-vectors: {e}");
            return ExitCode::from(1);
        }
    };
    let mut text = String::new();
    for v in &vs {
        text.push_str(&v.line());
        text.push('\n');
    }
    match pending {
        Some(p) => {
            if let Err(e) = p.commit(text.as_bytes()) {
                eprintln!("primekit-lab hw-vectors: {e}");
                return ExitCode::from(1);
            }
        }
        None => primekit_cli::out!("hw-vectors", "{text}"),
    }
    ExitCode::SUCCESS
}
