//! `primekit verify-cert FILE [--n N]` and `primekit prove N [--cert FILE] [--force]`:
//! primality certificates (format: docs/certificate-format.md; library:
//! `primekit::certificate`). `--cert` goes through [`crate::files`]: checked before the
//! proof is searched, an existing file replaced only with `--force`.
//!
//! verify-cert exit status: 0 valid (prints the proven prime), 1 invalid ("invalid: step
//! k: reason"), 2 malformed or unreadable. prove: 0 with the certificate written (or
//! printed), 1 if N is composite, 3 when no proof was found (N - 1 not smooth enough),
//! 2 for bad input.

use crate::files;
use crate::numio::parse_number;
use clap::Args as ClapArgs;
use primekit::certificate::{
    from_json, prove, to_json, verify_with_limit, CertificateError, ProveError, DEFAULT_MAX_WORK, MAX_CERTIFICATE_BYTES,
};
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
}

#[derive(ClapArgs)]
pub struct ProveArgs {
    /// The number to prove prime (decimal or 0x-hex, above 2^64).
    n: String,
    /// Write the certificate here instead of standard output.
    #[arg(long)]
    cert: Option<PathBuf>,
    /// Replace an existing --cert file.
    #[arg(long, requires = "cert")]
    force: bool,
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
    match from_json(&text).and_then(|c| verify_with_limit(&c, expected.as_ref(), max_work)) {
        Ok(p) => {
            println!("{p}");
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

pub fn prove_cmd(a: ProveArgs) -> ExitCode {
    let n = match parse_number(&a.n) {
        Ok(n) => n,
        Err(e) => {
            eprintln!("primekit prove: {e}");
            return ExitCode::from(2);
        }
    };
    let [pending] = match files::reserve_or_exit("prove", [files::Output::public("--cert", a.cert.as_deref())], a.force) {
        Ok(p) => p,
        Err(code) => return code,
    };
    match prove(&n) {
        Ok(cert) => {
            let text = to_json(&cert);
            match pending {
                Some(p) => {
                    if let Err(e) = p.commit(text.as_bytes()) {
                        eprintln!("primekit prove: {e}");
                        return ExitCode::from(1);
                    }
                }
                None => println!("{text}"),
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("primekit prove: {e}");
            ExitCode::from(match e {
                ProveError::Composite(_) => 1,
                ProveError::NoProof | ProveError::TimedOut => 3,
                ProveError::Error(_) => 2,
            })
        }
    }
}
