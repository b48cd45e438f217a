//! Baillie-PSW as Massimo & Paterson (2020, §3.4 and Appendix B) run it: trial division, one Miller-Rabin
//! round to base 2, Selfridge's method A (squareness tested after 7 unsuccessful D),
//! then a strong Lucas test. Deterministic; no composite is known to pass.

use crate::instrument::{prefilter, Outcome, Stage};
use num_bigint::BigUint;
use primekit::hazmat::primality::MillerRabin;
use primekit::hazmat::primality::{LucasLadder, SearchOptions};
use primekit::Error;

/// BPSW with trial division by the first `r` odd primes.
pub fn bpsw(n: &BigUint, r: usize) -> Result<Outcome, Error> {
    if let Some(o) = prefilter(n, r) {
        return Ok(o);
    }
    let mr = MillerRabin::new(n)?;
    if !mr.passes_base_two_vartime() {
        return Ok(Outcome::composite(Stage::MillerRabin, 1));
    }
    strong_lucas_stage(n, 1)
}

/// BPSW with the standard Lucas test U_{n+1} ≡ 0 as the second half, as the paper's own code
/// does (Appendix B, `BN_lucas_test_ex`); `bpsw` uses the strong test, as §3.4 describes and
/// GMP and most libraries do. Both reject every known composite.
pub fn bpsw_standard(n: &BigUint, r: usize) -> Result<Outcome, Error> {
    if let Some(o) = prefilter(n, r) {
        return Ok(o);
    }
    if !MillerRabin::new(n)?.passes_base_two_vartime() {
        return Ok(Outcome::composite(Stage::MillerRabin, 1));
    }
    let params = match super::lucas_params(n, SearchOptions::BPSW, 1) {
        Ok(p) => p,
        Err(o) => return Ok(o),
    };
    Ok(if LucasLadder::new(n, &params)?.standard_test() { Outcome::passed(1) } else { Outcome::composite(Stage::Lucas, 1) })
}

/// The Lucas half shared with the stand-alone strong Lucas test.
pub(super) fn strong_lucas_stage(n: &BigUint, mr_rounds: u32) -> Result<Outcome, Error> {
    let params = match super::lucas_params(n, SearchOptions::BPSW, mr_rounds) {
        Ok(p) => p,
        Err(o) => return Ok(o),
    };
    if LucasLadder::new(n, &params)?.strong_test() {
        Ok(Outcome::passed(mr_rounds))
    } else {
        Ok(Outcome::composite(Stage::Lucas, mr_rounds))
    }
}
