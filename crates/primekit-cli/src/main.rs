//! `primekit`: the command-line front end. Each subcommand lives in its own module;
//! this file only parses arguments and dispatches.

pub mod bench;
mod cmd_report;
mod cmd_test;
mod numio;
mod plots;

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
    /// Benchmarks; each prints one JSON object per line.
    #[command(subcommand)]
    Bench(bench::BenchCmd),
    /// Regenerate every research table and plot into a directory.
    Report(cmd_report::ReportArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Test(a) => cmd_test::run(a),
        Cmd::Bench(b) => bench::run(b),
        Cmd::Report(a) => cmd_report::run(a),
    }
}
