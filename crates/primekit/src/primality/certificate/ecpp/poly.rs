//! Polynomials over Z/NZ and a root of a class polynomial (Cantor & Zassenhaus 1981:
//! equal-degree splitting by gcd((x + δ)^((N-1)/2) - 1, f)).
//!
//! N is only a probable prime here. Every inversion that fails gives gcd(c, N) > 1, a
//! proof that N is composite ([`RootError::Factor`]); any other failure (no split after
//! many tries, a "root" that is none) is reported as [`RootError::Failed`] and the caller
//! moves on. Variable time; public data.

use super::super::field::{Ch, El, Ring};
use num_bigint::BigUint;

/// A polynomial, coefficient of x^i at index i, no trailing zero coefficient.
pub(super) type Poly = Vec<El>;

#[derive(Debug)]
pub(super) enum RootError {
    /// gcd(c, N) for a c that had to be invertible: N is composite if it is in 2..N.
    Factor(BigUint),
    Failed,
}

fn trim(f: &Ring, p: &mut Poly) {
    while p.last().is_some_and(|c| f.is_zero(c)) {
        p.pop();
    }
}

/// `a mod m` for `m` with an invertible leading coefficient given as `lead_inv`.
fn rem(f: &Ring, a: &Poly, m: &Poly, lead_inv: &El) -> Poly {
    let mut r = a.clone();
    trim(f, &mut r);
    let dm = m.len() - 1;
    while r.len() > dm {
        let top = r.len() - 1;
        let c = f.mul(&r[top], lead_inv);
        let shift = top - dm;
        for (i, mi) in m.iter().enumerate().take(dm) {
            r[shift + i] = f.sub(&r[shift + i], &f.mul(&c, mi));
        }
        r.pop();
        trim(f, &mut r);
    }
    r
}

/// `(x + delta)^e mod m` for monic `m` of degree d >= 2, in place: the residue is kept
/// as d coefficients (zeros included). Each step squares it into 2d - 1 coefficients
/// and reduces those by m, every coefficient a sum of products added unreduced and
/// reduced once ([`Ring::mul_acc`]): d(d - 1)/2 products (doubled) and d squares for
/// the square, d(d - 1) products for the reduction, 2d - 1 reductions in all.
fn pow_linear(f: &Ring, delta: &El, e: &BigUint, m: &Poly) -> Poly {
    let d = m.len() - 1;
    let mut r: Poly = vec![f.zero(); d];
    r[0] = delta.clone();
    r[1] = f.one();
    // x^d = -(m_0 + ... + m_(d-1) x^(d-1)): the reduction adds products by -m_k.
    let neg_m: Vec<El> = m[..d].iter().map(|c| f.neg(c)).collect();
    let w = f.acc_len();
    let mut acc = vec![0; (2 * d - 1) * w];
    let mut c = f.zero();
    for i in (0..e.bits().saturating_sub(1)).rev() {
        acc.fill(0);
        for a in 0..d {
            for b in a + 1..d {
                f.mul_acc(&mut acc[(a + b) * w..][..w], &r[a], &r[b]);
            }
        }
        for x in acc.chunks_exact_mut(w) {
            f.dbl_acc(x);
        }
        for (a, ra) in r.iter().enumerate() {
            f.sqr_acc(&mut acc[2 * a * w..][..w], ra);
        }
        // The top coefficient, once complete (nothing above it adds to it), is reduced
        // and its multiples of x^d folded into the d coefficients below it.
        for top in (d..2 * d - 1).rev() {
            let (low, high) = acc.split_at_mut(top * w);
            f.reduce_acc(&mut c, &mut high[..w]);
            for (k, mk) in neg_m.iter().enumerate() {
                f.mul_acc(&mut low[(top - d + k) * w..][..w], &c, mk);
            }
        }
        for (k, rk) in r.iter_mut().enumerate() {
            f.reduce_acc(rk, &mut acc[k * w..][..w]);
        }
        if e.bit(i) {
            // r (x + delta) = x r + delta r, its x^d term c x^d replaced by c (x^d - m):
            // coefficient k is r_(k-1) + delta r_k - c m_k. An element X joins the sums
            // of products (worth X R^2 per unit) as X R, i.e. shifted up by n limbs.
            let n = w / 2;
            c.copy_from_slice(&r[d - 1]);
            for k in 0..d {
                let x = &mut acc[k * w..][..w];
                x.fill(0);
                if k > 0 {
                    x[n..2 * n].copy_from_slice(&r[k - 1]);
                }
                f.mul_acc(x, &r[k], delta);
                f.mul_acc(x, &c, &neg_m[k]);
            }
            for (k, rk) in r.iter_mut().enumerate() {
                f.reduce_acc(rk, &mut acc[k * w..][..w]);
            }
        }
    }
    trim(f, &mut r);
    r
}

/// [`pow_linear`] on chain elements (`Ring::enter`): every product reduced on its own
/// (no lazy sums), for the contexts whose chain products are cheaper than an unreduced
/// scalar product and its share of a reduction ([`Ring::chain_products_pay`]).
fn pow_linear_chain(f: &Ring, delta: &El, e: &BigUint, m: &Poly) -> Poly {
    let d = m.len() - 1;
    let mut r: Vec<Ch> = vec![f.chain_zero(); d];
    r[0] = f.enter(delta);
    r[1] = f.enter(&f.one());
    let delta = f.enter(delta);
    let neg_m: Vec<Ch> = m[..d].iter().map(|c| f.enter(&f.neg(c))).collect();
    let mut sq: Vec<Ch> = vec![f.chain_zero(); 2 * d - 1];
    let (mut t, mut c) = (f.chain_zero(), f.chain_zero());
    for i in (0..e.bits().saturating_sub(1)).rev() {
        sq.iter_mut().for_each(|x| x.fill(0));
        for a in 0..d {
            for b in a + 1..d {
                f.ch_mul_to(&mut t, &r[a], &r[b]);
                f.ch_add_to(&mut sq[a + b], &t);
            }
        }
        for x in sq.iter_mut() {
            f.ch_dbl_to(x);
        }
        for (a, ra) in r.iter().enumerate() {
            f.ch_sqr_to(&mut t, ra);
            f.ch_add_to(&mut sq[2 * a], &t);
        }
        for top in (d..2 * d - 1).rev() {
            let (low, high) = sq.split_at_mut(top);
            for (k, mk) in neg_m.iter().enumerate() {
                f.ch_mul_to(&mut t, &high[0], mk);
                f.ch_add_to(&mut low[top - d + k], &t);
            }
        }
        for (rk, sk) in r.iter_mut().zip(&sq) {
            rk.copy_from_slice(sk);
        }
        if e.bit(i) {
            // Coefficient k of r (x + delta) reduced: r_(k-1) + delta r_k - r_(d-1) m_k.
            c.copy_from_slice(&r[d - 1]);
            for k in (0..d).rev() {
                f.ch_mul_to(&mut t, &r[k], &delta);
                let mut x = std::mem::replace(&mut r[k], f.chain_zero());
                if k > 0 {
                    x.copy_from_slice(&r[k - 1]);
                } else {
                    x.fill(0);
                }
                f.ch_add_to(&mut x, &t);
                f.ch_mul_to(&mut t, &c, &neg_m[k]);
                f.ch_add_to(&mut x, &t);
                r[k] = x;
            }
        }
    }
    let mut out: Poly = r.iter().map(|x| f.leave(x)).collect();
    trim(f, &mut out);
    out
}

/// Monic gcd of `a` and `b`.
fn gcd(f: &Ring, a: &Poly, b: &Poly) -> Result<Poly, RootError> {
    let (mut a, mut b) = (a.clone(), b.clone());
    trim(f, &mut a);
    trim(f, &mut b);
    while !b.is_empty() {
        let li = f.inv(b.last().expect("nonempty")).map_err(RootError::Factor)?;
        let r = rem(f, &a, &b, &li);
        a = b;
        b = r;
    }
    if a.is_empty() {
        return Ok(a);
    }
    let li = f.inv(a.last().expect("nonempty")).map_err(RootError::Factor)?;
    Ok(a.iter().map(|c| f.mul(c, &li)).collect())
}

/// `a / b` for monic `b` dividing `a` exactly.
fn div_exact(f: &Ring, a: &Poly, b: &Poly) -> Poly {
    let db = b.len() - 1;
    let mut r = a.clone();
    let mut q = vec![f.zero(); a.len() - db];
    while r.len() > db {
        let top = r.len() - 1;
        let c = r[top].clone();
        let shift = top - db;
        for (i, bi) in b.iter().enumerate().take(db) {
            r[shift + i] = f.sub(&r[shift + i], &f.mul(&c, bi));
        }
        q[shift] = c;
        r.pop();
    }
    q
}

/// Evaluates `p` at `x`.
pub(super) fn eval(f: &Ring, p: &Poly, x: &El) -> El {
    let mut r = f.zero();
    for c in p.iter().rev() {
        r = f.add(&f.mul(&r, x), c);
    }
    r
}

/// sqrt(b^2 - 4c) for x^2 + b x + c.
fn quadratic_root(f: &Ring, g: &Poly, sqrt: &dyn Fn(&El) -> Option<El>) -> Option<El> {
    sqrt(&f.sub(&f.sqr(&g[1]), &f.mul_small(&g[0], 4)))
}

/// A root of the monic `p`, which must split into distinct linear factors mod N (class
/// polynomials do when 4N = t^2 + |D| s^2). `sqrt` takes square roots mod N (for the
/// quadratic case); `next_delta` gives the shifts δ to try.
pub(super) fn find_root(f: &Ring, p: &Poly, sqrt: &dyn Fn(&El) -> Option<El>, next_delta: &mut dyn FnMut() -> El) -> Result<El, RootError> {
    let mut g = p.clone();
    trim(f, &mut g);
    let half = (f.modulus() - 1u8) >> 1;
    for _ in 0..200 {
        match g.len() {
            0 | 1 => return Err(RootError::Failed),
            2 => {
                let r = f.neg(&g[0]);
                return if f.is_zero(&eval(f, p, &r)) { Ok(r) } else { Err(RootError::Failed) };
            }
            // x^2 + b x + c: (-b + sqrt(b^2 - 4c)) / 2, when the square root is at hand.
            3 if quadratic_root(f, &g, sqrt).is_some() => {
                let s = quadratic_root(f, &g, sqrt).expect("just found");
                let two_inv = f.inv(&f.small(2)).map_err(RootError::Factor)?;
                let r = f.mul(&f.sub(&s, &g[1]), &two_inv);
                return if f.is_zero(&eval(f, p, &r)) { Ok(r) } else { Err(RootError::Failed) };
            }
            _ => {
                let delta = next_delta();
                let mut w = if f.chain_products_pay() { pow_linear_chain(f, &delta, &half, &g) } else { pow_linear(f, &delta, &half, &g) };
                if w.is_empty() {
                    w.push(f.zero());
                }
                w[0] = f.sub(&w[0], &f.one());
                let h = gcd(f, &g, &w)?;
                if h.len() > 1 && h.len() < g.len() {
                    let other = div_exact(f, &g, &h);
                    g = if h.len() <= other.len() { h } else { other };
                }
            }
        }
    }
    Err(RootError::Failed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_of_a_split_polynomial() {
        // (x - 3)(x - 5)(x - 7)(x - 11)(x - 13) modulo the prime 2^127 - 1.
        let n = (BigUint::from(1u8) << 127) - 1u8;
        let f = Ring::new(&n).unwrap();
        let mut p: Poly = vec![f.one()];
        for r in [3i64, 5, 7, 11, 13] {
            let lin = [f.small(-r), f.one()];
            let mut q = vec![f.zero(); p.len() + 1];
            for (i, a) in p.iter().enumerate() {
                for (j, b) in lin.iter().enumerate() {
                    q[i + j] = f.add(&q[i + j], &f.mul(a, b));
                }
            }
            p = q;
        }
        let mut k = 0i64;
        let root = find_root(&f, &p, &|_| None, &mut || {
            k += 1;
            f.small(k)
        })
        .unwrap();
        let r = f.to_big(&root);
        assert!([3u8, 5, 7, 11, 13].iter().any(|&v| r == BigUint::from(v)), "{r}");
        // A quadratic with roots 4 and 9: x^2 - 13x + 36, using the square root of 25.
        let q = vec![f.small(36), f.small(-13), f.one()];
        let root = find_root(&f, &q, &|_| Some(f.small(5)), &mut || f.one()).unwrap();
        let r = f.to_big(&root);
        assert!(r == BigUint::from(4u8) || r == BigUint::from(9u8));
        // Both powerings agree, on 2 and 20 limbs (vector-unit chain elements where the
        // kernel has them), degrees 2 to 9, exponents with runs of ones and zeros.
        for n in [(BigUint::from(1u8) << 127) - 1u8, (BigUint::from(1u8) << 1279) - 1u8] {
            let f = Ring::new(&n).unwrap();
            for d in 2..10i64 {
                let mut m: Poly = (0..d).map(|i| f.small(i * i * 7919 - 3 * d + 1)).collect();
                m.push(f.one());
                let delta = f.small(-12345 * d);
                for e in [BigUint::from(2u8), BigUint::from(0b1011_0001u32), (&n - 1u8) >> 1] {
                    let want = pow_linear(&f, &delta, &e, &m);
                    let got = pow_linear_chain(&f, &delta, &e, &m);
                    assert!(want == got, "d {d} e {e}");
                }
            }
        }
        // A polynomial with no root is no success.
        let q = vec![f.small(1), f.zero(), f.one()];
        assert!(find_root(&f, &q, &|_| None, &mut || f.one()).is_err());
    }
}
