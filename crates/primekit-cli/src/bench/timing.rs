//! Timing helpers shared by the benchmarks.

use std::time::Instant;

/// Runs `f` on each input once as a warm-up, then `reps` timed passes over all inputs;
/// returns the per-input mean of each pass in milliseconds.
pub fn time_passes<T>(inputs: &[T], reps: usize, mut f: impl FnMut(&T)) -> Vec<f64> {
    for x in inputs.iter().take(inputs.len().min(4)) {
        f(x);
    }
    (0..reps.max(1))
        .map(|_| {
            let start = Instant::now();
            for x in inputs {
                f(x);
            }
            start.elapsed().as_secs_f64() * 1e3 / inputs.len().max(1) as f64
        })
        .collect()
}

/// Mean and median of samples.
pub fn mean_median(samples: &[f64]) -> (f64, f64) {
    let mean = samples.iter().sum::<f64>() / samples.len() as f64;
    let mut s = samples.to_vec();
    s.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let median = if s.len() % 2 == 1 { s[s.len() / 2] } else { (s[s.len() / 2 - 1] + s[s.len() / 2]) / 2.0 };
    (mean, median)
}
