//! Elliptic-curve primality proving (Atkin & Morain 1993; docs/ecpp.md): the down-run.
//!
//! Phase 1 ([`search`]) walks from N down: at each level it finds an order m = k q
//! (a CM curve order N + 1 - t, or N - 1 where Pocklington steps are allowed) with q a
//! probable prime, and continues with q until q < 2^64. A level with no candidate sends
//! the search back one level for that level's next candidate (a bounded number of
//! times). Phase 2 ([`cm_curve`], [`pocklington`]) builds each level's step: a root of
//! the class polynomial mod N, the curve and a point, or Pocklington witnesses. Both
//! phases split their work over threads; the result does not depend on their number.

mod class_table;
mod cm_curve;
mod cm_twist;
mod cornacchia;
mod pocklington;
mod poly;
mod rho;
mod search;
mod sqrt;

use super::field::Ring;
use super::prove::{ProveError, ProveOptions};
use super::Step;
use cm_curve::CurveError;
use num_bigint::BigUint;
use pocklington::WitnessError;
pub(super) use search::probable_prime;
use search::{entries, Candidate, Level, Pos};
use sqrt::Sqrt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// Most times the down-run goes back a level before giving up.
pub const MAX_BACKTRACKS: usize = 64;

fn timed_out(o: &ProveOptions) -> bool {
    o.deadline.is_some_and(|d| Instant::now() >= d)
}

/// The steps proving `n` (a probable prime above 2^64), first step for n.
///
/// A candidate whose step cannot be built (phase 2: no curve of the order found, no
/// witness) is not the end: the down-run resumes at that level after it, keeping the
/// levels above, within the same backtracking budget.
pub(super) fn prove_chain(n: &BigUint, o: &ProveOptions) -> Result<Vec<Step>, ProveError> {
    let mut levels: Vec<(BigUint, Candidate)> = Vec::new();
    let (mut cur, mut from) = (n.clone(), Pos::START);
    let mut backtracks = 0;
    loop {
        down_run(&mut levels, cur, from, &mut backtracks, o)?;
        match build_steps(&levels, o) {
            Ok(steps) => return Ok(steps),
            Err((i, ProveError::NoProof)) if backtracks < MAX_BACKTRACKS => {
                backtracks += 1;
                let (m, c) = levels[i].clone();
                levels.truncate(i);
                (cur, from) = (m, c.pos.next());
            }
            Err((_, e)) => return Err(e),
        }
    }
}

/// Phase 1: extends `levels` ((N, candidate) per level) from `cur`, searching it from
/// `from`, down to a q below 2^64; `backtracks` counts the returns to an upper level.
fn down_run(
    levels: &mut Vec<(BigUint, Candidate)>,
    mut cur: BigUint,
    mut from: Pos,
    backtracks: &mut usize,
    o: &ProveOptions,
) -> Result<(), ProveError> {
    loop {
        // Below the top, a level searches the table's main part only (its descent pass,
        // then the rest of its first pass; going back a level is cheaper than the reserve
        // and the later passes) until half the backtracking budget is spent; the top
        // level, with nowhere to go back to, searches all.
        let end = if levels.is_empty() || *backtracks >= MAX_BACKTRACKS / 2 { entries() } else { search::lower_level_end() };
        match search_level(&cur, from, end, o)? {
            Some(c) => {
                let q = c.q.clone();
                levels.push((cur, c));
                if let Some(p) = &o.progress {
                    p(levels.len(), q.bits());
                }
                if q.bits() <= 64 {
                    return Ok(());
                }
                cur = q;
                from = Pos::START;
            }
            None => {
                *backtracks += 1;
                let Some((m, c)) = levels.pop().filter(|_| *backtracks <= MAX_BACKTRACKS) else {
                    return Err(ProveError::NoProof);
                };
                cur = m;
                from = c.pos.next();
            }
        }
    }
}

/// Entries a thread takes at a time: enough orders for a few batches of cofactor tests.
const CHUNK: usize = 16;

/// The first candidate for `n` at or after `from` and before entry `total` (the same
/// one whatever `o.jobs`).
fn search_level(n: &BigUint, from: Pos, total: usize, o: &ProveOptions) -> Result<Option<Candidate>, ProveError> {
    let jobs = o.jobs.max(1);
    if jobs == 1 {
        let Some(mut lv) = Level::new(n, o.ecpp_only) else { return Ok(None) };
        for entry in from.entry..total {
            if entry % 8 == 0 && timed_out(o) {
                return Err(ProveError::TimedOut);
            }
            let first = if entry == from.entry { from.order } else { 0 };
            if let Some(c) = lv.try_entry(entry, first) {
                return Ok(Some(c));
            }
        }
        return Ok(lv.flush());
    }
    // Entries are handed out in order, CHUNK at a time, and every thread finishes the
    // chunk it holds (its cofactors tested in batches as one thread tests them), so the
    // least position found is the one a single thread finds.
    let next = AtomicUsize::new(from.entry);
    let stop = AtomicBool::new(false);
    let late = AtomicBool::new(false);
    let best: Mutex<Option<Candidate>> = Mutex::new(None);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| {
                let Some(mut lv) = Level::new(n, o.ecpp_only) else { return };
                while !stop.load(Ordering::Relaxed) {
                    let start = next.fetch_add(CHUNK, Ordering::Relaxed);
                    if start >= total {
                        break;
                    }
                    if timed_out(o) {
                        late.store(true, Ordering::Relaxed);
                        stop.store(true, Ordering::Relaxed);
                        break;
                    }
                    let found = (start..(start + CHUNK).min(total))
                        .find_map(|entry| lv.try_entry(entry, if entry == from.entry { from.order } else { 0 }))
                        .or_else(|| lv.flush());
                    if let Some(c) = found {
                        let mut b = best.lock().expect("no panics while held");
                        if b.as_ref().is_none_or(|x| c.pos < x.pos) {
                            *b = Some(c);
                        }
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            });
        }
    });
    let found = best.into_inner().expect("no panics while held");
    if found.is_none() && late.load(Ordering::Relaxed) {
        return Err(ProveError::TimedOut);
    }
    Ok(found)
}

/// Phase 2: each level's step, levels split over threads; an error names the first
/// level that failed.
fn build_steps(levels: &[(BigUint, Candidate)], o: &ProveOptions) -> Result<Vec<Step>, (usize, ProveError)> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Step, ProveError>>>> = Mutex::new(vec![None; levels.len()]);
    let work = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        if i >= levels.len() {
            break;
        }
        let r = if timed_out(o) { Err(ProveError::TimedOut) } else { build_step(&levels[i].0, &levels[i].1, i == 0) };
        let failed = r.is_err();
        results.lock().expect("no panics while held")[i] = Some(r);
        if failed {
            next.store(levels.len(), Ordering::Relaxed);
        }
    };
    let jobs = o.jobs.max(1).min(levels.len());
    if jobs <= 1 {
        work();
    } else {
        std::thread::scope(|s| {
            for _ in 0..jobs {
                s.spawn(work);
            }
        });
    }
    let mut steps = Vec::with_capacity(levels.len());
    for (i, r) in results.into_inner().expect("no panics while held").into_iter().enumerate() {
        // A level left undone follows a failed one, whose error comes first.
        match r {
            Some(r) => steps.push(r.map_err(|e| (i, e))?),
            None => return Err((i, ProveError::NoProof)),
        }
    }
    Ok(steps)
}

/// One level's step. A proof of compositeness counts as such only for the top N; below,
/// it would mean a probable prime q was composite, and is reported as no proof.
fn build_step(n: &BigUint, c: &Candidate, top: bool) -> Result<Step, ProveError> {
    let composite = |how: String| if top { ProveError::Composite(how) } else { ProveError::NoProof };
    let Some(index) = search::table_index(c.pos.entry, n.bits()) else {
        return match pocklington::step(n, &c.small, &c.q) {
            Ok(s) => Ok(Step::Pocklington(s)),
            Err(WitnessError::Composite(how)) => Err(composite(how)),
            Err(WitnessError::NotFound) => Err(ProveError::NoProof),
        };
    };
    let Some(mut sq) = Ring::new(n).and_then(Sqrt::new) else { return Err(ProveError::NoProof) };
    for (p, r) in &c.disc_roots {
        sq.seed(*p, r);
    }
    match cm_curve::build_step(&mut sq, &class_table::table()[index], &c.m, &c.q) {
        Ok(s) => Ok(Step::Ecpp(s)),
        Err(CurveError::Composite(how)) => Err(composite(how)),
        Err(CurveError::Failed) => Err(ProveError::NoProof),
    }
}
