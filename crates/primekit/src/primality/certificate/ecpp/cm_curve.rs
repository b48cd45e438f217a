//! From a discriminant D and a curve order m = k q over F_N to a checked ECPP step
//! (Atkin & Morain 1993, §§5-6 and 8): a root of D's class polynomial mod N gives j, j
//! a curve, and the right twist is the one on which a point P has (m/q) P != O and
//! q (m/q) P = O, computed exactly as the checker computes them.
//!
//! No square root is needed for the point: for any x with c = x^3 + A x + B != 0, the
//! point (c x, c^2) lies on y^2 = x^3 + A c^2 x + B c^3, a twist of y^2 = x^3 + A x + B
//! by c (the same curve when c is a square). Trying x = 1, 2, ... reaches both
//! quadratic twists; for j = 0 and 1728 (D = -3, -4) B, respectively A, runs over
//! small integers too, which reaches the sextic and quartic twists. A twist found wrong
//! is not tried again: its class (a power residue symbol: a Jacobi symbol for the quadratic
//! twists, one exponentiation for D = -3, -4) is noted. For D = -3, -4 the right twist is
//! first computed from the trace ([`super::cm_twist`]); that search is the fallback.

use super::super::curve::Curve;
use super::super::ecpp_check::{point_test, PointTest};
use super::super::field::{El, Ring};
use super::super::EcppStep;
use super::class_table::{ClassEntry, GenusFactor, Invariant};
use super::cm_twist;
use super::poly::{find_root, Poly, RootError};
use super::sqrt::Sqrt;
use crate::primality::jacobi::jacobi_binary;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{One, Zero};

/// Why no step was built.
#[derive(Debug)]
pub(super) enum CurveError {
    /// A proper factor of N turned up (gcd(c, N) in 2..N): N is composite.
    Composite(String),
    /// No root, j = 0 or 1728 for D != -3, -4, or no twist with a point of order q within
    /// the tries (for a prime N and a correct m, none of this happens).
    Failed,
}

/// Tries of x (and of the twist parameter for D = -3, -4) before giving up.
const MAX_TRIES: u64 = 400;

/// `Err(Composite)` if 1 < gcd(v, N) < N; `Ok(true)` if v is invertible.
fn unit(f: &Ring, v: &El, what: &str) -> Result<bool, CurveError> {
    gcd_is_one(f, f.to_big(v).gcd(f.modulus()), what)
}

/// `Err(Composite)` if 1 < g < N for g = gcd(what, N); `Ok(true)` if g = 1.
fn gcd_is_one(f: &Ring, g: BigUint, what: &str) -> Result<bool, CurveError> {
    if g.is_one() {
        Ok(true)
    } else if &g == f.modulus() {
        Ok(false)
    } else {
        Err(CurveError::Composite(format!("gcd({what}, N) = {g} is a proper factor")))
    }
}

/// j mod N for the class polynomial's root `r`.
fn j_of_root(f: &Ring, inv: Invariant, r: &El) -> Result<El, CurveError> {
    let weber = |e: u64| -> Result<El, CurveError> {
        // (r^e - 16)^3 / r^e with r^e = f^24.
        let re = f.pow(r, &BigUint::from(e));
        let num = f.sub(&re, &f.small(16));
        let num = f.mul(&f.sqr(&num), &num);
        let inv = f.inv(&re).map_err(|g| CurveError::Composite(format!("gcd(f^24, N) = {g}")))?;
        Ok(f.mul(&num, &inv))
    };
    match inv {
        Invariant::J => Ok(r.clone()),
        Invariant::Gamma2 => Ok(f.mul(&f.sqr(r), r)),
        Invariant::WeberF => weber(24),
        Invariant::WeberF3 => weber(8),
    }
}

/// The genus factor mod N: each coefficient sum_S a_(j,S) prod_(i in S) sqrt(q_i), with
/// the square roots of the q_i from those of their prime discriminants (cached from the
/// search for D, or computed here).
fn genus_poly(sq: &mut Sqrt, g: &GenusFactor) -> Result<Poly, CurveError> {
    let roots: Vec<El> = g.q_discs.iter().map(|pd| sq.sqrt_disc(pd)).collect::<Option<_>>().ok_or(CurveError::Failed)?;
    let f = sq.ring();
    // basis[S] = prod_(i in S) sqrt(q_i), bit i of S for q_(i+1).
    let mut basis = vec![f.one()];
    for r in &roots {
        let more: Vec<El> = basis.iter().map(|b| f.mul(b, r)).collect();
        basis.extend(more);
    }
    let reduce = |x: &BigInt| f.elem_signed(x);
    let mut p = Vec::with_capacity(g.degree as usize + 1);
    for row in g.coordinates().chunks_exact(basis.len()) {
        let mut c = f.zero();
        for ((num, den), b) in row.iter().zip(&basis) {
            if num.is_zero() {
                continue;
            }
            let mut t = f.mul(&reduce(num), b);
            if !den.is_one() {
                let di =
                    f.inv(&reduce(den)).map_err(|g| CurveError::Composite(format!("gcd of a genus factor's denominator and N is {g}")))?;
                t = f.mul(&t, &di);
            }
            c = f.add(&c, &t);
        }
        p.push(c);
    }
    p.push(f.one());
    debug_assert_eq!(p.len(), g.degree as usize + 1);
    Ok(p)
}

/// A root of the entry's class polynomial mod N (of its genus factor, when it has one),
/// and the j it gives.
fn j_invariant(sq: &mut Sqrt, e: &ClassEntry) -> Result<El, CurveError> {
    let p: Poly = match &e.genus {
        Some(g) => genus_poly(sq, g)?,
        None => {
            let f = sq.ring();
            let p: Poly = e.coefficients().iter().map(|c| f.elem_signed(c)).collect();
            debug_assert_eq!(p.len(), e.h as usize + 1);
            p
        }
    };
    let f = sq.ring();
    let mut k = 0i64;
    let root = find_root(f, &p, &|a| sq.sqrt(a), &mut || {
        k += 1;
        f.small(k)
    })
    .map_err(|e| match e {
        RootError::Factor(g) => CurveError::Composite(format!("gcd of a leading coefficient and N is {g}")),
        RootError::Failed => CurveError::Failed,
    })?;
    j_of_root(f, e.inv, &root)
}

/// The ECPP step for N (the ring of `sq`) on a curve with CM by `e.d` and order `m` = k q.
pub(super) fn build_step(sq: &mut Sqrt, e: &ClassEntry, m: &BigUint, q: &BigUint) -> Result<EcppStep, CurveError> {
    let j = match e.d {
        -3 | -4 => None,
        _ => Some(j_invariant(sq, e)?),
    };
    let f = sq.ring();
    let (base_a, base_b) = match j {
        None if e.d == -3 => (f.zero(), f.one()),
        None => (f.one(), f.zero()),
        Some(j) => {
            // A = 3 j (1728 - j), B = 2 j (1728 - j)^2: j(E) = j for j != 0, 1728.
            let k = f.mul(&j, &f.sub(&f.small(1728), &j));
            let a = f.mul_small(&k, 3);
            let b = f.mul_small(&f.mul(&k, &f.sub(&f.small(1728), &j)), 2);
            if f.is_zero(&a) || f.is_zero(&b) {
                return Err(CurveError::Failed);
            }
            (a, b)
        }
    };
    let cofactor = m / q;
    // D = -3, -4: the twist with the order's trace from a residue character
    // ([`super::cm_twist`]), twisted further only by squares c; tried first, on its own.
    if let Some(p) = cm_twist::parameter(f, e.d, &(BigInt::from(f.modulus() + 1u8) - BigInt::from(m.clone()))) {
        let (a0, b0) = if e.d == -4 { (p, f.zero()) } else { (f.zero(), p) };
        for i in 1..=MAX_TRIES {
            let x = f.small(i as i64);
            let c = f.add(&f.mul(&x, &f.add(&f.sqr(&x), &a0)), &b0);
            // A square c (Jacobi symbol 1, so also prime to N) keeps the class.
            if jacobi_binary(&BigInt::from(f.to_big(&c)), f.modulus()) != 1 {
                continue;
            }
            match attempt(f, &a0, &b0, &x, &c, &cofactor, q)? {
                Attempt::Step(s) => return Ok(finish(f, s, e.d, m, q)),
                Attempt::Retry => {}
                // N composite (or an m not of this curve): the search below decides.
                Attempt::WrongTwist => break,
            }
        }
    }
    // The twist class of a curve (by which its order is known once tried): the class of
    // c mod squares, of a mod fourth powers (j = 1728), of b mod sixth powers (j = 0),
    // read off as a power with exponent (N - 1) / k (for c, as its Jacobi symbol). A class
    // seen to be wrong is skipped.
    let classes: u64 = match e.d {
        -3 => 6,
        -4 => 4,
        _ => 2,
    };
    let class_exp = (f.modulus() - 1u8) / classes;
    let mut wrong: Vec<El> = Vec::new();
    for i in 1..=MAX_TRIES {
        if wrong.len() as u64 >= classes {
            break;
        }
        // For D = -3 / -4 the twist parameter runs too: B (or A) = i, x = 1, 2 alternately.
        let (a0, b0, x) = match e.d {
            -3 => (base_a.clone(), f.small(i as i64), f.small((i % 2 + 1) as i64)),
            -4 => (f.small(i as i64), base_b.clone(), f.small((i % 2 + 1) as i64)),
            _ => (base_a.clone(), base_b.clone(), f.small(i as i64)),
        };
        let c = f.add(&f.mul(&x, &f.add(&f.sqr(&x), &a0)), &b0);
        if !unit(f, &c, "x^3 + A x + B")? {
            continue;
        }
        let class = match e.d {
            -3 => f.pow(&f.mul(&b0, &f.mul(&f.sqr(&c), &c)), &class_exp),
            -4 => f.pow(&f.mul(&a0, &f.sqr(&c)), &class_exp),
            // c's class mod squares is its Legendre symbol: a Jacobi symbol by the binary
            // algorithm, far cheaper than c^((N-1)/2) (N is prime when the step holds).
            _ => f.small(i64::from(jacobi_binary(&BigInt::from(f.to_big(&c)), f.modulus()))),
        };
        if wrong.contains(&class) {
            continue;
        }
        match attempt(f, &a0, &b0, &x, &c, &cofactor, q)? {
            Attempt::Step(s) => return Ok(finish(f, s, e.d, m, q)),
            Attempt::WrongTwist => wrong.push(class),
            Attempt::Retry => {}
        }
    }
    Err(CurveError::Failed)
}

/// What one curve and point gave.
enum Attempt {
    /// The point test held: (a, b, x, y) of the step.
    Step([El; 4]),
    /// m P is not the point at infinity: the wrong twist (or a wrong m).
    WrongTwist,
    /// A degenerate choice (singular curve, (m/q) P or Y not invertible): another x.
    Retry,
}

/// The point (c x, c^2) on y^2 = x^3 + a0 c^2 x + b0 c^3, for an invertible
/// c = x^3 + a0 x + b0, put through the checker's own point test.
fn attempt(f: &Ring, a0: &El, b0: &El, x: &El, c: &El, cofactor: &BigUint, q: &BigUint) -> Result<Attempt, CurveError> {
    let cc = f.sqr(c);
    let a = f.mul(a0, &cc);
    let b = f.mul(b0, &f.mul(&cc, c));
    let disc = f.add(&f.mul_small(&f.mul(&a, &f.sqr(&a)), 4), &f.mul_small(&f.sqr(&b), 27));
    if !unit(f, &disc, "4a^3 + 27b^2")? {
        return Ok(Attempt::Retry);
    }
    let (px, py) = (f.mul(c, x), cc);
    // A gcd that is not 1 or N proves N composite; otherwise try the next point.
    Ok(match point_test(&Curve { ring: f, a: a.clone() }, &px, &py, cofactor, q) {
        PointTest::Holds => Attempt::Step([a, b, px, py]),
        PointTest::QNotFinite(g) => {
            gcd_is_one(f, g, "Z of (m/q) P")?;
            Attempt::Retry
        }
        PointTest::NotInfinity(g) => {
            gcd_is_one(f, g, "Z of m P")?;
            Attempt::WrongTwist
        }
        PointTest::YNotUnit(g) => {
            gcd_is_one(f, g, "Y of m P")?;
            Attempt::Retry
        }
    })
}

/// The step from an attempt's (a, b, x, y).
fn finish(f: &Ring, [a, b, x, y]: [El; 4], d: i64, m: &BigUint, q: &BigUint) -> EcppStep {
    EcppStep {
        n: f.modulus().clone(),
        a: f.to_big(&a),
        b: f.to_big(&b),
        m: m.clone(),
        q: q.clone(),
        x: f.to_big(&x),
        y: f.to_big(&y),
        d: Some(d),
    }
}

#[cfg(test)]
mod tests {
    use super::super::class_table::table;
    use super::super::cornacchia::{cornacchia, order, traces};
    use super::*;

    /// Every genus factor of the table, mapped mod a prime p = (t^2 + |D| s^2) / 4 (which
    /// splits every class polynomial of D), has a root there that is a root of D's whole
    /// class polynomial: the factors and their coordinates are right, for every D.
    #[test]
    fn genus_factor_roots_are_class_polynomial_roots() {
        use crate::primality::is_prime;
        let mut checked = 0;
        for e in table().iter().filter(|e| e.genus.is_some()) {
            let g = e.genus.as_ref().unwrap();
            assert_eq!(g.degree << g.q_discs.len(), e.h, "D = {}", e.d);
            // A prime 4p = t^2 + |D| s^2 of about 100 bits.
            let p = (1u64..)
                .find_map(|i| {
                    let t = (BigUint::from(1u8) << 50u32) + i;
                    let v = &t * &t + BigUint::from(e.d.unsigned_abs()) * BigUint::from(i % 7 + 1).pow(2);
                    (v.is_multiple_of(&BigUint::from(4u8)) && is_prime(&(&v >> 2u8))).then(|| v >> 2u8)
                })
                .unwrap();
            let mut sq = Sqrt::new(Ring::new(&p).unwrap()).unwrap();
            let poly = genus_poly(&mut sq, g).unwrap();
            let f = sq.ring();
            let mut k = 0;
            let root = find_root(f, &poly, &|a| sq.sqrt(a), &mut || {
                k += 1;
                f.small(k)
            })
            .unwrap_or_else(|err| panic!("D = {}: no root of the genus factor ({err:?})", e.d));
            let whole: Poly = e.coefficients().iter().map(|c| f.elem_signed(c)).collect();
            assert!(f.is_zero(&super::super::poly::eval(f, &whole, &root)), "D = {}: not a root of the class polynomial", e.d);
            checked += 1;
        }
        assert!(checked > 1500, "{checked}");
    }

    /// For the prime p = (t^2 + |D| s^2) / 4 and several D of each invariant, the curve
    /// built from a root of the class polynomial has order p + 1 ± t: a point P on it has
    /// m P = O for one of the two orders (checked with the same step builder).
    #[test]
    fn roots_give_curves_of_the_right_order() {
        let mut seen = std::collections::HashSet::new();
        let p = (BigUint::from(1u8) << 127) - 1u8;
        let mut sq = Sqrt::new(Ring::new(&p).unwrap()).unwrap();
        let mut checked = 0;
        for e in table().iter().filter(|e| e.h <= 12) {
            if seen.contains(&(e.inv as u8, e.h.min(4))) && e.d != -3 && e.d != -4 {
                continue;
            }
            let Some(r) = sq.sqrt_disc(&e.prime_discs) else { continue };
            let Some((t, s)) = cornacchia(&p, e.d, &sq.ring().to_big(&r)) else { continue };
            seen.insert((e.inv as u8, e.h.min(4)));
            // Some order of the list must give a step (the true one).
            let mut ok = false;
            for tr in traces(e.d, &t, &s) {
                let m = order(&p, &tr);
                // Use q = m with k = 1 (no primality needed here: only the orders).
                if let Ok(step) = build_step(&mut sq, e, &m, &m) {
                    assert_eq!(step.d, Some(e.d));
                    ok = true;
                    break;
                }
            }
            assert!(ok, "D = {} (h = {}, {:?}): no curve of any of the orders", e.d, e.h, e.inv);
            checked += 1;
        }
        assert!(checked >= 8, "{checked}");
        assert!(seen.iter().any(|&(i, _)| i == Invariant::WeberF as u8));
        assert!(seen.iter().any(|&(i, _)| i == Invariant::Gamma2 as u8));
        assert!(seen.iter().any(|&(i, _)| i == Invariant::J as u8));
    }
}
