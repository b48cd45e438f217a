//! The JSON form of a certificate (docs/certificate-format.md): integers as decimal
//! strings, so every JSON reader keeps them exact.

use super::{Certificate, CertificateError, EcppStep, Factor, PocklingtonStep, Step, CERTIFICATE_VERSION, MAX_DECIMAL_DIGITS, MAX_STEPS};
use num_bigint::BigUint;
use serde_json::{json, Map, Value};

/// Largest certificate text accepted, in bytes (1 MiB); anything longer is refused
/// before parsing.
pub const MAX_CERTIFICATE_BYTES: usize = 1 << 20;

/// The `format` field's value.
const FORMAT: &str = "primekit-certificate";
/// Exponents k of a factor q^k: a JSON integer in 1..=MAX_EXPONENT, anything else is
/// malformed.
pub const MAX_EXPONENT: u32 = 65_536;
/// Deepest nesting of arrays and objects accepted anywhere in the document (a
/// certificate needs 5; serde_json itself stops at 128).
pub const MAX_NESTING: usize = 64;

fn malformed(m: impl Into<String>) -> CertificateError {
    CertificateError::Malformed(m.into())
}

/// The certificate as JSON text (one object).
pub fn to_json(c: &Certificate) -> String {
    let steps: Vec<Value> = c
        .steps
        .iter()
        .map(|s| match s {
            Step::Pocklington(s) => {
                let factors: Vec<Value> =
                    s.factors.iter().map(|f| json!({"q": f.q.to_string(), "k": f.k, "witness": f.witness.to_string()})).collect();
                json!({"n": s.n.to_string(), "method": "pocklington", "factors": factors})
            }
            Step::Ecpp(e) => {
                let mut v = json!({"n": e.n.to_string(), "method": "ecpp", "a": e.a.to_string(), "b": e.b.to_string(),
                    "m": e.m.to_string(), "q": e.q.to_string(), "x": e.x.to_string(), "y": e.y.to_string()});
                if let Some(d) = e.d {
                    v["d"] = json!(d);
                }
                v
            }
        })
        .collect();
    let prime = c.prime.to_string();
    // Version 1 readers know non-empty Pocklington chains only: a certificate they can
    // read says 1.
    let version = if c.steps.iter().all(|s| matches!(s, Step::Pocklington(_))) && !c.steps.is_empty() { 1 } else { CERTIFICATE_VERSION };
    json!({"format": FORMAT, "version": version, "prime": prime, "steps": steps}).to_string()
}

fn field<'a>(o: &'a Map<String, Value>, key: &str, at: &str) -> Result<&'a Value, CertificateError> {
    o.get(key).ok_or_else(|| malformed(format!("{at}: missing \"{key}\"")))
}

fn integer(v: &Value, at: &str) -> Result<BigUint, CertificateError> {
    let s = v.as_str().ok_or_else(|| malformed(format!("{at}: expected a decimal string")))?;
    // Decimal digits bound the size before parsing: at most those of 2^MAX_CERTIFIED_BITS - 1.
    if s.is_empty() || s.len() > MAX_DECIMAL_DIGITS || !s.bytes().all(|b| b.is_ascii_digit()) {
        return Err(malformed(format!("{at}: expected a decimal string of at most {MAX_DECIMAL_DIGITS} digits")));
    }
    BigUint::parse_bytes(s.as_bytes(), 10).ok_or_else(|| malformed(format!("{at}: not a number")))
}

/// Parses certificate text (at most [`MAX_CERTIFICATE_BYTES`]).
pub fn from_json(text: &[u8]) -> Result<Certificate, CertificateError> {
    if text.len() > MAX_CERTIFICATE_BYTES {
        return Err(malformed(format!("{} bytes, at most {MAX_CERTIFICATE_BYTES}", text.len())));
    }
    let v: Value = serde_json::from_slice(text).map_err(|e| malformed(format!("not JSON: {e}")))?;
    if nesting(&v) > MAX_NESTING {
        return Err(malformed(format!("nested deeper than {MAX_NESTING} levels")));
    }
    let o = v.as_object().ok_or_else(|| malformed("not a JSON object"))?;
    if field(o, "format", "certificate")?.as_str() != Some(FORMAT) {
        return Err(malformed(format!("\"format\" must be \"{FORMAT}\"")));
    }
    // A JSON integer: 1.0 is a float to serde_json, hence not a version.
    let version = field(o, "version", "certificate")?;
    let version = match version.as_u64() {
        Some(v @ 1..=CERTIFICATE_VERSION) => v,
        _ => return Err(malformed(format!("unsupported version {version}; this reader knows the integers 1..={CERTIFICATE_VERSION}"))),
    };
    let prime = integer(field(o, "prime", "certificate")?, "prime")?;
    let steps_v = field(o, "steps", "certificate")?.as_array().ok_or_else(|| malformed("\"steps\" must be an array"))?;
    // Version 2 lets a prime below 2^64 have no steps.
    let least = if version >= 2 { 0 } else { 1 };
    if steps_v.len() < least || steps_v.len() > MAX_STEPS {
        return Err(malformed(format!("\"steps\" must hold {least}..={MAX_STEPS} steps")));
    }
    let mut steps = Vec::with_capacity(steps_v.len());
    for (i, s) in steps_v.iter().enumerate() {
        let at = format!("step {i}");
        let so = s.as_object().ok_or_else(|| malformed(format!("{at}: not an object")))?;
        let n = integer(field(so, "n", &at)?, &format!("{at}.n"))?;
        match field(so, "method", &at)?.as_str() {
            Some("pocklington") => {}
            Some("ecpp") if version >= 2 => {
                steps.push(Step::Ecpp(ecpp_step(so, n, &at)?));
                continue;
            }
            _ => {
                let known = if version >= 2 { "\"pocklington\" or \"ecpp\"" } else { "\"pocklington\"" };
                return Err(malformed(format!("{at}: \"method\" must be {known}")));
            }
        }
        let fv = field(so, "factors", &at)?.as_array().ok_or_else(|| malformed(format!("{at}: \"factors\" must be an array")))?;
        let mut factors = Vec::with_capacity(fv.len());
        for (j, f) in fv.iter().enumerate() {
            let at = format!("{at}.factors[{j}]");
            let fo = f.as_object().ok_or_else(|| malformed(format!("{at}: not an object")))?;
            let k = field(fo, "k", &at)?
                .as_u64()
                .and_then(|k| u32::try_from(k).ok())
                .filter(|k| (1..=MAX_EXPONENT).contains(k))
                .ok_or_else(|| malformed(format!("{at}.k: expected an integer in 1..={MAX_EXPONENT}")))?;
            factors.push(Factor {
                q: integer(field(fo, "q", &at)?, &format!("{at}.q"))?,
                k,
                witness: integer(field(fo, "witness", &at)?, &format!("{at}.witness"))?,
            });
        }
        steps.push(Step::Pocklington(PocklingtonStep { n, factors }));
    }
    if steps.first().is_some_and(|s| s.n() != &prime) {
        return Err(malformed("\"prime\" differs from the first step's n"));
    }
    Ok(Certificate::new(prime, steps))
}

/// Depth of the deepest array or object in `v` (a scalar is 0), without recursion.
fn nesting(v: &Value) -> usize {
    let mut deepest = 0;
    let mut todo = vec![(v, 0usize)];
    while let Some((v, depth)) = todo.pop() {
        let children: Box<dyn Iterator<Item = &Value>> = match v {
            Value::Array(a) => Box::new(a.iter()),
            Value::Object(o) => Box::new(o.values()),
            _ => continue,
        };
        deepest = deepest.max(depth + 1);
        todo.extend(children.map(|c| (c, depth + 1)));
    }
    deepest
}

/// The fields of an `ecpp` step after its `n` and `method`.
fn ecpp_step(so: &Map<String, Value>, n: BigUint, at: &str) -> Result<EcppStep, CertificateError> {
    let int = |key: &str| integer(field(so, key, at)?, &format!("{at}.{key}"));
    let d = match so.get("d") {
        None => None,
        Some(v) => Some(v.as_i64().filter(|d| *d < 0).ok_or_else(|| malformed(format!("{at}.d: expected a negative integer")))?),
    };
    Ok(EcppStep { n, a: int("a")?, b: int("b")?, m: int("m")?, q: int("q")?, x: int("x")?, y: int("y")?, d })
}
