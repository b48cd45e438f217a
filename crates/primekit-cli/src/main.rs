//! `primekit`: the command-line front end. Each subcommand lives in its own module;
//! this file only parses arguments and dispatches.

mod bench;
mod cmd_dist;
mod cmd_test;
mod numio;
mod plot;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "primekit", version, about = "Misuse-resistant primality testing and fast prime generation")]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Test numbers for primality (arguments, or stdin one per line).
    Test(cmd_test::TestArgs),
    /// Seed 002 §5.2 distribution check of a PGA's output (MSB-byte histogram, residues).
    Dist(cmd_dist::Args),
    /// Benchmarks; each prints one JSON object per line.
    #[command(subcommand)]
    Bench(bench::BenchCmd),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Test(a) => cmd_test::run(a),
        Cmd::Dist(a) => cmd_dist::run(a),
        Cmd::Bench(b) => bench::run(b),
    }
}
