//! Checking one elliptic-curve step (Goldwasser & Kilian 1986; Atkin & Morain 1993,
//! Theorem 5.2). Everything is public: variable-time arithmetic throughout.
//!
//! The theorem. Let N > 1 with gcd(N, 6) = 1, E: y^2 = x^3 + a x + b with
//! gcd(4a^3 + 27b^2, N) = 1, m an integer and q a prime dividing m with
//! q > (N^(1/4) + 1)^2. If some point Q of E(Z/NZ) is, modulo every prime p | N, a finite
//! point with q Q = O, then Q has order q in E(F_p), so q <= #E(F_p) <= (sqrt(p) + 1)^2
//! (Hasse) for every p | N; a p <= sqrt(N) would give q <= (N^(1/4) + 1)^2: N is prime.
//!
//! The certificate gives P = (x, y) and m; the checker forms Q = (m / q) P and q Q in
//! Jacobian coordinates over Z/NZ ([`super::curve`], on the Montgomery engine). Why the ring is no obstacle: modulo a prime p | N,
//! every formula used here either returns the true sum, or (in the exceptional cases of
//! the addition law: equal inputs, an input at infinity) returns (0 : 0 : 0), which
//! every later operation keeps at (0 : 0 : 0). So requiring gcd(Z_Q, N) = 1 shows Q is
//! finite modulo every p and was computed truly, and requiring Z ≡ 0 with
//! gcd(Y, N) = 1 for q Q shows q Q is the true point at infinity modulo every p.

use super::curve::Curve;
use super::field::{El, Ring};
use super::EcppStep;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

/// Checks the step's conditions other than the primality of q (which the chain
/// provides); the error is the reason, for "invalid: step k: reason". With
/// `check_points` false the scalar multiplications are left out: only for a step whose
/// [`point_test`] held when it was built.
pub(super) fn check(s: &EcppStep, check_points: bool) -> Result<(), String> {
    let n = &s.n;
    if !n.gcd(&BigUint::from(6u8)).is_one() {
        return Err("gcd(N, 6) != 1".into());
    }
    for (name, v) in [("a", &s.a), ("b", &s.b), ("x", &s.x), ("y", &s.y)] {
        if v >= n {
            return Err(format!("{name} is not reduced mod N"));
        }
    }
    // q > (N^(1/4) + 1)^2, checked with integers: with r = floor(sqrt(q)),
    // (r - 1)^4 > N gives sqrt(q) - 1 >= r - 1 > N^(1/4).
    let r = s.q.sqrt();
    if r <= BigUint::one() || (&r - 1u8).pow(4) <= *n {
        return Err("q is not above (N^(1/4) + 1)^2".into());
    }
    if s.m.is_zero() || !(&s.m % &s.q).is_zero() {
        return Err("q does not divide m".into());
    }
    // Hasse: #E(F_p) <= p + 1 + 2 sqrt(p); an m beyond that for p = N says nothing
    // wrong, but bounds the work: m <= N + 1 + 2 sqrt(N) + 1.
    if s.m > n + 2u8 + (n.sqrt() << 1) {
        return Err("m exceeds the Hasse bound for N".into());
    }
    // Below, all arithmetic is in Z/NZ on the Montgomery engine (N odd: gcd(N, 6) = 1).
    let Some(f) = Ring::new(n) else { return Err("N is not a valid modulus".into()) };
    let (a, b, x, y) = (f.elem(&s.a), f.elem(&s.b), f.elem(&s.x), f.elem(&s.y));
    let disc = f.add(&f.mul_small(&f.mul(&a, &f.sqr(&a)), 4), &f.mul_small(&f.sqr(&b), 27));
    if !f.to_big(&disc).gcd(n).is_one() {
        return Err("the curve is singular mod N (4a^3 + 27b^2 not invertible)".into());
    }
    let rhs = f.add(&f.mul(&x, &f.add(&f.sqr(&x), &a)), &b);
    if f.sqr(&y) != rhs {
        return Err("P is not on the curve".into());
    }
    if !check_points {
        return Ok(());
    }
    match point_test(&Curve { ring: &f, a }, &x, &y, &(&s.m / &s.q), &s.q) {
        PointTest::Holds => Ok(()),
        PointTest::QNotFinite(_) => Err("(m/q) P is the point at infinity (or not invertible mod N)".into()),
        PointTest::NotInfinity(_) | PointTest::YNotUnit(_) => Err("m P is not the point at infinity".into()),
    }
}

/// The outcome of the theorem's point conditions for P = (x, y), Q = (m/q) P and q Q;
/// each failure carries the gcd with N that showed it (a proper factor proves N
/// composite).
pub(super) enum PointTest {
    /// gcd(Z_Q, N) = 1, Z of q Q is 0 and gcd(Y of q Q, N) = 1.
    Holds,
    /// gcd(Z_Q, N) != 1.
    QNotFinite(BigUint),
    /// Z of q Q is not 0 (the gcd of it and N).
    NotInfinity(BigUint),
    /// Z of q Q is 0 but gcd(Y, N) != 1.
    YNotUnit(BigUint),
}

/// The scalar multiplications of the check and their conditions: the prover accepts a
/// curve and point only when this holds, so the step it returns has passed the same
/// test the checker runs ([`check`] with `check_points`).
pub(super) fn point_test(c: &Curve, x: &El, y: &El, cofactor: &BigUint, q: &BigUint) -> PointTest {
    let (f, n) = (c.ring, c.ring.modulus());
    let q_point = c.multiply(&c.affine(x, y), cofactor);
    let g = f.to_big(&q_point.z).gcd(n);
    if !g.is_one() {
        return PointTest::QNotFinite(g);
    }
    let o = c.multiply(&q_point, q);
    if !f.is_zero(&o.z) {
        return PointTest::NotInfinity(f.to_big(&o.z).gcd(n));
    }
    let g = f.to_big(&o.y).gcd(n);
    if !g.is_one() {
        return PointTest::YNotUnit(g);
    }
    PointTest::Holds
}
