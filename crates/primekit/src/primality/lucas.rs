//! Lucas probable-prime tests with Selfridge's method A (P = 1, Q = (1 - D)/4, D the
//! first of 5, -7, 9, -11, ... with (D/n) = -1; Massimo & Paterson 2020, §2.1.2-2.1.3 and §3.4), run on
//! the Montgomery engine.
//!
//! # Why the ladder has no Q^k
//! The textbook ladders carry Q^k (one extra squaring per bit) or U_k (two). Instead we
//! run the Q' = 1 sequence W_k = V_{2k}(P, Q) · Q^-k, which is V_k(P', 1) with
//! P' = P^2/Q - 2, so each bit costs one product and one squaring:
//! W_{2k} = W_k^2 - 2 and W_{2k+1} = W_k W_{k+1} - P'. For odd d = 2m + 1 the identities
//! V_{d+1} = P V_d - Q V_{d-1} and D U_d = 2 V_{d+1} - P V_d give
//!   V_d     = Q^(m+1) (W_{m+1} + W_m) / P,   D U_d = Q^(m+1) (W_{m+1} - W_m),
//! and V_{2^j d} = Q^(2^(j-1) d) W_{2^(j-1) d} for j >= 1. Q, P and D are units modulo n
//! (checked), so every "≡ 0" condition of the strong test is read off W exactly.
//! The standard test U_{n+1} ≡ 0 becomes U'_{(n+1)/2} ≡ 0 for the primed sequence, i.e.
//! 2 W_{M+1} ≡ P' W_M with M = (n+1)/2 (D' = P'^2 - 4 = D/Q^2 is a unit).
//!
//! Variable time: for public inputs.

use super::jacobi::{jacobi_binary, jacobi_small};
use super::square::is_perfect_square;
use crate::arith::limbs::{add_mod_vartime, sub_mod_vartime, to_limbs, Limb};
use crate::arith::lucas_v::lucas_v_vartime;
use crate::arith::word::rem_limbs;
use crate::arith::MontContext;
use crate::Error;
use num_bigint::{BigInt, BigUint};

/// Parameters found by Selfridge's method A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selfridge {
    /// The D with (D/n) = -1.
    pub d: i64,
    /// Q = (1 - D) / 4 (P = 1).
    pub q: i64,
    /// How many D were tried (1 when D = 5 works).
    pub tries: usize,
}

/// Why no parameters exist: n is composite, for one of these reasons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NoParams {
    /// n is a perfect square (no D has (D/n) = -1).
    Square,
    /// (D/n) = 0 or gcd(n, Q) > 1 for some D, exposing a proper factor.
    Factor,
}

/// How the D search is run.
#[derive(Clone, Copy, Debug)]
pub struct SearchOptions {
    /// Test squareness after this many unsuccessful D (Massimo & Paterson 2020, §3.4, use 7;
    /// NIST FIPS 186-4 C.3.3, as in Le Masle et al. 2011, Alg. 2, checks first: 0).
    pub square_check_after: usize,
    /// Use Le Masle et al.'s (2011) binary Jacobi (Alg. 3) instead of the word-reciprocity one.
    pub binary_jacobi: bool,
}

impl SearchOptions {
    /// Massimo & Paterson 2020, §3.4 / Appendix B: squareness after 7 failed D.
    pub const BPSW: SearchOptions = SearchOptions { square_check_after: 7, binary_jacobi: false };
    /// Le Masle et al. 2011, Alg. 2: squareness first, binary Jacobi.
    pub const NIST: SearchOptions = SearchOptions { square_check_after: 0, binary_jacobi: true };
}

/// Selfridge's method A for odd n >= 3.
pub fn selfridge_method_a(n: &BigUint, opts: SearchOptions) -> Result<Selfridge, NoParams> {
    debug_assert!(n.bit(0) && n >= &BigUint::from(3u8));
    let limbs = n.to_u64_digits();
    let small_n = if limbs.len() == 1 { Some(limbs[0]) } else { None };
    let mut d: i64 = 5;
    let mut tries = 0;
    loop {
        if tries == opts.square_check_after && is_perfect_square(n) {
            return Err(NoParams::Square);
        }
        tries += 1;
        let j = if opts.binary_jacobi { jacobi_binary(&BigInt::from(d), n) } else { jacobi_small(d, &limbs) };
        // n | D (only for tiny n) says nothing about n: move on to the next D.
        let n_divides_d = small_n.is_some_and(|m| d.unsigned_abs().is_multiple_of(m));
        if j == 0 && !n_divides_d {
            return Err(NoParams::Factor);
        }
        if j == -1 {
            let q = (1 - d) / 4;
            let qa = q.unsigned_abs();
            let g = if qa <= 1 { 1 } else { gcd(rem_limbs(&limbs, qa), qa) };
            if g == 1 {
                return Ok(Selfridge { d, q, tries });
            }
            if small_n != Some(g) {
                return Err(NoParams::Factor);
            }
        }
        d = if d > 0 { -(d + 2) } else { -d + 2 };
        if d.unsigned_abs() > 1 << 40 {
            // Unreachable for non-squares (the first D is tiny in practice).
            return Err(NoParams::Square);
        }
    }
}

fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// q^-1 mod n for a small q coprime to n: (k n + 1)/|q| for the k making it integral.
fn small_inverse_mod(q: i64, n: &BigUint) -> BigUint {
    let qa = q.unsigned_abs();
    let r = (n % qa).iter_u64_digits().next().unwrap_or(0);
    let k = (0..qa).find(|&k| (k as u128 * r as u128 + 1).is_multiple_of(qa as u128)).expect("gcd(n, q) = 1");
    let inv = (n * k + 1u8) / qa;
    if q < 0 {
        (n - inv) % n
    } else {
        inv % n
    }
}

/// The W ladder of the module documentation, for one odd n >= 3 and its parameters.
#[derive(Clone, Debug)]
pub struct LucasLadder {
    ctx: MontContext,
    /// P' = Q^-1 - 2 mod n and 2, in Montgomery form.
    p_prime: Vec<Limb>,
    two: Vec<Limb>,
    n_plus_one: BigUint,
}

impl LucasLadder {
    /// Ladder for odd `n >= 3` with Selfridge parameters `params` (gcd(n, QD) = 1).
    pub fn new(n: &BigUint, params: &Selfridge) -> Result<Self, Error> {
        if !n.bit(0) || n < &BigUint::from(3u8) {
            return Err(Error::InvalidArgument("Lucas ladder needs an odd n >= 3".into()));
        }
        let ctx = MontContext::new_vartime(n)?;
        let len = ctx.len();
        let mut t = ctx.scratch();
        let pp = (small_inverse_mod(params.q, n) + n - 2u8) % n;
        let two = BigUint::from(2u8) % n;
        Ok(LucasLadder {
            p_prime: ctx.to_mont(&to_limbs(&pp, len).expect("reduced"), &mut t),
            two: ctx.to_mont(&to_limbs(&two, len).expect("reduced"), &mut t),
            n_plus_one: n + 1u8,
            ctx,
        })
    }

    /// The Montgomery context of n.
    pub fn context(&self) -> &MontContext {
        &self.ctx
    }

    /// (W_m, W_{m+1}) in Montgomery form: W_k = V_k(P', 1), so this is the engine's Q = 1
    /// ladder (`lucas_v_vartime`; one product and one squaring per bit of m, the two run
    /// together where the context's kernel can interleave them).
    pub fn ladder(&self, m: &[Limb]) -> (Vec<Limb>, Vec<Limb>) {
        lucas_v_vartime(&self.ctx, &self.p_prime, m)
    }

    /// Strong Lucas test: with n + 1 = d 2^s (d odd), n passes when U_d ≡ 0 or
    /// V_{d 2^r} ≡ 0 (mod n) for some 0 <= r < s.
    pub fn strong_test(&self) -> bool {
        let len = self.ctx.len();
        let s = self.n_plus_one.trailing_zeros().expect("n + 1 > 0") as usize;
        let m = &self.n_plus_one >> (s + 1); // d = 2m + 1
        let (wm, wm1) = self.ladder(&to_limbs(&m, len).expect("m < n"));
        if wm == wm1 {
            return true; // U_d ≡ 0
        }
        let mut sum = wm.clone();
        add_mod_vartime(&mut sum, &wm1, self.ctx.modulus());
        if sum.iter().all(|&l| l == 0) {
            return true; // V_d ≡ 0
        }
        let mut t = self.ctx.scratch();
        let mut w = vec![0; len];
        self.ctx.mul(&mut w, &wm, &wm1, &mut t);
        sub_mod_vartime(&mut w, &self.p_prime, self.ctx.modulus()); // W_d, the image of V_{2d}
        let mut y = vec![0; len];
        for r in 1..s {
            if w.iter().all(|&l| l == 0) {
                return true; // V_{2^r d} ≡ 0
            }
            if r + 1 < s {
                self.ctx.sqr(&mut y, &w, &mut t);
                sub_mod_vartime(&mut y, &self.two, self.ctx.modulus());
                std::mem::swap(&mut w, &mut y);
            }
        }
        false
    }

    /// Standard Lucas test: n passes when U_{n+1} ≡ 0 (mod n).
    pub fn standard_test(&self) -> bool {
        let len = self.ctx.len();
        let big_m = &self.n_plus_one >> 1u32;
        let (wm, wm1) = self.ladder(&to_limbs(&big_m, len).expect("M < n"));
        let mut t = self.ctx.scratch();
        let mut lhs = wm1.clone();
        add_mod_vartime(&mut lhs, &wm1, self.ctx.modulus());
        let mut rhs = vec![0; len];
        self.ctx.mul(&mut rhs, &self.p_prime, &wm, &mut t);
        lhs == rhs
    }
}

#[cfg(test)]
mod tests {
    //! The ladder is checked against a definitional oracle in `crates/primekit-research/tests/research_tests.rs`.
    use super::*;
    #[test]
    fn squares_and_factors_have_no_params() {
        assert_eq!(selfridge_method_a(&BigUint::from(10201u32), SearchOptions::BPSW), Err(NoParams::Square));
        assert_eq!(selfridge_method_a(&BigUint::from(9u8), SearchOptions::BPSW), Err(NoParams::Factor)); // D = -15
        assert_eq!(selfridge_method_a(&BigUint::from(10201u32), SearchOptions::NIST), Err(NoParams::Square));
        assert_eq!(selfridge_method_a(&BigUint::from(35u32), SearchOptions::BPSW), Err(NoParams::Factor));
        let p = selfridge_method_a(&BigUint::from(5u8), SearchOptions::BPSW).unwrap();
        assert_eq!((p.d, p.q), (-7, 2));
    }
}
