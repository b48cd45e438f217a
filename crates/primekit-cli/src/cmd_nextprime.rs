//! `primekit next N` and `primekit prev N`: the nearest prime above / below N
//! (N decimal or 0x-hex). Bad input: message and exit status 2.

use crate::cmd_gen::{exit_for, format_number};
use crate::numio::parse_number;
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
    /// One JSON object: {"command":"next"|"prev","input":..,"result":..}.
    #[arg(long)]
    json: bool,
}

fn run_with(a: Args, command: &str, f: fn(&BigUint) -> Result<BigUint, primekit::Error>) -> ExitCode {
    let n = match parse_number(&a.n) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("primekit {command}: {:?}: {e}", a.n);
            return ExitCode::from(2);
        }
    };
    match f(&n) {
        Ok(p) => {
            let text = format_number(&p, a.hex);
            if a.json {
                crate::outln!(command, "{}", serde_json::json!({"command": command, "input": a.n.trim(), "result": text}));
            } else {
                crate::outln!(command, "{text}");
            }
            ExitCode::SUCCESS
        }
        Err(e) => exit_for(command, &e),
    }
}

pub fn run_next(a: Args) -> ExitCode {
    run_with(a, "next", primekit::next_prime)
}

pub fn run_prev(a: Args) -> ExitCode {
    run_with(a, "prev", primekit::prev_prime)
}
