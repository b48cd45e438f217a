//! `primekit dhparam --bits K [--out FILE] [--force]`: Diffie-Hellman parameters (safe
//! prime p, generator g = 2) as a PKCS #3 `DH PARAMETERS` PEM block, as `openssl dhparam`
//! writes. `--out` and `--cert` go through [`crate::files`] (complete or absent; an
//! existing file is replaced only with `--force`; bad paths refused before the search).
//!
//! p = 23 (mod 24), as OpenSSL does for g = 2: then p = 7 (mod 8), so 2 is a quadratic
//! residue and generates the subgroup of prime order q = (p-1)/2.

use crate::cmd_gen::{exit_for, with_progress};
use crate::files::Output;
use clap::Args as ClapArgs;
use num_bigint::BigUint;
use primekit::{PrimeOptions, MAX_GEN_BITS};
use std::io::IsTerminal;
use std::process::ExitCode;

/// Smallest modulus accepted (smaller groups are toys; OpenSSL itself refuses < 512).
pub const MIN_DH_BITS: u32 = 64;

#[derive(ClapArgs)]
pub struct Args {
    /// Size of the prime p in bits (64..=8192).
    #[arg(long, default_value_t = 2048)]
    bits: u32,
    /// Write the PEM here instead of standard output (`-`: standard output).
    #[arg(long)]
    out: Option<std::path::PathBuf>,
    /// Replace existing --out / --cert files (devices and FIFOs need no --force).
    #[arg(long)]
    force: bool,
    /// Threads racing on the one prime.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// A provable safe prime, with a primality certificate for p and q.
    #[arg(long)]
    provable: bool,
    /// With --provable: write the certificate here.
    #[arg(long, requires = "provable")]
    cert: Option<std::path::PathBuf>,
    /// One JSON object: {"command":"dhparam","bits","g","p","file","pem"} (pem only without --out).
    #[arg(long)]
    json: bool,
}

pub fn run(a: Args) -> ExitCode {
    if !(MIN_DH_BITS..=MAX_GEN_BITS).contains(&a.bits) {
        eprintln!("primekit dhparam: --bits must be in {MIN_DH_BITS}..={MAX_GEN_BITS} (got {})", a.bits);
        return ExitCode::from(2);
    }
    // Reserve the output file first: a bad path fails before the (long) search.
    let outputs = [Output::public("--out", a.out.as_deref()), Output::public("--cert", a.cert.as_deref())];
    let [pending, cert_pending] = match crate::files::reserve_or_exit("dhparam", outputs, a.force) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let opts = PrimeOptions::new(a.bits).safe(true).congruence(BigUint::from(24u8), BigUint::from(23u8)).jobs(a.jobs);
    let show = a.bits >= 1536 && std::io::stderr().is_terminal();
    let generated = if a.provable {
        primekit::keys::dh_params::generate_provable_group(a.bits).map(|(p, cert)| (p, Some(cert)))
    } else {
        with_progress(show, |probe| primekit::hazmat::gen::generate_prime_probed(&opts, probe)).map(|p| (p, None))
    };
    let (p, cert) = match generated {
        Ok(x) => x,
        Err(e) => return exit_for("dhparam", &e),
    };
    if let (Some(pending), Some(cert)) = (cert_pending, &cert) {
        if let Err(e) = pending.commit(primekit::certificate::to_json(cert).as_bytes()) {
            eprintln!("primekit dhparam: {e}");
            return ExitCode::from(1);
        }
    }
    let pem = match primekit::keys::dh::to_pkcs3_pem(&p, &BigUint::from(2u8)) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("primekit dhparam: encoding failed: {e}");
            return ExitCode::from(1);
        }
    };
    match pending {
        Some(pending) => {
            if let Err(e) = pending.commit(pem.as_bytes()) {
                eprintln!("primekit dhparam: {e}");
                return ExitCode::from(1);
            }
        }
        None if !a.json => {
            // The PEM ends in a newline already.
            if let Err(e) = crate::files::print_out(&pem) {
                eprintln!("primekit dhparam: {e}");
                return ExitCode::from(1);
            }
        }
        None => {}
    }
    if a.json {
        let file = a.out.as_ref().map(|p| p.display().to_string());
        crate::outln!(
            "dhparam",
            "{}",
            serde_json::json!({"command": "dhparam", "bits": a.bits, "g": 2, "p": p.to_string(), "file": file, "pem": if file.is_none() { Some(&pem) } else { None }})
        );
    }
    ExitCode::SUCCESS
}
