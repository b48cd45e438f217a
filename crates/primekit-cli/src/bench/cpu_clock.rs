//! CPU time of the calling thread. The research benchmarks time with it rather than the
//! wall clock: on a shared, oversubscribed machine a pass of a few milliseconds may or
//! may not be preempted, which skews wall-clock ratios between short and long operations;
//! the thread's own CPU time does not count the time it spent descheduled.

use std::time::Instant;

/// Milliseconds of CPU time consumed by this thread so far (wall clock if the platform
/// has no per-thread CPU clock).
pub fn thread_cpu_ms() -> f64 {
    clock_ms(THREAD_CLOCK)
}

/// Milliseconds of CPU time consumed by the whole process (all threads) so far; wall
/// clock if the platform has no process CPU clock.
pub fn process_cpu_ms() -> f64 {
    clock_ms(PROCESS_CLOCK)
}

#[cfg(unix)]
type ClockId = libc::clockid_t;
#[cfg(not(unix))]
type ClockId = ();
#[cfg(unix)]
const THREAD_CLOCK: ClockId = libc::CLOCK_THREAD_CPUTIME_ID;
#[cfg(unix)]
const PROCESS_CLOCK: ClockId = libc::CLOCK_PROCESS_CPUTIME_ID;
#[cfg(not(unix))]
const THREAD_CLOCK: ClockId = ();
#[cfg(not(unix))]
const PROCESS_CLOCK: ClockId = ();

/// Milliseconds on the CPU clock `id`, or on the wall clock since the first fallback
/// call when that clock is unavailable.
fn clock_ms(id: ClockId) -> f64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
        if unsafe { libc::clock_gettime(id, &mut ts) } == 0 {
            return ts.tv_sec as f64 * 1e3 + ts.tv_nsec as f64 * 1e-6;
        }
    }
    #[cfg(not(unix))]
    let () = id;
    use std::sync::OnceLock;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1e3
}

/// Per-input mean CPU ms of one pass of `f` over `inputs` (after a short warm-up).
pub fn cpu_pass<T>(inputs: &[T], mut f: impl FnMut(&T)) -> f64 {
    for x in inputs.iter().take(inputs.len().min(2)) {
        f(x);
    }
    let t = thread_cpu_ms();
    for x in inputs {
        f(x);
    }
    (thread_cpu_ms() - t) / inputs.len().max(1) as f64
}
