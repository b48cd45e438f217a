//! The distribution check of Dobrosavljević 2021, §5.2: a histogram of the most significant byte of
//! the generated primes (64 bins, since the top two bits are fixed) against the band
//! μ ± 1.96·√μ, plus a chi-square goodness-of-fit p-value, and the residues of the primes
//! modulo small primes (uniform over the admissible classes: 1..p-1, and for safe primes
//! 2..p-1, since p | (n-1)/2 is excluded).

use num_bigint::BigUint;
use statrs::distribution::{ChiSquared, ContinuousCDF};

/// Critical value of the 95% band (the thesis's τ).
pub const TAU: f64 = 1.96;
/// Small primes whose residues are checked.
pub const RESIDUE_PRIMES: [u32; 6] = [3, 5, 7, 11, 13, 17];

/// Goodness of fit of one histogram against a uniform expectation.
#[derive(Clone, Debug)]
pub struct Fit {
    /// Labels of the bins (MSB byte value, or residue class).
    pub labels: Vec<u32>,
    pub counts: Vec<u64>,
    /// Expected count per bin, μ.
    pub mu: f64,
    /// The band μ ± τ√μ.
    pub band: (f64, f64),
    /// Bins outside the band (about 5% are expected to be, by chance).
    pub outside: usize,
    pub chi2: f64,
    pub dof: usize,
    /// P(χ²_dof >= chi2): small values (say < 0.001) reject uniformity.
    pub p_value: f64,
}

impl Fit {
    /// The fit of a histogram (`counts[i]` samples in bin `labels[i]`); also how merged
    /// shards' summed counts are re-judged.
    pub fn from_counts(labels: Vec<u32>, counts: Vec<u64>) -> Fit {
        let total: u64 = counts.iter().sum();
        let mu = total as f64 / counts.len() as f64;
        let band = (mu - TAU * mu.sqrt(), mu + TAU * mu.sqrt());
        let outside = counts.iter().filter(|&&c| (c as f64) < band.0 || (c as f64) > band.1).count();
        let chi2 = if mu > 0.0 { counts.iter().map(|&c| (c as f64 - mu).powi(2) / mu).sum() } else { 0.0 };
        let dof = counts.len().saturating_sub(1);
        Fit { labels, counts, mu, band, outside, chi2, dof, p_value: chi2_sf(chi2, dof as f64) }
    }
}

/// The full report for one sample of k-bit primes.
#[derive(Clone, Debug)]
pub struct Report {
    pub samples: usize,
    pub msb: Fit,
    /// (p, fit of n mod p over the admissible classes).
    pub residues: Vec<(u32, Fit)>,
}

/// The most significant byte of a k-bit number (k >= 8).
pub fn msb_byte(n: &BigUint, k: u32) -> u8 {
    (n >> (k - 8)).to_u64_digits().first().copied().unwrap_or(0) as u8
}

/// Analyses `primes`, all of exactly `k` bits with the top two bits set; `safe` selects
/// the residue classes admissible for safe primes.
pub fn analyse(primes: &[BigUint], k: u32, safe: bool) -> Report {
    let mut msb = vec![0u64; 64];
    for p in primes {
        let b = msb_byte(p, k);
        debug_assert!(b >= 0xC0);
        msb[(b & 0x3F) as usize] += 1;
    }
    let msb = Fit::from_counts((0xC0..=0xFF).collect(), msb);
    let residues = RESIDUE_PRIMES
        .iter()
        .map(|&q| {
            let first = if safe { 2 } else { 1 };
            let mut counts = vec![0u64; (q - first) as usize];
            for p in primes {
                let r = (p % q).to_u64_digits().first().copied().unwrap_or(0) as u32;
                if r >= first {
                    counts[(r - first) as usize] += 1;
                }
            }
            (q, Fit::from_counts((first..q).collect(), counts))
        })
        .collect();
    Report { samples: primes.len(), msb, residues }
}

/// Survival function P(χ²_dof >= chi2) of the chi-square distribution with `dof` degrees
/// of freedom (statrs). Zero degrees of freedom, a single bin, is the point mass at 0;
/// a statistic that is not a number gives NaN rather than a panic.
pub fn chi2_sf(chi2: f64, dof: f64) -> f64 {
    if dof == 0.0 {
        return if chi2 > 0.0 { 0.0 } else { 1.0 };
    }
    match ChiSquared::new(dof) {
        Ok(d) if !chi2.is_nan() => d.sf(chi2),
        _ => f64::NAN,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// For even dof = 2n, Q(n, x) = e^{-x} Σ_{i<n} x^i / i! exactly.
    fn sf_even(chi2: f64, dof: u32) -> f64 {
        let x = chi2 / 2.0;
        let (mut term, mut sum) = (1.0, 1.0);
        for i in 1..dof / 2 {
            term *= x / i as f64;
            sum += term;
        }
        (-x).exp() * sum
    }

    #[test]
    fn chi2_matches_closed_form() {
        for dof in [2u32, 4, 10, 62] {
            for chi2 in [0.5, 3.0, 40.0, 63.0, 90.0, 150.0] {
                let (got, want) = (chi2_sf(chi2, dof as f64), sf_even(chi2, dof));
                assert!((got - want).abs() < 1e-12 * want.max(1e-300) + 1e-14, "dof {dof} chi2 {chi2}: {got} vs {want}");
            }
        }
        // Odd dof: chi2 with 1 dof at 3.841 is the 5% point.
        assert!((chi2_sf(3.841_458_820_694_124, 1.0) - 0.05).abs() < 1e-9);
    }

    #[test]
    fn uniform_and_skewed_samples() {
        let k = 16;
        let uniform: Vec<BigUint> = (0..64 * 100u32).map(|i| BigUint::from(0xC000u32 + (i % 64) * 256 + 1)).collect();
        let r = analyse(&uniform, k, false);
        assert_eq!(r.msb.counts, vec![100; 64]);
        assert_eq!((r.msb.outside, r.msb.chi2), (0, 0.0));
        assert!((r.msb.p_value - 1.0).abs() < 1e-12);
        let skewed: Vec<BigUint> = (0..6400u32).map(|i| BigUint::from(0xC000u32 + (i % 8) * 256 + 1)).collect();
        let r = analyse(&skewed, k, false);
        assert!(r.msb.p_value < 1e-100 && r.msb.outside == 64);
        assert_eq!(msb_byte(&BigUint::from(0xABCDu32), 16), 0xAB);
    }
}
