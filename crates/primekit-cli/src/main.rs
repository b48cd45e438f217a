//! `primekit`: the command-line front end. Each subcommand lives in its own module;
//! this file only parses arguments and dispatches.

mod bench;
mod cmd_check;
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
    /// Audit a DH parameter PEM file (PKCS#3 or X9.42); exit 0 ok, 1 check failed, 2 bad input.
    CheckDh(cmd_check::CheckArgs),
    /// Audit an RSA private key PEM file (PKCS#1 or PKCS#8); exit 0 ok, 1 check failed, 2 bad input.
    CheckRsa(cmd_check::CheckArgs),
    /// Benchmarks; each prints one JSON object per line.
    #[command(subcommand)]
    Bench(bench::BenchCmd),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.cmd {
        Cmd::Test(a) => cmd_test::run(a),
        Cmd::CheckDh(a) => cmd_check::run(cmd_check::Kind::Dh, a),
        Cmd::CheckRsa(a) => cmd_check::run(cmd_check::Kind::Rsa, a),
        Cmd::Bench(b) => bench::run(b),
    }
}
