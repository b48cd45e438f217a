//! `primekit next N` and `primekit prev N`: the nearest prime above / below N
//! (N decimal or 0x-hex). Bad input: message and exit status 2.

use crate::cmd_gen::{exit_for, format_number};
use clap::Args as ClapArgs;
use num_bigint::BigUint;
use std::process::ExitCode;

#[derive(ClapArgs)]
pub struct Args {
    /// The number, decimal or 0x-prefixed hexadecimal.
    n: String,
    /// Print the answer in hexadecimal.
    #[arg(long)]
    hex: bool,
}

/// Parses a non-negative integer written in decimal or with a `0x` prefix in hex.
pub fn parse_number(s: &str) -> Result<BigUint, String> {
    let t = s.trim();
    let (digits, radix) = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => (h, 16),
        None => (t, 10),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
        return Err(format!("not a non-negative integer (decimal or 0x-hex): {s:?}"));
    }
    BigUint::parse_bytes(digits.as_bytes(), radix).ok_or_else(|| format!("cannot parse {s:?}"))
}

fn run_with(a: Args, f: fn(&BigUint) -> Result<BigUint, primekit::Error>) -> ExitCode {
    let n = match parse_number(&a.n) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::from(2);
        }
    };
    match f(&n) {
        Ok(p) => {
            println!("{}", format_number(&p, a.hex));
            ExitCode::SUCCESS
        }
        Err(e) => exit_for(&e),
    }
}

pub fn run_next(a: Args) -> ExitCode {
    run_with(a, primekit::next_prime)
}

pub fn run_prev(a: Args) -> ExitCode {
    run_with(a, primekit::prev_prime)
}
