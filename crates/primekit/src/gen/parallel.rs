//! Several cores: one prime searched by `jobs` independent searches (the first to reach
//! its random-base rounds claims the race and the others stop at their next batch; see
//! `search::Race`), and many primes spread over `jobs` threads. Each thread has its own
//! ChaCha20 generator seeded from the caller's.

use super::options::{Plan, Work};
use super::search::search;
use super::small::generate_small;
use crate::random::seeded_from;
use crate::Error;
use num_bigint::BigUint;
use rand_chacha::ChaCha20Rng;
use rand_core::CryptoRngCore;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

/// One prime from one search (no threads).
pub(crate) fn one(plan: &Plan, rng: &mut impl CryptoRngCore) -> Result<BigUint, Error> {
    if plan.bits <= 64 {
        return generate_small(plan, rng);
    }
    let never = AtomicBool::new(false);
    search(plan, rng, &never).map(|p| p.expect("not stopped"))
}

/// One prime from the plan's `jobs` searches racing (a [`Work::Race`] plan: its rounds
/// account for `jobs`).
pub(crate) fn first_of(plan: &Plan, rng: &mut impl CryptoRngCore) -> Result<BigUint, Error> {
    debug_assert_eq!(plan.work, Work::Race);
    let jobs = plan.jobs;
    if jobs <= 1 || plan.bits <= 64 {
        return one(plan, rng);
    }
    let rngs: Vec<ChaCha20Rng> = (0..jobs).map(|_| seeded_from(rng)).collect::<Result<_, _>>()?;
    let stop = AtomicBool::new(false);
    let result: Mutex<Option<Result<BigUint, Error>>> = Mutex::new(None);
    std::thread::scope(|s| {
        for mut r in rngs {
            let (stop, result) = (&stop, &result);
            s.spawn(move || {
                let out = search(plan, &mut r, stop);
                let mut slot = result.lock().expect("no panics while held");
                match out {
                    Ok(None) => {}
                    other => {
                        if slot.is_none() {
                            *slot = Some(other.map(|p| p.expect("Some")));
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            });
        }
    });
    result.into_inner().expect("no panics while held").expect("some search finished")
}

/// `count` primes, each from its own single search, on the plan's `jobs` threads (a
/// [`Work::SearchPerPrime`] plan: its rounds are those of one search).
pub(crate) fn many(plan: &Plan, count: usize, rng: &mut impl CryptoRngCore) -> Result<Vec<BigUint>, Error> {
    debug_assert_eq!(plan.work, Work::SearchPerPrime);
    let jobs = plan.jobs.clamp(1, count.max(1));
    let rngs: Vec<ChaCha20Rng> = (0..jobs).map(|_| seeded_from(rng)).collect::<Result<_, _>>()?;
    let next = AtomicUsize::new(0);
    let out: Mutex<Vec<Option<BigUint>>> = Mutex::new(vec![None; count]);
    let err: Mutex<Option<Error>> = Mutex::new(None);
    std::thread::scope(|s| {
        for mut r in rngs {
            let (next, out, err) = (&next, &out, &err);
            s.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count || err.lock().expect("unpoisoned").is_some() {
                    return;
                }
                match one(plan, &mut r) {
                    Ok(p) => out.lock().expect("unpoisoned")[i] = Some(p),
                    Err(e) => {
                        *err.lock().expect("unpoisoned") = Some(e);
                        return;
                    }
                }
            });
        }
    });
    if let Some(e) = err.into_inner().expect("unpoisoned") {
        return Err(e);
    }
    Ok(out.into_inner().expect("unpoisoned").into_iter().map(|p| p.expect("filled")).collect())
}
