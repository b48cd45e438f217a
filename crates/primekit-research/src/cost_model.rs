//! Massimo & Paterson's (2020) cost model for a primality test with trial division (§3.1.2-3.2.2).
//!
//! - eq. 2: σ_r = 1 - Π_{i<=r} (1 - 1/p_i), the fraction of random odd composites removed
//!   by trial division by the first r odd primes (p_1 = 3; p_2047 = 17863 as in the paper);
//! - eq. 3: σ_r ≈ 1 - 2e^-γ / ln p_r (Mertens);
//! - eq. 4 / 8: cost on a prime, Σ C_i + t C_MR;
//! - eq. 5 / 6: expected cost on a random odd composite, Σ (1 - σ_{i-1}) C_i + (1 - σ_r) C_MR;
//! - eq. 7: without trial division, (1 + (t - 1) q_k) C_MR with q_k = 2 / ln 2^k;
//!
//! and the weighted sum over random odd inputs. C_i = C_TD for every i (footnote 4).

use primekit::hazmat::sieve::{NUM_SMALL_ODD_PRIMES, SMALL_ODD_PRIMES};

/// The Euler-Mascheroni constant γ.
pub const EULER_GAMMA: f64 = 0.577_215_664_901_532_9;

/// Costs of one trial division and one Miller-Rabin round (any time unit).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Costs {
    /// C_TD: one trial division by one small prime.
    pub c_td: f64,
    /// C_MR: one Miller-Rabin round.
    pub c_mr: f64,
    /// C_L: the Lucas part of BPSW (parameter search + strong Lucas test); 0 if unused.
    pub c_lucas: f64,
}

impl Costs {
    /// Massimo & Paterson's (2020) measured 1024-bit costs: C_TD = 0.000371 ms, C_MR = 0.298 ms,
    /// C_L = 17.04 C_MR (§3.1.2, §3.4.1).
    pub const PAPER_1024: Costs = Costs { c_td: 0.000371, c_mr: 0.298, c_lucas: 17.04 * 0.298 };
}

/// The largest r the model supports (the size of the small-prime table).
pub const MAX_R: usize = NUM_SMALL_ODD_PRIMES;

/// σ_0, σ_1, ..., σ_r by eq. 2 (σ_0 = 0). `r <= MAX_R`.
pub fn sigmas(r: usize) -> Vec<f64> {
    assert!(r <= MAX_R, "r = {r} exceeds the {MAX_R}-prime table");
    let mut out = Vec::with_capacity(r + 1);
    let mut keep = 1.0f64;
    out.push(0.0);
    for &p in &SMALL_ODD_PRIMES[..r] {
        keep *= 1.0 - 1.0 / p as f64;
        out.push(1.0 - keep);
    }
    out
}

/// σ_r by eq. 2.
pub fn sigma(r: usize) -> f64 {
    *sigmas(r).last().expect("non-empty")
}

/// The r-th odd prime p_r in the paper's 1-based numbering (p_1 = 3, p_2047 = 17863).
pub fn p_r(r: usize) -> u32 {
    primekit::hazmat::sieve::odd_prime(r - 1)
}

/// σ_r by Mertens' approximation, eq. 3 (r >= 1).
pub fn sigma_mertens(r: usize) -> f64 {
    1.0 - 2.0 * (-EULER_GAMMA).exp() / (p_r(r) as f64).ln()
}

/// q_k = 2 / ln(2^k): the probability that a random odd k-bit integer is prime.
pub fn prime_density(bits: u64) -> f64 {
    2.0 / (bits as f64 * std::f64::consts::LN_2)
}

/// Eq. 4 / 8: cost on a prime input, all r trial divisions and `t` rounds, plus C_L
/// when `lucas` (BPSW: t = 1 base-2 round and the Lucas part).
pub fn cost_prime(r: usize, t: u32, lucas: bool, c: &Costs) -> f64 {
    r as f64 * c.c_td + t as f64 * c.c_mr + if lucas { c.c_lucas } else { 0.0 }
}

/// Eq. 5 as written: Σ_j (σ_j - σ_{j-1}) (C_1 + ... + C_j) + (1 - σ_r)(Σ C_i + C_MR).
pub fn cost_composite_eq5(r: usize, c: &Costs) -> f64 {
    let s = sigmas(r);
    let mut total = 0.0;
    for j in 1..=r {
        total += (s[j] - s[j - 1]) * j as f64 * c.c_td;
    }
    total + (1.0 - s[r]) * (r as f64 * c.c_td + c.c_mr)
}

/// Eq. 6: Σ_{i<=r} (1 - σ_{i-1}) C_TD + (1 - σ_r) C_MR.
pub fn cost_composite(r: usize, c: &Costs) -> f64 {
    let s = sigmas(r);
    let td: f64 = (1..=r).map(|i| (1.0 - s[i - 1]) * c.c_td).sum();
    td + (1.0 - s[r]) * c.c_mr
}

/// Expected cost on a random odd k-bit input: q_k · eq. 4 + (1 - q_k) · eq. 6.
pub fn cost_random_odd(bits: u64, r: usize, t: u32, lucas: bool, c: &Costs) -> f64 {
    let q = prime_density(bits);
    q * cost_prime(r, t, lucas, c) + (1.0 - q) * cost_composite(r, c)
}

/// Eq. 7 generalised: expected Miller-Rabin rounds without trial division,
/// t q_k + 1 (1 - q_k) = 1 + (t - 1) q_k.
pub fn expected_rounds_no_td(bits: u64, t: u32) -> f64 {
    1.0 + (t as f64 - 1.0) * prime_density(bits)
}

/// The r minimising [`cost_random_odd`] over `0..=r_max`.
pub fn optimal_r(bits: u64, t: u32, lucas: bool, c: &Costs, r_max: usize) -> usize {
    (0..=r_max.min(MAX_R))
        .min_by(|&a, &b| cost_random_odd(bits, a, t, lucas, c).total_cmp(&cost_random_odd(bits, b, t, lucas, c)))
        .unwrap_or(0)
}

/// The paper's central comparison in closed form: MR64 with trial division by `r64`
/// primes against MRAC (t = `t_mrac`) with `r_mrac`, both on random odd `bits`-bit inputs.
/// Each expected cost is a·C_TD + b·C_MR (the model is linear in the two costs), so MR64 is
/// the cheaper test exactly when C_MR / C_TD is below the returned ratio (infinite when
/// MR64 never costs more rounds; zero when it never wins).
pub fn mr64_wins_below_ratio(bits: u64, r64: usize, r_mrac: usize, t_mrac: u32) -> f64 {
    let td = Costs { c_td: 1.0, c_mr: 0.0, c_lucas: 0.0 };
    let mr = Costs { c_td: 0.0, c_mr: 1.0, c_lucas: 0.0 };
    let (a64, b64) = (cost_random_odd(bits, r64, 64, false, &td), cost_random_odd(bits, r64, 64, false, &mr));
    let (ac, bc) = (cost_random_odd(bits, r_mrac, t_mrac, false, &td), cost_random_odd(bits, r_mrac, t_mrac, false, &mr));
    // a64 td + b64 mr < ac td + bc mr  <=>  (b64 - bc) mr < (ac - a64) td
    if b64 <= bc {
        return f64::INFINITY;
    }
    ((ac - a64) / (b64 - bc)).max(0.0)
}

/// Massimo & Paterson 2020, Appendix A: N = ln(2^k)(1 - σ_s)/2, the composite candidates
/// a sieve by s primes leaves before the first prime, each rejected by one round.
pub fn sieved_composites(bits: u64, s: usize) -> f64 {
    bits as f64 * std::f64::consts::LN_2 * (1.0 - sigma(s)) / 2.0
}

/// Appendix A, eq. 9: generation with a sieve by s primes and a test of up to t rounds
/// without trial division: s C_TD + N C_MR + (t - 1) C_MR.
pub fn generation_cost_eq9(bits: u64, s: usize, t: u32, c: &Costs) -> f64 {
    s as f64 * c.c_td + sieved_composites(bits, s) * c.c_mr + (t as f64 - 1.0) * c.c_mr
}

/// Eq. 10: the same with (redundant) trial division by r <= s primes inside the test and
/// up to t' rounds: s C_TD + N (r C_TD + C_MR) + (t' - 1) C_MR.
pub fn generation_cost_eq10(bits: u64, s: usize, r: usize, t_prime: u32, c: &Costs) -> f64 {
    let n = sieved_composites(bits, s);
    s as f64 * c.c_td + n * (r as f64 * c.c_td + c.c_mr) + (t_prime as f64 - 1.0) * c.c_mr
}

/// Eq. 11 as printed: N (r C_TD + δ_t C_MR) with δ_t = t' - t. (Eq. 10 minus eq. 9 is
/// N r C_TD + δ_t C_MR: the extra rounds run once, on the prime, not per candidate; the
/// printed eq. 11 multiplies them by N. Both are returned: (printed, difference).)
pub fn generation_overhead_eq11(bits: u64, s: usize, r: usize, t: u32, t_prime: u32, c: &Costs) -> (f64, f64) {
    let n = sieved_composites(bits, s);
    let delta = t_prime as f64 - t as f64;
    (n * (r as f64 * c.c_td + delta * c.c_mr), generation_cost_eq10(bits, s, r, t_prime, c) - generation_cost_eq9(bits, s, t, c))
}

/// Eq. 10 for a generator that restarts from a fresh random number after every failed
/// round, as OpenSSL 1.1.1's `BN_generate_prime_ex` does (`goto loop`; Appendix A names
/// the effect and leaves it out): each of the N + 1 candidates pays a new sieve setup of s
/// trial divisions, so (N + 1)(s + r) C_TD + N C_MR + t' C_MR.
pub fn generation_cost_restarting(bits: u64, s: usize, r: usize, t_prime: u32, c: &Costs) -> f64 {
    let n = sieved_composites(bits, s);
    (n + 1.0) * (s + r) as f64 * c.c_td + n * c.c_mr + t_prime as f64 * c.c_mr
}

#[cfg(test)]
mod tests {
    #[test]
    fn restarts_explain_the_papers_table_5() {
        use super::*;
        // With the paper's 1024-bit costs, the restarting model lands on Table 5's measured
        // 45.20 ms (MRAC inside: s = 2047, no trial division, t = 5) and 60.83 ms (MR64
        // inside: r = 128, t' = 64), where eq. 9 alone predicts about a third of the first.
        let c = Costs::PAPER_1024;
        let mrac = generation_cost_restarting(1024, 2047, 0, 5, &c);
        let mr64 = generation_cost_restarting(1024, 2047, 128, 64, &c);
        assert!((mrac / 45.20 - 1.0).abs() < 0.05, "{mrac}");
        assert!((mr64 / 60.83 - 1.0).abs() < 0.10, "{mr64}");
        assert!(generation_cost_eq9(1024, 2047, 5, &c) < 0.4 * 45.20);
    }

    #[test]
    fn appendix_a_numbers() {
        use super::*;
        // "when k = 1024 we set r = 128, and when s = 2047, we have N ≈ 41": 41 × 128 ≈ 5200
        // redundant trial divisions.
        let n = sieved_composites(1024, 2047);
        assert!((n - 41.0).abs() < 1.0, "{n}");
        let c = Costs::PAPER_1024;
        let (printed, diff) = generation_overhead_eq11(1024, 2047, 128, 5, 64, &c);
        assert!((diff - (n * 128.0 * c.c_td + 59.0 * c.c_mr)).abs() < 1e-9);
        assert!(printed > diff);
        // "the extra MR tests are about 8 times more expensive than the redundant trial
        // divisions (roughly 17.5 ms versus 2 ms)": 59 C_MR against N r C_TD.
        let ratio = 59.0 * c.c_mr / (n * 128.0 * c.c_td);
        assert!((6.0..12.0).contains(&ratio), "{ratio}");
    }

    use super::*;

    #[test]
    fn break_even_ratio_separates_the_two_outcomes() {
        // MR64 at Table 4's r against MRAC at r = 2047, 1024 bits, t = 5.
        let rho = mr64_wins_below_ratio(1024, 128, 2047, 5);
        for ratio in [rho * 0.9, rho * 1.1] {
            let c = Costs { c_td: 1.0, c_mr: ratio, c_lucas: 0.0 };
            let mr64 = cost_random_odd(1024, 128, 64, false, &c);
            let mrac = cost_random_odd(1024, 2047, 5, false, &c);
            assert_eq!(mr64 < mrac, ratio < rho, "ratio {ratio}, break-even {rho}");
        }
        // The paper's own costs (ratio about 800) are on the winning side.
        let paper = Costs::PAPER_1024;
        assert!(paper.c_mr / paper.c_td < rho, "{rho}");
    }

    /// Odd primes by an independent sieve of Eratosthenes (not the crate's table).
    fn sieve_odd_primes(count: usize) -> Vec<u64> {
        let limit = 200_000usize;
        let mut comp = vec![false; limit];
        let mut out = Vec::new();
        for i in 2..limit {
            if !comp[i] {
                if i > 2 {
                    out.push(i as u64);
                }
                let mut j = i * i;
                while j < limit {
                    comp[j] = true;
                    j += i;
                }
            }
        }
        out.truncate(count);
        out
    }

    #[test]
    fn sigma_matches_paper_and_independent_product() {
        let ps = sieve_odd_primes(2047);
        assert_eq!(ps[2046], 17863, "the paper's p_2047");
        assert_eq!(p_r(2047), 17863);
        let indep = |r: usize| 1.0 - ps[..r].iter().map(|&p| 1.0 - 1.0 / p as f64).product::<f64>();
        for r in [1, 2, 10, 64, 128, 384, 2047] {
            assert!((sigma(r) - indep(r)).abs() < 1e-12, "r={r}");
        }
        assert!((sigma(1) - 1.0 / 3.0).abs() < 1e-15);
        // Massimo & Paterson 2020, §3.1.2: σ_128 = 0.831, σ_2047 = 0.885 (three decimals).
        assert!((sigma(128) - 0.831).abs() < 0.0005, "σ_128 = {}", sigma(128));
        assert!((sigma(2047) - 0.885).abs() < 0.0005, "σ_2047 = {}", sigma(2047));
        // Mertens is an approximation: within 0.005 of the exact value from r = 64 on.
        for r in [64, 128, 2047, 9999] {
            assert!((sigma_mertens(r) - sigma(r)).abs() < 0.005, "r={r}: {} vs {}", sigma_mertens(r), sigma(r));
        }
    }

    #[test]
    fn equations_5_and_6_agree_and_eq7_matches_paper() {
        let c = Costs::PAPER_1024;
        for r in [0, 1, 5, 128, 2047] {
            assert!((cost_composite_eq5(r, &c) - cost_composite(r, &c)).abs() < 1e-12, "r={r}");
        }
        // Hand-computed r = 1: (1 - σ_0) C_TD + (1 - 1/3) C_MR.
        assert!((cost_composite(1, &c) - (c.c_td + 2.0 / 3.0 * c.c_mr)).abs() < 1e-15);
        // §3.2.1: MR64 ≈ 1.18 C_MR and §3.3: MR128 ≈ 1.36 C_MR at k = 1024, q_k ≈ 0.0028.
        assert!((prime_density(1024) - 0.0028).abs() < 0.00005);
        assert!((expected_rounds_no_td(1024, 64) - 1.18).abs() < 0.005);
        assert!((expected_rounds_no_td(1024, 128) - 1.36).abs() < 0.005);
        // Eq. 4 at r = 0 reduces to t C_MR; the weighted sum to eq. 7.
        assert_eq!(cost_prime(0, 5, false, &c), 5.0 * c.c_mr);
        assert!((cost_random_odd(1024, 0, 64, false, &c) - expected_rounds_no_td(1024, 64) * c.c_mr).abs() < 1e-12);
    }

    #[test]
    fn optimum_lies_near_p_r_equal_cost_ratio() {
        // §3.1.2: C_MR/C_TD ≈ 800 suggests r ≈ 140 (p_r ≈ 800); the curve is flat there.
        let r = optimal_r(1024, 5, false, &Costs::PAPER_1024, 2047);
        assert!((100..=200).contains(&r), "optimal r = {r}");
    }
}
