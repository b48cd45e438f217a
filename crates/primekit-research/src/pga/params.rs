//! Deriving the Miller-Rabin rounds t and the NSS round limit U from k, γ and the free
//! parameters (r, L), as in Dobrosavljević 2021, §3.1–3.2, eq. 3.1–3.13:
//! the Brandt–Damgård bound on PrimeInc's error (eq. 3.1) with the
//! Damgård–Landrock–Pomerance bound on P_k(C_m) (eq. 3.2).
//!
//! Everything is computed in log2 so that terms such as 2^-1500 (k = 3072) do not
//! underflow; `tests/fixtures/pga_params.py` recomputes the same values with mpmath.

use primekit::hazmat::sieve::SMALL_ODD_PRIMES;
use primekit::Error;
use std::f64::consts::{LN_2, PI};

/// Largest t searched before declaring the target unreachable.
pub const MAX_ROUNDS: u32 = 256;

/// log2(Σ 2^x) without overflow or underflow.
fn log2_sum(xs: impl IntoIterator<Item = f64>) -> f64 {
    let xs: Vec<f64> = xs.into_iter().collect();
    let max = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if max == f64::NEG_INFINITY {
        return max;
    }
    max + xs.iter().map(|x| (x - max).exp2()).sum::<f64>().log2()
}

/// Largest M allowed in eq. 3.1: the DLP bound (3.2) holds for m <= 2√(k-1) - 1.
pub fn max_m(k: u32) -> u32 {
    (2.0 * ((k - 1) as f64).sqrt() - 1.0).floor() as u32
}

/// log2 of the eq. 3.2 bound: P_k(C_m) <= (8/3)(π² - 6) Σ_{j=2}^{m} 2^{m - j - (k-1)/j}.
pub fn log2_p_cm(k: u32, m: u32) -> f64 {
    let c = (8.0 / 3.0 * (PI * PI - 6.0)).log2();
    c + log2_sum((2..=m).map(|j| m as f64 - j as f64 - (k - 1) as f64 / j as f64))
}

/// log2 of eq. 3.1 for one M: q <= A (0.5 A Σ_{m=3}^{M} P_k(C_m) 2^{-t(m-1)} + 0.7·2^{-tM}),
/// with A = L / (2 ln 2).
pub fn log2_q_at(k: u32, t: u32, l: f64, m_cap: u32) -> f64 {
    let a = (l / (2.0 * LN_2)).log2();
    let s = log2_sum((3..=m_cap).map(|m| log2_p_cm(k, m) - (t * (m - 1)) as f64));
    a + log2_sum([(0.5f64).log2() + a + s, 0.7f64.log2() - (t * m_cap) as f64])
}

/// log2 q_{k,t,L/2}: eq. 3.1 minimised over 3 <= M <= 2√(k-1) - 1.
pub fn log2_q(k: u32, t: u32, l: f64) -> f64 {
    (3..=max_m(k).max(3)).map(|m| log2_q_at(k, t, l, m)).fold(f64::INFINITY, f64::min)
}

/// E\[N_k\] ≈ k ln 2, the expected gap between k-bit primes (prime number theorem).
pub fn expected_prime_gap(k: u32) -> f64 {
    k as f64 * LN_2
}

/// Hardy–Littlewood's twin prime constant C = Π_{p>2} p(p-2)/(p-1)².
pub const TWIN_PRIME_CONSTANT: f64 = 0.660_161_815_846_869_6;

/// The mean gap between k-bit safe primes (Dobrosavljević 2021, §3.4.1 and Appendix A.3):
/// the 2^(k-1) k-bit integers over the ζ(2^(k-1)) - ζ(2^(k-2)) safe primes among them, with
/// ζ(n) = 2 C n / ln² n Sophie Germain primes below n. About 763,000 at k = 1024.
pub fn expected_safe_prime_gap(k: u32) -> f64 {
    let l = |m: u32| (m as f64 * LN_2).powi(2);
    1.0 / (TWIN_PRIME_CONSTANT * (2.0 / l(k - 1) - 1.0 / l(k - 2)))
}

/// Eq. 3.14-3.15: log2 of the interval a with Markov's bound P\[X >= a\] <= E\[X\]/a at most
/// 2^-γ for the safe-prime gap X: log2 a = log2 E\[X\] + γ (about 147.5 at k = 1024,
/// γ = 128). Valid as a bound on the safe Natural PGA's failure only under the thesis's
/// caveat (it is Markov's inequality, assuming nothing about Var\[X\]).
pub fn safe_natural_markov_log2_l(k: u32, gamma: f64) -> f64 {
    expected_safe_prime_gap(k).log2() + gamma
}

/// The security level γ the thesis runs each PGA at (Dobrosavljević 2021, §4.2): 128,
/// except 100 for the safe OpenSSL PGA (its one stated exception). t (and U) are derived
/// from γ the same way for safe and plain primes: moving to safe primes does not raise the
/// error bound of one round (§3.4.1), only the failure probability of bounded searches,
/// which the safe NSS PGA sidesteps by running without a round limit (U = ∞, §4.3.2)
/// and the safe Natural PGA by wrapping around its interval (§4.3.4), since eq. 3.14-3.15
/// ([`safe_natural_markov_log2_l`]) ask for an interval of 2^147.5 at k = 1024.
pub fn thesis_gamma(pga: super::Pga, safe: bool) -> f64 {
    if safe && pga == super::Pga::Openssl {
        100.0
    } else {
        128.0
    }
}

/// log2 E[G_k^r] ≈ log2 Π (1 + 1/(p_i - 1)) over the first r odd primes (§3.2.3,
/// after Massimo–Paterson): the mean gap between numbers free of those primes.
pub fn log2_sieve_gap(r: usize) -> f64 {
    SMALL_ODD_PRIMES[..r].iter().map(|&p| (1.0 + 1.0 / (p as f64 - 1.0)).log2()).sum()
}

/// Derived parameters and the bound they achieve.
#[derive(Clone, Debug, PartialEq)]
pub struct Derived {
    /// Miller-Rabin rounds per candidate.
    pub t: u32,
    /// NSS PGA round limit (eq. 3.7); `None` for PGAs without one.
    pub u: Option<u64>,
    /// The search-interval length L the error bound was evaluated at.
    pub l_bound: f64,
    /// log2 of the error bound reached with this t (<= the target).
    pub log2_error: f64,
}

fn check(k: u32, gamma: f64) -> Result<(), Error> {
    if k < 16 || !(gamma > 0.0 && gamma <= 1024.0) {
        return Err(Error::InvalidArgument(format!("need k >= 16 and 0 < γ <= 1024 (got k = {k}, γ = {gamma})")));
    }
    Ok(())
}

/// Smallest t with `extra + log2 q(k, t, l) <= target`.
fn smallest_t(k: u32, l: f64, extra: f64, target: f64) -> Result<(u32, f64), Error> {
    for t in 1..=MAX_ROUNDS {
        let e = extra + log2_q(k, t, l);
        if e <= target {
            return Ok((t, e));
        }
    }
    Err(Error::InvalidArgument(format!("no t <= {MAX_ROUNDS} reaches 2^{target} at k = {k}, L = {l}")))
}

/// NSS round limit from eq. 3.7: U L >= γ k ln²2.
pub fn nss_rounds(k: u32, gamma: f64, l: u64) -> u64 {
    (gamma * k as f64 * LN_2 * LN_2 / l as f64).ceil().max(1.0) as u64
}

/// log2 of the geometric factor of eq. 3.4: (1 - e^{-UL/E\[N_k\]}) / (1 - e^{-L/E\[N_k\]}).
pub fn log2_nss_factor(k: u32, l: u64, u: u64) -> f64 {
    let g = expected_prime_gap(k);
    let x = l as f64 / g;
    ((-(-(u as f64) * x).exp_m1()) / (-(-x).exp_m1())).log2()
}

/// NSS PGA (§3.2.1): U from eq. 3.7, then the smallest t keeping eq. 3.5 <= 2^-γ.
pub fn derive_nss(k: u32, gamma: f64, l: u64) -> Result<Derived, Error> {
    check(k, gamma)?;
    if l < 2 {
        return Err(Error::InvalidArgument("L must be at least 2".into()));
    }
    let u = nss_rounds(k, gamma, l);
    let (t, e) = smallest_t(k, l as f64, log2_nss_factor(k, l, u), -gamma)?;
    Ok(Derived { t, u: Some(u), l_bound: l as f64, log2_error: e })
}

/// Smallest L with failure probability e^{-L/(k ln 2)} <= 2^-(γ+1) (eq. 3.8).
pub fn natural_min_l(k: u32, gamma: f64) -> u64 {
    ((gamma + 1.0) * k as f64 * LN_2 * LN_2).ceil() as u64
}

/// Natural PGA (§3.2.2): L >= (γ+1) k ln²2 (eq. 3.8; a larger requested L is kept),
/// then the smallest t with q_{k,t,L/2} <= 2^-(γ+1) (eq. 3.9).
pub fn derive_natural(k: u32, gamma: f64, l: Option<u64>) -> Result<Derived, Error> {
    check(k, gamma)?;
    let l = natural_min_l(k, gamma).max(l.unwrap_or(0));
    let (t, e) = smallest_t(k, l as f64, 0.0, -(gamma + 1.0))?;
    Ok(Derived { t, u: None, l_bound: l as f64, log2_error: e })
}

/// log2(E\[N_k\] / (2 E[G_k^r])): the expected number of OpenSSL rounds (eq. 3.10).
pub fn log2_openssl_rounds(k: u32, r: usize) -> f64 {
    (expected_prime_gap(k) / 2.0).log2() - log2_sieve_gap(r)
}

/// OpenSSL PGA (§3.2.3): c from eq. 3.13, L/2 = c k ln 2, then the smallest t with
/// eq. 3.12: (γ+1) + log2(E\[N_k\]/(2E[G_k^r])) <= -log2 q_{k,t,L/2}.
pub fn derive_openssl(k: u32, gamma: f64, r: usize) -> Result<Derived, Error> {
    check(k, gamma)?;
    if r == 0 || r > SMALL_ODD_PRIMES.len() {
        return Err(Error::InvalidArgument(format!("r must be in 1..={}", SMALL_ODD_PRIMES.len())));
    }
    let x = log2_openssl_rounds(k, r);
    let c = LN_2 / 2.0 * ((gamma + 1.0) + x);
    let l = 2.0 * c * k as f64 * LN_2;
    let (t, e) = smallest_t(k, l, x, -(gamma + 1.0))?;
    Ok(Derived { t, u: None, l_bound: l, log2_error: e })
}

#[cfg(test)]
mod tests {
    #[test]
    fn thesis_gamma_has_one_exception() {
        use super::super::Pga;
        assert_eq!(thesis_gamma(Pga::Openssl, true), 100.0);
        for pga in [Pga::Nss, Pga::Natural, Pga::Openssl] {
            assert_eq!(thesis_gamma(pga, false), 128.0);
        }
        assert_eq!(thesis_gamma(Pga::Nss, true), 128.0);
        assert_eq!(thesis_gamma(Pga::Natural, true), 128.0);
        // The exception buys a smaller t for the safe OpenSSL PGA at the thesis's r.
        let t100 = derive_openssl(1024, 100.0, 1024).unwrap().t;
        let t128 = derive_openssl(1024, 128.0, 1024).unwrap().t;
        assert!(t100 < t128, "{t100} vs {t128}");
    }

    #[test]
    fn safe_prime_gap_and_markov_interval_match_the_thesis() {
        use super::*;
        // §3.4.1: "≈ 763,000 for k = 1024" and "log2(a) ≈ 147.5" for γ = 128.
        let gap = expected_safe_prime_gap(1024);
        assert!((gap / 763_000.0 - 1.0).abs() < 0.01, "{gap}");
        let a = safe_natural_markov_log2_l(1024, 128.0);
        assert!((a - 147.5).abs() < 0.1, "{a}");
        // The ordinary gap at the same size is about 710 (k ln 2).
        assert!((expected_prime_gap(1024) - 710.0).abs() < 1.0);
    }

    use super::*;

    #[test]
    fn log2_sum_is_stable() {
        assert!((log2_sum([-2000.0, -2000.0]) + 1999.0).abs() < 1e-12);
        assert_eq!(log2_sum(std::iter::empty()), f64::NEG_INFINITY);
    }

    #[test]
    fn rounds_cover_failure_bound() {
        for (k, l) in [(1024u32, 700u64), (1024, 48_000), (2048, 4000)] {
            let u = nss_rounds(k, 128.0, l);
            assert!(u as f64 * l as f64 >= 128.0 * k as f64 * LN_2 * LN_2);
            assert!((u - 1) as f64 * (l as f64) < 128.0 * k as f64 * LN_2 * LN_2);
        }
    }
}
