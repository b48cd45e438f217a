//! `primekit-lab bench adversarial`: Massimo & Paterson 2020, Table 3 — Miller-Rabin rounds needed by MRAC
//! and MR64 (no trial division, as in the paper) on n = (2x+1)(4x+1) with both factors
//! prime, which pass a random-base round with probability close to 1/4. MRAC's
//! misclassified count is printed beside its expectation N·4^-t.

use super::inputs::{pool, Shard};
use clap::Args as ClapArgs;
use num_bigint::BigUint;
use primekit::hazmat::sieve::trial_divide_vartime;
use primekit_research::tests::mrac::mrac_rounds;
use primekit_research::tests::TestKind;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;
use rayon::prelude::*;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::process::ExitCode;

#[derive(ClapArgs, Clone)]
pub struct Args {
    /// Size of n in bits.
    #[arg(long, default_value_t = 1024)]
    pub bits: u32,
    /// Number of adversarial inputs.
    #[arg(long, default_value_t = 1000)]
    pub count: usize,
    /// Worker threads (0: one per core).
    #[arg(long, default_value_t = 0)]
    pub jobs: usize,
    /// Run part i of n (0-based); combine with `bench merge`.
    #[arg(long, default_value = "0/1")]
    pub shard: Shard,
    /// Seed for the inputs (bases come from the OS generator).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// One n = p (2p - 1) of exactly `bits` bits with p = 2x + 1 and 2p - 1 = 4x + 1 prime:
/// p is drawn from [2^(h-1), 2^(h-1)·√2) with h = bits/2 so that 2p² has `bits` bits.
///
/// x is odd (p ≡ 3 mod 4), which makes exactly about 1/4 of all bases strong liars, the
/// rate that Massimo & Paterson (2020, §3.5.2) rely on: then n - 1 = 2x(4x + 3) has v2 = 1, p - 1 = 2x and
/// q - 1 = 4x have odd part x, and Monier's count is (1 + (4 - 1)/3)·gcd(d, x)² = 2x² of
/// φ(n) = 8x² units. For even x the count is (1 + (4^ν - 1)/3)·x'² with x = 2^(ν-1)·x'
/// (ν = v2(p - 1) ≥ 2), a fraction 3/16 or less, which would bias Table 3 low.
pub fn adversarial_input(rng: &mut impl RngCore, bits: u32) -> BigUint {
    let h = bits.div_ceil(2);
    let lo = BigUint::from(1u8) << (h - 1);
    // floor(2^(h-1) · √2) = floor(sqrt(2^(2h-1))).
    let hi = (BigUint::from(1u8) << (2 * h - 1)).sqrt();
    let span = &hi - &lo;
    let mut bytes = vec![0u8; (h as usize).div_ceil(8) + 8];
    loop {
        rng.fill_bytes(&mut bytes);
        let p = (&lo + BigUint::from_bytes_le(&bytes) % &span) | BigUint::from(3u8);
        let q = (&p << 1u32) - 1u8;
        // Cheap sieve on both factors before the full tests.
        if trial_divide_vartime(&p.to_u64_digits(), 256).is_some() || trial_divide_vartime(&q.to_u64_digits(), 256).is_some() {
            continue;
        }
        if primekit::is_prime(&p) && primekit::is_prime(&q) {
            let n = &p * &q;
            if n.bits() == bits as u64 {
                return n;
            }
        }
    }
}

/// Per input, per test: (rounds run, declared prime, ms).
type InputResults = Vec<(u32, bool, f64)>;

/// Records: per test the rounds histogram, then misclassified vs expected.
pub fn measure(a: &Args) -> Result<Vec<Value>, String> {
    let count = a.shard.share(a.count);
    let tests = [TestKind::Mrac, TestKind::Mr64];
    let per_input: Vec<Result<InputResults, String>> = pool(a.jobs).install(|| {
        (0..count)
            .into_par_iter()
            .map(|i| {
                let mut rng = ChaCha20Rng::seed_from_u64(a.shard.seed(a.seed, a.bits, 3) ^ (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
                let n = adversarial_input(&mut rng, a.bits);
                let mut bases = primekit::hazmat::random::os_seeded().map_err(|e| e.to_string())?;
                tests
                    .iter()
                    .map(|t| {
                        let start = std::time::Instant::now();
                        let o = t.run(&n, 0, &mut bases).map_err(|e| e.to_string())?;
                        Ok((o.mr_rounds, o.prime, start.elapsed().as_secs_f64() * 1e3))
                    })
                    .collect()
            })
            .collect()
    });
    let per_input: Vec<InputResults> = per_input.into_iter().collect::<Result<_, _>>()?;
    let mut out = Vec::new();
    for (ti, t) in tests.iter().enumerate() {
        let mut hist: BTreeMap<u32, u64> = BTreeMap::new();
        let (mut wrong, mut total_ms) = (0u64, 0.0);
        for row in &per_input {
            let (rounds, prime, ms) = row[ti];
            *hist.entry(rounds).or_default() += 1;
            wrong += prime as u64;
            total_ms += ms;
        }
        for (rounds, inputs) in hist {
            out.push(
                json!({"op": "adversarial", "engine": "primekit", "test": t.name(), "bits": a.bits, "rounds": rounds, "inputs": inputs}),
            );
        }
        let t_rounds = if *t == TestKind::Mrac { mrac_rounds(a.bits as u64) } else { 64 };
        let expected = count as f64 * 4f64.powi(-(t_rounds as i32));
        out.push(json!({"op": "adversarial", "engine": "primekit", "test": t.name(), "bits": a.bits, "count": count, "t": t_rounds,
                        "misclassified": wrong, "expected": expected, "total_ms": total_ms, "mean_ms": total_ms / count.max(1) as f64}));
    }
    Ok(out)
}

/// Table 3's layout: rounds, MRAC, MR64, then the paper's counts scaled to our N.
pub fn markdown(records: &[Value]) -> String {
    let get = |t: &str, r: u64| records.iter().find(|v| v["test"] == t && v["rounds"] == r).and_then(|v| v["inputs"].as_u64()).unwrap_or(0);
    let summary = |t: &str| records.iter().find(|v| v["test"] == t && v.get("misclassified").is_some()).cloned().unwrap_or(Value::Null);
    let n = summary("mr64")["count"].as_u64().unwrap_or(0);
    let scale = n as f64 / super::paper::TABLE3_INPUTS as f64;
    let max_r = records.iter().filter_map(|v| v["rounds"].as_u64()).max().unwrap_or(0).max(10);
    let mut s = format!("Rounds needed on {n} adversarial inputs (paper: 2^20 inputs, scaled to {n})\n\n| rounds | MRAC | MR64 | paper MRAC | paper MR64 |\n|---|---|---|---|---|\n");
    for r in 1..=max_r {
        let p = super::paper::TABLE3.iter().find(|row| row.0 as u64 == r);
        let pm = p.and_then(|row| row.1).map(|x| format!("{:.1}", x as f64 * scale)).unwrap_or("–".into());
        let p64 = p.map(|row| format!("{:.1}", row.2 as f64 * scale)).unwrap_or("–".into());
        let (a, b) = (get("mrac", r), get("mr64", r));
        if a + b > 0 || p.is_some() {
            s += &format!("| {r} | {a} | {b} | {pm} | {p64} |\n");
        }
    }
    let m = summary("mrac");
    s += &format!(
        "\nMRAC misclassified {} (expected N·4^-t = {:.2}; paper: {} of 2^20, expected 1024). MR64 misclassified {}.\n",
        m["misclassified"],
        m["expected"].as_f64().unwrap_or(f64::NAN),
        super::paper::TABLE3_MRAC_MISCLASSIFIED,
        summary("mr64")["misclassified"]
    );
    s
}

pub fn run(a: Args) -> ExitCode {
    if a.count == 0 || !(64..=8192).contains(&a.bits) {
        eprintln!("primekit-lab bench adversarial: --count must be positive and --bits within 64..=8192");
        return ExitCode::from(2);
    }
    super::emit::print_records("adversarial", measure(&a), Some(markdown))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha20Rng;
    use rand_core::SeedableRng;

    /// Strong probable-prime test of n to base a, by u128 arithmetic (independent of the
    /// engine).
    fn strong_liar(n: u64, a: u64) -> bool {
        let pow = |mut b: u64, mut e: u64| {
            let mut r = 1u64;
            while e > 0 {
                if e & 1 == 1 {
                    r = (r as u128 * b as u128 % n as u128) as u64;
                }
                b = (b as u128 * b as u128 % n as u128) as u64;
                e >>= 1;
            }
            r
        };
        let s = (n - 1).trailing_zeros();
        let mut x = pow(a, (n - 1) >> s);
        if x == 1 || x == n - 1 {
            return true;
        }
        for _ in 1..s {
            x = (x as u128 * x as u128 % n as u128) as u64;
            if x == n - 1 {
                return true;
            }
        }
        false
    }

    #[test]
    fn inputs_have_the_one_in_four_liar_rate() {
        let mut rng = ChaCha20Rng::seed_from_u64(5);
        for _ in 0..4 {
            let n = adversarial_input(&mut rng, 44);
            let n64 = n.to_u64_digits()[0];
            assert_eq!(n.bits(), 44);
            let trials = 20_000;
            let liars = (0..trials).filter(|_| strong_liar(n64, 2 + rng.next_u64() % (n64 - 3))).count();
            let rate = liars as f64 / trials as f64;
            assert!((rate - 0.25).abs() < 0.02, "n = {n64}: liar rate {rate}");
        }
    }
}
