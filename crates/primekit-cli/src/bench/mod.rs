//! `primekit bench ...`: benchmarks of the user's jobs (testing, generating primes and
//! RSA keys, proving and checking certificates). Every benchmark prints one JSON object
//! per line with at least `op`, `engine`, `bits`, `count`, `mean_ms` and `kernel` (see
//! [`emit`] for what `kernel` names). Peers (OpenSSL, GMP, Nettle) run in the same process
//! on the same inputs when built with `--features compare`.
//!
//! The shared parts ([`emit`], [`timing`], [`cpu_clock`], [`inputs`], [`begin`]) also
//! serve the research benchmarks of `primekit-lab bench`.

pub mod cpu_clock;
pub mod emit;
mod gen;
pub mod inputs;
mod provable;
mod prove;
mod rsa;
pub mod test;
pub mod timing;
mod worst_case;

use clap::Subcommand;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum BenchCmd {
    /// Prime and safe-prime generation (primekit vs OpenSSL BN_generate_prime_ex2).
    Gen(gen::Args),
    /// The primality test on random odd inputs or on primes (primekit vs OpenSSL and GMP).
    Test(test::Args),
    /// Provable primes with certificates vs probable primes, and certificate verification.
    Provable(provable::Args),
    /// Proving primes with certificates and checking them: primekit vs PARI/GP (primecert) and FLINT (fmpz_is_prime).
    Prove(prove::Args),
    /// RSA key generation (FIPS 186-5) vs OpenSSL EVP_PKEY_keygen and RustCrypto rsa, CPU time per key.
    Rsa(rsa::Args),
    /// Worst-case `is_prime` time per size (one round x the rounds a prime pays), for docs/limits.md.
    WorstCase(worst_case::Args),
}

pub fn run(cmd: BenchCmd) -> ExitCode {
    match cmd {
        BenchCmd::Gen(a) => gen::run(a),
        BenchCmd::Test(a) => test::run(a),
        BenchCmd::WorstCase(a) => worst_case::run(a),
        BenchCmd::Rsa(a) => rsa::run(a),
        BenchCmd::Provable(a) => provable::run(a),
        BenchCmd::Prove(a) => prove::run(a),
    }
}

/// Common start of a benchmark: checks `--count` (positive) and `--bits` (within
/// `range`), then prints the peers note. `Err` carries the exit status for bad arguments
/// (reported as `PROG bench NAME: ...`, PROG the binary's name).
pub fn begin(name: &str, count: usize, bits: &[u32], range: std::ops::RangeInclusive<u32>) -> Result<(), ExitCode> {
    if count == 0 || bits.iter().any(|b| !range.contains(b)) {
        eprintln!("{} bench {name}: --count must be positive and --bits within {}..={}", crate::cli::prog(), range.start(), range.end());
        return Err(ExitCode::from(2));
    }
    if let Some(n) = peers_note() {
        emit::line(n);
    }
    Ok(())
}

/// Whether peers were compiled in; printed with results so a reader knows why they are absent.
pub fn peers_note() -> Option<serde_json::Value> {
    if cfg!(feature = "compare") {
        None
    } else {
        Some(serde_json::json!({"note": "built without --features compare: OpenSSL and GMP not measured"}))
    }
}
