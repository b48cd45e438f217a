//! [`is_prime`](super::is_prime) for callers that must stay responsive: a server with a
//! deadline, a command-line tool with a progress bar and Ctrl-C.
//!
//! Why: a prime of 32,768 bits (the input cap) costs 129 Miller-Rabin rounds, about 12
//! minutes of CPU on a fast x86-64 core (docs/limits.md). The test cannot be made cheaper without weakening its bound, so
//! it is made stoppable instead: the caller's function runs between rounds and may stop
//! the test, which then answers [`Outcome::Cancelled`], never a guess.

use super::is_prime::{decide, Progress};
use crate::Error;
use num_bigint::BigUint;
use std::ops::ControlFlow;

/// How an interruptible test ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Prime, with the guarantee of [`is_prime`](super::is_prime) (error <= 2^-128).
    Prime,
    /// Composite (a witness or a divisor was found: certain).
    Composite,
    /// Stopped by the caller before a verdict; nothing is known about n.
    Cancelled,
}

/// [`try_is_prime`](super::try_is_prime), calling `between` before the base-2 round and
/// before each batch of random rounds (a batch is 1 to 8 rounds, the kernel's lanes).
/// Returning `ControlFlow::Break(())` stops the test with [`Outcome::Cancelled`].
///
/// Inputs decided before any exponentiation (at most 64 bits, even, or with a small
/// factor) never call `between`. Between two calls lies at most one batch of rounds:
/// the latency of a cancellation is one batch's time at n's size.
///
/// ```
/// use primekit::hazmat::primality::{is_prime_interruptible, Outcome};
/// use std::ops::ControlFlow;
/// use std::sync::atomic::{AtomicBool, Ordering};
/// use std::time::{Duration, Instant};
///
/// let stop = AtomicBool::new(false); // set by a signal handler or another thread
/// let deadline = Instant::now() + Duration::from_secs(5);
/// let n = (primekit::BigUint::from(1u8) << 521u32) - 1u8; // a Mersenne prime
/// let outcome = is_prime_interruptible(&n, |_progress| {
///     if stop.load(Ordering::Relaxed) || Instant::now() > deadline { ControlFlow::Break(()) } else { ControlFlow::Continue(()) }
/// })?;
/// assert_ne!(outcome, Outcome::Composite);
/// # Ok::<(), primekit::Error>(())
/// ```
pub fn is_prime_interruptible(n: &BigUint, between: impl FnMut(Progress) -> ControlFlow<()>) -> Result<Outcome, Error> {
    is_prime_interruptible_threads(n, 1, between)
}

/// [`is_prime_interruptible`] with its random rounds spread over `threads` threads
/// (started for the call; 0 counts as 1): the same verdict and the same bound, in about
/// 1/threads of the wall time on a prime large enough for many rounds per thread (the
/// CPU time is that of one thread's test, plus the threads' start-up). `between` runs on
/// the calling thread, before the base-2 round and before each group of `threads`
/// batches of rounds, so a cancellation waits for the group under way.
///
/// [`is_prime`](super::is_prime) itself never starts threads; this is for a caller that
/// has cores to spare for one large input, as `primekit test --jobs` on a single number.
pub fn is_prime_interruptible_threads(
    n: &BigUint,
    threads: usize,
    between: impl FnMut(Progress) -> ControlFlow<()>,
) -> Result<Outcome, Error> {
    Ok(match decide(n, crate::random::os_seeded, threads.max(1), between)? {
        Some(true) => Outcome::Prime,
        Some(false) => Outcome::Composite,
        None => Outcome::Cancelled,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_bigint::BigUint;

    fn mersenne(k: u32) -> BigUint {
        (BigUint::from(1u8) << k) - 1u8
    }

    #[test]
    fn a_prime_reports_every_round_and_is_prime() {
        let mut seen = Vec::new();
        let out = is_prime_interruptible(&mersenne(607), |p| {
            seen.push(p);
            ControlFlow::Continue(())
        })
        .unwrap();
        assert_eq!(out, Outcome::Prime);
        assert_eq!(seen.first().map(|p| p.rounds_done), Some(0));
        assert!(seen.iter().all(|p| p.rounds_total == 65));
        assert!(seen.windows(2).all(|w| w[0].rounds_done < w[1].rounds_done), "{seen:?}");
        assert!(seen.len() >= 2, "the random rounds come in at least one batch: {seen:?}");
    }

    #[test]
    fn stopping_gives_cancelled_never_a_verdict() {
        // Stop at once, and stop after the base-2 round: a prime is not declared prime.
        for stop_at in [0usize, 1] {
            let out = is_prime_interruptible(&mersenne(1279), |p| {
                if p.rounds_done >= stop_at {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            })
            .unwrap();
            assert_eq!(out, Outcome::Cancelled, "stop at {stop_at}");
        }
    }

    /// On threads a prime is still prime, every report comes in order and a cancel
    /// still cancels (`MillerRabin`'s tests check the composite verdicts per thread).
    #[test]
    fn threads_keep_the_verdict_and_the_reports() {
        for threads in [0usize, 2, 3] {
            let mut seen = Vec::new();
            let out = is_prime_interruptible_threads(&mersenne(1279), threads, |p| {
                seen.push(p.rounds_done);
                ControlFlow::Continue(())
            })
            .unwrap();
            assert_eq!(out, Outcome::Prime, "threads {threads}");
            assert!(seen.len() >= 2 && seen.windows(2).all(|w| w[0] < w[1]), "threads {threads}: {seen:?}");
            let out = is_prime_interruptible_threads(&mersenne(1279), threads, |p| {
                if p.rounds_done > 1 {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                }
            });
            assert_eq!(out.unwrap(), Outcome::Cancelled, "threads {threads}");
        }
    }

    #[test]
    fn composites_and_small_inputs_ignore_the_callback() {
        // Three primes above trial division's reach: found by the base-2 round, before
        // any random round.
        let n = BigUint::from(1_000_000_007u64) * 998_244_353u64 * 1_000_003u64;
        assert!(BigUint::from(2u8).modpow(&(&n - 1u8), &n) != BigUint::from(1u8), "oracle: not a base-2 pseudoprime");
        let out = is_prime_interruptible(&n, |p| if p.rounds_done > 0 { ControlFlow::Break(()) } else { ControlFlow::Continue(()) });
        assert_eq!(out.unwrap(), Outcome::Composite);
        let out = is_prime_interruptible(&BigUint::from(97u8), |_| ControlFlow::Break(()));
        assert_eq!(out.unwrap(), Outcome::Prime);
        let out = is_prime_interruptible(&(mersenne(89) * 3u8), |_| ControlFlow::Break(()));
        assert_eq!(out.unwrap(), Outcome::Composite);
    }
}
