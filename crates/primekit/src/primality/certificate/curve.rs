//! Points of y^2 = x^3 + a x + b over Z/NZ in Jacobian coordinates, on the Montgomery
//! engine ([`super::field::Ring`]). Shared by the checker ([`super::ecpp_check`]) and
//! the prover, so both compute exactly the same thing.
//!
//! Over Z/NZ with N composite the formulas are still ring operations. Modulo a prime
//! p | N each formula either returns the true result or, in the exceptional cases of
//! the addition law (equal inputs, an input at infinity), the triple (0 : 0 : 0), which
//! every later operation keeps at (0 : 0 : 0): the doubling of (0 : 0 : 0) is
//! (0 : 0 : 0), and a sum with it has H = R = 0 hence X = Y = Z = 0 (the module
//! documentation of [`super::ecpp_check`] draws the conclusions). The mixed addition
//! is the general one with Z2 = 1 substituted, so the same holds for it; the odd
//! multiples of the sliding window are brought to Z = 1 by an inversion mod N, which
//! changes no point modulo any p, and when that inversion fails the product is
//! returned as (0 : 0 : 0).

use super::field::{Ch, El, Ring};
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

/// A point with chain-element coordinates (`Ring::enter`): the form of the formulas.
#[derive(Clone)]
struct ChPoint {
    x: Ch,
    y: Ch,
    z: Ch,
}

/// Temporaries of the formulas (no allocation inside a scalar multiplication).
struct Work([Ch; 6]);

/// The curve's formulas on chain elements, for the span of one scalar multiplication.
struct Formulas<'r> {
    ring: &'r Ring,
    /// a as a chain element, and whether it is zero (then a Z^4 stays 0).
    a: Ch,
    a_is_zero: bool,
}

impl Curve<'_> {
    /// The affine point (x, y) (elements of the ring).
    pub(super) fn affine(&self, x: &El, y: &El) -> Jacobian {
        Jacobian { x: x.clone(), y: y.clone(), z: self.ring.one() }
    }

    fn formulas(&self) -> Formulas<'_> {
        Formulas { ring: self.ring, a: self.ring.enter(&self.a), a_is_zero: self.ring.is_zero(&self.a) }
    }

    /// R + S (for tests).
    #[cfg(test)]
    pub(super) fn add(&self, r: &Jacobian, s: &Jacobian) -> Jacobian {
        let c = self.formulas();
        let mut out = c.enter(r);
        c.add_in(&mut out, &c.enter(s), false, &mut c.work());
        c.leave(&out)
    }

    /// 2 R (for tests).
    #[cfg(test)]
    pub(super) fn double(&self, r: &Jacobian) -> Jacobian {
        let c = self.formulas();
        let (mut out, mut wz, mut w) = (c.enter(r), self.ring.chain_zero(), c.work());
        c.set_wz(&out, &mut wz, &mut w);
        c.double_in(&mut out, &mut wz, &mut w);
        c.leave(&out)
    }

    /// The points with Z = 1 equal to `ps` (one inversion mod N for all, Montgomery's
    /// trick), or `None` if some Z is not invertible mod N.
    fn normalize_all(&self, ps: &[Jacobian]) -> Option<Vec<Jacobian>> {
        let f = self.ring;
        // prefix[i] = Z_0 ... Z_i.
        let mut prefix: Vec<El> = Vec::with_capacity(ps.len());
        for p in ps {
            prefix.push(match prefix.last() {
                None => p.z.clone(),
                Some(last) => f.mul(last, &p.z),
            });
        }
        let mut inv = f.inv(prefix.last()?).ok()?;
        let mut out = vec![ps[0].clone(); ps.len()];
        for i in (0..ps.len()).rev() {
            // inv = (Z_0 ... Z_i)^-1, so Z_i^-1 = inv * prefix[i - 1].
            let zi = if i == 0 { inv.clone() } else { f.mul(&inv, &prefix[i - 1]) };
            if i > 0 {
                inv = f.mul(&inv, &ps[i].z);
            }
            let zi2 = f.sqr(&zi);
            out[i] = Jacobian { x: f.mul(&ps[i].x, &zi2), y: f.mul(&f.mul(&ps[i].y, &zi2), &zi), z: f.one() };
        }
        Some(out)
    }

    /// k P for k >= 1: a sliding window over the bits of k with the odd multiples P, 3P,
    /// ..., (2^w - 1) P brought to Z = 1 (mixed additions). Every addition adds an odd
    /// multiple jP (j < 2^w) to a multiple iP with i > j, except the first, which starts
    /// from a table entry. The formulas run on chain elements (entered once, left once).
    pub(super) fn multiply(&self, p: &Jacobian, k: &BigUint) -> Jacobian {
        let f = self.ring;
        let bits = k.bits();
        let zero = || Jacobian { x: f.zero(), y: f.zero(), z: f.zero() };
        if bits == 0 {
            return zero();
        }
        let wbits: u64 = match bits {
            0..=24 => 1,
            25..=160 => 3,
            161..=640 => 4,
            _ => 5,
        };
        let c = self.formulas();
        let mut w = c.work();
        // table[i] = (2i + 1) P with Z = 1: P + 2P + 2P + ... in Jacobian coordinates,
        // then all normalised together.
        let mut table = vec![p.clone()];
        if wbits > 1 {
            let (mut p2, mut wz) = (c.enter(p), f.chain_zero());
            c.set_wz(&p2, &mut wz, &mut w);
            c.double_in(&mut p2, &mut wz, &mut w);
            let mut cur = c.enter(p);
            for _ in 1..1usize << (wbits - 1) {
                c.add_in(&mut cur, &p2, false, &mut w);
                table.push(c.leave(&cur));
            }
        }
        let Some(table) = self.normalize_all(&table) else { return zero() };
        let table: Vec<ChPoint> = table.iter().map(|t| c.enter(t)).collect();
        // The running multiple and a Z^4 (see `Formulas::double_in`).
        let mut acc: Option<(ChPoint, Ch)> = None;
        let mut i = bits as i64 - 1;
        while i >= 0 {
            if !k.bit(i as u64) {
                if let Some((a, wz)) = acc.as_mut() {
                    c.double_in(a, wz, &mut w);
                }
                i -= 1;
                continue;
            }
            // The longest window k[i..=l] with l > i - wbits ending in a 1 bit.
            let mut l = (i - wbits as i64 + 1).max(0);
            while !k.bit(l as u64) {
                l += 1;
            }
            let mut val = 0usize;
            for b in (l..=i).rev() {
                val = val << 1 | k.bit(b as u64) as usize;
            }
            match acc.as_mut() {
                // A table entry has Z = 1: a Z^4 = a.
                None => acc = Some((table[val >> 1].clone(), c.a.clone())),
                Some((a, wz)) => {
                    for _ in l..=i {
                        c.double_in(a, wz, &mut w);
                    }
                    c.add_in(a, &table[val >> 1], true, &mut w);
                    c.set_wz(a, wz, &mut w);
                }
            }
            i = l - 1;
        }
        c.leave(&acc.expect("k >= 1 has a set bit").0)
    }
}

impl Formulas<'_> {
    fn work(&self) -> Work {
        Work(core::array::from_fn(|_| self.ring.chain_zero()))
    }

    fn enter(&self, p: &Jacobian) -> ChPoint {
        let f = self.ring;
        ChPoint { x: f.enter(&p.x), y: f.enter(&p.y), z: f.enter(&p.z) }
    }

    fn leave(&self, p: &ChPoint) -> Jacobian {
        let f = self.ring;
        Jacobian { x: f.leave(&p.x), y: f.leave(&p.y), z: f.leave(&p.z) }
    }

    /// r = 2 r (r at infinity or of order 2 gives Z = 0), with `wz` = a Z^4 carried along
    /// (Cohen, Miyaji & Ono 1998, "modified Jacobian" coordinates: 4 products and 4
    /// squares instead of 4 and 6):
    /// M = 3X^2 + aZ^4, S = 4XY^2, X' = M^2 - 2S, Y' = M(S - X') - 8Y^4, Z' = 2YZ,
    /// a Z'^4 = 16 Y^4 (a Z^4) = 2 (8Y^4) wz. The values are those of the plain formulas
    /// (a Z^4 is computed, not approximated), so the remarks of the module hold as they
    /// are.
    fn double_in(&self, r: &mut ChPoint, wz: &mut Ch, w: &mut Work) {
        let f = self.ring;
        let [yy, s, t, _, m, v] = &mut w.0;
        f.ch_sqr_to(yy, &r.y);
        f.ch_mul_to(s, &r.x, yy);
        f.ch_dbl_to(s);
        f.ch_dbl_to(s);
        f.ch_sqr_to(t, &r.x);
        m.copy_from_slice(wz);
        f.ch_add_to(m, t);
        f.ch_dbl_to(t);
        f.ch_add_to(m, t);
        // Z' = 2 Y Z.
        f.ch_mul_to(t, &r.y, &r.z);
        f.ch_dbl_to(t);
        core::mem::swap(&mut r.z, t);
        // X' = M^2 - 2S.
        f.ch_sqr_to(&mut r.x, m);
        f.ch_sub_to(&mut r.x, s);
        f.ch_sub_to(&mut r.x, s);
        // Y' = M (S - X') - 8 Y^4.
        f.ch_sub_to(s, &r.x);
        f.ch_mul_to(&mut r.y, m, s);
        f.ch_sqr_to(v, yy);
        f.ch_dbl_to(v);
        f.ch_dbl_to(v);
        f.ch_dbl_to(v);
        f.ch_sub_to(&mut r.y, v);
        // a Z'^4 = 2 (8 Y^4) (a Z^4); stays 0 when a = 0.
        if !self.a_is_zero {
            f.ch_mul_to(t, v, wz);
            f.ch_dbl_to(t);
            core::mem::swap(wz, t);
        }
    }

    /// `wz` = a Z^4 for the point r (after an addition).
    fn set_wz(&self, r: &ChPoint, wz: &mut Ch, w: &mut Work) {
        if self.a_is_zero {
            return;
        }
        let f = self.ring;
        let [t, u, ..] = &mut w.0;
        f.ch_sqr_to(t, &r.z);
        f.ch_sqr_to(u, t);
        f.ch_mul_to(wz, &self.a, u);
    }

    /// r = r + s by the general addition law (`s_affine`: s has Z = 1, and the products
    /// by Z2 are skipped): the true sum when r != ±s and neither is at infinity; r = -s
    /// gives Z = 0 (the point at infinity, Y nonzero mod p); r = s or an input at
    /// infinity gives (0 : 0 : 0).
    fn add_in(&self, r: &mut ChPoint, s: &ChPoint, s_affine: bool, w: &mut Work) {
        let f = self.ring;
        let [u1, u2, s1, s2, t, v] = &mut w.0;
        // z1z1 in v, u2 = X2 Z1^2, s2 = Y2 Z1^3.
        f.ch_sqr_to(v, &r.z);
        f.ch_mul_to(u2, &s.x, v);
        f.ch_mul_to(t, &s.y, &r.z);
        f.ch_mul_to(s2, t, v);
        if s_affine {
            u1.copy_from_slice(&r.x);
            s1.copy_from_slice(&r.y);
        } else {
            f.ch_sqr_to(v, &s.z);
            f.ch_mul_to(u1, &r.x, v);
            f.ch_mul_to(t, &r.y, &s.z);
            f.ch_mul_to(s1, t, v);
        }
        // H = U2 - U1 in u2, R = S2 - S1 in s2.
        f.ch_sub_to(u2, u1);
        f.ch_sub_to(s2, s1);
        let (h, rr) = (u2, s2);
        // Z3 = Z1 Z2 H.
        if s_affine {
            f.ch_mul_to(t, &r.z, h);
        } else {
            f.ch_mul_to(v, &r.z, &s.z);
            f.ch_mul_to(t, v, h);
        }
        core::mem::swap(&mut r.z, t);
        // HH in t, HHH in v, V = U1 HH in r.y (free: Y1 is in s1).
        f.ch_sqr_to(t, h);
        f.ch_mul_to(v, t, h);
        f.ch_mul_to(&mut r.y, u1, t);
        // X3 = R^2 - HHH - 2V.
        f.ch_sqr_to(&mut r.x, rr);
        f.ch_sub_to(&mut r.x, v);
        f.ch_sub_to(&mut r.x, &r.y);
        f.ch_sub_to(&mut r.x, &r.y);
        // Y3 = R (V - X3) - S1 HHH.
        f.ch_sub_to(&mut r.y, &r.x);
        f.ch_mul_to(t, rr, &r.y);
        f.ch_mul_to(u1, s1, v);
        f.ch_sub_to(t, u1);
        core::mem::swap(&mut r.y, t);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Affine points over F_n by the textbook chord-and-tangent formulas on num-bigint
    /// (`None` is the point at infinity): the oracle of the tests below.
    fn affine_add(n: &BigUint, a: &BigUint, p: &Option<(BigUint, BigUint)>, q: &Option<(BigUint, BigUint)>) -> Option<(BigUint, BigUint)> {
        let (Some((x1, y1)), Some((x2, y2))) = (p, q) else { return p.clone().or_else(|| q.clone()) };
        let inv = |v: &BigUint| v.modpow(&(n - 2u8), n);
        let lambda = if x1 == x2 {
            if (y1 + y2) % n == BigUint::ZERO {
                return None;
            }
            (BigUint::from(3u8) * x1 * x1 + a) % n * inv(&(BigUint::from(2u8) * y1 % n)) % n
        } else {
            (y2 + n - y1) % n * inv(&((x2 + n - x1) % n)) % n
        };
        let x3 = (&lambda * &lambda + n + n - x1 - x2) % n;
        let y3 = (&lambda * ((x1 + n - &x3) % n) + n - y1) % n;
        Some((x3, y3))
    }

    fn affine_multiply(n: &BigUint, a: &BigUint, p: &Option<(BigUint, BigUint)>, k: &BigUint) -> Option<(BigUint, BigUint)> {
        let mut r = None;
        for i in (0..k.bits()).rev() {
            r = affine_add(n, a, &r, &r);
            if k.bit(i) {
                r = affine_add(n, a, &r, p);
            }
        }
        r
    }

    /// The window multiplication (modified Jacobian doublings, mixed additions) agrees
    /// with affine arithmetic on num-bigint, for a = 0, small and large a (b enters no
    /// formula, so any point lies on some curve y^2 = x^3 + a x + b), every k up to 300,
    /// large k, and a starting point with Z != 1.
    #[test]
    fn multiply_matches_affine_arithmetic() {
        // Mersenne primes of 2 limbs (scalar chain elements) and of 20 (vector-unit chain
        // elements where the kernel has them).
        for (e, k_max) in [(127u32, 300u32), (1279, 40)] {
            multiply_matches_affine_arithmetic_mod(&((BigUint::from(1u8) << e) - 1u8), k_max);
        }
    }

    fn multiply_matches_affine_arithmetic_mod(n: &BigUint, k_max: u32) {
        let n = n.clone();
        let f = Ring::new(&n).unwrap();
        let to_affine = |q: &Jacobian| {
            let zi = f.inv(&q.z).ok()?;
            let zi2 = f.sqr(&zi);
            Some((f.to_big(&f.mul(&q.x, &zi2)), f.to_big(&f.mul(&f.mul(&q.y, &zi2), &zi))))
        };
        let (px, py) = (BigUint::from(30u8), BigUint::from(225u8));
        let big_k = BigUint::parse_bytes(b"123456789123456789123456789123456789123456789", 10).unwrap();
        for a in [BigUint::ZERO, BigUint::from(5u8), &n - 3u8] {
            let c = Curve { ring: &f, a: f.elem(&a) };
            let p = c.affine(&f.elem(&px), &f.elem(&py));
            let pa = Some((px.clone(), py.clone()));
            let mut sum = pa.clone();
            for k in 2u32..k_max {
                sum = affine_add(&n, &a, &sum, &pa);
                assert_eq!(to_affine(&c.multiply(&p, &BigUint::from(k))), sum, "a = {a}, k = {k}");
            }
            let want = affine_multiply(&n, &a, &pa, &big_k);
            assert_eq!(to_affine(&c.multiply(&p, &big_k)), want, "a = {a}, large k");
            // From 3P with Z != 1 (as the checker's q (m/q) P): 3 k P.
            let p3 = c.multiply(&p, &BigUint::from(3u8));
            assert!(f.to_big(&p3.z) != BigUint::from(1u8));
            let want = affine_multiply(&n, &a, &pa, &(&big_k * 3u8));
            assert_eq!(to_affine(&c.multiply(&p3, &big_k)), want, "a = {a}, from 3P");
            // The sum and double used by other tests agree too.
            assert_eq!(to_affine(&c.double(&p)), affine_add(&n, &a, &pa, &pa));
            assert_eq!(to_affine(&c.add(&p3, &p)), affine_multiply(&n, &a, &pa, &BigUint::from(4u8)));
        }
    }
}
