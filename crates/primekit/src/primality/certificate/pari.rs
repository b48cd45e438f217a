//! Certificates in PARI/GP's forms: [`to_pari`] writes a GP expression that PARI's
//! `primecertisvalid` checks, [`from_pari`] reads the ECPP certificate PARI's
//! `primecert(N)` prints. (PARI/GP 2.15, `??primecert`.)
//!
//! # PARI's ECPP certificate and ours
//!
//! PARI writes a vector of steps `[[N_1, t_1, s_1, a_1, [x_1, y_1]], ..., [N_l, ...]]`:
//! the curve y^2 = x^3 + a x + b mod N with b = y^2 - x^3 - a x (b is implicit, so P is
//! on the curve by construction), the point P = (x, y), m = N + 1 - t, q = m / s.
//! The mapping to an [`EcppStep`] is
//!
//! | PARI | ours |
//! |------|------|
//! | N | n |
//! | a, x, y (any integers) | a, x, y reduced mod n |
//! | y^2 - x^3 - a x mod N | b |
//! | N + 1 - t | m |
//! | (N + 1 - t) / s | q |
//! | (not given) | d = `None` (PARI's D is the squarefree part of t^2 - 4N) |
//!
//! and back: t = n + 1 - m, s = m / q, with b dropped (so [`to_pari`] refuses a step
//! whose b is not y^2 - x^3 - a x mod n: PARI would check a different curve).
//!
//! PARI's chain is linear: q_i = N_(i+1), and the last q is below 2^64 and a BPSW
//! pseudoprime (so prime). Ours lets q be proved by any later step, or be below 2^64 and
//! pass the exact test: a PARI chain is one of ours, and ours maps to PARI's when, read
//! from the first step, each q >= 2^64 is proved by a later ecpp step.
//!
//! The theorem is the same (Goldwasser-Kilian, Atkin-Morain: q prime,
//! q > (N^(1/4) + 1)^2, m P = O and (m / q) P != O prove N prime). The checks differ in
//! detail; each is sound, and a certificate PARI's `primecert` makes passes both:
//!
//! | condition | PARI `primecertisvalid` | ours ([`super::verify`]) |
//! |-----------|-------------------------|--------------------------|
//! | N coprime to 6 | N = ±1 mod 6 | gcd(N, 6) = 1 |
//! | size of N | any N > 0 | 2^64 < N < 2^16384 per step |
//! | Hasse | t^2 < 4N | m <= N + 2 + 2 floor(sqrt N) (bounds the work) |
//! | q > (N^(1/4) + 1)^2 | exactly, in integers | r = floor(sqrt q), (r - 1)^4 > N: slightly stricter (a q within about 2 sqrt(q) of the bound passes PARI only) |
//! | curve | no check | 4a^3 + 27b^2 invertible mod N |
//! | points | m P has Z = 0; s P has Z coprime to N | (m/q) P has Z coprime to N; q (m/q) P has Z = 0, Y coprime to N |
//! | last q | q < 2^64, BPSW | q < 2^64, exact deterministic test |
//!
//! # PARI's N - 1 certificate
//!
//! `primecert(N, 1)` writes `[N, [f_1, ..., f_k]]` where each f_i is a prime p < 2^64
//! given alone, or `[p, a, C]` for p >= 2^64 with a witness a and C, p's own N - 1
//! certificate (nested: a tree, not a chain). PARI's checker takes F as the product of
//! the p^(v_p(N - 1)), requires of each large p that gcd(a^((N-1)/p) - 1, N) = 1 and
//! a^(N-1) = 1, and accepts when F^2 > N, or F^3 > N and the Brillhart-Lehmer-Selfridge
//! quadratic test passes.
//!
//! A [`PocklingtonStep`] chain maps onto it: PARI's F (full valuations) is at least our
//! F, so F^2 > N still holds; a large factor's witness meets the same conditions; the
//! witnesses of primes below 2^64 are dropped (the format has no place for them), and a
//! step used by several parents is repeated under each. [`to_pari`] writes this form for
//! a certificate whose steps, read from the first, are all Pocklington steps, and refuses
//! a chain mixing the two methods (neither PARI form nests the other).
//!
//! PARI's verdict on an N - 1 certificate is weaker evidence than ours: PARI 2.15's
//! checker asks for no witness for a prime below 2^64 and counts it in F unchecked, so it
//! accepts `[2^128 + 1, [2]]` although 2^128 + 1 = 59649589127497217 *
//! 5704689200685129054721. Ours checks a witness for every factor. [`from_pari`] does not
//! read this form: it has no witnesses for the small primes and may rest on the BLS
//! cube-root test, which a Pocklington step does not express.

use super::{Certificate, CertificateError, EcppStep, Step, MAX_CERTIFICATE_BYTES, MAX_CERTIFIED_BITS, MAX_STEPS};
use num_bigint::{BigInt, BigUint, Sign};
use num_integer::Integer;
use num_traits::Zero;
use std::collections::BTreeMap;
use std::fmt::Write;

/// Longest text [`to_pari`] writes (an N - 1 tree repeats shared steps, so a small
/// certificate could otherwise expand without bound).
pub const MAX_PARI_BYTES: usize = 16 * MAX_CERTIFICATE_BYTES;
/// Deepest nesting of N - 1 certificates [`to_pari`] writes: each level's prime is at
/// most half its parent's N, and a chain losing just a few bits per level from 16,384
/// bits stays well below this; the bound keeps the recursion's stack small.
const MAX_NESTING: usize = 1024;
/// Deepest nesting of brackets [`from_pari`] reads (an ECPP certificate needs 3).
const MAX_DEPTH: usize = 8;
/// Most decimal digits in one integer [`from_pari`] reads (t and unreduced a, x, y may
/// exceed N; twice the digits of the largest certified N is plenty).
const MAX_DIGITS: usize = 2 * (MAX_CERTIFIED_BITS as usize * 30103 / 100_000 + 1);

/// Why [`to_pari`] wrote nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PariExportError {
    /// The certificate does not map onto either of PARI's forms (mixed methods, no step,
    /// a chain that does not close).
    Unsupported(String),
    /// Step `step` cannot be written faithfully (PARI would check something else).
    Inconsistent {
        /// The step, 0-based.
        step: usize,
        /// What PARI would check instead.
        reason: String,
    },
    /// The N - 1 tree would exceed [`MAX_PARI_BYTES`].
    TooLarge,
}

impl core::fmt::Display for PariExportError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            PariExportError::Unsupported(m) => write!(f, "no PARI form: {m}"),
            PariExportError::Inconsistent { step, reason } => write!(f, "no PARI form: step {step}: {reason}"),
            PariExportError::TooLarge => write!(f, "no PARI form: the N-1 tree exceeds {MAX_PARI_BYTES} bytes"),
        }
    }
}

impl std::error::Error for PariExportError {}

/// The certificate as a GP expression for `primecertisvalid`: PARI's ECPP vector when the
/// steps are ecpp steps, PARI's N - 1 form when they are Pocklington steps (module
/// documentation). Only the steps the first one relies on are written.
pub fn to_pari(c: &Certificate) -> Result<String, PariExportError> {
    let Some(first) = c.steps.first() else {
        return Err(PariExportError::Unsupported("the certificate has no steps".into()));
    };
    if c.steps.len() > MAX_STEPS {
        return Err(PariExportError::Unsupported(format!("{} steps, at most {MAX_STEPS}", c.steps.len())));
    }
    match first {
        Step::Ecpp(_) => ecpp_to_pari(c),
        Step::Pocklington(_) => {
            let mut out = String::new();
            pocklington_to_pari(c, 0, 0, &mut out)?;
            Ok(out)
        }
    }
}

fn ecpp_to_pari(c: &Certificate) -> Result<String, PariExportError> {
    let mut out = String::from("[");
    let mut i = 0;
    loop {
        let Step::Ecpp(s) = &c.steps[i] else {
            return Err(PariExportError::Unsupported(format!(
                "step {i} is a Pocklington step in an ecpp chain: PARI's ECPP certificate has ecpp steps only"
            )));
        };
        let inconsistent = |reason: &str| PariExportError::Inconsistent { step: i, reason: reason.into() };
        if s.n.is_zero() || s.q.is_zero() || s.m.is_zero() || !(&s.m % &s.q).is_zero() {
            return Err(inconsistent("q does not divide m"));
        }
        if s.a >= s.n || s.b >= s.n || s.x >= s.n || s.y >= s.n {
            return Err(inconsistent("a, b, x, y must be reduced mod n"));
        }
        let n = &s.n;
        let b = (&s.y * &s.y + n * n * n - (&s.x * &s.x * &s.x) % n - (&s.a * &s.x) % n) % n;
        if b != s.b {
            return Err(inconsistent("b is not y^2 - x^3 - a x mod n: PARI derives b from P and would check another curve"));
        }
        let t = BigInt::from(n.clone()) + 1 - BigInt::from(s.m.clone());
        let sf = &s.m / &s.q;
        if i > 0 {
            out.push_str(", ");
        }
        let _ = write!(out, "[{n}, {t}, {sf}, {}, [{}, {}]]", s.a, s.x, s.y);
        if s.q.bits() <= 64 {
            break;
        }
        i = c.prover_after(i, &s.q).ok_or_else(|| inconsistent("q >= 2^64 is proved by no later step"))?;
    }
    out.push(']');
    Ok(out)
}

/// Appends step `i`'s N - 1 certificate `[N, [...]]`, with its large factors' own
/// certificates nested.
fn pocklington_to_pari(c: &Certificate, i: usize, depth: usize, out: &mut String) -> Result<(), PariExportError> {
    if depth > MAX_NESTING {
        return Err(PariExportError::Unsupported(format!("N-1 certificates nested deeper than {MAX_NESTING}")));
    }
    let Step::Pocklington(s) = &c.steps[i] else {
        return Err(PariExportError::Unsupported(format!(
            "step {i} is an ecpp step in a Pocklington chain: PARI's N-1 certificate nests N-1 certificates only"
        )));
    };
    // One entry per prime (PARI counts p's full valuation in N - 1 once).
    let mut by_prime: BTreeMap<&BigUint, &BigUint> = BTreeMap::new();
    for f in &s.factors {
        by_prime.entry(&f.q).or_insert(&f.witness);
    }
    let _ = write!(out, "[{}, [", s.n);
    for (j, (q, w)) in by_prime.into_iter().enumerate() {
        if out.len() > MAX_PARI_BYTES {
            return Err(PariExportError::TooLarge);
        }
        if j > 0 {
            out.push_str(", ");
        }
        if q.bits() <= 64 {
            let _ = write!(out, "{q}");
        } else {
            let k = c.prover_after(i, q).ok_or_else(|| PariExportError::Inconsistent {
                step: i,
                reason: format!("factor {q} >= 2^64 is proved by no later step"),
            })?;
            let _ = write!(out, "[{q}, {w}, ");
            pocklington_to_pari(c, k, depth + 1, out)?;
            out.push(']');
        }
    }
    out.push_str("]]");
    if out.len() > MAX_PARI_BYTES {
        return Err(PariExportError::TooLarge);
    }
    Ok(())
}

/// A GP value as far as certificates need: integers and vectors.
enum Gp {
    Int(BigInt),
    Vec(Vec<Gp>),
}

struct Parser<'a> {
    s: &'a [u8],
    pos: usize,
}

fn malformed(m: impl Into<String>) -> CertificateError {
    CertificateError::Malformed(m.into())
}

impl Parser<'_> {
    fn skip_space(&mut self) {
        while self.pos < self.s.len() && self.s[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
    }

    fn peek(&mut self) -> Option<u8> {
        self.skip_space();
        self.s.get(self.pos).copied()
    }

    fn value(&mut self, depth: usize) -> Result<Gp, CertificateError> {
        match self.peek() {
            Some(b'[') => {
                if depth >= MAX_DEPTH {
                    return Err(malformed(format!("brackets nested deeper than {MAX_DEPTH}")));
                }
                self.pos += 1;
                let mut items = Vec::new();
                if self.peek() == Some(b']') {
                    self.pos += 1;
                    return Ok(Gp::Vec(items));
                }
                loop {
                    if items.len() >= MAX_STEPS {
                        return Err(malformed(format!("a vector of more than {MAX_STEPS} entries")));
                    }
                    items.push(self.value(depth + 1)?);
                    match self.peek() {
                        Some(b',') => self.pos += 1,
                        Some(b']') => {
                            self.pos += 1;
                            return Ok(Gp::Vec(items));
                        }
                        _ => return Err(malformed(format!("expected ',' or ']' at byte {}", self.pos))),
                    }
                }
            }
            Some(c) if c == b'-' || c.is_ascii_digit() => {
                let neg = c == b'-';
                if neg {
                    self.pos += 1;
                }
                let start = self.pos;
                while self.pos < self.s.len() && self.s[self.pos].is_ascii_digit() {
                    self.pos += 1;
                    if self.pos - start > MAX_DIGITS {
                        return Err(malformed(format!("an integer of more than {MAX_DIGITS} digits")));
                    }
                }
                let digits = &self.s[start..self.pos];
                let m = BigUint::parse_bytes(digits, 10).ok_or_else(|| malformed(format!("expected digits at byte {start}")))?;
                Ok(Gp::Int(BigInt::from_biguint(if neg { Sign::Minus } else { Sign::Plus }, m)))
            }
            Some(_) => Err(malformed(format!("expected an integer or '[' at byte {}", self.pos))),
            None => Err(malformed("unexpected end of text")),
        }
    }
}

fn int<'a>(v: &'a Gp, what: &str, i: usize) -> Result<&'a BigInt, CertificateError> {
    match v {
        Gp::Int(x) => Ok(x),
        Gp::Vec(_) => Err(malformed(format!("step {i}: {what} must be an integer"))),
    }
}

/// Why PARI's N - 1 certificates are not read.
const N_MINUS_1_REASON: &str =
    "PARI's N-1 certificate [N, [...]]: not read (it gives no witness for primes below 2^64 and may rest on the BLS cube-root test)";

/// Whether `text` opens as `[N, [` with N a decimal integer: PARI's N - 1 form (its
/// elliptic-curve form opens with `[[`).
fn opens_like_n_minus_1(text: &str) -> bool {
    let Some(rest) = text.trim_start().strip_prefix('[') else { return false };
    let rest = rest.trim_start();
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && rest[digits..].trim_start().strip_prefix(',').is_some_and(|r| r.trim_start().starts_with('['))
}

/// Reads the ECPP certificate PARI's `primecert(N)` prints (a GP vector
/// `[[N, t, s, a, [x, y]], ...]`, any whitespace between tokens) into ecpp steps, in the same order
/// (module documentation). Only the form is checked here; [`super::verify`] checks the
/// proof. PARI's bare-integer certificate (a prime below 2^64) and its N - 1 form are
/// refused as malformed, with the reason.
pub fn from_pari(text: &str) -> Result<Certificate, CertificateError> {
    if text.len() > MAX_CERTIFICATE_BYTES {
        return Err(malformed(format!("{} bytes, at most {MAX_CERTIFICATE_BYTES}", text.len())));
    }
    // PARI's N - 1 form [N, [...]] opens with an integer and then a vector, and nests as
    // deep as its chain: told apart by that opening before parsing, so that a deep one
    // gets its reason rather than the parser's nesting cap.
    if opens_like_n_minus_1(text) {
        return Err(malformed(N_MINUS_1_REASON));
    }
    let mut p = Parser { s: text.as_bytes(), pos: 0 };
    let v = p.value(0)?;
    if p.peek().is_some() {
        return Err(malformed(format!("text after the certificate at byte {}", p.pos)));
    }
    let steps = match v {
        Gp::Int(_) => {
            return Err(malformed(
                "a bare integer: PARI's certificate of a prime below 2^64, which needs no step here (the exact test decides)",
            ))
        }
        Gp::Vec(steps) => steps,
    };
    if steps.len() == 2 && matches!(steps[0], Gp::Int(_)) {
        return Err(malformed(N_MINUS_1_REASON));
    }
    if steps.is_empty() {
        return Err(malformed("no steps"));
    }
    let mut out = Vec::with_capacity(steps.len());
    for (i, st) in steps.iter().enumerate() {
        let Gp::Vec(f) = st else {
            return Err(malformed(format!("step {i}: expected [N, t, s, a, [x, y]]")));
        };
        let [n, t, s, a, pt] = &f[..] else {
            return Err(malformed(format!("step {i}: expected 5 entries [N, t, s, a, [x, y]], found {}", f.len())));
        };
        let Gp::Vec(xy) = pt else {
            return Err(malformed(format!("step {i}: P must be a vector [x, y]")));
        };
        let [x, y] = &xy[..] else {
            return Err(malformed(format!("step {i}: P must have 2 entries, found {}", xy.len())));
        };
        let (n, t, s, a, x, y) = (int(n, "N", i)?, int(t, "t", i)?, int(s, "s", i)?, int(a, "a", i)?, int(x, "x", i)?, int(y, "y", i)?);
        let n = match n.to_biguint() {
            Some(n) if n.bits() >= 2 => n,
            _ => return Err(malformed(format!("step {i}: N must be at least 2"))),
        };
        if n.bits() > MAX_CERTIFIED_BITS {
            return Err(malformed(format!("step {i}: N has {} bits, above the cap of {MAX_CERTIFIED_BITS}", n.bits())));
        }
        let ni = BigInt::from(n.clone());
        let m = match (&ni + 1u8 - t).to_biguint() {
            Some(m) if !m.is_zero() => m,
            _ => return Err(malformed(format!("step {i}: m = N + 1 - t must be positive"))),
        };
        let s = match s.to_biguint() {
            Some(s) if !s.is_zero() => s,
            _ => return Err(malformed(format!("step {i}: s must be positive"))),
        };
        let (q, r) = m.div_rem(&s);
        if !r.is_zero() {
            return Err(malformed(format!("step {i}: s does not divide m = N + 1 - t")));
        }
        let reduce = |v: &BigInt| v.mod_floor(&ni).to_biguint().expect("mod_floor by a positive modulus is non-negative");
        let (a, x, y) = (reduce(a), reduce(x), reduce(y));
        let b = reduce(&(BigInt::from(&y * &y) - BigInt::from(&x * &x * &x) - BigInt::from(&a * &x)));
        out.push(Step::Ecpp(EcppStep { n, a, b, m, q, x, y, d: None }));
    }
    let prime = out.first().map(|s| s.n().clone()).ok_or_else(|| malformed("no steps"))?;
    Ok(Certificate::new(prime, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    // primecert(10^35 + 69) and primecert(nextprime(2^100), 1), PARI/GP 2.15.2.
    const ECPP: &str = "[[100000000000000000000000000000000069, 546867911035452074, 2963504668391148, 0, \
        [60737979324046450274283740674208692, 24368673584839493121227731392450025]], \
        [33743830764501150277, -11610830419, 734208843, 0, [562706585515371056, 7584644385934002041]]]";
    const N_MINUS_1: &str = "[1267650600228229401496703205653, [2, 52203989, [6070659658921032842417, 2, \
        [6070659658921032842417, [2, 79, 24091, 199358145030559]]]]]";

    #[test]
    fn pari_output_reads_verifies_and_writes_back() {
        let c = from_pari(ECPP).unwrap();
        assert_eq!(c.steps.len(), 2);
        let Step::Ecpp(s) = &c.steps[1] else { unreachable!() };
        assert_eq!(s.n.to_string(), "33743830764501150277");
        assert_eq!(s.m, &s.n + 1u8 + 11_610_830_419u64);
        assert_eq!(&s.q * 734_208_843u32, s.m);
        assert_eq!(super::super::verify(&c, None).unwrap().to_string(), "100000000000000000000000000000000069");
        let back = to_pari(&c).unwrap();
        assert_eq!(back, ECPP.split_whitespace().collect::<Vec<_>>().join(" "));
        assert_eq!(from_pari(&back).unwrap(), c);
        // A wrapped number ("123 456") is not one number.
        assert!(from_pari(&ECPP.replace("562706585515", "562706 585515")).is_err());
        let why = from_pari(N_MINUS_1).unwrap_err().to_string();
        assert!(why.contains("N-1 certificate"), "{why}");
        // A deep N - 1 chain (twelve levels, past the parser's nesting cap) gets the same
        // reason; the elliptic-curve form and other vectors are not taken for it.
        let deep = (0..12).fold("[3, [2]]".to_string(), |inner, k| format!("[{}, [2, {inner}]]", 1000 + k));
        let why = from_pari(&deep).unwrap_err().to_string();
        assert!(why.contains("N-1 certificate"), "{why}");
        for other in [ECPP, "[7, 8, 9]", "[ 7 , x]", "[[7, [2]]]"] {
            assert!(!opens_like_n_minus_1(other), "{other}");
        }
        assert!(opens_like_n_minus_1(" [ 97 ,\n [2, 3]]"));
    }

    #[test]
    fn malformed_text_is_refused_without_panicking() {
        let deep = "[".repeat(100_000);
        let long_int = "9".repeat(MAX_DIGITS + 1);
        for bad in [
            "",
            "[",
            "]",
            "[]",
            "[[]]",
            "41",
            "-5",
            "abc",
            "[1,2",
            "[1,,2]",
            "[1 2]",
            "[[1,2,3,4,[5,6]]] x",
            "[[1,2,3,4,5]]",
            "[[1,2,3,4,[5]]]",
            "[[1,2,3,[4],[5,6]]]",
            "[[0,0,1,0,[0,0]]]",
            "[[-7,0,1,0,[0,0]]]",
            "[[7,0,0,0,[0,0]]]",
            "[[7,0,-1,0,[0,0]]]",
            "[[7,9,1,0,[0,0]]]",
            "[[7,0,3,0,[0,0]]]",
            "[7, [2, 3]]",
            "[[7,0,1,0,[0,0]], 5]",
            "[[7,0,1,0,[0,0,0]]]",
            deep.as_str(),
            long_int.as_str(),
            "[1.5]",
            "[x]",
            "[[7,0,1,0,[0,0]]];",
        ] {
            match from_pari(bad) {
                Err(CertificateError::Malformed(_)) => {}
                other => panic!("{bad:.40?}: {other:?}"),
            }
        }
        assert!(matches!(from_pari(&" ".repeat(MAX_CERTIFICATE_BYTES + 1)), Err(CertificateError::Malformed(_))));
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let alphabet = b"[]0123456789-, \n";
        for len in 0..400 {
            let text: String = (0..len)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    alphabet[(state % alphabet.len() as u64) as usize] as char
                })
                .collect();
            let _ = from_pari(&text);
        }
    }

    #[test]
    fn export_refuses_what_does_not_map() {
        assert!(matches!(to_pari(&Certificate::new(BigUint::from(97u8), vec![])), Err(PariExportError::Unsupported(_))));
    }
}
