//! `primekit test [N ...]`: primality of each number given, or of each stdin line.
//!
//! Output, one line per input in input order: `<input> prime`, `<input> composite`, or
//! `<input> neither` (0 and 1). With `--json`: `{"line":k,"input":...,"result":...}`.
//! A bad input gets a message on stderr naming its line number (or argument position)
//! and reason; every other input is still answered; the exit status is then 2.
//! Stdin is processed in blocks of a bounded number of lines, so memory stays bounded
//! on endless streams; `--jobs J` spreads each block over J threads, order kept, and a
//! block of one number (a single argument or line) spreads its Miller-Rabin rounds.
//! A single test expected to take more than 2 s shows a progress bar on a terminal, and
//! Ctrl-C stops it between rounds (exit status 130; see `watch.rs`).

use crate::numio::{parse_number, read_line_capped, Line, ParseError};
use crate::watch::{self, Watch};
use clap::Args;
use num_bigint::BigUint;
use primekit::hazmat::primality::{is_prime_interruptible_threads, Outcome as Verdict};
use rayon::prelude::*;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

#[derive(Args)]
pub struct TestArgs {
    /// Numbers (decimal or 0x-hex). With none, read stdin, one number per line.
    numbers: Vec<String>,
    /// Worker threads: the inputs of a batch are spread over them, and the rounds of a
    /// single input (default 1).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// One JSON object per input instead of text.
    #[arg(long)]
    json: bool,
}

/// Lines processed together; bounds memory (each at most MAX_LINE_BYTES).
const BLOCK: usize = 4096;

enum Outcome {
    Verdict(&'static str),
    Bad(String),
    Interrupted,
}

/// `show_bar`: one test at a time, so a long one may draw a progress bar ([`Watch`]);
/// `threads`: the threads its rounds run on.
fn verdict(n: &BigUint, show_bar: bool, threads: usize) -> Outcome {
    if n < &BigUint::from(2u8) {
        return Outcome::Verdict("neither");
    }
    let mut watch = Watch::new(show_bar);
    match is_prime_interruptible_threads(n, threads, |p| watch.between(p)) {
        Ok(Verdict::Prime) => Outcome::Verdict("prime"),
        Ok(Verdict::Composite) => Outcome::Verdict("composite"),
        Ok(Verdict::Cancelled) => Outcome::Interrupted,
        Err(e) => Outcome::Bad(e.to_string()),
    }
}

fn judge(input: &Result<String, ParseError>, show_bar: bool, threads: usize) -> Outcome {
    if watch::interrupted() {
        return Outcome::Interrupted;
    }
    match input {
        Ok(text) => match parse_number(text) {
            Ok(n) => verdict(&n, show_bar, threads),
            Err(e) => Outcome::Bad(e.to_string()),
        },
        Err(e) => Outcome::Bad(e.to_string()),
    }
}

struct Printer<W: Write> {
    out: W,
    json: bool,
    bad: bool,
}

impl<W: Write> Printer<W> {
    fn emit(&mut self, what: &str, k: usize, input: &Result<String, ParseError>, o: Outcome) -> std::io::Result<()> {
        match o {
            Outcome::Verdict(v) => {
                let text = input.as_ref().map(|s| s.trim()).unwrap_or("");
                if self.json {
                    writeln!(self.out, "{}", serde_json::json!({what: k, "input": text, "result": v}))
                } else {
                    writeln!(self.out, "{text} {v}")
                }
            }
            Outcome::Bad(reason) => {
                self.bad = true;
                eprintln!("primekit test: {what} {k}: {reason}");
                Ok(())
            }
            Outcome::Interrupted => Err(std::io::Error::new(std::io::ErrorKind::Interrupted, format!("interrupted at {what} {k}"))),
        }
    }
}

fn run_block<W: Write>(
    p: &mut Printer<W>,
    what: &str,
    first: usize,
    block: &[Result<String, ParseError>],
    pool: &rayon::ThreadPool,
) -> std::io::Result<()> {
    let threads = pool.current_num_threads();
    let outcomes: Vec<Outcome> = if let [one] = block {
        // One input: the threads share its rounds, and its test may draw the bar.
        vec![judge(one, true, threads)]
    } else {
        pool.install(|| block.par_iter().map(|i| judge(i, threads == 1, 1)).collect())
    };
    for (i, (input, o)) in block.iter().zip(outcomes).enumerate() {
        p.emit(what, first + i, input, o)?;
    }
    p.out.flush()
}

pub fn run(args: TestArgs) -> ExitCode {
    watch::install_interrupt_handler();
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(args.jobs.clamp(1, 1024)).build() {
        Ok(p) => p,
        Err(e) => {
            eprintln!("primekit test: cannot start worker threads: {e}");
            return ExitCode::from(2);
        }
    };
    let stdout = std::io::stdout();
    let mut p = Printer { out: BufWriter::new(stdout.lock()), json: args.json, bad: false };
    let result = if !args.numbers.is_empty() {
        let inputs: Vec<_> = args.numbers.into_iter().map(Ok).collect();
        inputs.chunks(BLOCK).enumerate().try_for_each(|(b, c)| run_block(&mut p, "argument", 1 + b * BLOCK, c, &pool))
    } else {
        stream(&mut p, &pool)
    };
    match result {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {
            let _ = p.out.flush();
            eprintln!("primekit test: {e} (Ctrl-C): no verdict for it or the inputs after it");
            ExitCode::from(watch::INTERRUPTED)
        }
        Err(e) => {
            eprintln!("primekit test: I/O error: {e}");
            ExitCode::from(2)
        }
        Ok(()) if p.bad => ExitCode::from(2),
        Ok(()) => ExitCode::SUCCESS,
    }
}

fn stream<W: Write>(p: &mut Printer<W>, pool: &rayon::ThreadPool) -> std::io::Result<()> {
    let stdin = std::io::stdin();
    let mut r = stdin.lock();
    let mut block = Vec::with_capacity(BLOCK);
    let mut first = 1;
    // With one worker, answer each line as it arrives (interactive use); with several,
    // gather a block so the workers have something to share.
    let block_len = if pool.current_num_threads() == 1 { 1 } else { BLOCK };
    loop {
        let line = read_line_capped(&mut r)?;
        let end = line.is_none();
        if let Some(l) = line {
            block.push(match l {
                Line::Text(s) => Ok(s),
                Line::TooLong => Err(ParseError::TooLarge),
                Line::NotUtf8 => Err(ParseError::NotUtf8),
            });
        }
        if block.len() >= block_len || (end && !block.is_empty()) {
            run_block(p, "line", first, &block, pool)?;
            first += block.len();
            block.clear();
        }
        if end {
            return Ok(());
        }
    }
}
