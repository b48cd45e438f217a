//! Points of y^2 = x^3 + a x + b over Z/NZ in Jacobian coordinates, on the Montgomery
//! engine ([`super::field::Ring`]). Shared by the checker ([`super::ecpp_check`]) and
//! the prover, so both compute exactly the same thing.
//!
//! Over Z/NZ with N composite the formulas are still ring operations. Modulo a prime
//! p | N each formula either returns the true result or, in the exceptional cases of
//! the addition law (equal inputs, an input at infinity), the triple (0 : 0 : 0), which
//! every later operation keeps at (0 : 0 : 0): the doubling of (0 : 0 : 0) is
//! (0 : 0 : 0), and a sum with it has H = R = 0 hence X = Y = Z = 0 (the module
//! documentation of [`super::ecpp_check`] draws the conclusions).

use super::field::{El, Ring};
use num_bigint::BigUint;

/// (X : Y : Z) stands for the affine point (X / Z^2, Y / Z^3); Z = 0 is at infinity.
#[derive(Clone)]
pub(super) struct Jacobian {
    pub(super) x: El,
    pub(super) y: El,
    pub(super) z: El,
}

/// The curve's `a` coefficient (b enters no formula) over its ring.
pub(super) struct Curve<'r> {
    pub(super) ring: &'r Ring,
    pub(super) a: El,
}

impl Curve<'_> {
    /// The affine point (x, y) (elements of the ring).
    pub(super) fn affine(&self, x: &El, y: &El) -> Jacobian {
        Jacobian { x: x.clone(), y: y.clone(), z: self.ring.one() }
    }

    /// 2 R (R at infinity or of order 2 gives Z = 0):
    /// M = 3X^2 + aZ^4, S = 4XY^2, X' = M^2 - 2S, Y' = M(S - X') - 8Y^4, Z' = 2YZ.
    pub(super) fn double(&self, r: &Jacobian) -> Jacobian {
        let f = self.ring;
        let yy = f.sqr(&r.y);
        let s = f.mul_small(&f.mul(&r.x, &yy), 4);
        let zz = f.sqr(&r.z);
        let m = f.add(&f.mul_small(&f.sqr(&r.x), 3), &f.mul(&self.a, &f.sqr(&zz)));
        let x3 = f.sub(&f.sqr(&m), &f.add(&s, &s));
        let y3 = f.sub(&f.mul(&m, &f.sub(&s, &x3)), &f.mul_small(&f.sqr(&yy), 8));
        let yz = f.mul(&r.y, &r.z);
        let z3 = f.add(&yz, &yz);
        Jacobian { x: x3, y: y3, z: z3 }
    }

    /// R + S by the generic addition law: the true sum when R != ±S and neither is at
    /// infinity; R = -S gives Z = 0 (the point at infinity, Y nonzero mod p); R = S or
    /// an input at infinity gives (0 : 0 : 0).
    pub(super) fn add(&self, r: &Jacobian, s: &Jacobian) -> Jacobian {
        let f = self.ring;
        let z1z1 = f.sqr(&r.z);
        let z2z2 = f.sqr(&s.z);
        let u1 = f.mul(&r.x, &z2z2);
        let u2 = f.mul(&s.x, &z1z1);
        let s1 = f.mul(&f.mul(&r.y, &s.z), &z2z2);
        let s2 = f.mul(&f.mul(&s.y, &r.z), &z1z1);
        let h = f.sub(&u2, &u1);
        let rr = f.sub(&s2, &s1);
        let hh = f.sqr(&h);
        let hhh = f.mul(&hh, &h);
        let v = f.mul(&u1, &hh);
        let x3 = f.sub(&f.sub(&f.sqr(&rr), &hhh), &f.add(&v, &v));
        let y3 = f.sub(&f.mul(&rr, &f.sub(&v, &x3)), &f.mul(&s1, &hhh));
        let z3 = f.mul(&f.mul(&r.z, &s.z), &h);
        Jacobian { x: x3, y: y3, z: z3 }
    }

    /// k P for k >= 1, left to right: every addition adds P to an even multiple 2jP
    /// with 2 <= 2j < k.
    pub(super) fn multiply(&self, p: &Jacobian, k: &BigUint) -> Jacobian {
        let mut r = p.clone();
        for i in (0..k.bits().saturating_sub(1)).rev() {
            r = self.double(&r);
            if k.bit(i) {
                r = self.add(&r, p);
            }
        }
        r
    }
}
