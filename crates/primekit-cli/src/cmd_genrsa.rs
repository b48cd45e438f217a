//! `primekit genrsa --bits B [--e E] [--out FILE] [--format pkcs8|pkcs1] [--pubout FILE]
//! [--jobs J] [--json] [--force] [--insecure]`: an RSA private key by FIPS 186-5 A.1.3
//! (`primekit::generate_rsa_key_with`), as PEM.
//!
//! Outputs go through [`crate::files`]: `-` is standard output, a device or FIFO is
//! written in place, a file is created with mode 0600 under a temporary name and named
//! when complete; an existing file is kept unless `--force`. Bad requests (size below
//! 2048 without `--insecure`, odd, above 16,384; e even or outside (2^16, 2^256); a bad
//! or existing `--out` / `--pubout`, or both naming one file) fail before any key is
//! generated: one line on stderr, exit status 2, no file left behind.

use crate::cmd_gen::exit_for;
use crate::files;
use crate::numio::parse_number;
use clap::{Args as ClapArgs, ValueEnum};
use primekit::{generate_rsa_key_with, RsaKeyOptions};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    /// PKCS#8 `PRIVATE KEY` (as `openssl genpkey`).
    Pkcs8,
    /// PKCS#1 `RSA PRIVATE KEY` (as `openssl genrsa -traditional`).
    Pkcs1,
}

#[derive(ClapArgs)]
pub struct Args {
    /// Modulus size in bits (2048..=16384, even; from 512 with --insecure).
    #[arg(long, default_value_t = 3072)]
    bits: u32,
    /// Public exponent (decimal or 0x-hex), odd, 2^16 < e < 2^256.
    #[arg(long, default_value = "65537")]
    e: String,
    /// Write the private key here (mode 0600) instead of standard output (`-`: standard output).
    #[arg(long)]
    out: Option<PathBuf>,
    /// Encoding of the private key.
    #[arg(long, value_enum, default_value = "pkcs8")]
    format: Format,
    /// Also write the public key (SubjectPublicKeyInfo PEM) here.
    #[arg(long)]
    pubout: Option<PathBuf>,
    /// Threads searching each prime.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// One JSON object: {"command":"genrsa","bits","e","format","file","pubout","pem"} (pem only without --out).
    #[arg(long)]
    json: bool,
    /// Replace existing --out / --pubout files (devices and FIFOs need no --force).
    #[arg(long)]
    force: bool,
    /// Allow moduli below 2048 bits (tests only: such keys are not secure).
    #[arg(long)]
    insecure: bool,
}

fn refuse(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("primekit genrsa: {msg}");
    ExitCode::from(2)
}

const CMD: &str = "genrsa";

pub fn run(a: Args) -> ExitCode {
    let e = match parse_number(&a.e) {
        Ok(e) => e,
        Err(err) => return refuse(format!("--e: {err}")),
    };
    let opts = RsaKeyOptions::new(a.bits).e(e.clone()).jobs(a.jobs).insecure(a.insecure);
    if let Err(err) = opts.validate() {
        return exit_for(CMD, &err);
    }
    // Reserve the output files before the (long) generation, so a bad path fails now.
    let outputs = [files::Output::private("--out", a.out.as_deref()), files::Output::public("--pubout", a.pubout.as_deref())];
    let [out, pubout] = match files::reserve_or_exit(CMD, outputs, a.force) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let key = match generate_rsa_key_with(&opts) {
        Ok(k) => k,
        Err(err) => return exit_for(CMD, &err),
    };
    let pem = match a.format {
        Format::Pkcs8 => key.to_pkcs8_pem(),
        Format::Pkcs1 => key.to_pkcs1_pem(),
    };
    let (pem, public) = match (pem, key.public_key_pem()) {
        (Ok(s), Ok(p)) => (s, p),
        (Err(err), _) | (_, Err(err)) => return exit_for(CMD, &err),
    };
    for (pending, text) in [(out, &pem), (pubout, &public)] {
        if let Some(pending) = pending {
            if let Err(err) = pending.commit(text.as_bytes()) {
                eprintln!("primekit genrsa: {err}");
                return ExitCode::from(1);
            }
        }
    }
    // A closed pipe (`| head`) is not an error worth more than the exit status.
    let print = |text: String| {
        crate::out!("genrsa", "{text}");
        ExitCode::SUCCESS
    };
    if a.json {
        let file = a.out.as_ref().map(|p| p.display().to_string());
        let format = match a.format {
            Format::Pkcs8 => "pkcs8",
            Format::Pkcs1 => "pkcs1",
        };
        let v = serde_json::json!({"command": "genrsa", "bits": a.bits, "e": e.to_string(), "format": format, "file": file,
            "pubout": a.pubout.as_ref().map(|p| p.display().to_string()), "pem": if file.is_none() { Some(&pem) } else { None }});
        print(format!("{v}\n"))
    } else if a.out.is_none() {
        print(pem)
    } else {
        ExitCode::SUCCESS
    }
}
