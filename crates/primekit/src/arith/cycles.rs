//! A cycle counter for timing measurements of short operations (the constant-time
//! timing tests of `primekit-research`, in the style of Reparaz, Balasch & Verbauwhede
//! 2017, "dude, is my code constant time?").
//!
//! On x86_64 it reads the time-stamp counter between two `lfence`s, so that the read
//! is neither hoisted above the work before it nor sunk below the work after it (Intel
//! SDM vol. 2, RDTSC; AMD documents `lfence` as dispatch-serialising on the same
//! processors). On modern x86 CPUs the counter ticks at a constant rate, not at the
//! core clock; the unit is "counter ticks", which is all a comparison of two input
//! classes needs. Elsewhere it falls back to nanoseconds of a monotonic clock.

/// The current value of the cycle counter (x86_64: `lfence; rdtsc; lfence`; elsewhere
/// nanoseconds since the first call). Only differences between two reads mean anything.
#[inline(always)]
pub fn cycles() -> u64 {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_lfence, _rdtsc};
        // SAFETY: `lfence` is SSE2, part of the x86_64 baseline; `rdtsc` is available in
        // user mode on every x86_64 CPU unless the OS sets CR4.TSD, which Linux does not
        // do by default (it would fault with SIGSEGV, not give wrong values).
        unsafe {
            _mm_lfence();
            let t = _rdtsc();
            _mm_lfence();
            t
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        use std::sync::OnceLock;
        use std::time::Instant;
        static START: OnceLock<Instant> = OnceLock::new();
        START.get_or_init(Instant::now).elapsed().as_nanos() as u64
    }
}

#[cfg(test)]
mod tests {
    use super::cycles;

    #[test]
    fn counter_advances_over_work() {
        let a = cycles();
        let mut x = 1u64;
        for k in 0..100_000u64 {
            x = core::hint::black_box(x.wrapping_mul(k | 1).rotate_left(7));
        }
        let b = cycles();
        assert!(b > a, "counter did not advance: {a} then {b} (x = {x})");
    }
}
