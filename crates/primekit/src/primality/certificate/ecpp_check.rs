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
//! Jacobian coordinates over Z/NZ. Why the ring is no obstacle: modulo a prime p | N,
//! every formula used here either returns the true sum, or (in the exceptional cases of
//! the addition law: equal inputs, an input at infinity) returns (0 : 0 : 0), which
//! every later operation keeps at (0 : 0 : 0). So requiring gcd(Z_Q, N) = 1 shows Q is
//! finite modulo every p and was computed truly, and requiring Z ≡ 0 with
//! gcd(Y, N) = 1 for q Q shows q Q is the true point at infinity modulo every p.

use super::EcppStep;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, Zero};

/// A point in Jacobian coordinates: (X : Y : Z) stands for (X / Z^2, Y / Z^3).
#[derive(Clone)]
struct Jacobian {
    x: BigUint,
    y: BigUint,
    z: BigUint,
}

/// Arithmetic on y^2 = x^3 + a x + b modulo n.
struct Curve<'a> {
    n: &'a BigUint,
    a: &'a BigUint,
}

impl Curve<'_> {
    fn mul(&self, u: &BigUint, v: &BigUint) -> BigUint {
        (u * v) % self.n
    }
    fn add(&self, u: &BigUint, v: &BigUint) -> BigUint {
        (u + v) % self.n
    }
    fn sub(&self, u: &BigUint, v: &BigUint) -> BigUint {
        (u + self.n - v) % self.n
    }

    /// 2 R (Jacobian doubling; R at infinity or of order 2 gives Z = 0).
    fn double(&self, r: &Jacobian) -> Jacobian {
        let yy = self.mul(&r.y, &r.y);
        let s = self.mul(&self.mul(&r.x, &yy), &BigUint::from(4u8));
        let zz = self.mul(&r.z, &r.z);
        let m = self.add(&self.mul(&self.mul(&r.x, &r.x), &BigUint::from(3u8)), &self.mul(self.a, &self.mul(&zz, &zz)));
        let x3 = self.sub(&self.mul(&m, &m), &self.add(&s, &s));
        let y3 = self.sub(&self.mul(&m, &self.sub(&s, &x3)), &self.mul(&self.mul(&yy, &yy), &BigUint::from(8u8)));
        let z3 = self.mul(&self.mul(&r.y, &r.z), &BigUint::from(2u8));
        Jacobian { x: x3, y: y3, z: z3 }
    }

    /// R + S by the generic addition law: the true sum when R != ±S and neither is at
    /// infinity; R = -S gives the point at infinity; R = S or an input at infinity gives
    /// (0 : 0 : 0).
    fn add_points(&self, r: &Jacobian, s: &Jacobian) -> Jacobian {
        let z1z1 = self.mul(&r.z, &r.z);
        let z2z2 = self.mul(&s.z, &s.z);
        let u1 = self.mul(&r.x, &z2z2);
        let u2 = self.mul(&s.x, &z1z1);
        let s1 = self.mul(&self.mul(&r.y, &s.z), &z2z2);
        let s2 = self.mul(&self.mul(&s.y, &r.z), &z1z1);
        let h = self.sub(&u2, &u1);
        let rr = self.sub(&s2, &s1);
        let hh = self.mul(&h, &h);
        let hhh = self.mul(&hh, &h);
        let v = self.mul(&u1, &hh);
        let x3 = self.sub(&self.sub(&self.mul(&rr, &rr), &hhh), &self.add(&v, &v));
        let y3 = self.sub(&self.mul(&rr, &self.sub(&v, &x3)), &self.mul(&s1, &hhh));
        let z3 = self.mul(&self.mul(&r.z, &s.z), &h);
        Jacobian { x: x3, y: y3, z: z3 }
    }

    /// k P for k >= 1, left to right: every addition adds P to an even multiple 2jP
    /// with 2 <= 2j < k.
    fn multiply(&self, p: &Jacobian, k: &BigUint) -> Jacobian {
        let mut r = p.clone();
        for i in (0..k.bits().saturating_sub(1)).rev() {
            r = self.double(&r);
            if k.bit(i) {
                r = self.add_points(&r, p);
            }
        }
        r
    }
}

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
    let c = Curve { n, a: &s.a };
    let disc = c.add(&c.mul(&BigUint::from(4u8), &c.mul(&s.a, &c.mul(&s.a, &s.a))), &c.mul(&BigUint::from(27u8), &c.mul(&s.b, &s.b)));
    if !disc.gcd(n).is_one() {
        return Err("the curve is singular mod N (4a^3 + 27b^2 not invertible)".into());
    }
    let rhs = c.add(&c.add(&c.mul(&s.x, &c.mul(&s.x, &s.x)), &c.mul(&s.a, &s.x)), &s.b);
    if c.mul(&s.y, &s.y) != rhs {
        return Err("P is not on the curve".into());
    }
    let p = Jacobian { x: s.x.clone(), y: s.y.clone(), z: BigUint::one() };
    let q_point = c.multiply(&p, &(&s.m / &s.q));
    if !q_point.z.gcd(n).is_one() {
        return Err("(m/q) P is the point at infinity (or not invertible mod N)".into());
    }
    let o = c.multiply(&q_point, &s.q);
    if !o.z.is_zero() || !o.y.gcd(n).is_one() {
        return Err("m P is not the point at infinity".into());
    }
    Ok(())
}
