//! `primekit-lab`: the research commands, apart from the user's `primekit`. It regenerates
//! the papers' tables and plots, the RTL's test vectors and report and the claims table
//! from the JSON lines in results/ (docs/research.md). Argument parsing, `--version`,
//! completions, the man page, output files and the benchmark helpers are `primekit`'s
//! own ([`primekit_cli`]).

mod bench;
mod cmd_claims;
mod cmd_dist;
mod cmd_hw;
mod cmd_hw_report;
mod cmd_render;
mod cmd_report;
mod plot;
mod plots;
mod render_pga;

use clap::{Parser, Subcommand};
use primekit_cli::{cli, files};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "primekit-lab",
    version,
    about = "primekit's research commands: the papers' tables, plots and claims, and the RTL's vectors",
    after_long_help = cli::ENVIRONMENT
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Test vectors for the RTL Lucas tester in hw/ (from its cycle-free model).
    HwVectors(cmd_hw::Args),
    /// Render results/hw (RTL cycles and LUTs) beside Le Masle et al. 2011, Tables I-II.
    HwReport(cmd_hw_report::Args),
    /// Distribution check of Dobrosavljević 2021, §5.2, of a PGA's output (MSB-byte histogram, residues).
    Dist(cmd_dist::Args),
    /// Research benchmarks (the papers' tables, the cost model, the PGAs); each prints one JSON object per line.
    #[command(subcommand)]
    Bench(bench::BenchCmd),
    /// The papers' claims beside ours, from the committed JSON in results/ (docs/research.md).
    Claims(cmd_claims::Args),
    /// Regenerate every research table and plot into a directory.
    Report(cmd_report::ReportArgs),
    /// Rebuild one committed result table (Markdown) from its JSON lines, measuring nothing.
    Render(cmd_render::Args),
    /// Print the shell completion script for bash, zsh, fish, elvish or powershell.
    Completions(cli::CompletionsArgs),
    /// Print the man page (roff) generated from these definitions, or write every page with --dir.
    Man(cli::ManArgs),
}

fn main() -> ExitCode {
    let cli = match cli::parse::<Cli>() {
        Ok(cli) => cli,
        Err(code) => return code,
    };
    match cli.cmd {
        Cmd::Dist(a) => cmd_dist::run(a),
        Cmd::HwVectors(a) => cmd_hw::run(a),
        Cmd::HwReport(a) => cmd_hw_report::run(a),
        Cmd::Bench(b) => bench::run(b),
        Cmd::Report(a) => cmd_report::run(a),
        Cmd::Render(a) => cmd_render::run(a),
        Cmd::Claims(a) => cmd_claims::run(a),
        Cmd::Completions(a) => cli::completions::<Cli>(a.shell),
        Cmd::Man(a) => cli::man::<Cli>(a.dir.as_deref()),
    }
}
