//! `primekit check-dh FILE [--json]` and `primekit check-rsa FILE [--json]`: audit a DH
//! parameter file or an RSA private key (library: `primekit::keys`; user docs:
//! `docs/files.md`).
//!
//! Exit status: 0 when every check passed (warnings allowed), 1 when at least one
//! check failed, 2 when the file could not be audited (unreadable, over the size cap,
//! not PEM, wrong label, damaged PEM/DER, encrypted or unsupported key, or a number
//! wider than `--max-bits`: by default 10,000 bits for DH p and q, as OpenSSL refuses
//! since CVE-2023-3446, and 16,384 bits for an RSA key's integers).
//!
//! Text goes to stdout, with input errors on stderr. With `--json`, exactly one JSON
//! object is printed on stdout in every case (`docs/json.md`): the report's keys plus
//! `command` and `file`, or `{command, file, ok: false, error_kind, error}`.

use primekit::keys::{self, CheckReport, InputError, Limits, MAX_INPUT_BYTES};
use serde_json::{json, Value};
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct CheckArgs {
    /// PEM file to audit.
    file: PathBuf,
    /// Print one JSON object instead of text.
    #[arg(long)]
    json: bool,
    /// Refuse files whose numbers are wider than this many bits [default: 10000 for
    /// check-dh, as OpenSSL; 16384 for check-rsa]. Testing costs grow with the cube of
    /// the size: see docs/limits.md before raising it (at most 32768).
    #[arg(long, value_name = "BITS")]
    max_bits: Option<u64>,
    /// check-dh only: a primality certificate (docs/certificate-format.md) that must
    /// prove p and the subgroup order q; adds the check `certificate`.
    #[arg(long, value_name = "FILE")]
    cert: Option<PathBuf>,
    /// check-dh only: prove p and q prime (adds `p_proof`, `q_proof`: "proven", or
    /// "probable" when no proof came within --max-seconds). A standard group's shipped
    /// certificate is checked instead of searching.
    #[arg(long)]
    prove: bool,
    /// With --prove: give up proving after this many seconds.
    #[arg(long, value_name = "S", default_value_t = 300.0, requires = "prove")]
    max_seconds: f64,
    /// With --prove: threads for the proof search.
    #[arg(long, default_value_t = 1, requires = "prove")]
    jobs: usize,
    /// check-dh --cert: refuse a certificate whose estimated checking work exceeds this
    /// (docs/certificate-format.md) [default: 2199023255552 = 2^41].
    #[arg(long, value_name = "WORK")]
    max_work: Option<u128>,
}

/// Which audit to run.
#[derive(Clone, Copy)]
pub enum Kind {
    Dh,
    Rsa,
}

impl Kind {
    fn command(self) -> &'static str {
        match self {
            Kind::Dh => "check-dh",
            Kind::Rsa => "check-rsa",
        }
    }
}

/// Why the file could not be audited.
enum Failure {
    Io(std::io::Error),
    Input(InputError),
}

impl Failure {
    fn kind(&self) -> &'static str {
        match self {
            Failure::Io(_) => "io",
            Failure::Input(e) => e.kind(),
        }
    }

    fn message(&self) -> String {
        match self {
            Failure::Io(e) => format!("cannot read file: {e}"),
            Failure::Input(e @ InputError::OverLimit { .. }) => format!("{e}; raise the cap with --max-bits if you mean it"),
            Failure::Input(e) => e.to_string(),
        }
    }
}

/// Reads at most one byte more than the cap, so a huge file (or an endless device)
/// fails the library's size check without being read whole.
fn read_capped(path: &Path) -> Result<Vec<u8>, Failure> {
    let file = std::fs::File::open(path).map_err(Failure::Io)?;
    let mut bytes = Vec::new();
    file.take(MAX_INPUT_BYTES as u64 + 1).read_to_end(&mut bytes).map_err(Failure::Io)?;
    Ok(bytes)
}

fn audit(kind: Kind, a: &CheckArgs, max_work: u128) -> Result<CheckReport, Failure> {
    let (path, max_bits, cert) = (&a.file, a.max_bits, a.cert.as_deref());
    let bytes = read_capped(path)?;
    let mut report = match kind {
        Kind::Dh => keys::dh::check_dh_pem_with_limits(&bytes, &max_bits.map_or(Limits::dh(), Limits::with_max_bits)),
        Kind::Rsa => keys::rsa::check_rsa_pem_with_limits(&bytes, &max_bits.map_or(Limits::rsa(), Limits::with_max_bits)),
    }
    .map_err(Failure::Input)?;
    if let (Kind::Dh, Some(cert_path)) = (kind, cert) {
        let text = read_capped(cert_path)?;
        let check = match primekit::certificate::from_json(&text) {
            Ok(c) => keys::dh::certificate_check(&keys::dh::parse_dh_pem(&bytes).map_err(Failure::Input)?, &c, max_work),
            Err(e) => keys::Check::new("certificate", keys::Status::Fail, e.to_string()),
        };
        report.checks.push(check);
    }
    if let (Kind::Dh, true) = (kind, a.prove) {
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs_f64(a.max_seconds.clamp(0.0, 1e9));
        let opts = primekit::certificate::ProveOptions { jobs: a.jobs.max(1), deadline: Some(deadline), ..Default::default() };
        let params = keys::dh::parse_dh_pem(&bytes).map_err(Failure::Input)?;
        let proofs = keys::dh::proof_checks(&params, &report, &opts);
        report.checks.extend(proofs);
    }
    Ok(report)
}

pub fn run(kind: Kind, a: CheckArgs) -> ExitCode {
    let file = a.file.display().to_string();
    if (a.cert.is_some() || a.max_work.is_some() || a.prove) && matches!(kind, Kind::Rsa) {
        eprintln!("primekit check-rsa: --cert, --max-work and --prove apply to check-dh only");
        return ExitCode::from(2);
    }
    let max_work = a.max_work.unwrap_or(primekit::certificate::DEFAULT_MAX_WORK);
    if !(a.max_seconds.is_finite() && a.max_seconds > 0.0) {
        eprintln!("primekit {}: --max-seconds must be a positive number", kind.command());
        return ExitCode::from(2);
    }
    // The exit status carries the verdict, so a reader that went away (`| head`) changes
    // nothing; another write error is status 1 with its reason.
    let print = |text: String| match crate::files::print_out(&text) {
        Ok(_) => true,
        Err(e) => {
            eprintln!("primekit {}: {e}", kind.command());
            false
        }
    };
    match audit(kind, &a, max_work) {
        Ok(report) => {
            let printed = if a.json {
                let mut v = report.to_json();
                let obj = v.as_object_mut().expect("report JSON is an object");
                obj.insert("command".into(), Value::from(kind.command()));
                obj.insert("file".into(), Value::from(file));
                print(format!("{v}\n"))
            } else {
                print(format!("file: {file}\n{}", report.to_text()))
            };
            ExitCode::from(if report.ok() && printed { 0 } else { 1 })
        }
        Err(f) => {
            if a.json {
                print(format!(
                    "{}\n",
                    json!({"command": kind.command(), "file": file, "ok": false,
                           "error_kind": f.kind(), "error": f.message()})
                ));
            } else {
                eprintln!("primekit {}: {file}: {}", kind.command(), f.message());
            }
            ExitCode::from(2)
        }
    }
}
