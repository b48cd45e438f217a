//! Polynomials over Z/NZ and a root of a class polynomial (Cantor & Zassenhaus 1981:
//! equal-degree splitting by gcd((x + δ)^((N-1)/2) - 1, f)).
//!
//! N is only a probable prime here. Every inversion that fails gives gcd(c, N) > 1, a
//! proof that N is composite ([`RootError::Factor`]); any other failure (no split after
//! many tries, a "root" that is none) is reported as [`RootError::Failed`] and the caller
//! moves on. Variable time; public data.

use super::super::field::{El, Ring};
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

/// `(x + delta)^e mod m` for monic `m` of degree d >= 2, on chain elements
/// (`Ring::enter`) with lazy sums ([`Ring::ch_mul_acc_pairs`]): the residue is kept as d
/// coefficients (zeros included); each step squares it into 2d - 1 coefficients, each a
/// sum of products added unreduced and reduced once, and folds the d - 1 above x^(d-1)
/// back with x^j mod m (j = d .. 2d - 2, computed once): d(d - 1)/2 products (doubled)
/// and d squares for the square, d(d - 1) products for the fold, 2d - 1 reductions in
/// two independent batches (the tops, then the low coefficients). A coefficient takes at
/// most 2d terms (d for the doubled cross products and the square, d - 1 folds), far
/// below the sums' limit for the table's degrees (at most 50).
fn pow_linear(f: &Ring, delta: &El, e: &BigUint, m: &Poly) -> Poly {
    let d = m.len() - 1;
    debug_assert!(2 * d < crate::arith::mont::CHAIN_ACC_MAX_TERMS);
    let (cl, al) = (f.chain_zero().len(), f.ch_acc_len());
    let at = |v: &[u64], i: usize| -> Vec<u64> { v[i * cl..][..cl].to_vec() };
    let mut r = vec![0; d * cl];
    r[..cl].copy_from_slice(&f.enter(delta));
    r[cl..2 * cl].copy_from_slice(&f.enter(&f.one()));
    let delta = f.enter(delta);
    // x^d = -(m_0 + ... + m_(d-1) x^(d-1)); folds[j] holds x^(d+j) mod m, d coefficients.
    let neg_m: Vec<u64> = m[..d].iter().flat_map(|c| f.enter(&f.neg(c))).collect();
    let mut folds = neg_m.clone();
    let mut t = f.chain_zero();
    for j in 1..d - 1 {
        // x x^(d+j-1): the coefficients move up one, the top one times -m comes back.
        let prev = folds[(j - 1) * d * cl..j * d * cl].to_vec();
        let top = &prev[(d - 1) * cl..];
        for k in 0..d {
            let mut x = if k > 0 { at(&prev, k - 1) } else { f.chain_zero() };
            f.ch_mul_to(&mut t, top, &neg_m[k * cl..][..cl]);
            f.ch_add_to(&mut x, &t);
            folds.extend_from_slice(&x);
        }
    }
    // The square's cross products by coefficient (r_a r_b, a < b, into a + b) and the
    // fold's products by coefficient (top_j times x^(d+j) mod m's coefficient k, into k):
    // each coefficient's products go to the sums in one call, which adds them in the
    // vector registers before they reach the accumulator.
    let cross: Vec<Vec<(u32, u32)>> =
        (0..2 * d - 1).map(|c| (c.saturating_sub(d - 1)..d).filter(|&a| 2 * a < c).map(|a| (a as u32, (c - a) as u32)).collect()).collect();
    let fold_pairs: Vec<Vec<(u32, u32)>> = (0..d).map(|k| (0..d - 1).map(|j| (j as u32, (j * d + k) as u32)).collect()).collect();
    // Accumulators are zero here and after every reduction.
    let mut acc = vec![0; (2 * d - 1) * al];
    let mut tops = vec![0; (d - 1) * cl];
    for i in (0..e.bits().saturating_sub(1)).rev() {
        for (c, pairs) in cross.iter().enumerate() {
            f.ch_mul_acc_pairs(&mut acc[c * al..][..al], &r, &r, pairs);
        }
        for x in acc.chunks_exact_mut(al) {
            f.ch_dbl_acc(x);
        }
        for a in 0..d {
            f.ch_sqr_acc(&mut acc[2 * a * al..][..al], &r[a * cl..][..cl]);
        }
        let (low, high) = acc.split_at_mut(d * al);
        f.ch_reduce_accs(&mut tops, high);
        for (x, pairs) in low.chunks_exact_mut(al).zip(&fold_pairs) {
            f.ch_mul_acc_pairs(x, &tops, &folds, pairs);
        }
        f.ch_reduce_accs(&mut r, low);
        if e.bit(i) {
            // r (x + delta) = x r + delta r, its x^d term c x^d replaced by c (x^d - m):
            // coefficient k is r_(k-1) + delta r_k - c m_k.
            let c = at(&r, d - 1);
            for (k, x) in acc.chunks_exact_mut(al).take(d).enumerate() {
                if k > 0 {
                    f.ch_join_acc(x, &r[(k - 1) * cl..][..cl]);
                }
                f.ch_mul_acc(x, &r[k * cl..][..cl], &delta);
                f.ch_mul_acc(x, &c, &neg_m[k * cl..][..cl]);
            }
            f.ch_reduce_accs(&mut r, &mut acc[..d * al]);
        }
    }
    let mut out: Poly = r.chunks_exact(cl).map(|x| f.leave(x)).collect();
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
                let mut w = pow_linear(f, &delta, &half, &g);
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

    /// `(x + delta)^e mod m` by plain square-and-multiply on reduced products: the
    /// oracle of [`pow_linear`].
    fn pow_linear_reference(f: &Ring, delta: &El, e: &BigUint, m: &Poly) -> Poly {
        let mul = |a: &Poly, b: &Poly| -> Poly {
            let mut p = vec![f.zero(); a.len() + b.len() - 1];
            for (i, x) in a.iter().enumerate() {
                for (j, y) in b.iter().enumerate() {
                    p[i + j] = f.add(&p[i + j], &f.mul(x, y));
                }
            }
            rem(f, &p, m, &f.one())
        };
        let base: Poly = vec![delta.clone(), f.one()];
        let mut r: Poly = vec![f.one()];
        for i in (0..e.bits()).rev() {
            r = mul(&r, &r);
            if e.bit(i) {
                r = mul(&r, &base);
            }
        }
        r
    }

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
        // The lazy powering agrees with plain square-and-multiply on every kernel this
        // CPU has, on 2, 20 and 32 limbs (vector-unit chain elements where the kernel has
        // them), degrees 2 to 9 and 26, exponents with runs of ones and zeros.
        for kernel in crate::arith::cpu::Kernel::available() {
            for n in [(BigUint::from(1u8) << 127) - 1u8, (BigUint::from(1u8) << 1279) - 1u8, (BigUint::from(1u8) << 2047) + 1155u32] {
                let f = Ring::with_kernel(&n, kernel).unwrap();
                for d in (2..10i64).chain([26]) {
                    let mut m: Poly = (0..d).map(|i| f.small(i * i * 7919 - 3 * d + 1)).collect();
                    m.push(f.one());
                    let delta = f.small(-12345 * d);
                    // The whole (N - 1)/2 on the smallest modulus; a 130-bit exponent on the
                    // others (the reference is slow).
                    let long = if n.bits() < 200 { (&n - 1u8) >> 1 } else { (BigUint::from(1u8) << 130) - 3u8 };
                    for e in [BigUint::from(2u8), BigUint::from(0b1011_0001u32), long] {
                        if d == 26 && e.bits() > 64 {
                            continue;
                        }
                        let want = pow_linear_reference(&f, &delta, &e, &m);
                        let got = pow_linear(&f, &delta, &e, &m);
                        assert!(want == got, "{kernel:?} d {d} e {e}");
                    }
                }
            }
        }
        // A polynomial with no root is no success.
        let q = vec![f.small(1), f.zero(), f.one()];
        assert!(find_root(&f, &q, &|_| None, &mut || f.one()).is_err());
    }
}
