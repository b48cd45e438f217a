//! Random-base Miller-Rabin rounds t for incremental prime search, from the
//! Damgård–Landrock–Pomerance average-case bound as used for incremental search by
//! Brandt–Damgård (Dobrosavljević 2021, §3.1, eq. 3.1–3.2; restarts and unbounded search §3.2.1–3.2.2,
//! eq. 3.4, 3.8–3.9).
//!
//! # Derivation
//! Let beta_t(n) be the probability that a composite n passes t Miller-Rabin rounds with
//! independent uniform bases, and C_m the composites of k bits passing one round with
//! probability > 2^-m. Monier–Rabin gives C_2 = {}, and DLP (Dobrosavljević 2021, eq. 3.2) give, for
//! 3 <= m <= 2 sqrt(k-1) - 1, P_k(C_m) <= (8/3)(pi^2 - 6) sum_{j=2}^m 2^(m - j - (k-1)/j),
//! with P_k the fraction of the odd k-bit numbers. Splitting the composites by the first
//! C_m containing them (as in eq. 3.1):
//!
//!   E_uniform\[beta_t\] <= sum_{m=3}^{M} P_k(C_m) 2^(-t(m-1)) + 2^(-tM)   for any M.   (A)
//!
//! A search examines positions n_0 + step*i, i < s, of a window whose start n_0 is
//! uniform over a sub-range holding at least half of the k-bit numbers of its residue
//! class, so every position is marginally uniform over a set where fractions grow at most
//! 2x, and by the number of residue classes the congruence fixes (`class_factor`). A
//! composite can be output only if some position's number passes the t random rounds, so
//! by the union bound one window errs with probability <= s * class_factor * 2 * (A).
//! (This linear form is smaller than eq. 3.1's quadratic one, which we do not need because
//! we sum over fixed positions rather than condition on the interval.) Windows restart
//! from a fresh uniform start when exhausted; with the window sized so that one window
//! finds a prime with probability >= 1/2 (prime-gap heuristic, Dobrosavljević 2021, eq. 3.6/3.8), the
//! expected number of windows is <= 2; `jobs` parallel searches add a factor `jobs`
//! (union over searches: the first winner is output). Hence
//!
//!   Pr[composite output] <= 2 * jobs * s * class_factor * 2 * (A)  <=  2^-128,
//!
//! and t is the least integer for which some M satisfies it. Rejection tests run before
//! the t rounds (a sieve, a base-2 round, a Fermat test) only remove candidates, so they
//! cannot increase the bound. When (A) is weak (small k) the worst-case bound 4^-t per
//! composite is used instead if it gives fewer rounds.
//!
//! Resulting table (jobs = 1, class_factor = 1), from [`search_rounds_table`] and checked
//! by the tests below:
//!
//! | k (bits of the tested number) | s = 2^15 (random primes) | s = 2^20 (safe-prime q) |
//! |---|---|---|
//! | 256  | 32 | 35 |
//! | 512  | 13 | 14 |
//! | 768  | 9  | 9  |
//! | 1024 | 6  | 7  |
//! | 1536 | 4  | 5  |
//! | 2048 | 3  | 4  |
//! | 3072 | 2  | 3  |
//! | 4096 | 2  | 2  |
//! | 8192 | 1  | 1  |

/// Error target: the generators output a composite with probability at most 2^-128.
pub const TARGET_LOG2_ERROR: f64 = -128.0;

/// What the union bound sums over (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SearchShape {
    /// Bits k of the number the random rounds test.
    pub bits: u32,
    /// log2 of the number of positions s in one window.
    pub log2_window: u32,
    /// Independent searches run at once whose first winner is output.
    pub jobs: u32,
    /// log2 of the factor by which a congruence restriction can concentrate composites
    /// (1 class of `classes` -> log2(classes)); 0 without a congruence.
    pub log2_class_factor: u32,
}

/// log2 of the DLP bound on P_k(C_m) (Dobrosavljević 2021, eq. 3.2), valid for 3 <= m <= 2 sqrt(k-1) - 1.
pub fn log2_pc_m(k: u32, m: u32) -> f64 {
    let k1 = (k - 1) as f64;
    let terms: Vec<f64> = (2..=m).map(|j| (m - j) as f64 - k1 / j as f64).collect();
    let c = (8.0 / 3.0 * (std::f64::consts::PI.powi(2) - 6.0)).log2();
    c + log2_sum(&terms)
}

/// log2(sum 2^x) without overflow.
fn log2_sum(xs: &[f64]) -> f64 {
    let mx = xs.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    if mx == f64::NEG_INFINITY {
        return mx;
    }
    mx + xs.iter().map(|x| (x - mx).exp2()).sum::<f64>().log2()
}

/// Largest M for which eq. 3.2 holds: floor(2 sqrt(k-1) - 1).
fn max_m(k: u32) -> u32 {
    (2.0 * ((k - 1) as f64).sqrt() - 1.0).floor() as u32
}

/// log2 of bound (A): the average over uniform odd k-bit n of the probability that n is
/// composite and passes t random rounds, minimised over M. `-inf`-free: returns the
/// worst-case 4^-t bound when eq. 3.2 has no valid M (k < 6).
pub fn log2_avg_pass(k: u32, t: u32) -> f64 {
    let worst = -2.0 * t as f64;
    if k < 6 || max_m(k) < 3 {
        return worst;
    }
    let t = t as f64;
    let pc: Vec<f64> = (3..=max_m(k)).map(|m| log2_pc_m(k, m)).collect();
    let mut best = worst;
    let mut prefix: Vec<f64> = Vec::new();
    for (i, &p) in pc.iter().enumerate() {
        let m = (i + 3) as f64;
        prefix.push(p - t * (m - 1.0));
        let mut terms = prefix.clone();
        terms.push(-t * m);
        best = best.min(log2_sum(&terms));
    }
    best
}

/// Least t with Pr[composite output] <= 2^-128 for the given search (module docs).
/// Memoised: the derivation takes tens of microseconds, a small prime less.
pub fn rounds_for_search(shape: SearchShape) -> u32 {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<HashMap<SearchShape, u32>>> = OnceLock::new();
    let cache = CACHE.get_or_init(|| Mutex::new(HashMap::new()));
    if let Some(&t) = cache.lock().expect("unpoisoned").get(&shape) {
        return t;
    }
    let t = derive_rounds(shape);
    cache.lock().expect("unpoisoned").insert(shape, t);
    t
}

fn derive_rounds(shape: SearchShape) -> u32 {
    let overhead = 1.0 // expected windows <= 2
        + (shape.jobs.max(1) as f64).log2()
        + shape.log2_window as f64
        + shape.log2_class_factor as f64
        + 1.0; // marginal density at most doubled by the start's sub-range
    (1..=200).find(|&t| log2_avg_pass(shape.bits, t) + overhead <= TARGET_LOG2_ERROR).unwrap_or(200)
}

/// (k, t) rows for the documented table: jobs = 1, no congruence.
pub fn search_rounds_table(log2_window: u32, sizes: &[u32]) -> Vec<(u32, u32)> {
    sizes.iter().map(|&bits| (bits, rounds_for_search(SearchShape { bits, log2_window, jobs: 1, log2_class_factor: 0 }))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn documented_table_matches() {
        let sizes = [256, 512, 768, 1024, 1536, 2048, 3072, 4096, 8192];
        let random = [32, 13, 9, 6, 4, 3, 2, 2, 1];
        let safe = [35, 14, 9, 7, 5, 4, 3, 2, 1];
        let got15: Vec<u32> = search_rounds_table(15, &sizes).iter().map(|r| r.1).collect();
        let got20: Vec<u32> = search_rounds_table(20, &sizes).iter().map(|r| r.1).collect();
        assert_eq!(got15, random);
        assert_eq!(got20, safe);
    }

    #[test]
    fn bound_is_monotone_and_sane() {
        // More rounds never weaken the bound; larger k never needs more rounds.
        for k in [128, 512, 1024, 2048] {
            let mut prev = 0.0;
            for t in 1..20 {
                let b = log2_avg_pass(k, t);
                assert!(b <= prev + 1e-9, "k={k} t={t}");
                assert!(b <= -2.0 * t as f64 + 1e-9, "never worse than 4^-t");
                prev = b;
            }
        }
        let shape = |bits| SearchShape { bits, log2_window: 15, jobs: 1, log2_class_factor: 0 };
        let mut prev = u32::MAX;
        for k in (64..=8192).step_by(64) {
            let t = rounds_for_search(shape(k));
            assert!(t <= prev, "k={k}");
            prev = t;
        }
        // Worst case alone would need 4^-t * 2^19 <= 2^-128: t = 74; average case beats it.
        assert!(rounds_for_search(shape(64)) <= 74);
        // Parallel searches cost rounds, never save them.
        let j = SearchShape { jobs: 64, ..shape(1024) };
        assert!(rounds_for_search(j) >= rounds_for_search(shape(1024)));
    }

    #[test]
    fn dlp_term_is_tiny_for_large_k() {
        // For k = 1024, m = 3: 2^(1 - 511.5) + 2^(0 - 341) ~ 2^-341, times ~8.9.
        let v = log2_pc_m(1024, 3);
        assert!((v - (-341.0 + (8.0f64 / 3.0 * (std::f64::consts::PI.powi(2) - 6.0)).log2())).abs() < 0.01, "{v}");
    }
}
