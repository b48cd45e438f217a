//! Prove a number prime and check the proof: `cargo run --release -p primekit --example prove [N]`.
//!
//! `certificate::prove` builds a certificate (a chain of Pocklington and elliptic-curve
//! steps) that `certificate::verify` checks on its own, and that the JSON format of
//! docs/certificate-format.md carries to other checkers (`tools/verify_cert.py`, PARI/GP
//! through `to_pari`). N defaults to 2^255 - 19. A composite N is reported as such.
//! Also shown: a provable prime generated with its certificate from the start.

use primekit::certificate::{self, ProveError};
use primekit::{generate_provable_prime, BigUint};
use std::process::ExitCode;

fn main() -> ExitCode {
    let n = match std::env::args().nth(1) {
        Some(a) => match BigUint::parse_bytes(a.as_bytes(), 10) {
            Some(n) => n,
            None => {
                eprintln!("prove: {a:.40}: not a decimal number");
                return ExitCode::from(2);
            }
        },
        None => (BigUint::from(1u8) << 255u32) - 19u8,
    };
    let cert = match certificate::prove(&n) {
        Ok(c) => c,
        Err(ProveError::Composite(how)) => {
            println!("{n} is composite: {how}");
            return ExitCode::from(1);
        }
        Err(e) => {
            eprintln!("prove: {e}");
            return ExitCode::from(3);
        }
    };
    match certificate::verify(&cert, Some(&n)) {
        Ok(p) => println!("{p} is prime: a certificate of {} steps checks", cert.steps.len()),
        Err(e) => {
            eprintln!("prove: the certificate does not check: {e}");
            return ExitCode::FAILURE;
        }
    }
    let json = certificate::to_json(&cert);
    let back = certificate::from_json(json.as_bytes()).expect("a certificate reads back");
    assert_eq!(back, cert);
    println!("as JSON: {} bytes", json.len());

    match generate_provable_prime(512) {
        Ok((p, c)) => match certificate::verify(&c, Some(&p)) {
            Ok(_) => println!("provable 512-bit prime {p:x}: its certificate of {} steps checks", c.steps.len()),
            Err(e) => {
                eprintln!("prove: generated certificate rejected: {e}");
                return ExitCode::FAILURE;
            }
        },
        Err(e) => {
            eprintln!("prove: {e}");
            return ExitCode::FAILURE;
        }
    }
    ExitCode::SUCCESS
}
