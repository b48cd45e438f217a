//! The shipped table of class polynomials (docs/ecpp.md; written by
//! tools/class_polynomials.gp): one line per fundamental discriminant D < 0,
//! `D h inv c_0 ... c_{h-1}` for the monic x^h + c_{h-1} x^(h-1) + ... + c_0, ordered by
//! class number h, then |D|. The coefficients are parsed only for the discriminant a
//! proof step uses.

use num_bigint::BigInt;
use std::sync::OnceLock;

static TEXT: &str = include_str!("class_polys.txt");

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
    coeffs: &'static str,
}

impl ClassEntry {
    /// c_0, ..., c_{h-1}, 1: the coefficients from degree 0 up, the leading 1 included.
    pub(super) fn coefficients(&self) -> Vec<BigInt> {
        let mut c: Vec<BigInt> = self.coeffs.split_ascii_whitespace().map(|s| s.parse().expect("table integer")).collect();
        c.push(BigInt::from(1));
        c
    }
}

/// Every discriminant: -3 and -4 (j = 0 and 1728, no polynomial) first, then the table.
pub(super) fn table() -> &'static [ClassEntry] {
    static TABLE: OnceLock<Vec<ClassEntry>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut v = vec![
            ClassEntry { d: -3, h: 1, inv: Invariant::J, prime_discs: vec![-3], coeffs: "0" },
            ClassEntry { d: -4, h: 1, inv: Invariant::J, prime_discs: vec![-4], coeffs: "-1728" },
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
            v.push(ClassEntry { d, h, inv, prime_discs: prime_discriminants(d), coeffs: it.next().expect("table: coefficients") });
        }
        v
    })
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
        let e = t.iter().find(|e| e.d == -163).unwrap();
        assert_eq!(e.inv, Invariant::Gamma2);
        assert_eq!(e.coefficients(), vec![BigInt::from(640320), BigInt::from(1)]);
    }
}
