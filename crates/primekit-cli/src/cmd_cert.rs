//! `primekit verify-cert FILE [--n N] [--max-work W] [--jobs J]`: checks a primality certificate
//! (format: docs/certificate-format.md; library: `primekit::certificate`; certificates
//! are made by `primekit prove`, `gen --provable`, `dhparam --provable`).
//!
//! Exit status: 0 valid (prints the proven prime), 1 invalid ("invalid: step k:
//! reason"), 2 malformed, unreadable or over the work limit.

use crate::numio::parse_number;
use clap::Args as ClapArgs;
use primekit::certificate::{from_json, verify_with, CertificateError, DEFAULT_MAX_WORK, MAX_CERTIFICATE_BYTES};
use std::io::Read;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(ClapArgs)]
pub struct VerifyArgs {
    /// Certificate file (JSON).
    file: PathBuf,
    /// Require the certificate to be for this number (decimal or 0x-hex).
    #[arg(long)]
    n: Option<String>,
    /// Refuse (as malformed, exit 2) a certificate whose estimated checking work
    /// exceeds this, before any arithmetic (docs/certificate-format.md)
    /// [default: 2199023255552 = 2^41].
    #[arg(long, value_name = "WORK")]
    max_work: Option<u128>,
    /// Threads checking the steps (the verdict and the step an error names do not
    /// depend on it).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
}

pub fn verify_cmd(a: VerifyArgs) -> ExitCode {
    let expected = match a.n.as_deref().map(parse_number).transpose() {
        Ok(n) => n,
        Err(e) => {
            eprintln!("primekit verify-cert: --n: {e}");
            return ExitCode::from(2);
        }
    };
    let mut text = Vec::new();
    let read = std::fs::File::open(&a.file).and_then(|f| f.take(MAX_CERTIFICATE_BYTES as u64 + 1).read_to_end(&mut text));
    if let Err(e) = read {
        eprintln!("primekit verify-cert: cannot read {}: {e}", a.file.display());
        return ExitCode::from(2);
    }
    let max_work = a.max_work.unwrap_or(DEFAULT_MAX_WORK);
    match from_json(&text).and_then(|c| verify_with(&c, expected.as_ref(), max_work, a.jobs)) {
        Ok(p) => {
            crate::outln!("verify-cert", "{p}");
            ExitCode::SUCCESS
        }
        Err(e @ CertificateError::Invalid { .. }) => {
            eprintln!("{e}");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}
