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
    (mean, median(samples.to_vec()))
}

/// The median of `v` (the mean of the two middle values for an even count; NaN when
/// empty; NaNs sort last rather than panic).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}
