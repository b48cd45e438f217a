//! Long single tests on a terminal: a progress bar and Ctrl-C.
//!
//! A prime of tens of thousands of bits takes minutes (docs/limits.md). Between batches
//! of Miller-Rabin rounds the test asks [`Watch::between`] whether to go on
//! (`primekit::hazmat::primality::is_prime_interruptible`): that is where Ctrl-C stops it
//! and where the bar moves. After the base-2 round the time of one round is known; if a
//! prime would then need more than [`SHOW_AFTER`], the test counts as long and, when
//! stderr is a terminal and one test runs at a time, gets a bar.
//!
//! Ctrl-C: while a long test runs it is stopped at its next batch (no verdict is printed
//! for it) and the command exits with status 130; otherwise the process exits at once
//! with status 130, as without a handler.

use indicatif::{ProgressBar, ProgressStyle};
use primekit::hazmat::primality::Progress;
use std::io::IsTerminal;
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A test expected to take longer than this gets a progress bar.
pub const SHOW_AFTER: Duration = Duration::from_secs(2);

/// Exit status after Ctrl-C (128 + SIGINT), as shells report it.
pub const INTERRUPTED: u8 = 130;

static STOP: AtomicBool = AtomicBool::new(false);
static LONG_TESTS: AtomicUsize = AtomicUsize::new(0);

/// Installs the Ctrl-C handler (once per process; a failure leaves the default action).
pub fn install_interrupt_handler() {
    let _ = ctrlc::set_handler(|| {
        STOP.store(true, Ordering::SeqCst);
        if LONG_TESTS.load(Ordering::SeqCst) == 0 {
            eprintln!("primekit test: interrupted");
            std::process::exit(i32::from(INTERRUPTED));
        }
    });
}

/// True once Ctrl-C was pressed.
pub fn interrupted() -> bool {
    STOP.load(Ordering::SeqCst)
}

/// The watcher of one test.
pub struct Watch {
    start: Instant,
    show_bar: bool,
    judged: bool,
    long: bool,
    bar: Option<ProgressBar>,
}

impl Watch {
    /// `show_bar`: whether this test may draw a bar (one test at a time, on a terminal).
    pub fn new(show_bar: bool) -> Self {
        Watch { start: Instant::now(), show_bar: show_bar && std::io::stderr().is_terminal(), judged: false, long: false, bar: None }
    }

    pub fn between(&mut self, p: Progress) -> ControlFlow<()> {
        if interrupted() {
            return ControlFlow::Break(());
        }
        if !self.judged && p.rounds_done >= 1 {
            self.judged = true;
            let expected = self.start.elapsed().mul_f64(p.rounds_total as f64 / p.rounds_done as f64);
            if expected > SHOW_AFTER {
                self.long = true;
                LONG_TESTS.fetch_add(1, Ordering::SeqCst);
                if self.show_bar {
                    let bar = ProgressBar::new(p.rounds_total as u64);
                    let style = ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} Miller-Rabin rounds (Ctrl-C stops)");
                    bar.set_style(style.unwrap_or_else(|_| ProgressStyle::default_bar()));
                    self.bar = Some(bar);
                }
            }
        }
        if let Some(bar) = &self.bar {
            bar.set_position(p.rounds_done as u64);
        }
        ControlFlow::Continue(())
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        if self.long {
            LONG_TESTS.fetch_sub(1, Ordering::SeqCst);
        }
    }
}
