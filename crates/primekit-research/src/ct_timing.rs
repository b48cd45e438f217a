//! Statistical constant-time tests in the style of dudect (Reparaz, Balasch &
//! Verbauwhede 2017, "dude, is my code constant time?", §2): where a simulator such as
//! valgrind cannot follow the code (it runs no AVX-512), measure it.
//!
//! For one target (an operation on a secret input, with its public sizes fixed):
//! 1. inputs of two classes are prepared, *fixed* (one secret value, the same every
//!    time) and *random* (a fresh secret each time), in a batch whose class sequence is
//!    drawn at random, so that drifts of the machine (load, frequency) hit both classes
//!    alike (§2, step 1);
//! 2. each operation is timed alone with the cycle counter
//!    ([`primekit::hazmat::timing::cycles`]: `lfence; rdtsc; lfence`);
//! 3. the samples are cropped at several percentiles of the pooled distribution (long
//!    tails come from interrupts and preemption, not from the code: §2, step 2), and for
//!    the uncropped set and each crop Welch's t statistic of the two classes' means is
//!    computed (§2, step 3);
//! 4. the target is reported leaky when the largest |t| exceeds [`THRESHOLD`] = 4.5, the
//!    paper's threshold (§3).
//!
//! Under the null hypothesis (no timing difference) each t is asymptotically standard
//! normal, so one statistic exceeds 4.5 with probability 2 P(Z > 4.5) = 6.8e-6; the
//! [`CROPS`] statistics of one target are strongly correlated (nested subsets of one
//! sample), and a union bound over them gives at most 4.1e-5 per target. The runner
//! ([`run_with_rerun`]) measures a flagged target once more with fresh inputs and
//! reports a leak only when both runs exceed the threshold (at most 1.7e-9 per target
//! if the runs are independent).
//!
//! What a pass means: no difference between the classes was seen at this sample size;
//! the smallest difference a run can see is about 4.5 standard errors of the mean
//! difference, reported as `resolution_ticks`.

use num_bigint::BigUint;
use primekit::hazmat::lanes::FermatBatch;
use primekit::hazmat::limbs::Limb;
use primekit::hazmat::mont::{pow2_ct, Kernel, MontContext};
use primekit::hazmat::primality::MillerRabin;
use primekit::hazmat::timing::cycles;
use primekit::{Error, RsaKeyOptions, RsaPrivateKey};
use rand_chacha::ChaCha20Rng;
use rand_core::{RngCore, SeedableRng};

/// |t| above which a target is reported leaky (Reparaz, Balasch & Verbauwhede 2017, §3).
pub const THRESHOLD: f64 = 4.5;

/// Percentiles at which the pooled samples are cropped (100: uncropped).
pub const CROPS: [f64; 6] = [100.0, 99.0, 95.0, 90.0, 75.0, 50.0];

/// Inputs prepared per batch before any of them is timed.
const BATCH: usize = 500;

/// How the fixed class's secret is chosen (where the target has a special value).
///
/// `Special`, the default, is the value a shortcut would show most (exponent 0, base 2,
/// a prime candidate); `Random` is one random value of the same public size, drawn once
/// per target from the run's seed and used for every fixed-class call. A difference seen
/// with `Special` and not with `Random` follows that special operand value, not a code
/// path the secret selects (a code path would show for a random fixed value too).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FixedSecret {
    /// Exponent 0 (`pow2_ct`), base 2 (`passes_ct`), a fixed prime (`candidate_rounds`,
    /// `passes_all_ct`).
    #[default]
    Special,
    /// A fixed random exponent, a fixed random base in [2, n - 2], a fixed random odd
    /// candidate (composite but with probability about 2 / ln 2^bits, like the random
    /// class's).
    Random,
}

impl FixedSecret {
    /// `special` or `random`.
    pub fn name(self) -> &'static str {
        match self {
            FixedSecret::Special => "special",
            FixedSecret::Random => "random",
        }
    }
}

/// The random class of the candidate targets (`candidate_rounds`, `passes_all_ct`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum RandomCandidates {
    /// A fresh random odd number per call: composite almost surely, so against the
    /// special fixed class (a prime) the classes also differ by primality.
    #[default]
    Odd,
    /// One of [`PRIME_POOL`] random primes of the same size (drawn from the run's seed
    /// before timing), picked at random per call: against a fixed prime the classes
    /// differ only by which prime, so a difference that follows primality (every round
    /// reaching -1) no longer separates them.
    Primes,
}

impl RandomCandidates {
    /// `odd` or `primes`.
    pub fn name(self) -> &'static str {
        match self {
            RandomCandidates::Odd => "odd",
            RandomCandidates::Primes => "primes",
        }
    }
}

/// Primes in the random class's pool with [`RandomCandidates::Primes`]: each is used
/// about measurements / 2000 times (125 at 2.5 x 10^5 calls).
pub const PRIME_POOL: usize = 1000;

/// The random class's candidates: a fresh odd number per call, or a pool of primes.
struct RandomClassPool {
    kind: RandomCandidates,
    primes: Vec<BigUint>,
}

impl RandomClassPool {
    fn new(bits: usize, kind: RandomCandidates, rng: &mut ChaCha20Rng) -> Self {
        let primes = match kind {
            RandomCandidates::Odd => Vec::new(),
            RandomCandidates::Primes => (0..PRIME_POOL)
                .map(|_| loop {
                    let n = random_odd(bits, rng);
                    if primekit::is_prime(&n) {
                        break n;
                    }
                })
                .collect(),
        };
        RandomClassPool { kind, primes }
    }

    fn draw(&self, bits: usize, rng: &mut ChaCha20Rng) -> BigUint {
        match self.kind {
            RandomCandidates::Odd => random_odd(bits, rng),
            RandomCandidates::Primes => self.primes[(rng.next_u64() % self.primes.len() as u64) as usize].clone(),
        }
    }

    /// What `detail` adds for a random class other than random odd numbers.
    fn note(&self) -> String {
        match self.kind {
            RandomCandidates::Odd => String::new(),
            RandomCandidates::Primes => format!(", random class: one of {} random primes", self.primes.len()),
        }
    }
}

/// The two input classes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Class {
    /// The same secret value every time.
    Fixed,
    /// A fresh secret value of the same public size every time.
    Random,
}

/// An operation on a secret input whose timing is tested.
pub trait Target {
    /// What one timed call consumes.
    type Input;
    /// Short name (`pow2_ct`, `fermat_batch`, ...).
    fn name(&self) -> &'static str;
    /// Public parameters worth reporting (bits, lanes, rounds).
    fn detail(&self) -> String;
    /// An input of the class (not timed).
    fn prepare(&mut self, class: Class, rng: &mut ChaCha20Rng) -> Self::Input;
    /// The timed operation; its result is kept from the optimiser by the caller.
    fn run(&self, input: &Self::Input) -> u64;
}

/// Running mean and variance (Welford) of one class.
#[derive(Clone, Copy, Debug, Default)]
struct Moments {
    n: f64,
    mean: f64,
    m2: f64,
}

impl Moments {
    fn push(&mut self, x: f64) {
        self.n += 1.0;
        let d = x - self.mean;
        self.mean += d / self.n;
        self.m2 += d * (x - self.mean);
    }
    fn var(&self) -> f64 {
        if self.n > 1.0 {
            self.m2 / (self.n - 1.0)
        } else {
            0.0
        }
    }
}

/// Welch's t statistic of the two classes' samples, and the standard error of the
/// difference of their means (0 and infinity when a class has fewer than two samples).
pub fn welch_t(fixed: &[u64], random: &[u64]) -> (f64, f64) {
    let moments = |xs: &[u64]| {
        let mut m = Moments::default();
        xs.iter().for_each(|&x| m.push(x as f64));
        m
    };
    let (a, b) = (moments(fixed), moments(random));
    if a.n < 2.0 || b.n < 2.0 {
        return (0.0, f64::INFINITY);
    }
    let se = (a.var() / a.n + b.var() / b.n).sqrt();
    if se == 0.0 {
        // Identical constant samples: no difference, or an infinite t if the means differ.
        return (if a.mean == b.mean { 0.0 } else { f64::INFINITY }, 0.0);
    }
    ((a.mean - b.mean) / se, se)
}

/// Timed samples of one run of one target.
#[derive(Clone, Debug)]
pub struct Samples {
    /// Counter ticks of the fixed-class calls, in measurement order.
    pub fixed: Vec<u64>,
    /// Counter ticks of the random-class calls.
    pub random: Vec<u64>,
}

/// `measurements` timed calls of `target` (plus an untimed warm-up batch), classes in
/// random order drawn from `seed`.
pub fn measure<T: Target>(target: &mut T, measurements: usize, seed: u64) -> Samples {
    let mut rng = ChaCha20Rng::seed_from_u64(seed);
    let mut s = Samples { fixed: Vec::with_capacity(measurements / 2 + BATCH), random: Vec::with_capacity(measurements / 2 + BATCH) };
    let mut sink = 0u64;
    let mut warm = true;
    while s.fixed.len() + s.random.len() < measurements {
        let batch = BATCH.min(measurements - s.fixed.len() - s.random.len()).max(if warm { BATCH.min(100) } else { 0 });
        let classes: Vec<Class> = (0..batch).map(|_| if rng.next_u32() & 1 == 0 { Class::Fixed } else { Class::Random }).collect();
        let inputs: Vec<T::Input> = classes.iter().map(|&c| target.prepare(c, &mut rng)).collect();
        for (c, x) in classes.iter().zip(&inputs) {
            let start = cycles();
            let out = target.run(x);
            let end = cycles();
            sink ^= core::hint::black_box(out);
            if warm {
                continue;
            }
            match c {
                Class::Fixed => s.fixed.push(end.wrapping_sub(start)),
                Class::Random => s.random.push(end.wrapping_sub(start)),
            }
        }
        warm = false;
    }
    core::hint::black_box(sink);
    s
}

/// The statistics of one run.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// Samples per class (fixed, random).
    pub per_class: (usize, usize),
    /// (crop percentile, t) for each of [`CROPS`].
    pub t: Vec<(f64, f64)>,
    /// The t of largest magnitude.
    pub max_abs_t: f64,
    /// (crop percentile, mean of the fixed class minus mean of the random class, in
    /// counter ticks) for each of [`CROPS`]: the size of the difference each t measures.
    pub mean_diff: Vec<(f64, f64)>,
    /// Medians of the classes in counter ticks (fixed, random).
    pub median_ticks: (u64, u64),
    /// The smallest mean difference this run could flag ([`THRESHOLD`] standard errors
    /// of the uncropped difference), in counter ticks.
    pub resolution_ticks: f64,
}

fn median(xs: &[u64]) -> u64 {
    let mut v = xs.to_vec();
    v.sort_unstable();
    v.get(v.len() / 2).copied().unwrap_or(0)
}

/// Welch's t for the uncropped samples and for each crop of [`CROPS`] (the threshold is
/// the percentile of the pooled samples, so both classes are cut at the same tick count).
pub fn analyse(s: &Samples) -> Analysis {
    let mut pooled: Vec<u64> = s.fixed.iter().chain(&s.random).copied().collect();
    pooled.sort_unstable();
    let mut t = Vec::new();
    let mut mean_diff = Vec::new();
    let mut resolution = f64::INFINITY;
    for p in CROPS {
        let cut = if pooled.is_empty() {
            0
        } else {
            let k = ((p / 100.0) * (pooled.len() - 1) as f64).round() as usize;
            pooled[k.min(pooled.len() - 1)]
        };
        let keep = |xs: &[u64]| xs.iter().copied().filter(|&x| x <= cut).collect::<Vec<_>>();
        let (tv, se) = welch_t(&keep(&s.fixed), &keep(&s.random));
        if p == 100.0 {
            resolution = THRESHOLD * se;
        }
        t.push((p, tv));
        mean_diff.push((p, if se.is_finite() { tv * se } else { f64::NAN }));
    }
    let max_abs_t = t.iter().map(|&(_, v)| v.abs()).fold(0.0, f64::max);
    Analysis {
        per_class: (s.fixed.len(), s.random.len()),
        t,
        max_abs_t,
        mean_diff,
        median_ticks: (median(&s.fixed), median(&s.random)),
        resolution_ticks: resolution,
    }
}

/// The outcome of a target after at most one re-run.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The first run, and the re-run if the first disagreed with the expectation.
    pub runs: Vec<Analysis>,
    /// The last run exceeded [`THRESHOLD`].
    pub leaky: bool,
}

/// Measures and analyses `target`, and once more with fresh inputs (another seed) when
/// the first run disagrees with `expect_leak` (a constant-time target over [`THRESHOLD`],
/// or the leaky control under it); the last run decides. A false alarm on a
/// constant-time target then needs two independent exceedances.
pub fn run_with_rerun<T: Target>(target: &mut T, measurements: usize, seed: u64, expect_leak: bool) -> Outcome {
    let first = analyse(&measure(target, measurements, seed));
    if (first.max_abs_t > THRESHOLD) == expect_leak {
        let leaky = first.max_abs_t > THRESHOLD;
        return Outcome { runs: vec![first], leaky };
    }
    let second = analyse(&measure(target, measurements, seed ^ 0x9e37_79b9_7f4a_7c15));
    let leaky = second.max_abs_t > THRESHOLD;
    Outcome { runs: vec![first, second], leaky }
}

/// A random odd number of exactly `bits` bits (top bit set).
pub fn random_odd(bits: usize, rng: &mut ChaCha20Rng) -> BigUint {
    let mut bytes = vec![0u8; bits.div_ceil(8)];
    rng.fill_bytes(&mut bytes);
    let mut n = BigUint::from_bytes_le(&bytes);
    for b in bits as u64..(8 * bytes.len()) as u64 {
        n.set_bit(b, false);
    }
    n.set_bit(bits as u64 - 1, true);
    n.set_bit(0, true);
    n
}

/// A uniformly random value of `limbs` limbs below `m` (by rejection on the top limb's
/// bit length; `m >= 2^64`).
fn random_below(m: &BigUint, limbs: usize, rng: &mut ChaCha20Rng) -> Vec<Limb> {
    loop {
        let mut x: Vec<Limb> = (0..limbs).map(|_| rng.next_u64()).collect();
        let top = m.bits() as usize - 64 * (limbs - 1);
        if top < 64 {
            x[limbs - 1] &= (1u64 << top) - 1;
        }
        if primekit::hazmat::limbs::from_limbs(&x) < *m {
            return x;
        }
    }
}

/// What `detail` adds for a fixed class other than the special value.
fn fixed_note(fixed: FixedSecret, what: &str) -> String {
    match fixed {
        FixedSecret::Special => String::new(),
        FixedSecret::Random => format!(", fixed class: one random {what}"),
    }
}

fn first_limb(v: &[Limb]) -> u64 {
    v.first().copied().unwrap_or(0)
}

/// `pow2_ct(ctx, e, 64 l)`: 2^e modulo a public `bits`-bit modulus; secret exponent
/// of l limbs (fixed class: e = 0, the value a shortcut on zero windows would show, or
/// with [`FixedSecret::Random`] one random exponent).
pub struct Pow2 {
    ctx: MontContext,
    bits: usize,
    fixed: FixedSecret,
    fixed_exp: Vec<Limb>,
}

impl Pow2 {
    pub fn new(bits: usize, kernel: Kernel, fixed: FixedSecret, rng: &mut ChaCha20Rng) -> Result<Self, Error> {
        let ctx = MontContext::with_kernel(&random_odd(bits, rng), kernel)?;
        let fixed_exp = match fixed {
            FixedSecret::Special => vec![0; ctx.len()],
            FixedSecret::Random => (0..ctx.len()).map(|_| rng.next_u64()).collect(),
        };
        Ok(Pow2 { ctx, bits, fixed, fixed_exp })
    }
}

impl Target for Pow2 {
    type Input = Vec<Limb>;
    fn name(&self) -> &'static str {
        "pow2_ct"
    }
    fn detail(&self) -> String {
        format!("modulus {} bits public, exponent {} bits secret", self.bits, 64 * self.ctx.len()) + &fixed_note(self.fixed, "exponent")
    }
    fn prepare(&mut self, class: Class, rng: &mut ChaCha20Rng) -> Vec<Limb> {
        match class {
            Class::Fixed => self.fixed_exp.clone(),
            Class::Random => (0..self.ctx.len()).map(|_| rng.next_u64()).collect(),
        }
    }
    fn run(&self, e: &Vec<Limb>) -> u64 {
        first_limb(&pow2_ct(&self.ctx, e, 64 * self.ctx.len()))
    }
}

/// `FermatBatch::test_ct` on a full batch of secret candidates of `bits` bits (fixed
/// class: one fixed set of random odd candidates).
pub struct Fermat {
    batch: FermatBatch,
    bits: usize,
    fixed: Vec<BigUint>,
}

impl Fermat {
    pub fn new(bits: usize, kernel: Kernel, rng: &mut ChaCha20Rng) -> Result<Self, Error> {
        let batch = FermatBatch::with_kernel(bits, kernel)?;
        let fixed = (0..batch.lanes()).map(|_| random_odd(bits, rng)).collect();
        Ok(Fermat { batch, bits, fixed })
    }
}

impl Target for Fermat {
    type Input = Vec<BigUint>;
    fn name(&self) -> &'static str {
        "fermat_batch"
    }
    fn detail(&self) -> String {
        format!("{} candidates of {} bits secret, {} lanes", self.batch.lanes(), self.bits, self.batch.lanes())
    }
    fn prepare(&mut self, class: Class, rng: &mut ChaCha20Rng) -> Vec<BigUint> {
        match class {
            Class::Fixed => self.fixed.clone(),
            Class::Random => (0..self.batch.lanes()).map(|_| random_odd(self.bits, rng)).collect(),
        }
    }
    fn run(&self, cands: &Vec<BigUint>) -> u64 {
        self.batch.test_ct(cands).unwrap_or(u64::MAX)
    }
}

/// `MillerRabin::passes_ct(a)` for a public `bits`-bit prime n and a secret base
/// (fixed class: a = 2, whose upper limbs are zero, or with [`FixedSecret::Random`] one
/// random base).
pub struct PassesCt {
    mr: MillerRabin,
    n: BigUint,
    fixed: FixedSecret,
    fixed_base: Vec<Limb>,
}

impl PassesCt {
    /// `rng` is used only for [`FixedSecret::Random`] (n comes from the OS generator).
    /// With `two_adic` = Some(s), n is drawn again until v2(n - 1) = s (1 <= s <= 16):
    /// the number of the round's squarings that square the constant 1 follows the
    /// base's order, which s bounds (s = 1: a^d = ±1 for every base).
    pub fn new(bits: usize, kernel: Kernel, fixed: FixedSecret, two_adic: Option<u32>, rng: &mut ChaCha20Rng) -> Result<Self, Error> {
        let mut n = primekit::generate_prime(bits as u32)?;
        if let Some(s) = two_adic {
            if !(1..=16).contains(&s) {
                return Err(Error::InvalidArgument(format!("v2(n - 1) = {s}: 1 to 16 only")));
            }
            // Expected 2^s draws; 2^22 bounds the loop far above that.
            let mut draws = 0u32;
            while (&n - 1u8).trailing_zeros() != Some(u64::from(s)) {
                draws += 1;
                if draws > 1 << 22 {
                    return Err(Error::InvalidArgument(format!("no prime with v2(n - 1) = {s} found")));
                }
                n = primekit::generate_prime(bits as u32)?;
            }
        }
        let mr = MillerRabin::with_kernel(&n, kernel)?;
        let fixed_base = match fixed {
            FixedSecret::Special => {
                let mut a = vec![0; mr.context().len()];
                a[0] = 2;
                a
            }
            FixedSecret::Random => Self::random_base(&n, mr.context().len(), rng),
        };
        Ok(PassesCt { mr, n, fixed, fixed_base })
    }

    /// 2 <= a <= n - 2, uniform enough for timing: a < 2 only with probability 2^-bits.
    fn random_base(n: &BigUint, limbs: usize, rng: &mut ChaCha20Rng) -> Vec<Limb> {
        let mut a = random_below(&(n - 2u8), limbs, rng);
        a[0] |= 2;
        a
    }
}

impl Target for PassesCt {
    type Input = Vec<Limb>;
    fn name(&self) -> &'static str {
        "passes_ct"
    }
    fn detail(&self) -> String {
        let s = (&self.n - 1u8).trailing_zeros().unwrap_or(0);
        format!("prime n of {} bits public (v2(n - 1) = {s}), base secret", self.n.bits()) + &fixed_note(self.fixed, "base")
    }
    fn prepare(&mut self, class: Class, rng: &mut ChaCha20Rng) -> Vec<Limb> {
        match class {
            Class::Fixed => self.fixed_base.clone(),
            Class::Random => Self::random_base(&self.n, self.mr.context().len(), rng),
        }
    }
    fn run(&self, a: &Vec<Limb>) -> u64 {
        u64::from(self.mr.passes_ct(a))
    }
}

/// The generators' acceptance test of a candidate that passed the base-2 Fermat test:
/// `random_base_rounds_ct(n, rounds)`, context set-up included, on the process kernel.
/// Secret candidate n of `bits` bits: fixed class a fixed prime (every round runs and
/// passes; with [`FixedSecret::Random`] a fixed random odd number, almost always
/// composite), random class a random odd number (almost always composite).
pub struct Candidate {
    bits: usize,
    rounds: u32,
    fixed: FixedSecret,
    fixed_n: BigUint,
    random: RandomClassPool,
}

/// The fixed candidate of [`Candidate`] and [`CandidateRounds`].
fn fixed_candidate(bits: usize, fixed: FixedSecret, rng: &mut ChaCha20Rng) -> Result<BigUint, Error> {
    match fixed {
        FixedSecret::Special => primekit::generate_prime(bits as u32),
        FixedSecret::Random => Ok(random_odd(bits, rng)),
    }
}

impl Candidate {
    /// `rng` is used for [`FixedSecret::Random`] (the special prime comes from the OS
    /// generator) and for the random class's primes ([`RandomCandidates::Primes`]).
    pub fn new(bits: usize, rounds: u32, fixed: FixedSecret, random: RandomCandidates, rng: &mut ChaCha20Rng) -> Result<Self, Error> {
        let fixed_n = fixed_candidate(bits, fixed, rng)?;
        Ok(Candidate { bits, rounds, fixed, fixed_n, random: RandomClassPool::new(bits, random, rng) })
    }
}

impl Target for Candidate {
    type Input = (BigUint, ChaCha20Rng);
    fn name(&self) -> &'static str {
        "candidate_rounds"
    }
    fn detail(&self) -> String {
        format!("candidate of {} bits secret, {} random-base rounds", self.bits, self.rounds)
            + &fixed_note(self.fixed, "odd candidate")
            + &self.random.note()
    }
    fn prepare(&mut self, class: Class, rng: &mut ChaCha20Rng) -> (BigUint, ChaCha20Rng) {
        let n = match class {
            Class::Fixed => self.fixed_n.clone(),
            Class::Random => self.random.draw(self.bits, rng),
        };
        (n, ChaCha20Rng::seed_from_u64(rng.next_u64()))
    }
    fn run(&self, (n, rng): &(BigUint, ChaCha20Rng)) -> u64 {
        let mut rng = rng.clone();
        match primekit::hazmat::gen::random_base_rounds_ct(n, self.rounds, &mut rng) {
            Ok(primekit::hazmat::gen::Verdict::ProbablePrime) => 1,
            Ok(primekit::hazmat::gen::Verdict::Composite) => 0,
            Err(_) => 2,
        }
    }
}

/// [`Candidate`] without its set-up: `MillerRabin::passes_all_ct` on the process kernel,
/// the `MillerRabin` of the secret candidate (its lane batch built by one untimed call)
/// and its random bases prepared untimed (the lanes of the kernel, as the generators use
/// them). Separates the rounds from the
/// set-up on the secret candidate.
pub struct CandidateRounds {
    bits: usize,
    rounds: u32,
    fixed: FixedSecret,
    fixed_n: BigUint,
    random: RandomClassPool,
}

impl CandidateRounds {
    /// As [`Candidate::new`].
    pub fn new(bits: usize, rounds: u32, fixed: FixedSecret, random: RandomCandidates, rng: &mut ChaCha20Rng) -> Result<Self, Error> {
        let fixed_n = fixed_candidate(bits, fixed, rng)?;
        Ok(CandidateRounds { bits, rounds, fixed, fixed_n, random: RandomClassPool::new(bits, random, rng) })
    }
}

impl Target for CandidateRounds {
    type Input = (MillerRabin, Vec<Vec<Limb>>);
    fn name(&self) -> &'static str {
        "passes_all_ct"
    }
    fn detail(&self) -> String {
        format!("candidate of {} bits secret, {} random bases, set-up untimed", self.bits, self.rounds)
            + &fixed_note(self.fixed, "odd candidate")
            + &self.random.note()
    }
    fn prepare(&mut self, class: Class, rng: &mut ChaCha20Rng) -> (MillerRabin, Vec<Vec<Limb>>) {
        let n = match class {
            Class::Fixed => self.fixed_n.clone(),
            Class::Random => self.random.draw(self.bits, rng),
        };
        let mr = MillerRabin::new(&n).expect("odd candidate of a valid size");
        let bases: Vec<Vec<Limb>> = (0..self.rounds).map(|_| mr.random_base(rng).expect("generator works")).collect();
        // One untimed call builds the lane batch of n, which `MillerRabin` makes on first
        // use (its constant-time set-up, as the context's).
        core::hint::black_box(mr.passes_all_ct(&bases));
        (mr, bases)
    }
    fn run(&self, (mr, bases): &(MillerRabin, Vec<Vec<Limb>>)) -> u64 {
        u64::from(mr.passes_all_ct(bases))
    }
}

/// The CRT exponentiations of the RSA pairwise consistency test on the process kernel.
/// Secret key and ciphertext: fixed class one key and one c; random class a key drawn
/// from a pool and a fresh c < n. With `setup` the whole of
/// `hazmat::keys::crt_exponentiations` is timed, the contexts' set-up and the
/// reductions of c by p and q (`MontContext::reduce_ct`) included; without, only
/// `crt_exponentiations_in`, the contexts and reduced ciphertexts prepared untimed.
pub struct RsaCrt {
    bits: u32,
    keys: Vec<RsaPrivateKey>,
    fixed_c: BigUint,
    setup: bool,
}

impl RsaCrt {
    /// `pool` keys of `bits` bits (below 2048 bits only for measuring: insecure option).
    pub fn new(bits: u32, pool: usize, setup: bool, rng: &mut ChaCha20Rng) -> Result<Self, Error> {
        let opts = RsaKeyOptions::new(bits).insecure(true);
        let keys = (0..pool.max(2)).map(|_| primekit::generate_rsa_key_with(&opts)).collect::<Result<Vec<_>, _>>()?;
        let fixed_c = Self::ciphertext(&keys[0], rng);
        Ok(RsaCrt { bits, keys, fixed_c, setup })
    }

    fn ciphertext(k: &RsaPrivateKey, rng: &mut ChaCha20Rng) -> BigUint {
        let l = k.n.bits().div_ceil(64) as usize;
        primekit::hazmat::limbs::from_limbs(&random_below(&k.n, l, rng))
    }
}

/// What one `rsa_crt` call consumes: a fresh copy of the key (reading the one fixed key
/// from the same memory every time would make the fixed class faster by its cache warmth
/// alone: measured |t| 10-22 at 4,000 calls without the copy, below 2 with it), the
/// ciphertext, and for the timed exponentiations alone the contexts and reductions.
pub struct CrtInput {
    key: RsaPrivateKey,
    c: BigUint,
    prepared: Option<(MontContext, MontContext, BigUint, BigUint)>,
}

impl Target for RsaCrt {
    type Input = CrtInput;
    fn name(&self) -> &'static str {
        if self.setup {
            "rsa_crt_setup"
        } else {
            "rsa_crt"
        }
    }
    fn detail(&self) -> String {
        let what = if self.setup { "contexts and reductions of c timed" } else { "exponentiations only" };
        format!("{}-bit keys secret (fixed key vs a pool of {}), ciphertext secret, {what}", self.bits, self.keys.len() - 1)
    }
    fn prepare(&mut self, class: Class, rng: &mut ChaCha20Rng) -> CrtInput {
        let (key, c) = match class {
            Class::Fixed => (self.keys[0].clone(), self.fixed_c.clone()),
            Class::Random => {
                let k = &self.keys[1 + (rng.next_u64() % (self.keys.len() as u64 - 1)) as usize];
                let c = Self::ciphertext(k, rng);
                (k.clone(), c)
            }
        };
        let prepared = if self.setup {
            None
        } else {
            let ctx = |m: &BigUint| MontContext::new(m).expect("a generated prime is an odd modulus");
            Some((ctx(&key.p), ctx(&key.q), &c % &key.p, &c % &key.q))
        };
        CrtInput { key, c, prepared }
    }
    fn run(&self, x: &CrtInput) -> u64 {
        let r = match &x.prepared {
            Some((cp, cq, rp, rq)) => Ok(primekit::hazmat::keys::crt_exponentiations_in(cp, cq, &x.key, rp, rq)),
            None => primekit::hazmat::keys::crt_exponentiations(&x.key, &x.c),
        };
        match r {
            Ok((mp, _)) => mp.iter_u64_digits().next().unwrap_or(0),
            Err(_) => u64::MAX,
        }
    }
}

/// Control: a deliberately leaky exponentiation, left-to-right square-and-multiply that
/// multiplies only where a secret exponent bit is set (a branch on each secret bit), in
/// a public `bits`-bit modulus. Fixed class e = 0. A timing test that does not flag it is
/// blind; it is used only to show that the test can fail.
pub struct LeakyControl {
    ctx: MontContext,
    base: Vec<Limb>,
}

impl LeakyControl {
    pub fn new(bits: usize, kernel: Kernel, rng: &mut ChaCha20Rng) -> Result<Self, Error> {
        let m = random_odd(bits, rng);
        let ctx = MontContext::with_kernel(&m, kernel)?;
        let mut t = ctx.scratch();
        let base = ctx.to_mont(&random_below(&m, ctx.len(), rng), &mut t);
        Ok(LeakyControl { ctx, base })
    }
}

impl Target for LeakyControl {
    type Input = Vec<Limb>;
    fn name(&self) -> &'static str {
        "leaky_control"
    }
    fn detail(&self) -> String {
        format!("square-and-multiply branching on each secret exponent bit, {} bits (must be flagged)", 64 * self.ctx.len())
    }
    fn prepare(&mut self, class: Class, rng: &mut ChaCha20Rng) -> Vec<Limb> {
        match class {
            Class::Fixed => vec![0; self.ctx.len()],
            Class::Random => (0..self.ctx.len()).map(|_| rng.next_u64()).collect(),
        }
    }
    fn run(&self, e: &Vec<Limb>) -> u64 {
        let n = self.ctx.len();
        let (mut acc, mut tmp, mut t) = (self.ctx.one().to_vec(), vec![0; n], self.ctx.scratch());
        for i in (0..64 * n).rev() {
            self.ctx.sqr(&mut tmp, &acc, &mut t);
            core::mem::swap(&mut acc, &mut tmp);
            if e[i / 64] >> (i % 64) & 1 == 1 {
                self.ctx.mul(&mut tmp, &acc, &self.base, &mut t);
                core::mem::swap(&mut acc, &mut tmp);
            }
        }
        first_limb(&acc)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn welch_t_sees_a_shift_and_not_noise() {
        let mut rng = ChaCha20Rng::seed_from_u64(7);
        let noise = |rng: &mut ChaCha20Rng, base: u64| (0..20_000).map(|_| base + rng.next_u64() % 1000).collect::<Vec<_>>();
        let (a, b) = (noise(&mut rng, 10_000), noise(&mut rng, 10_000));
        assert!(welch_t(&a, &b).0.abs() < THRESHOLD);
        let c = noise(&mut rng, 10_050);
        assert!(welch_t(&a, &c).0.abs() > THRESHOLD, "a 50-tick shift over 20,000 samples must be seen");
    }

    /// With `--random-class primes` the random class draws primes of the size from the
    /// pool (several distinct ones, every round passing), the fixed class stays the one
    /// prime; with `odd` it draws fresh odd numbers, composites among them.
    #[test]
    fn random_class_is_odd_numbers_or_pooled_primes() {
        let mut rng = ChaCha20Rng::seed_from_u64(12);
        let mut primes = Candidate::new(192, 5, FixedSecret::Special, RandomCandidates::Primes, &mut rng).unwrap();
        assert!(primes.detail().ends_with("random class: one of 1000 random primes"), "{}", primes.detail());
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..40 {
            let input = primes.prepare(Class::Random, &mut rng);
            assert_eq!(input.0.bits(), 192);
            assert!(primekit::is_prime(&input.0), "{}", input.0);
            assert_eq!(primes.run(&input), 1, "a prime passes the rounds");
            seen.insert(input.0);
        }
        assert!(seen.len() >= 30, "{} distinct primes of 40 draws", seen.len());
        let fixed = primes.prepare(Class::Fixed, &mut rng).0;
        assert!(primekit::is_prime(&fixed) && primes.prepare(Class::Fixed, &mut rng).0 == fixed);
        let mut odd = CandidateRounds::new(192, 5, FixedSecret::Special, RandomCandidates::Odd, &mut rng).unwrap();
        let composites = (0..40).filter(|_| !primekit::is_prime(&odd.prepare(Class::Random, &mut rng).0.modulus())).count();
        assert!(composites >= 30, "{composites} composites of 40 random odd numbers");
    }

    #[test]
    fn fixed_class_is_the_special_value_or_one_random_value() {
        let mut rng = ChaCha20Rng::seed_from_u64(11);
        let mut special = Pow2::new(256, Kernel::Portable, FixedSecret::Special, &mut rng).unwrap();
        assert!(special.prepare(Class::Fixed, &mut rng).iter().all(|&l| l == 0));
        let mut random = Pow2::new(256, Kernel::Portable, FixedSecret::Random, &mut rng).unwrap();
        let e = random.prepare(Class::Fixed, &mut rng);
        assert!(e.iter().any(|&l| l != 0), "a random exponent, not 0");
        assert_eq!(random.prepare(Class::Fixed, &mut rng), e, "the same exponent every call");
        assert_ne!(random.prepare(Class::Random, &mut rng), e);
        assert!(random.detail().ends_with("fixed class: one random exponent"), "{}", random.detail());

        let mut passes = PassesCt::new(256, Kernel::Portable, FixedSecret::Random, None, &mut rng).unwrap();
        let a = passes.prepare(Class::Fixed, &mut rng);
        let n = passes.n.clone();
        let av = primekit::hazmat::limbs::from_limbs(&a);
        assert!(av > BigUint::from(2u8) && av <= &n - 2u8, "base in (2, n - 2]");
        assert_eq!(passes.prepare(Class::Fixed, &mut rng), a);
        assert!(passes.mr.passes_ct(&a), "n is prime: every base passes");
        let mut two = PassesCt::new(256, Kernel::Portable, FixedSecret::Special, Some(5), &mut rng).unwrap();
        assert_eq!(primekit::hazmat::limbs::from_limbs(&two.prepare(Class::Fixed, &mut rng)), BigUint::from(2u8));
        assert_eq!((&two.n - 1u8).trailing_zeros(), Some(5), "the prime asked for: v2(n - 1) = 5");
        assert!(two.detail().contains("v2(n - 1) = 5"), "{}", two.detail());
        assert!(PassesCt::new(256, Kernel::Portable, FixedSecret::Special, Some(17), &mut rng).is_err());
    }

    #[test]
    fn crops_cut_the_tail_of_both_classes() {
        // Identical bodies, but the random class has rare huge outliers: the uncropped t
        // may wander, the 95% crop must not see a difference.
        let fixed: Vec<u64> = (0..10_000).map(|k| 1000 + k % 97).collect();
        let random: Vec<u64> = (0..10_000).map(|k| if k % 500 == 0 { 1_000_000 } else { 1000 + k % 97 }).collect();
        let a = analyse(&Samples { fixed, random });
        let t95 = a.t.iter().find(|&&(p, _)| p == 95.0).unwrap().1;
        assert!(t95.abs() < 1.0, "t at 95% = {t95}");
        let d95 = a.mean_diff.iter().find(|&&(p, _)| p == 95.0).unwrap().1;
        assert!(d95.abs() < 1.0, "mean difference at 95% = {d95}");
        // A 30-tick shift of the fixed class is its mean difference.
        let fixed: Vec<u64> = (0..10_000).map(|k| 1030 + k % 97).collect();
        let random: Vec<u64> = (0..10_000).map(|k| 1000 + k % 97).collect();
        let d = analyse(&Samples { fixed, random }).mean_diff[0].1;
        assert!((d - 30.0).abs() < 1e-6, "uncropped mean difference {d}");
    }
}
