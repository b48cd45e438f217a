//! `primekit-lab bench ...`: the research benchmarks (the papers' tables, the cost
//! model's constants, the PGAs, the RTL's CPU side). Each prints one JSON object per line
//! with at least `op`, `engine`, `bits`, `count`, `mean_ms` and `kernel`, through the
//! same helpers as `primekit bench` ([`emit`], [`timing`], [`cpu_clock`], [`inputs`]).
//! Peers (OpenSSL, GMP) run in the same process on the same inputs when built with
//! `--features compare`.

pub mod adversarial;
mod ct;
mod hw_lucas;
pub mod lucas;
pub mod merge;
mod modexp;
pub mod modmul;
pub mod paper;
pub mod pga;
pub mod pga_tables;
pub mod suite;
pub mod table5;
mod td;

pub use primekit_cli::bench::{begin, cpu_clock, emit, inputs, peers_note, test, timing};

use clap::Subcommand;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum BenchCmd {
    /// Modular exponentiation with full-size exponents.
    Modexp(modexp::Args),
    /// Calibrate trial division: composite-path cost per r, measured and modelled.
    Td(td::Args),
    /// Massimo & Paterson 2020, Table 2: MRAC, MR64, MR128, BPSW on random odd inputs and primes, per r.
    Suite(suite::Args),
    /// Massimo & Paterson 2020, Table 3: rounds needed on adversarial n = (2x+1)(4x+1).
    Adversarial(adversarial::Args),
    /// Lucas, strong Lucas, NIST Lucas and BPSW against one MR round on the same primes.
    Lucas(lucas::Args),
    /// Hamburg 2014: Montgomery vs special-form modular multiplication.
    Modmul(modmul::Args),
    /// Massimo & Paterson 2020, Table 5: OpenSSL-style generator with MR64 inside vs MRAC inside.
    Table5(table5::Args),
    /// Merge the JSON lines of sharded suite, adversarial, dist and pga-tables runs.
    Merge(merge::Args),
    /// Dobrosavljević 2021 incremental-search prime generation: one PGA × sieve combination.
    Pga(pga::Args),
    /// Dobrosavljević 2021, Tables 5.1/5.2 and (r, L) heatmaps, beside OpenSSL, in one command.
    PgaTables(pga_tables::Args),
    /// Dobrosavljević 2021, §5.2: the distribution check (`primekit-lab dist`), shardable.
    Dist(crate::cmd_dist::Args),
    /// NIST Lucas (Le Masle et al. 2011, Alg. 2) on the inputs of an RTL vector file: the CPU side of Tables I-II.
    HwLucas(hw_lucas::Args),
    /// Constant-time timing tests (dudect: fixed vs random secret, Welch's t) of every `_ct` entry point on the process kernel; exit 1 on a leak.
    Ct(ct::Args),
}

pub fn run(cmd: BenchCmd) -> ExitCode {
    match cmd {
        BenchCmd::Modexp(a) => modexp::run(a),
        BenchCmd::Td(a) => td::run(a),
        BenchCmd::Suite(a) => suite::run(a),
        BenchCmd::Adversarial(a) => adversarial::run(a),
        BenchCmd::Lucas(a) => lucas::run(a),
        BenchCmd::Modmul(a) => modmul::run(a),
        BenchCmd::Table5(a) => table5::run(a),
        BenchCmd::Merge(a) => merge::run(a),
        BenchCmd::Pga(a) => pga::run(a),
        BenchCmd::PgaTables(a) => pga_tables::run(a),
        BenchCmd::Dist(a) => crate::cmd_dist::run(a),
        BenchCmd::HwLucas(a) => hw_lucas::run(a),
        BenchCmd::Ct(a) => ct::run(a),
    }
}
