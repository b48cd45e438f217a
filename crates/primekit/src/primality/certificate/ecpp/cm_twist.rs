//! The twist of a curve with j = 1728 (D = -4) or j = 0 (D = -3) that has a given
//! trace, read off a quartic or sextic residue character instead of found by trying.
//!
//! D = -4 (Ireland & Rosen 1990, §18.4, Theorem 5). For a prime N = 1 mod 4, write
//! N = π π̄ in Z[i] with π = a + b i primary (a odd, b even, a + b = 1 mod 4 when
//! b = 0 mod 4, a = 3 mod 4 when b = 2 mod 4). Then
//!
//!   #{y^2 = x^3 - D' x} = N + 1 - (χ̄ π + χ π̄),  χ = (D' / π)_4,
//!
//! the quartic residue symbol, D'^((N-1)/4) mod π: a unit 1, i, -1, -i, which the
//! reduction mod π (i -> ι = -a / b mod N) maps to 1, ι, -1, -ι in F_N. So the trace of
//! y^2 = x^3 + A x is 2 Re(χ̄ π) with χ the unit of (-A)^((N-1)/4): 2a, 2b, -2a, -2b for
//! χ = 1, i, -1, -i.
//!
//! D = -3 (ibid., §18.3, Theorem 4). For a prime N = 1 mod 3, N = π π̄ in Z[ω] with
//! π = a + b ω primary (a = 2 mod 3, b = 0 mod 3):
//!
//!   #{y^2 = x^3 + B} = N + 1 + (χ̄ π + χ π̄),  χ = (4B / π)_6,
//!
//! the sextic symbol, (4B)^((N-1)/6) mod π, one of ±ω^j, with ω -> -a / b mod N. So the
//! trace of y^2 = x^3 + B is -2 Re(χ̄ π), and 2 Re(x + y ω) = 2x - y.
//!
//! Both were checked against point counts for every prime below 3000 and every small
//! A, B before use here. The curve chosen is still tested like any other
//! ([`super::cm_curve`]): a wrong twist here (N composite) costs time, never a wrong step.

use super::super::field::{El, Ring};
use crate::primality::jacobi::jacobi_small;
use num_bigint::{BigInt, BigUint};
use num_integer::Integer;
use num_traits::{Signed, Zero};

/// Non-residues tried for a generator of the characters' values.
const MAX_BASE: i64 = 10_000;

/// A for D = -4 (the curve y^2 = x^3 + A x), B for D = -3 (y^2 = x^3 + B), such that the
/// curve's trace over F_N is `trace`; `None` when N or the trace does not fit the
/// theorems (N composite, or no such trace). Twisting the curve by a square c, as the
/// step builder does, keeps the class and so the trace.
pub(super) fn parameter(f: &Ring, d: i64, trace: &BigInt) -> Option<El> {
    match d {
        -4 => quartic(f, trace),
        -3 => sextic(f, trace),
        _ => None,
    }
}

fn mod_small(x: &BigInt, m: i64) -> i64 {
    i64::try_from(x.mod_floor(&BigInt::from(m))).expect("below m")
}

/// -a / b mod N: the image of i (D = -4) or ω (D = -3) under the reduction mod π.
fn unit_image(f: &Ring, a: &BigInt, b: &BigInt) -> Option<El> {
    let bi = f.inv(&f.elem_signed(b)).ok()?;
    Some(f.neg(&f.mul(&f.elem_signed(a), &bi)))
}

/// The exact integer square root of x >= 0.
fn exact_sqrt(x: &BigInt) -> Option<BigInt> {
    if x.is_negative() {
        return None;
    }
    let r = x.sqrt();
    (&r * &r == *x).then_some(r)
}

/// The smallest g >= 2 whose character value κ = g^((N-1)/k) has order k, and κ:
/// g must be a non-residue (κ^(k/2) = -1), and for k = 6 not a cube (κ != -1).
fn generator(f: &Ring, k: u32) -> Option<(El, El)> {
    let n = f.modulus();
    let e = (n - 1u8) / k;
    let minus_one = f.neg(&f.one());
    let limbs = n.to_u64_digits();
    for g in 2..MAX_BASE {
        if jacobi_small(g, &limbs) != -1 {
            continue;
        }
        let ge = f.small(g);
        let kappa = f.pow(&ge, &e);
        let half = f.pow(&kappa, &BigUint::from(k / 2));
        if half != minus_one {
            return None; // N is not prime: Euler's criterion fails.
        }
        if k == 6 && kappa == minus_one {
            continue;
        }
        return Some((ge, kappa));
    }
    None
}

/// The power g^e whose character value κ^e is `target`, e < k.
fn power_with_value(f: &Ring, g: &El, kappa: &El, k: u32, target: &El) -> Option<El> {
    let (mut ge, mut ke) = (f.one(), f.one());
    for _ in 0..k {
        if &ke == target {
            return Some(ge);
        }
        ge = f.mul(&ge, g);
        ke = f.mul(&ke, kappa);
    }
    None
}

fn quartic(f: &Ring, trace: &BigInt) -> Option<El> {
    let n = BigInt::from(f.modulus().clone());
    if mod_small(&n, 4) != 1 || trace.is_odd() {
        return None;
    }
    // trace = 2x and N = x^2 + y^2: π has the odd one of x, y as a, the even one as b.
    let x: BigInt = trace / 2;
    let y = exact_sqrt(&(&n - &x * &x))?;
    let (mut a, b) = if x.is_odd() { (x.clone(), y) } else { (y, x.clone()) };
    if a.is_even() || b.is_zero() {
        return None;
    }
    let want_a = if mod_small(&b, 4) == 0 { 1 } else { 3 };
    if mod_small(&a, 4) != want_a {
        a = -a;
    }
    let iota = unit_image(f, &a, &b)?;
    // trace = 2 Re(χ̄ π): χ = 1, -1, i, -i give 2a, -2a, 2b, -2b.
    let (two_a, two_b): (BigInt, BigInt) = (&a * 2, &b * 2);
    let chi = if *trace == two_a {
        f.one()
    } else if *trace == -two_a {
        f.neg(&f.one())
    } else if *trace == two_b {
        iota
    } else if *trace == -two_b {
        f.neg(&iota)
    } else {
        return None;
    };
    // (-A)^((N-1)/4) = χ: -A = g^e with κ^e = χ.
    let (g, kappa) = generator(f, 4)?;
    Some(f.neg(&power_with_value(f, &g, &kappa, 4, &chi)?))
}

fn sextic(f: &Ring, trace: &BigInt) -> Option<El> {
    let n = BigInt::from(f.modulus().clone());
    if mod_small(&n, 3) != 1 {
        return None;
    }
    // An associate of π or π̄: x + y ω with 2x - y = trace, and 4N = trace^2 + 3 y^2.
    let rest = (&n << 2) - trace * trace;
    if mod_small(&rest, 3) != 0 {
        return None;
    }
    let y = exact_sqrt(&(rest / 3))?;
    if (trace + &y).is_odd() {
        return None;
    }
    let (mut a, mut b) = ((trace + &y) / 2, y);
    // Its primary associate: multiplying by the unit 1 + ω (a primitive sixth root of
    // unity) maps x + y ω to (x - y) + x ω.
    let mut found = false;
    for _ in 0..6 {
        if mod_small(&a, 3) == 2 && mod_small(&b, 3) == 0 {
            found = true;
            break;
        }
        (a, b) = (&a - &b, a);
    }
    if !found || b.is_zero() {
        return None;
    }
    let omega = unit_image(f, &a, &b)?;
    // χ = ±ω^j gives trace -2 Re(χ̄ π) = ∓(2x_j - y_j) with x_j + y_j ω = ω^(-j) π;
    // multiplying by ω^(-1) = ω^2 maps x + y ω to (y - x) - x ω.
    let (mut xj, mut yj) = (a, b);
    let mut wj = f.one();
    for _ in 0..3 {
        let re2 = &xj * 2 - &yj;
        if *trace == -&re2 {
            return sextic_parameter(f, &wj);
        }
        if *trace == re2 {
            return sextic_parameter(f, &f.neg(&wj));
        }
        (xj, yj) = (&yj - &xj, -xj);
        wj = f.mul(&wj, &omega);
    }
    None
}

/// B with (4B)^((N-1)/6) = χ: 4B = g^e with κ^e = χ.
fn sextic_parameter(f: &Ring, chi: &El) -> Option<El> {
    let (g, kappa) = generator(f, 6)?;
    let four_b = power_with_value(f, &g, &kappa, 6, chi)?;
    let quarter = f.inv(&f.small(4)).ok()?;
    Some(f.mul(&four_b, &quarter))
}

#[cfg(test)]
mod tests {
    use super::super::super::curve::Curve;
    use super::super::super::ecpp_check::{point_test, PointTest};
    use super::super::cornacchia::{cornacchia, order, traces};
    use super::super::sqrt::Sqrt;
    use super::*;
    use crate::primality::jacobi::jacobi_binary;
    use num_traits::One;

    /// For primes N = 1 mod 12 of 100 to 300 bits and every trace of D = -3 and -4, the
    /// curve from `parameter` has that trace: a point P on it (twisted by a square, as
    /// the step builder does) has (N + 1 - trace) P = O, and the other traces' orders do
    /// not kill it.
    #[test]
    fn parameters_give_the_asked_trace() {
        let mut checked = 0;
        for bits in [100u64, 190, 300] {
            let mut n = (BigUint::one() << bits) / 12u8 * 12u8 + 1u8;
            for _ in 0..2 {
                n += 12u8;
                while !crate::primality::is_prime(&n) {
                    n += 12u8;
                }
                let mut sq = Sqrt::new(Ring::new(&n).unwrap()).unwrap();
                for d in [-3i64, -4] {
                    let r = sq.sqrt_disc(&[d]).unwrap();
                    let (t, s) = cornacchia(&n, d, &sq.ring().to_big(&r)).unwrap();
                    let f = sq.ring();
                    let all = traces(d, &t, &s);
                    for tr in &all {
                        let p = parameter(f, d, tr).unwrap_or_else(|| panic!("D = {d}, trace {tr}"));
                        let (a0, b0) = if d == -4 { (p, f.zero()) } else { (f.zero(), p) };
                        // c = x^3 + a0 x + b0 a square: (c x, c^2) on (a0 c^2, b0 c^3). From
                        // x = 3: small x can give a torsion point of the curve over Q
                        // (y^2 = x^3 + 1 has (2, 3) of order 6), which the point test
                        // refuses on any twist.
                        let (x, c) = (3i64..)
                            .map(|x| (x, f.add(&f.mul(&f.small(x), &f.add(&f.sqr(&f.small(x)), &a0)), &b0)))
                            .find(|(_, c)| jacobi_binary(&BigInt::from(f.to_big(c)), &n) == 1)
                            .unwrap();
                        let cc = f.sqr(&c);
                        let curve = Curve { ring: f, a: f.mul(&a0, &cc) };
                        let (px, py) = (f.mul(&c, &f.small(x)), cc);
                        for other in &all {
                            let held = matches!(point_test(&curve, &px, &py, &BigUint::one(), &order(&n, other)), PointTest::Holds);
                            assert_eq!(held, other == tr, "N = {n}, D = {d}, trace {tr}, order of {other}");
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert_eq!(checked, 3 * 2 * 10);
        // Off the theorems: an odd trace for D = -4, a trace of no solution.
        let n = (1_000_000u32..).map(|k| BigUint::from(12 * k + 1)).find(crate::primality::is_prime).unwrap();
        let f = Ring::new(&n).unwrap();
        assert!(parameter(&f, -4, &BigInt::from(3)).is_none());
        assert!(parameter(&f, -3, &BigInt::from(2)).is_none());
        assert!(parameter(&f, -7, &BigInt::from(2)).is_none());
    }
}
