//! The shipped table of class polynomials (docs/ecpp.md; written by
//! tools/class_polynomials.gp): one line per fundamental discriminant D < 0,
//! `D h inv c_0 ... c_{h-1}` for the monic x^h + c_{h-1} x^(h-1) + ... + c_0, ordered by
//! class number h, then |D|; and for D with μ >= 2 prime discriminants, one factor of
//! degree h / 2^(μ-1) over the genus field (tools/class_genus.gp, format there). The
//! coefficients are parsed only for the discriminant a proof step uses.

use num_bigint::BigInt;
use std::collections::HashMap;
use std::sync::OnceLock;

static TEXT: &str = include_str!("class_polys.txt");
static GENUS: &str = include_str!("class_genus.txt");

/// Which class invariant a polynomial's roots are (PARI's `polclass` numbering), and so
/// how a root r gives j (Weber 1908 §§ 34, 72; Atkin & Morain 1993 §6; Enge & Morain
/// 2002).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Invariant {
    /// j itself.
    J,
    /// Weber's f: j = (f^24 - 16)^3 / f^24.
    WeberF,
    /// f^3: j = (r^8 - 16)^3 / r^8.
    WeberF3,
    /// γ2 = j^(1/3): j = r^3.
    Gamma2,
}

/// One discriminant of the table.
#[derive(Clone, Debug)]
pub(super) struct ClassEntry {
    pub(super) d: i64,
    pub(super) h: u32,
    pub(super) inv: Invariant,
    /// The prime discriminants (-4, 8, -8, and p* = (-1)^((p-1)/2) p for odd p) whose
    /// product is D.
    pub(super) prime_discs: Vec<i64>,
    /// A factor of the class polynomial over the genus field, when D has one.
    pub(super) genus: Option<GenusFactor>,
    coeffs: &'static str,
}

/// One factor of a class polynomial over the real genus field F = Q(sqrt(q_1), ...,
/// sqrt(q_k)) (Cox 1989, §6; Morain 2007): the roots of one genus of forms,
/// h / 2^k of them. Its coefficient of x^j is sum over subsets S of 1..k of
/// a_(j,S) prod_(i in S) sqrt(q_i), with rational a_(j,S); mapping the sqrt(q_i) to any
/// square roots mod N maps it onto one genus's factor mod N, which divides the class
/// polynomial mod N and so splits into distinct linear factors whenever that does.
#[derive(Clone, Debug)]
pub(super) struct GenusFactor {
    /// The prime discriminants of each q_i (q_i is their product, positive).
    pub(super) q_discs: Vec<Vec<i64>>,
    /// Degree of the factor (monic).
    pub(super) degree: u32,
    coords: &'static str,
}

impl GenusFactor {
    /// a_(j,S) as (numerator, positive denominator) at index j 2^k + S, S's bit i - 1
    /// standing for q_i; j from 0 to degree - 1 (the leading 1 left out).
    pub(super) fn coordinates(&self) -> Vec<(BigInt, BigInt)> {
        self.coords
            .split_ascii_whitespace()
            .map(|s| match s.split_once('/') {
                Some((n, d)) => (n.parse().expect("table integer"), d.parse().expect("table integer")),
                None => (s.parse().expect("table integer"), BigInt::from(1)),
            })
            .collect()
    }
}

impl ClassEntry {
    /// c_0, ..., c_{h-1}, 1: the coefficients from degree 0 up, the leading 1 included.
    pub(super) fn coefficients(&self) -> Vec<BigInt> {
        let mut c: Vec<BigInt> = self.coeffs.split_ascii_whitespace().map(|s| s.parse().expect("table integer")).collect();
        c.push(BigInt::from(1));
        c
    }

    /// Degree of the polynomial whose root gives j: the genus factor's, else h.
    pub(super) fn root_degree(&self) -> u32 {
        self.genus.as_ref().map_or(self.h, |g| g.degree)
    }
}

/// The genus factors by discriminant: `D k q_1 ... q_k d a_(0,0) ... a_(d-1,2^k-1)`.
fn genus_factors() -> HashMap<i64, GenusFactor> {
    let mut out = HashMap::new();
    for line in GENUS.lines().filter(|l| !l.trim().is_empty()) {
        let mut it = line.split_ascii_whitespace();
        let mut int = || -> i64 { it.next().and_then(|s| s.parse().ok()).expect("genus table: integer") };
        let d = int();
        let k = int() as usize;
        let q_discs = (0..k).map(|_| prime_discriminants(int())).collect();
        let degree = int() as u32;
        // The coordinates: the rest of the line after the first 3 + k fields.
        let coords = line.splitn(4 + k, ' ').nth(3 + k).expect("genus table: coordinates");
        out.insert(d, GenusFactor { q_discs, degree, coords });
    }
    out
}

/// Every discriminant: -3 and -4 (j = 0 and 1728, no polynomial) first, then the table.
pub(super) fn table() -> &'static [ClassEntry] {
    static TABLE: OnceLock<Vec<ClassEntry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut genus = genus_factors();
        let mut v = vec![
            ClassEntry { d: -3, h: 1, inv: Invariant::J, prime_discs: vec![-3], genus: None, coeffs: "0" },
            ClassEntry { d: -4, h: 1, inv: Invariant::J, prime_discs: vec![-4], genus: None, coeffs: "-1728" },
        ];
        for line in TEXT.lines().filter(|l| !l.trim().is_empty()) {
            let mut it = line.splitn(4, ' ');
            let d: i64 = it.next().and_then(|s| s.parse().ok()).expect("table: D");
            let h: u32 = it.next().and_then(|s| s.parse().ok()).expect("table: h");
            let inv = match it.next() {
                Some("0") => Invariant::J,
                Some("1") => Invariant::WeberF,
                Some("3") => Invariant::WeberF3,
                Some("5") => Invariant::Gamma2,
                other => panic!("table: unknown invariant {other:?}"),
            };
            v.push(ClassEntry {
                d,
                h,
                inv,
                prime_discs: prime_discriminants(d),
                genus: genus.remove(&d),
                coeffs: it.next().expect("table: coefficients"),
            });
        }
        v
    })
}

/// Size classes of [`search_order`]: one order per 128 bits, the last for every larger N.
const ORDER_CLASSES: usize = 64;

/// The order in which a level of `bits` bits tries the table (indices into [`table`]): by
/// ascending expected cost of a step through D ([`step_cost`]),
///
///   (1/π) (1 + 1/(P n)) + root(d)   (in exponentiations mod N),
///
/// the reserve (class numbers 26-50) included: many of its discriminants have genus
/// factors of low degree. Trying D costs a square root (about one
/// exponentiation, for a prime discriminant not met before) and, with probability
/// P = 2^(μ-1)/h once the genus characters agree (μ prime discriminants: N's class is
/// then in the principal genus, of h/2^(μ-1) classes), n probable-prime tests (n = 6, 4,
/// 2 orders for D = -3, -4, other); each order's cofactor is prime with probability π,
/// 1/π ≈ bits / 66 after trial division (the e^γ ln B / ln m estimate); the winner costs
/// a root of the polynomial of degree d that gives j (the genus factor's, else the class
/// polynomial's, [`ClassEntry::root_degree`]): root(d) = c d^2 exponentiations (c = 2.2:
/// root finding's share of a 2048-bit proof's profile), except root(1) = 0 (the root is
/// read off) and root(2) = 1 (one square root). Sorting by class number alone tried D's whose
/// square root is rarely followed by a solution (μ = 1, h = 5..7: P = 1/5..1/7) before
/// ones that nearly always give orders; on two 2048-bit primes (Zen 4, widest kernel) this order
/// took 8.4-8.7 s against 9.3 s, with 108 steps against 114 (c = 1.2 alike, c = 4 no
/// gain); no change measurable at 1024 bits.
pub(super) fn search_order(bits: u64) -> &'static [u32] {
    static ORDERS: [OnceLock<Vec<u32>>; ORDER_CLASSES] = [const { OnceLock::new() }; ORDER_CLASSES];
    let class = (bits.div_ceil(128) as usize).clamp(1, ORDER_CLASSES) - 1;
    ORDERS[class].get_or_init(|| {
        let t = table();
        let bits = ((class + 1) * 128) as u64;
        let mut order: Vec<u32> = (0..t.len() as u32).collect();
        // A stable sort: equal costs keep the table's order (class number, then |D|).
        order.sort_by(|&a, &b| step_cost(&t[a as usize], bits).total_cmp(&step_cost(&t[b as usize], bits)));
        order
    })
}

/// The expected cost of a step through `e` at `bits` bits, in exponentiations mod N (the
/// key of [`search_order`]).
pub(super) fn step_cost(e: &ClassEntry, bits: u64) -> f64 {
    let inv_pi = bits as f64 / 66.0;
    let n = match e.d {
        -3 => 6.0,
        -4 => 4.0,
        _ => 2.0,
    };
    let p = ((1u64 << (e.prime_discs.len() - 1)) as f64 / e.h as f64).min(1.0);
    let root = match e.root_degree() {
        1 => 0.0,
        2 => 1.0,
        d => 2.2 * f64::from(d * d),
    };
    inv_pi * (1.0 + 1.0 / (p * n)) + root
}

/// The prime discriminants whose product is the fundamental discriminant `d`.
fn prime_discriminants(d: i64) -> Vec<i64> {
    let mut out = Vec::new();
    let mut rest = d.unsigned_abs();
    let mut odd_part: i64 = 1;
    while rest.is_multiple_of(2) {
        rest /= 2;
    }
    let mut p = 3;
    while rest > 1 {
        if p * p > rest {
            p = rest;
        }
        if rest.is_multiple_of(p) {
            rest /= p;
            let ps = if p % 4 == 1 { p as i64 } else { -(p as i64) };
            out.push(ps);
            odd_part *= ps;
        }
        p += 2;
    }
    // What is left is 1, -4, 8 or -8.
    let two = d / odd_part;
    if two != 1 {
        out.push(two);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_ordered_and_well_formed() {
        let t = table();
        assert!(t.len() > 1000, "{} discriminants", t.len());
        for w in t.windows(2) {
            assert!((w[0].h, -w[0].d) < (w[1].h, -w[1].d), "order at D = {}", w[1].d);
        }
        for e in t.iter().step_by(97) {
            assert_eq!(e.coefficients().len() as u32, e.h + 1, "D = {}", e.d);
            assert!(e.d % 4 == 0 || e.d.rem_euclid(4) == 1);
        }
        // Known Hilbert class polynomials: H_{-7} has root j = -3375 (Weber f root -1).
        let e = t.iter().find(|e| e.d == -7).unwrap();
        assert_eq!(e.inv, Invariant::WeberF);
        assert_eq!(e.coefficients(), vec![BigInt::from(1), BigInt::from(1)]);
        assert_eq!(prime_discriminants(-20), vec![5, -4]);
        assert_eq!(prime_discriminants(-24), vec![-3, 8]);
        assert_eq!(prime_discriminants(-15), vec![-3, 5]);
        assert_eq!(prime_discriminants(-8), vec![-8]);
        for e in t {
            assert_eq!(e.prime_discs.iter().product::<i64>(), e.d, "D = {}", e.d);
        }
        // Each search order is a permutation of the table by ascending cost, reserve
        // included: at 2048 bits a reserve discriminant (h >= 26) whose genus factor has
        // degree at most 6 comes before a class number 23 with μ = 1 (degree 23).
        for bits in [65, 256, 1024, 2048, 4096, 100_000] {
            let o = search_order(bits);
            let mut seen = o.to_vec();
            seen.sort();
            assert!(seen.iter().enumerate().all(|(i, &x)| i == x as usize), "a permutation at {bits} bits");
            let class_bits = bits.div_ceil(128).clamp(1, 64) * 128;
            assert!(o.windows(2).all(|w| step_cost(&t[w[0] as usize], class_bits) <= step_cost(&t[w[1] as usize], class_bits)));
        }
        let o = search_order(2048);
        let pos_of = |pred: &dyn Fn(&ClassEntry) -> bool| o.iter().position(|&i| pred(&t[i as usize])).unwrap();
        let cheap_reserve = pos_of(&|e| e.h > 25 && e.root_degree() <= 6);
        let dear_main = pos_of(&|e| e.h == 23 && e.root_degree() == 23);
        assert!(cheap_reserve < dear_main, "{cheap_reserve} {dear_main}");
        // D = -3 (six orders, no root) comes first; at 2048 bits D = -84 = -3 * -4 * -7
        // (h = 4, μ = 3: P = 1) comes before the prime discriminant D = -47 (h = 5,
        // P = 1/5), which the class-number order tried first.
        let o = search_order(2048);
        assert_eq!(t[o[0] as usize].d, -3);
        let pos = |d: i64| o.iter().position(|&i| t[i as usize].d == d).unwrap();
        assert!(pos(-84) < pos(-47), "h 4 with P = 1 before h 5 with P = 1/5");
        let e = t.iter().find(|e| e.d == -163).unwrap();
        assert_eq!(e.inv, Invariant::Gamma2);
        assert_eq!(e.coefficients(), vec![BigInt::from(640320), BigInt::from(1)]);
    }
}
