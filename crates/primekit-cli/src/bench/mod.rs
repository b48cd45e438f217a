//! `primekit bench ...`: every benchmark prints one JSON object per line with at least
//! `op`, `engine`, `bits`, `count` and `mean_ms`. Peers (OpenSSL, GMP) run in the same
//! process on the same inputs when built with `--features compare`.

mod modexp;
mod td;
mod test;
pub mod timing;

use clap::Subcommand;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum BenchCmd {
    /// Modular exponentiation with full-size exponents.
    Modexp(modexp::Args),
    /// The primality test on random odd inputs or on primes.
    Test(test::Args),
    /// Calibrate trial division: composite-path cost per r, measured and modelled.
    Td(td::Args),
}

pub fn run(cmd: BenchCmd) -> ExitCode {
    match cmd {
        BenchCmd::Modexp(a) => modexp::run(a),
        BenchCmd::Test(a) => test::run(a),
        BenchCmd::Td(a) => td::run(a),
    }
}

/// Whether peers were compiled in; printed with results so a reader knows why they are absent.
pub fn peers_note() -> Option<serde_json::Value> {
    if cfg!(feature = "compare") {
        None
    } else {
        Some(serde_json::json!({"note": "built without --features compare: OpenSSL and GMP not measured"}))
    }
}
