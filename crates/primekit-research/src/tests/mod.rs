//! The primality tests compared in Massimo & Paterson 2020, §3 (MRAC, MR64, MR128, BPSW) and the Lucas
//! variants (standard, strong, Le Masle et al.'s (2011) NIST FIPS 186-4 C.3.3), each preceded by trial
//! division by the first r odd primes and instrumented ([`Outcome`]).
//!
//! Research only: the knob-free `primekit::is_prime` never calls these.

pub mod bpsw;
pub mod lucas;
pub mod mr_fixed;
pub mod mrac;
pub mod nist_lucas;

use super::instrument::{prefilter, Outcome, Stage};
use num_bigint::BigUint;
use primekit::hazmat::primality::{selfridge_method_a, NoParams, SearchOptions, Selfridge};
use primekit::Error;
use rand_core::CryptoRngCore;

/// Selfridge's method A parameters for `n`, or the outcome that ends a Lucas test before
/// its ladder: composite when n is a square or the search met a factor, after
/// `mr_rounds` Miller-Rabin rounds.
fn lucas_params(n: &BigUint, opts: SearchOptions, mr_rounds: u32) -> Result<Selfridge, Outcome> {
    selfridge_method_a(n, opts).map_err(|e| match e {
        NoParams::Square => Outcome::composite(Stage::SquareCheck, mr_rounds),
        NoParams::Factor => Outcome::composite(Stage::ParameterSearch, mr_rounds),
    })
}

/// A Lucas test on its own: trial division by the first `r` odd primes, Selfridge's
/// parameters searched with `opts`, then the test `passes` (no Miller-Rabin rounds).
fn stand_alone_lucas(
    n: &BigUint,
    r: usize,
    opts: SearchOptions,
    passes: impl FnOnce(&Selfridge) -> Result<bool, Error>,
) -> Result<Outcome, Error> {
    if let Some(o) = prefilter(n, r) {
        return Ok(o);
    }
    let params = match lucas_params(n, opts, 0) {
        Ok(p) => p,
        Err(o) => return Ok(o),
    };
    Ok(if passes(&params)? { Outcome::passed(0) } else { Outcome::composite(Stage::Lucas, 0) })
}

/// One of the tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TestKind {
    /// OpenSSL 1.1.1's default: t(k) random-base rounds from Massimo & Paterson 2020, Table 1.
    Mrac,
    /// 64 random-base rounds (Massimo & Paterson 2020, §3.2).
    Mr64,
    /// 128 random-base rounds (Massimo & Paterson 2020, §3.3).
    Mr128,
    /// MR base 2 then a strong Lucas test (Massimo & Paterson 2020, §3.4).
    Bpsw,
    /// The standard Lucas test U_{n+1} ≡ 0 alone.
    Lucas,
    /// The strong Lucas test alone.
    StrongLucas,
    /// Le Masle et al. 2011, Alg. 2 (NIST FIPS 186-4 C.3.3).
    NistLucas,
    /// MR base 2 then the standard Lucas test (Massimo & Paterson 2020, Appendix B's code).
    BpswStandard,
}

impl TestKind {
    /// Every test.
    pub const ALL: [TestKind; 8] = [
        TestKind::Mrac,
        TestKind::Mr64,
        TestKind::Mr128,
        TestKind::Bpsw,
        TestKind::Lucas,
        TestKind::StrongLucas,
        TestKind::NistLucas,
        TestKind::BpswStandard,
    ];

    /// The four tests of Massimo & Paterson 2020, Table 2.
    pub const TABLE2: [TestKind; 4] = [TestKind::Mrac, TestKind::Mr64, TestKind::Mr128, TestKind::Bpsw];

    /// Short name used in JSON output and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            TestKind::Mrac => "mrac",
            TestKind::Mr64 => "mr64",
            TestKind::Mr128 => "mr128",
            TestKind::Bpsw => "bpsw",
            TestKind::Lucas => "lucas",
            TestKind::StrongLucas => "strong_lucas",
            TestKind::NistLucas => "nist_lucas",
            TestKind::BpswStandard => "bpsw_standard",
        }
    }

    /// Inverse of [`TestKind::name`].
    pub fn parse(s: &str) -> Result<TestKind, Error> {
        TestKind::ALL.into_iter().find(|k| k.name() == s).ok_or_else(|| Error::InvalidArgument(format!("unknown test {s:?}")))
    }

    /// Runs the test on `n` with trial division by the first `r` odd primes; `rng`
    /// supplies random bases (unused by the deterministic tests).
    pub fn run(self, n: &BigUint, r: usize, rng: &mut impl CryptoRngCore) -> Result<Outcome, Error> {
        match self {
            TestKind::Mrac => mrac::mrac(n, r, rng),
            TestKind::Mr64 => mr_fixed::mr_rounds_test(n, r, 64, rng),
            TestKind::Mr128 => mr_fixed::mr_rounds_test(n, r, 128, rng),
            TestKind::Bpsw => bpsw::bpsw(n, r),
            TestKind::Lucas => lucas::lucas(n, r),
            TestKind::StrongLucas => lucas::strong_lucas(n, r),
            TestKind::NistLucas => nist_lucas::nist_lucas(n, r),
            TestKind::BpswStandard => bpsw::bpsw_standard(n, r),
        }
    }
}
