//! `primekit bench ...`: every benchmark prints one JSON object per line with at least
//! `op`, `engine`, `bits`, `count`, `mean_ms` and `kernel` (see [`emit`] for what
//! `kernel` names). Peers (OpenSSL, GMP) run in the same process on the same inputs when
//! built with `--features compare`.

pub mod adversarial;
pub mod cpu_clock;
mod ct;
pub mod emit;
mod gen;
mod hw_lucas;
pub mod inputs;
pub mod lucas;
pub mod merge;
mod modexp;
pub mod modmul;
pub mod paper;
pub mod pga;
pub mod pga_tables;
mod provable;
mod prove;
mod rsa;
pub mod suite;
pub mod table5;
mod td;
mod test;
pub mod timing;
mod worst_case;

use clap::Subcommand;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum BenchCmd {
    /// Modular exponentiation with full-size exponents.
    Modexp(modexp::Args),
    /// Prime and safe-prime generation (primekit vs OpenSSL BN_generate_prime_ex2).
    Gen(gen::Args),
    /// The primality test on random odd inputs or on primes.
    Test(test::Args),
    /// Calibrate trial division: composite-path cost per r, measured and modelled.
    Td(td::Args),
    /// Massimo & Paterson 2020, Table 2: MRAC, MR64, MR128, BPSW on random odd inputs and primes, per r.
    Suite(suite::Args),
    /// Massimo & Paterson 2020, Table 3: rounds needed on adversarial n = (2x+1)(4x+1).
    Adversarial(adversarial::Args),
    /// Lucas, strong Lucas, NIST Lucas and BPSW against one MR round on the same primes.
    Lucas(lucas::Args),
    /// Hamburg 2014: Montgomery vs special-form modular multiplication.
    Modmul(modmul::Args),
    /// Massimo & Paterson 2020, Table 5: OpenSSL-style generator with MR64 inside vs MRAC inside.
    Table5(table5::Args),
    /// Merge the JSON lines of sharded suite, adversarial, dist and pga-tables runs.
    Merge(merge::Args),
    /// Dobrosavljević 2021 incremental-search prime generation: one PGA × sieve combination.
    Pga(pga::Args),
    /// Dobrosavljević 2021, Tables 5.1/5.2 and (r, L) heatmaps, beside OpenSSL, in one command.
    PgaTables(pga_tables::Args),
    /// Dobrosavljević 2021, §5.2: the distribution check (`primekit dist`), shardable.
    Dist(crate::cmd_dist::Args),
    /// Provable primes with certificates vs probable primes, and certificate verification.
    Provable(provable::Args),
    /// Proving primes with certificates and checking them: primekit vs PARI/GP (primecert) and FLINT (fmpz_is_prime).
    Prove(prove::Args),
    /// RSA key generation (FIPS 186-5) vs OpenSSL EVP_PKEY_keygen and RustCrypto rsa, CPU time per key.
    Rsa(rsa::Args),
    /// NIST Lucas (Le Masle et al. 2011, Alg. 2) on the inputs of an RTL vector file: the CPU side of Tables I-II.
    HwLucas(hw_lucas::Args),
    /// Constant-time timing tests (dudect: fixed vs random secret, Welch's t) of every `_ct` entry point on the process kernel; exit 1 on a leak.
    Ct(ct::Args),
    /// Worst-case `is_prime` time per size (one round x the rounds a prime pays), for docs/limits.md.
    WorstCase(worst_case::Args),
}

pub fn run(cmd: BenchCmd) -> ExitCode {
    match cmd {
        BenchCmd::Modexp(a) => modexp::run(a),
        BenchCmd::Gen(a) => gen::run(a),
        BenchCmd::Test(a) => test::run(a),
        BenchCmd::Td(a) => td::run(a),
        BenchCmd::Suite(a) => suite::run(a),
        BenchCmd::Adversarial(a) => adversarial::run(a),
        BenchCmd::Lucas(a) => lucas::run(a),
        BenchCmd::Modmul(a) => modmul::run(a),
        BenchCmd::Table5(a) => table5::run(a),
        BenchCmd::Merge(a) => merge::run(a),
        BenchCmd::Pga(a) => pga::run(a),
        BenchCmd::PgaTables(a) => pga_tables::run(a),
        BenchCmd::Dist(a) => crate::cmd_dist::run(a),
        BenchCmd::WorstCase(a) => worst_case::run(a),
        BenchCmd::HwLucas(a) => hw_lucas::run(a),
        BenchCmd::Rsa(a) => rsa::run(a),
        BenchCmd::Provable(a) => provable::run(a),
        BenchCmd::Prove(a) => prove::run(a),
        BenchCmd::Ct(a) => ct::run(a),
    }
}

/// Common start of a benchmark: checks `--count` (positive) and `--bits` (within
/// `range`), then prints the peers note. `Err` carries the exit status for bad arguments
/// (reported as `primekit bench NAME: ...`).
pub fn begin(name: &str, count: usize, bits: &[u32], range: std::ops::RangeInclusive<u32>) -> Result<(), ExitCode> {
    if count == 0 || bits.iter().any(|b| !range.contains(b)) {
        eprintln!("primekit bench {name}: --count must be positive and --bits within {}..={}", range.start(), range.end());
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
