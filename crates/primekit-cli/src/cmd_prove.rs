//! `primekit prove N [--jobs J] [--cert FILE [--force]] [--format json|pari|primo]
//! [--max-seconds S] [--json]`: a primality certificate for any prime
//! (`primekit::certificate::prove_with`: Pocklington steps where N - 1 factors, elliptic-
//! curve steps elsewhere; docs/ecpp.md).
//!
//! Exit status: 0 with the certificate written (or printed); 1 when N is composite (the
//! message says how that showed); 2 for bad input (not a number, over the size cap, a
//! bad `--cert` path, refused before any work); 3 when no proof was found within
//! `--max-seconds` or the prover's limits. Below 2^64 the exact test is the proof: a
//! prime gets a certificate without steps (format version 2).
//!
//! `--format pari` writes the certificate as a GP expression PARI/GP's
//! `primecertisvalid` accepts; its format is an all-ECPP chain, so the proof is made
//! with elliptic-curve steps only; `--format primo` writes such a chain in Primo's
//! certificate format 4 (`to_primo`). A progress line (steps done, size of the number being
//! proved) is drawn on a terminal's standard error.

use crate::files;
use crate::numio::parse_number;
use clap::{Args as ClapArgs, ValueEnum};
use num_bigint::BigUint;
use primekit::certificate::{prove_with, to_json, to_pari, to_primo, Certificate, ProveError, ProveOptions};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    /// primekit's JSON (docs/certificate-format.md).
    Json,
    /// A GP expression for PARI/GP's `primecertisvalid` (all elliptic-curve steps).
    Pari,
    /// Primo's certificate format 4, as Primo and its published checks read it (all
    /// elliptic-curve steps).
    Primo,
}

#[derive(ClapArgs)]
pub struct Args {
    /// The number to prove prime (decimal or 0x-hex).
    n: String,
    /// Threads searching the discriminants of each step.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Write the certificate here instead of standard output (`-`: standard output).
    #[arg(long)]
    cert: Option<PathBuf>,
    /// Replace an existing --cert file.
    #[arg(long, requires = "cert")]
    force: bool,
    /// Certificate format.
    #[arg(long, value_enum, default_value = "json")]
    format: Format,
    /// Give up (exit 3) after this many seconds.
    #[arg(long, value_name = "S")]
    max_seconds: Option<f64>,
    /// One JSON object on standard output: {"command":"prove","n","result","seconds",...}
    /// with the certificate (as text in the chosen format) unless --cert names a file.
    #[arg(long)]
    json: bool,
}

fn refuse(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("primekit prove: {msg}");
    ExitCode::from(2)
}

pub fn run(a: Args) -> ExitCode {
    let n = match parse_number(&a.n) {
        Ok(n) => n,
        Err(e) => return refuse(e),
    };
    let deadline = match a.max_seconds {
        Some(s) if !(s.is_finite() && s > 0.0) => return refuse("--max-seconds must be a positive number"),
        Some(s) => Some(Instant::now() + Duration::from_secs_f64(s.min(1e9))),
        None => None,
    };
    let [pending] = match files::reserve_or_exit("prove", [files::Output::public("--cert", a.cert.as_deref())], a.force) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let bar = progress_bar(a.json);
    let progress = bar.clone().map(|bar| {
        Arc::new(move |done: usize, bits: u64| bar.set_message(format!("{done} steps done, proving a {bits}-bit number")))
            as primekit::certificate::ProgressFn
    });
    let opts = ProveOptions { jobs: a.jobs.max(1), deadline, ecpp_only: matches!(a.format, Format::Pari | Format::Primo), progress };
    let start = Instant::now();
    let outcome = prove_with(&n, &opts);
    let seconds = start.elapsed().as_secs_f64();
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    let cert = match outcome {
        Ok(c) => c,
        Err(e) => return failed(&a, &n, &e, seconds),
    };
    let text = match a.format {
        Format::Json => to_json(&cert),
        Format::Pari => match to_pari(&cert) {
            Ok(t) => t,
            Err(e) => return refuse(format!("cannot write PARI's form: {e}")),
        },
        Format::Primo => match to_primo(&cert) {
            Ok(t) => t,
            Err(e) => return refuse(format!("cannot write Primo's form: {e}")),
        },
    };
    // Standard output (no --cert, or `--cert -`) gets the text below, once.
    let to_file = match pending {
        Some(p) if !p.is_stdout() => {
            if let Err(e) = p.commit(format!("{text}\n").as_bytes()) {
                eprintln!("primekit prove: {e}");
                return ExitCode::from(1);
            }
            true
        }
        _ => false,
    };
    if a.json {
        let mut v = summary(&n, "proven", seconds);
        v["steps"] = cert.steps.len().into();
        v["ecpp_steps"] = ecpp_steps(&cert).into();
        if !to_file {
            v["certificate"] = text.into();
        }
        print_line(&v.to_string())
    } else if !to_file {
        print_line(&text)
    } else {
        ExitCode::SUCCESS
    }
}

/// One line on standard output; a reader that went away is not an error, a full disk is.
fn print_line(text: &str) -> ExitCode {
    match files::write_stdout(format!("{text}\n").as_bytes()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("primekit prove: cannot write to standard output: {e}");
            ExitCode::from(1)
        }
    }
}

fn ecpp_steps(cert: &Certificate) -> usize {
    cert.steps.iter().filter(|s| matches!(s, primekit::certificate::Step::Ecpp(_))).count()
}

fn summary(n: &BigUint, result: &str, seconds: f64) -> serde_json::Value {
    serde_json::json!({"command": "prove", "n": n.to_string(), "bits": n.bits(), "result": result, "seconds": seconds})
}

/// Reports a failed proof: exit 1 composite, 3 no proof in time or within the limits,
/// 2 anything else (bad size, arithmetic error).
fn failed(a: &Args, n: &BigUint, e: &ProveError, seconds: f64) -> ExitCode {
    let (result, code) = match e {
        ProveError::Composite(_) => ("composite", 1),
        ProveError::TimedOut => ("timed_out", 3),
        ProveError::NoProof => ("no_proof", 3),
        ProveError::Error(_) => ("error", 2),
    };
    if a.json && code != 2 {
        let mut v = summary(n, result, seconds);
        v["reason"] = e.to_string().into();
        print_line(&v.to_string());
    } else {
        eprintln!("primekit prove: {e}");
    }
    ExitCode::from(code)
}

/// A spinner with the prover's progress on a terminal's standard error (hidden
/// otherwise, and with --json).
fn progress_bar(json: bool) -> Option<indicatif::ProgressBar> {
    use std::io::IsTerminal;
    if json || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    bar.set_style(indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}").expect("valid template"));
    bar.enable_steady_tick(Duration::from_millis(200));
    Some(bar)
}
