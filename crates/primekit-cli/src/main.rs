//! `primekit`: the command-line front end. Each subcommand lives in its own module;
//! this file only parses arguments and dispatches.

mod bench;
mod cmd_dhparam;
mod cmd_gen;
mod cmd_nextprime;
mod cmd_test;
mod numio;

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
    /// Random primes (or safe primes), one per line.
    Gen(cmd_gen::Args),
    /// The smallest prime greater than N.
    Next(cmd_nextprime::Args),
    /// The largest prime smaller than N.
    Prev(cmd_nextprime::Args),
    /// Diffie-Hellman parameters (safe prime, g = 2) as a PKCS #3 PEM.
    Dhparam(cmd_dhparam::Args),
    /// Benchmarks; each prints one JSON object per line.
    #[command(subcommand)]
    Bench(bench::BenchCmd),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Test(a) => cmd_test::run(a),
        Cmd::Gen(a) => cmd_gen::run(a),
        Cmd::Next(a) => cmd_nextprime::run_next(a),
        Cmd::Prev(a) => cmd_nextprime::run_prev(a),
        Cmd::Dhparam(a) => cmd_dhparam::run(a),
        Cmd::Bench(b) => bench::run(b),
    }
}
