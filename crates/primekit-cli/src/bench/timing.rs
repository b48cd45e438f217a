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

/// A benchmark engine: its name, the kernel its line names, and one timed pass over all
/// inputs.
pub type Engine<'a, 'b> = (&'a str, &'a str, Box<dyn FnMut() + 'b>);

/// Time in ms of each timed pass of each engine (one engine call is one pass over all
/// inputs), after one warm-up pass each; keyed by (engine, kernel). With `interleave`
/// the engines run round-robin, one pass each per repetition, so that on a shared,
/// noisy machine every engine sees the same background load.
pub fn measure<'a>(engines: &mut [Engine<'a, '_>], reps: usize, interleave: bool) -> Vec<((&'a str, &'a str), Vec<f64>)> {
    let reps = reps.max(1);
    let mut samples = vec![Vec::new(); engines.len()];
    let pass = |k: usize, engines: &mut [Engine<'a, '_>]| {
        let start = Instant::now();
        (engines[k].2)();
        start.elapsed().as_secs_f64() * 1e3
    };
    if interleave {
        for k in 0..engines.len() {
            pass(k, engines);
        }
        for _ in 0..reps {
            for (k, sample) in samples.iter_mut().enumerate() {
                sample.push(pass(k, engines));
            }
        }
    } else {
        for (k, e) in engines.iter_mut().enumerate() {
            samples[k] = time_passes(&[()], reps, |_| (e.2)());
        }
    }
    engines.iter().map(|e| (e.0, e.1)).zip(samples).collect()
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
