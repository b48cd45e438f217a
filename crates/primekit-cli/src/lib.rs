//! `primekit`, the command-line front end, as a library: [`main`] parses the arguments
//! and dispatches to one module per subcommand. The binary `primekit` is just [`main`];
//! `primekit-lab` (the research commands) reuses [`cli`], [`files`] and the benchmark
//! helpers in [`bench`](mod@bench).

/// `outln!(command, format...)`: one line of a command's output through
/// [`files::print_out`], inside a function returning `ExitCode`: when the reader went
/// away it returns exit status 0 from that function (the rest of the output is not
/// wanted), on another write error the reason on stderr and status 1.
#[macro_export]
macro_rules! outln {
    ($cmd:expr, $($arg:tt)*) => {
        $crate::out!($cmd, "{}\n", format_args!($($arg)*))
    };
}

/// [`outln!`] without the newline.
#[macro_export]
macro_rules! out {
    ($cmd:expr, $($arg:tt)*) => {
        match $crate::files::print_out(&format!($($arg)*)) {
            Ok(true) => {}
            Ok(false) => return std::process::ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{} {}: {e}", $crate::cli::prog(), $cmd);
                return std::process::ExitCode::from(1);
            }
        }
    };
}

pub mod bench;
pub mod cli;
mod cmd_cert;
mod cmd_check;
mod cmd_dhparam;
mod cmd_gen;
mod cmd_genrsa;
mod cmd_nextprime;
mod cmd_prove;
mod cmd_test;
pub mod files;
mod numio;
mod watch;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser)]
#[command(name = "primekit", version, about = "Misuse-resistant primality testing and fast prime generation", after_long_help = cli::ENVIRONMENT)]
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
    /// Random primes (or safe primes), one per line.
    Gen(cmd_gen::Args),
    /// The smallest prime greater than N.
    Next(cmd_nextprime::Args),
    /// The largest prime smaller than N.
    Prev(cmd_nextprime::Args),
    /// Diffie-Hellman parameters (safe prime, g = 2) as a PKCS #3 PEM.
    Dhparam(cmd_dhparam::Args),
    /// Check a primality certificate (exit 0 valid, 1 invalid, 2 malformed).
    VerifyCert(cmd_cert::VerifyArgs),
    /// Prove a number prime with a certificate anyone can check (exit 1 composite, 3 no proof in time).
    Prove(cmd_prove::Args),
    /// Generate an RSA private key (FIPS 186-5 A.1.3) as PKCS#8 or PKCS#1 PEM.
    Genrsa(cmd_genrsa::Args),
    /// Benchmarks of these jobs (against OpenSSL and GMP with --features compare); each prints one JSON object per line.
    #[command(subcommand)]
    Bench(bench::BenchCmd),
    /// Print the shell completion script for bash, zsh, fish, elvish or powershell.
    Completions(cli::CompletionsArgs),
    /// Print the man page (roff) generated from these definitions, or write every page with --dir.
    Man(cli::ManArgs),
}

/// The `primekit` command: parses the process arguments and runs the subcommand.
pub fn main() -> ExitCode {
    let cli = match cli::parse::<Cli>() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match cli.cmd {
        Cmd::Test(a) => cmd_test::run(a),
        Cmd::CheckDh(a) => cmd_check::run(cmd_check::Kind::Dh, a),
        Cmd::CheckRsa(a) => cmd_check::run(cmd_check::Kind::Rsa, a),
        Cmd::Gen(a) => cmd_gen::run(a),
        Cmd::Next(a) => cmd_nextprime::run_next(a),
        Cmd::Prev(a) => cmd_nextprime::run_prev(a),
        Cmd::Dhparam(a) => cmd_dhparam::run(a),
        Cmd::Genrsa(a) => cmd_genrsa::run(a),
        Cmd::VerifyCert(a) => cmd_cert::verify_cmd(a),
        Cmd::Prove(a) => cmd_prove::run(a),
        Cmd::Bench(b) => bench::run(b),
        Cmd::Completions(a) => cli::completions::<Cli>(a.shell),
        Cmd::Man(a) => cli::man::<Cli>(a.dir.as_deref()),
    }
}
