//! A cycle-free model of the RTL Lucas tester in `hw/` (Le Masle, Luk & Moritz 2011, Alg. 2
//! as the hardware runs it), and the test vectors its Verilator testbench checks.
//!
//! The model follows the RTL's rules, not the software test's: squareness and the D search
//! (5, -7, 9, ...; (D/n) = 0 ends the test only when n > |D|), then the U/V ladder of Alg. 4
//! with every value in Montgomery form for the hardware's R = 2^L, L = S·N_p·N_r and
//! S = ceil(K / (N_p·N_r)) (see `hw/rtl/lucas_mont_mul.v`). Products are computed as
//! a·b·R^-1 mod n with big integers, the Jacobi symbol by quadratic reciprocity, the square
//! test by an integer square root: none of the RTL's algorithms (CSA Montgomery, binary
//! Jacobi, bit-serial root), so agreement checks the hardware against different arithmetic.

use num_bigint::BigUint;
use num_traits::{One, Zero};

/// One hardware configuration: operand width K, pipeline stages N_p, CSA replications N_r,
/// and DW, the width of the |D| register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HwConfig {
    /// Operand width in bits (a multiple of 32).
    pub k: u32,
    /// Pipeline stages of the Montgomery multiplier.
    pub np: u32,
    /// Carry-save rows per stage and cycle.
    pub nr: u32,
    /// Width of the |D| register.
    pub dw: u32,
}

impl HwConfig {
    /// A configuration with the RTL's default DW = 16.
    pub const fn new(k: u32, np: u32, nr: u32) -> HwConfig {
        HwConfig { k, np, nr, dw: 16 }
    }

    /// Cycles a product spends in each multiplier stage: ceil(K / (N_p N_r)).
    pub const fn beat(&self) -> u32 {
        self.k.div_ceil(self.np * self.nr)
    }

    /// Montgomery exponent: R = 2^L with L = S N_p N_r >= K.
    pub const fn l(&self) -> u32 {
        self.beat() * self.np * self.nr
    }

    /// Cycles from a product's acceptance to its result: N_p S + 3 (capture,
    /// carry-propagate, conditional subtraction).
    pub const fn mul_latency(&self) -> u32 {
        self.np * self.beat() + 3
    }
}

/// The tester's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HwVerdict {
    /// U_{n+1} ≡ 0: probably prime.
    Prime,
    /// A square, a factor met in the D search, or U_{n+1} ≢ 0.
    Composite,
    /// Not tested: n even, n < 3, n wider than K bits, or |D| past the DW-bit register.
    Error,
}

impl HwVerdict {
    /// One-letter code used in vector files: P, C or E.
    pub fn code(self) -> char {
        match self {
            HwVerdict::Prime => 'P',
            HwVerdict::Composite => 'C',
            HwVerdict::Error => 'E',
        }
    }
}

/// What the model computed for one n.
#[derive(Clone, Debug)]
pub struct HwTrace {
    /// The verdict.
    pub verdict: HwVerdict,
    /// Selfridge's D, when the search found one.
    pub d: Option<i64>,
    /// How many D the search tried (0 when it did not run).
    pub d_tries: u32,
    /// Ladder steps: bit length of n + 1, minus 1 (0 when the ladder did not run).
    pub steps: u32,
    /// (U R mod n, V R mod n) after each requested step (1-based), in request order.
    pub checkpoints: Vec<(u32, BigUint, BigUint)>,
}

/// (a / m) for odd m >= 1 and a small signed a, by reciprocity.
fn jacobi_small(a: i64, m: &BigUint) -> i32 {
    let mut t = 1;
    let m8 = (m % 8u8).to_u32_digits().first().copied().unwrap_or(0);
    let mut x = a.unsigned_abs();
    if a < 0 && m8 % 4 == 3 {
        t = -t;
    }
    // (x / m) with x small: pull out twos, then flip to (m mod x / x).
    while x != 0 && x.is_multiple_of(2) {
        x /= 2;
        if m8 == 3 || m8 == 5 {
            t = -t;
        }
    }
    if x == 0 {
        return if m.is_one() { 1 } else { 0 };
    }
    if x == 1 {
        return t;
    }
    if x % 4 == 3 && m8 % 4 == 3 {
        t = -t;
    }
    let r = (m % x).to_u64_digits().first().copied().unwrap_or(0);
    t * jacobi_u64(r, x)
}

fn jacobi_u64(mut a: u64, mut m: u64) -> i32 {
    let mut t = 1;
    a %= m;
    while a != 0 {
        while a.is_multiple_of(2) {
            a /= 2;
            if m % 8 == 3 || m % 8 == 5 {
                t = -t;
            }
        }
        std::mem::swap(&mut a, &mut m);
        if a % 4 == 3 && m % 4 == 3 {
            t = -t;
        }
        a %= m;
    }
    if m == 1 {
        t
    } else {
        0
    }
}

/// Selfridge's search as the RTL runs it, for odd n >= 3 that is not a square: the D with
/// (D/n) = -1, or the verdict that ends the test (Composite: (D/n) = 0 with n > |D|;
/// Error: |D| reached the DW-bit limit), and how many D were tried.
pub fn d_search(n: &BigUint, cfg: HwConfig) -> (Result<i64, HwVerdict>, u32) {
    let d_limit = (1i64 << cfg.dw) - 3; // the RTL stops stepping at |D| >= 2^DW - 3
    let mut d: i64 = 5;
    let mut tries = 0;
    loop {
        tries += 1;
        match jacobi_small(d, n) {
            -1 => return (Ok(d), tries),
            0 if n > &BigUint::from(d.unsigned_abs()) => return (Err(HwVerdict::Composite), tries),
            _ => {}
        }
        if d.abs() >= d_limit {
            return (Err(HwVerdict::Error), tries);
        }
        d = if d > 0 { -(d + 2) } else { -d + 2 };
    }
}

/// Runs the model on `n`, recording U and V after each step listed in `checkpoints`.
pub fn run(n: &BigUint, cfg: HwConfig, checkpoints: &[u32]) -> HwTrace {
    let mut trace = HwTrace { verdict: HwVerdict::Error, d: None, d_tries: 0, steps: 0, checkpoints: Vec::new() };
    if n.bits() > u64::from(cfg.k) || !n.bit(0) || n < &BigUint::from(3u8) {
        return trace;
    }
    let root = n.sqrt();
    if &(&root * &root) == n {
        trace.verdict = HwVerdict::Composite;
        return trace;
    }
    let (d, tries) = d_search(n, cfg);
    trace.d_tries = tries;
    let d = match d {
        Ok(d) => d,
        Err(v) => {
            trace.verdict = v;
            return trace;
        }
    };
    trace.d = Some(d);

    let r_mod = BigUint::one() << cfg.l() as usize;
    let r_inv = ((n + 1u8) >> 1u32).modpow(&BigUint::from(cfg.l()), n); // (1/2)^L
    let r_mod = r_mod % n;
    let mont = |a: &BigUint, b: &BigUint| a * b % n * &r_inv % n;
    let half = |a: &BigUint, b: &BigUint| {
        let s = a + b;
        if s.bit(0) {
            ((s + n) >> 1u32) % n
        } else {
            (s >> 1u32) % n
        }
    };
    let d_abs = BigUint::from(d.unsigned_abs()) * &r_mod % n;
    let dm = if d < 0 && !d_abs.is_zero() { n - d_abs } else { d_abs };
    let k = n + 1u8;
    let steps = (k.bits() - 1) as u32;
    trace.steps = steps;
    let (mut u, mut v) = (r_mod.clone(), r_mod);
    for step in 1..=steps {
        let bit = k.bit(u64::from(steps - step));
        let ut = mont(&u, &v); // 1
        let v2 = mont(&v, &v); // 2
        let u2 = mont(&u, &u); // 3
        let du2 = mont(&u2, &dm); // 4
        let vt = half(&v2, &du2); // 5
        let dut = mont(&ut, &dm); // 6
        if bit {
            u = half(&ut, &vt); // 7
            v = half(&vt, &dut); // 8
        } else {
            u = ut;
            v = vt;
        }
        if checkpoints.contains(&step) {
            trace.checkpoints.push((step, u.clone(), v.clone()));
        }
    }
    trace.verdict = if u.is_zero() { HwVerdict::Prime } else { HwVerdict::Composite };
    trace
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jacobi_matches_definition_for_small_moduli() {
        // Euler's criterion for odd primes p; the definition by factorisation otherwise.
        for p in [3u64, 5, 7, 11, 13, 101, 65537] {
            for a in -40i64..40 {
                let e = (a.rem_euclid(p as i64) as u64).pow(1) % p;
                let pow = BigUint::from(e).modpow(&BigUint::from((p - 1) / 2), &BigUint::from(p));
                let want = if e == 0 {
                    0
                } else if pow.is_one() {
                    1
                } else {
                    -1
                };
                assert_eq!(jacobi_small(a, &BigUint::from(p)), want, "({a}/{p})");
            }
        }
        assert_eq!(jacobi_small(5, &BigUint::from(15u8)), 0);
        assert_eq!(jacobi_small(2, &BigUint::from(15u8)), 1); // (2/3)(2/5) = (-1)(-1)
    }

    #[test]
    fn montgomery_exponent_covers_k() {
        for (np, nr) in [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (3, 2), (3, 4), (3, 8)] {
            for k in [64, 128, 1024] {
                let c = HwConfig::new(k, np, nr);
                assert!(c.l() >= k && c.l() < k + np * nr, "{c:?}");
            }
        }
        assert_eq!(HwConfig::new(1024, 3, 8).beat(), 43);
    }

    #[test]
    fn bad_inputs_are_errors() {
        let c = HwConfig::new(64, 1, 1);
        for n in [BigUint::from(1u8), BigUint::from(0u8), BigUint::from(10u8), BigUint::one() << 64usize | BigUint::one()] {
            assert_eq!(run(&n, c, &[]).verdict, HwVerdict::Error, "{n}");
        }
    }
}
