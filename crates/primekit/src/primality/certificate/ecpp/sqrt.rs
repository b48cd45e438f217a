//! Square roots modulo a probable prime N: Tonelli (1891) and Shanks (1973), as in
//! Cohen 1993, Algorithm 1.5.1, on the Montgomery engine; and the roots of the prime
//! discriminants (-4, ±8, p* = ±p) that a fundamental discriminant is a product of,
//! each computed once per N and multiplied (Morain 2007, §3.1).
//!
//! Every root returned is checked (r^2 = a), so a composite N gives no wrong root, only
//! none. Public data; variable time.

use super::super::field::{El, Ring};
use crate::primality::jacobi::jacobi_small;
use num_bigint::BigUint;
use std::collections::HashMap;

/// Square roots in Z/NZ for one N, with a cache of prime-discriminant roots.
pub(super) struct Sqrt {
    ring: Ring,
    n_limbs: Vec<u64>,
    /// N - 1 = 2^s q, q odd.
    s: u32,
    q_half: BigUint,
    /// A quadratic non-residue z, and z^q (a generator of the 2-Sylow subgroup) once a
    /// root needs it: for N = 3 mod 4 (s = 1) none does, and z^q would cost a whole
    /// exponentiation per N.
    z: i64,
    zq: std::cell::OnceCell<El>,
    cache: HashMap<i64, Option<El>>,
    symbols: std::cell::RefCell<HashMap<i64, i32>>,
}

impl Sqrt {
    /// Takes N's ring. `None` if no non-residue turns up below 100,000 (N is then a square, or very
    /// unlucky; the caller gives up on it).
    pub(super) fn new(ring: Ring) -> Option<Self> {
        let n = ring.modulus();
        let n_limbs = n.to_u64_digits();
        let n1 = n - 1u8;
        let s = n1.trailing_zeros()? as u32;
        let q = &n1 >> s;
        let z = (2i64..100_000).find(|&z| jacobi_small(z, &n_limbs) == -1)?;
        Some(Sqrt {
            ring,
            n_limbs,
            s,
            q_half: q >> 1,
            z,
            zq: std::cell::OnceCell::new(),
            cache: HashMap::new(),
            symbols: Default::default(),
        })
    }

    /// The Legendre (Jacobi) symbol (a / N) of a small integer (cached: the search asks
    /// for the same few prime discriminants many times).
    pub(super) fn legendre(&self, a: i64) -> i32 {
        *self.symbols.borrow_mut().entry(a).or_insert_with(|| jacobi_small(a, &self.n_limbs))
    }

    /// A square root of `a`, or `None` (a is a non-residue, or N is composite).
    pub(super) fn sqrt(&self, a: &El) -> Option<El> {
        let w = self.ring.pow(a, &self.q_half);
        self.sqrt_from(a, w)
    }

    /// [`Sqrt::sqrt`] given w = a^((q-1)/2), the one exponentiation it needs.
    fn sqrt_from(&self, a: &El, w: El) -> Option<El> {
        let f = &self.ring;
        if f.is_zero(a) {
            return Some(f.zero());
        }
        // x = a w = a^((q+1)/2), b = x w = a^q.
        let mut x = f.mul(a, &w);
        let mut b = f.mul(&x, &w);
        // g = z^q, set on the loop's first pass (r = s).
        let mut g = f.zero();
        let mut r = self.s;
        let one = f.one();
        while b != one {
            // Least m with b^(2^m) = 1; m < r for a residue mod a prime.
            let mut m = 0;
            let mut bb = b.clone();
            while bb != one {
                bb = f.sqr(&bb);
                m += 1;
                if m >= r {
                    return None;
                }
            }
            if r == self.s {
                // q = 2 q_half + 1.
                let q = (&self.q_half << 1) + 1u8;
                g.clone_from(self.zq.get_or_init(|| f.pow(&f.small(self.z), &q)));
            }
            let mut t = g;
            for _ in 0..r - m - 1 {
                t = f.sqr(&t);
            }
            g = f.sqr(&t);
            x = f.mul(&x, &t);
            b = f.mul(&b, &g);
            r = m;
        }
        (f.sqr(&x) == *a).then_some(x)
    }

    /// Computes and caches the roots of those of the small integers `smalls` not cached
    /// yet, [`Ring::pow_lanes`] exponentiations at once (with z^q when a root may need
    /// it): the search asks for the roots its next discriminants need together.
    pub(super) fn sqrt_small_many(&mut self, smalls: &[i64]) {
        let mut todo: Vec<i64> = Vec::new();
        for &a in smalls {
            if self.cache.contains_key(&a) || todo.contains(&a) {
                continue;
            }
            if self.legendre(a) == 1 {
                todo.push(a);
            } else {
                self.cache.insert(a, None);
            }
        }
        if todo.is_empty() {
            return;
        }
        let f = &self.ring;
        let mut smalls = todo.clone();
        // z^q = (z^((q-1)/2))^2 z, for N = 1 mod 4 (s > 1) only.
        let with_z = self.s > 1 && self.zq.get().is_none();
        if with_z {
            smalls.push(self.z);
        }
        let mut bases: Vec<El> = smalls.iter().map(|&a| f.small(a)).collect();
        let mut ws = f.pow_many_small(&smalls, &self.q_half);
        if with_z {
            let (wz, z) = (ws.pop().expect("z's power"), bases.pop().expect("z"));
            let zq = f.mul(&f.sqr(&wz), &z);
            self.zq.get_or_init(|| zq);
        }
        for ((a, base), w) in todo.into_iter().zip(&bases).zip(ws) {
            let r = self.sqrt_from(base, w);
            self.cache.insert(a, r);
        }
    }

    /// Whether the root of the small integer `a` is still to be computed (a residue whose
    /// root is not cached).
    pub(super) fn uncached(&self, a: i64) -> bool {
        !self.cache.contains_key(&a) && self.legendre(a) == 1
    }

    /// How many roots one batch of [`Sqrt::sqrt_small_many`] computes (the cost of a
    /// batch does not depend on how full it is).
    pub(super) fn lanes(&self) -> usize {
        self.ring.pow_lanes()
    }

    /// A square root of the small integer `a` (cached).
    pub(super) fn sqrt_small(&mut self, a: i64) -> Option<El> {
        if let Some(r) = self.cache.get(&a) {
            return r.clone();
        }
        let r = if self.legendre(a) == 1 { self.sqrt(&self.ring.small(a)) } else { None };
        self.cache.insert(a, r.clone());
        r
    }

    /// A square root of D = prod of `prime_discs`, as the product of their cached roots;
    /// `None` unless every one is a square mod N (when 4N = t^2 + |D| s^2 is solvable for
    /// prime N, every prime discriminant dividing D is: N splits in the genus field).
    pub(super) fn sqrt_disc(&mut self, prime_discs: &[i64]) -> Option<El> {
        if prime_discs.iter().any(|&p| self.legendre(p) != 1) {
            return None;
        }
        let mut r = self.ring.one();
        for &p in prime_discs {
            let root = self.sqrt_small(p)?;
            r = self.ring.mul(&r, &root);
        }
        Some(r)
    }

    /// The cached square root of the small integer `a`, if one was computed.
    pub(super) fn cached_root(&self, a: i64) -> Option<&El> {
        self.cache.get(&a).and_then(Option::as_ref)
    }

    /// Caches `r` as the square root of `a` if it is one (roots found for the same N
    /// elsewhere; a wrong `r` is ignored).
    pub(super) fn seed(&mut self, a: i64, r: &BigUint) {
        let r = self.ring.elem(r);
        if self.ring.sqr(&r) == self.ring.small(a) {
            self.cache.insert(a, Some(r));
        }
    }

    pub(super) fn ring(&self) -> &Ring {
        &self.ring
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roots_mod_primes_of_each_two_adic_shape() {
        // 2^127 - 1 (= 3 mod 4), 2^255 - 19 (= 5 mod 8), and the prime 3 * 2^30 + 1
        // (N - 1 = 2^30 * 3: the Tonelli-Shanks loop at length).
        for n in [(BigUint::from(1u8) << 127) - 1u8, (BigUint::from(1u8) << 255) - 19u8, BigUint::from(3u64 * (1 << 30) + 1)] {
            let mut s = Sqrt::new(Ring::new(&n).unwrap()).unwrap();
            let f = Ring::new(&n).unwrap();
            let mut residues = 0;
            for a in [-1i64, 2, -2, 3, -3, 5, -7, 11, 13, 17, -163, 1_000_003] {
                match s.sqrt_small(a) {
                    Some(r) => {
                        residues += 1;
                        assert_eq!(f.sqr(&r), f.small(a), "n = {n}, a = {a}");
                        assert_eq!(s.legendre(a), 1);
                    }
                    None => assert_eq!(s.legendre(a), -1, "n = {n}, a = {a}"),
                }
            }
            assert!(residues >= 3, "n = {n}");
            // D = -4 * 5 * ... through the prime discriminants: -20 = -4 * 5.
            if let Some(r) = s.sqrt_disc(&[-4, 5]) {
                assert_eq!(f.sqr(&r), f.small(-20));
            }
        }
        // Roots computed together (in the lanes where the kernel has them, with z^q from
        // the same batch) equal roots computed one at a time, residues and non-residues.
        for n in [(BigUint::from(1u8) << 255) - 19u8, (BigUint::from(1u8) << 521) - 1u8, BigUint::from(3u64 * (1 << 30) + 1)] {
            let smalls: Vec<i64> = vec![-4, 8, -8, -3, 5, -7, -11, 13, 17, -19, -23, 29, 37, -43];
            let mut batched = Sqrt::new(Ring::new(&n).unwrap()).unwrap();
            batched.sqrt_small_many(&smalls);
            let mut one = Sqrt::new(Ring::new(&n).unwrap()).unwrap();
            for &a in &smalls {
                assert!(!batched.uncached(a), "n = {n}, a = {a}");
                assert_eq!(batched.cached_root(a), one.sqrt_small(a).as_ref(), "n = {n}, a = {a}");
            }
        }
        // A non-residue has no root: 3 mod 7 (7 = 3 mod 4), and mod a composite the
        // checked result is never a wrong root.
        assert!(Sqrt::new(Ring::new(&BigUint::from(7u8)).unwrap()).unwrap().sqrt_small(3).is_none());
        let f = Ring::new(&BigUint::from(561u32)).unwrap();
        if let Some(mut s) = Sqrt::new(Ring::new(&BigUint::from(561u32)).unwrap()) {
            for a in 2..50 {
                if let Some(r) = s.sqrt_small(a) {
                    assert_eq!(f.sqr(&r), f.small(a));
                }
            }
        }
    }
}
