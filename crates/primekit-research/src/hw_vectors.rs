//! Test vectors for the RTL Lucas tester, from the cycle-free model [`crate::hw_model`].
//!
//! One line per input: `class n_hex verdict step u_hex v_hex`, where verdict is P, C or E,
//! and (u, v) are the model's U R mod n and V R mod n after ladder step `step` (1-based;
//! `0 - -` when the ladder does not run). Classes:
//! - `random`: uniform odd K-bit integers (top bit set), the paper's workload;
//! - `prime`: random K-bit primes (the ladder always runs to the end);
//! - `square`: odd squares (the square test decides);
//! - `long_d`: random odd K-bit integers whose D search tries at least 6 values;
//! - `small`: every odd n from 3 to 199 (n may divide D);
//! - `corpus`: public vectors of at most K bits, and `lucas_psp`: those among them that
//!   pass (composites the NIST Lucas test calls probably prime);
//! - `bad`: even, below 3, wider than K: the tester must flag an error.

use crate::hw_model::{run, HwConfig, HwTrace, HwVerdict};
use num_bigint::BigUint;
use primekit::hazmat::gen::generate_prime_with_rng;
use primekit::PrimeOptions;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

/// One input with the model's answer.
#[derive(Clone, Debug)]
pub struct HwVector {
    /// Input class (see the module documentation).
    pub class: &'static str,
    /// The input.
    pub n: BigUint,
    /// The model's run on it.
    pub trace: HwTrace,
}

impl HwVector {
    /// The vector-file line.
    pub fn line(&self) -> String {
        let v = self.trace.verdict.code();
        match self.trace.checkpoints.first() {
            Some((step, u, w)) => format!("{} {:x} {v} {step} {u:x} {w:x}", self.class, self.n),
            None => format!("{} {:x} {v} 0 - -", self.class, self.n),
        }
    }
}

/// How many inputs of each generated class.
#[derive(Clone, Copy, Debug)]
pub struct VectorCounts {
    /// Random odd K-bit integers.
    pub random: usize,
    /// Random K-bit primes.
    pub primes: usize,
    /// Odd squares.
    pub squares: usize,
    /// Random integers with a long D search.
    pub long_d: usize,
}

fn random_odd(rng: &mut ChaCha20Rng, bits: u32) -> BigUint {
    let mut bytes = vec![0u8; bits.div_ceil(8) as usize];
    rng.fill_bytes(&mut bytes);
    let mut n = BigUint::from_bytes_le(&bytes) % (BigUint::from(1u8) << bits as usize);
    n.set_bit(u64::from(bits) - 1, true);
    n.set_bit(0, true);
    n
}

/// The vectors for `cfg`: the generated classes in `counts`, the fixed small and bad
/// inputs, and the `corpus` numbers (value, expected-prime) of at most K bits. Every
/// laddered input gets one checkpoint at a random step.
pub fn vectors(cfg: HwConfig, counts: VectorCounts, seed: u64, corpus: &[(BigUint, bool)]) -> Result<Vec<HwVector>, primekit::Error> {
    let mut rng = ChaCha20Rng::seed_from_u64(seed ^ (u64::from(cfg.k) << 32));
    let mut inputs: Vec<(&'static str, BigUint)> = Vec::new();
    for _ in 0..counts.random {
        inputs.push(("random", random_odd(&mut rng, cfg.k)));
    }
    let opts = PrimeOptions::new(cfg.k);
    for _ in 0..counts.primes {
        inputs.push(("prime", generate_prime_with_rng(&opts, &mut rng)?));
    }
    for _ in 0..counts.squares {
        let r = random_odd(&mut rng, cfg.k / 2);
        inputs.push(("square", &r * &r));
    }
    let mut found = 0;
    while found < counts.long_d {
        let n = random_odd(&mut rng, cfg.k);
        if run_d_search_tries(&n) >= 6 {
            inputs.push(("long_d", n));
            found += 1;
        }
    }
    for n in (3u32..200).step_by(2) {
        inputs.push(("small", BigUint::from(n)));
    }
    for (n, prime) in corpus {
        if n.bits() <= u64::from(cfg.k) {
            let passes = run(n, cfg, &[]).verdict == HwVerdict::Prime;
            inputs.push((if passes && !prime { "lucas_psp" } else { "corpus" }, n.clone()));
        }
    }
    let one = BigUint::from(1u8);
    for n in [
        BigUint::from(0u8),
        one.clone(),
        BigUint::from(2u8),
        BigUint::from(1u64 << 40),
        (&one << cfg.k as usize) + 1u8,
        (&one << (cfg.k + 40) as usize) - 1u8,
    ] {
        inputs.push(("bad", n));
    }
    Ok(inputs
        .into_iter()
        .map(|(class, n)| {
            let steps = run(&n, cfg, &[]).steps;
            let at = if steps > 0 { 1 + (rng.next_u32() % steps) } else { 0 };
            let trace = run(&n, cfg, &[at]);
            HwVector { class, n, trace }
        })
        .collect())
}

/// How many D the search of odd `n` tries.
fn run_d_search_tries(n: &BigUint) -> u32 {
    crate::hw_model::d_search(n, HwConfig::new(4096, 1, 1)).1
}
