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
use super::field::Ring;
use super::EcppStep;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

/// Checks the step's conditions other than the primality of q (which the chain
/// provides); the error is the reason, for "invalid: step k: reason".
pub(super) fn check(s: &EcppStep) -> Result<(), String> {
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
    let c = Curve { ring: &f, a };
    let q_point = c.multiply(&c.affine(&x, &y), &(&s.m / &s.q));
    if !f.to_big(&q_point.z).gcd(n).is_one() {
        return Err("(m/q) P is the point at infinity (or not invertible mod N)".into());
    }
    let o = c.multiply(&q_point, &s.q);
    if !f.is_zero(&o.z) || !f.to_big(&o.y).gcd(n).is_one() {
        return Err("m P is not the point at infinity".into());
    }
    Ok(())
}
