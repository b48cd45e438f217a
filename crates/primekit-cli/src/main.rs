//! `primekit`: the command-line front end. Each subcommand lives in its own module;
//! this file only parses arguments and dispatches.
//!
//! Every error is one line on stderr, `primekit CMD: message`, argument errors included
//! (exit status 2); `--help` and `--version` print as usual.

pub mod bench;
mod cmd_cert;
mod cmd_check;
mod cmd_claims;
mod cmd_dhparam;
mod cmd_dist;
mod cmd_gen;
mod cmd_genrsa;
mod cmd_hw;
mod cmd_hw_report;
mod cmd_nextprime;
mod cmd_prove;
mod cmd_render;
mod cmd_report;
mod cmd_test;
mod files;
mod numio;
mod plot;
mod plots;
mod render_pga;
mod watch;

use clap::{CommandFactory, Parser, Subcommand};
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
    /// Test vectors for the RTL Lucas tester in hw/ (from its cycle-free model).
    HwVectors(cmd_hw::Args),
    /// Render results/hw (RTL cycles and LUTs) beside Le Masle et al. 2011, Tables I-II.
    HwReport(cmd_hw_report::Args),
    /// Distribution check of Dobrosavljević 2021, §5.2, of a PGA's output (MSB-byte histogram, residues).
    Dist(cmd_dist::Args),
    /// Benchmarks; each prints one JSON object per line.
    #[command(subcommand)]
    Bench(bench::BenchCmd),
    /// The papers' claims beside ours, from the committed JSON in results/ (docs/research.md).
    Claims(cmd_claims::Args),
    /// Regenerate every research table and plot into a directory.
    Report(cmd_report::ReportArgs),
    /// Rebuild one committed result table (Markdown) from its JSON lines, measuring nothing.
    Render(cmd_render::Args),
}

/// The subcommand path named on the command line (`genrsa`, `bench gen`), for the
/// prefix of an argument error: the leading words that are subcommands.
fn subcommand_path(args: &[std::ffi::OsString]) -> String {
    let mut cmd = Cli::command();
    let mut path = vec!["primekit".to_string()];
    for arg in args.iter().skip(1) {
        let Some(sub) = cmd.find_subcommand(arg.as_os_str()).cloned() else { break };
        path.push(sub.get_name().to_string());
        cmd = sub;
    }
    path.join(" ")
}

/// The message of a clap error on one line: its first line without clap's "error: ",
/// followed by the indented lines right under it (the missing arguments after a ':',
/// joined by ", "; the `[possible values: ...]` of an invalid value).
fn first_line(text: &str) -> String {
    let mut lines = text.lines().skip_while(|l| l.trim().is_empty());
    let first = lines.next().unwrap_or("invalid arguments");
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let items: Vec<&str> = lines.take_while(|l| l.starts_with(' ') && !l.trim().is_empty()).map(str::trim).collect();
    match first.strip_suffix(':') {
        Some(head) if !items.is_empty() => format!("{head}: {}", items.join(", ")),
        _ if !items.is_empty() => format!("{first} {}", items.join(" ")),
        _ => first.to_string(),
    }
}

/// Parses the arguments; on an error prints `primekit CMD: <clap's first line>` and
/// returns exit status 2 (clap's own report is several lines with its own prefix).
/// Help and version requests are printed by clap as usual.
fn parse() -> Result<Cli, ExitCode> {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    Cli::try_parse_from(&args).map_err(|e| {
        use clap::error::ErrorKind;
        if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand) {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
        eprintln!("{}: {}", subcommand_path(&args), first_line(&e.render().to_string()));
        ExitCode::from(2)
    })
}

fn main() -> ExitCode {
    let cli = match parse() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    // Every subcommand runs primekit's arithmetic on the process-wide kernel: a bad
    // PRIMEKIT_KERNEL stops here, once, instead of failing each input on its own.
    if let Err(e) = primekit::hazmat::mont::Kernel::selected() {
        eprintln!("primekit: PRIMEKIT_KERNEL: {e}");
        return ExitCode::from(2);
    }
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
        Cmd::Dist(a) => cmd_dist::run(a),
        Cmd::HwVectors(a) => cmd_hw::run(a),
        Cmd::HwReport(a) => cmd_hw_report::run(a),
        Cmd::Bench(b) => bench::run(b),
        Cmd::Report(a) => cmd_report::run(a),
        Cmd::Render(a) => cmd_render::run(a),
        Cmd::Claims(a) => cmd_claims::run(a),
    }
}
