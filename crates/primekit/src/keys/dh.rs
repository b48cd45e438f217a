//! Audit of Diffie-Hellman parameter files.
//!
//! Reads the first PEM block labelled
//! - `DH PARAMETERS`: PKCS#3 `DHParameter ::= SEQUENCE { prime INTEGER, base INTEGER,
//!   privateValueLength INTEGER OPTIONAL }`, as `openssl dhparam` writes; or
//! - `X9.42 DH PARAMETERS`: RFC 3279 `DomainParameters ::= SEQUENCE { p INTEGER,
//!   g INTEGER, q INTEGER, j INTEGER OPTIONAL, validationParams ValidationParams
//!   OPTIONAL }`, as `openssl genpkey -genparam -algorithm DHX` writes.
//!
//! Checks, in this order (names are stable):
//! `p_size`, `p_prime`, then either (X9.42) `q_size`, `q_prime`, `q_divides_p_minus_1`,
//! (`j_cofactor`) or (PKCS#3) `p_safe_prime`; then `g_range` (1 < g < p-1), `g_order`
//! (g^q = 1 mod p, with q = (p-1)/2 for a safe prime), (`private_value_length`).
//! Parenthesised checks appear only when the field is present.
//!
//! Primality uses [`crate::try_is_prime`] (Massimo & Paterson 2020, §3.2.3: error <= 2^-128 even for crafted
//! composites, which is what defeats the "Safety in Numbers" attack). For a PKCS#3 group
//! (p-1)/2 is tested first; when it is prime, p follows from one Pocklington step
//! (`p_prime`, `primality::pocklington`), halving the cost of auditing a
//! safe-prime group. `validationParams` (seed, pgenCounter) are parsed but not
//! re-derived; no check depends on them.

use super::input::{decode_pem, uint_value, InputError};
use super::limits::Limits;
use super::named_groups::{named_group, NamedGroup};
use super::policy;
use super::report::{Check, CheckReport, Status};
use crate::arith::modexp::modpow_vartime;
use crate::primality::pocklington::safe_prime_by_pocklington;
use crate::{try_is_prime, Error};
use der::asn1::{BitStringRef, UintRef};
use der::{Decode, Sequence};
use num_bigint::BigUint;
use num_traits::{One, Zero};

/// PEM label of PKCS#3 parameters.
pub const PKCS3_LABEL: &str = "DH PARAMETERS";
/// PEM label of X9.42 parameters.
pub const X942_LABEL: &str = "X9.42 DH PARAMETERS";

/// PKCS#3 `DHParameter`.
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub struct DhParameter<'a> {
    /// p.
    pub prime: UintRef<'a>,
    /// g.
    pub base: UintRef<'a>,
    /// The optional private-value length l.
    #[asn1(optional = "true")]
    pub private_value_length: Option<UintRef<'a>>,
}

/// RFC 3279 `ValidationParams` (FIPS 186 generation seed and counter).
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub struct ValidationParams<'a> {
    /// The generation seed.
    pub seed: BitStringRef<'a>,
    /// The generation counter.
    pub pgen_counter: UintRef<'a>,
}

/// RFC 3279 `DomainParameters` (X9.42).
#[derive(Clone, Debug, Eq, PartialEq, Sequence)]
pub struct DomainParameters<'a> {
    /// The prime p.
    pub p: UintRef<'a>,
    /// The generator g.
    pub g: UintRef<'a>,
    /// The prime order q of g.
    pub q: UintRef<'a>,
    /// The cofactor j = (p - 1) / q, optional.
    #[asn1(optional = "true")]
    pub j: Option<UintRef<'a>>,
    /// Seed and counter of the generation, optional.
    #[asn1(optional = "true")]
    pub validation_params: Option<ValidationParams<'a>>,
}

/// Parsed parameters, as integers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DhParams {
    /// `"pkcs3"` or `"x9.42"`.
    pub format: &'static str,
    /// The prime p.
    pub p: BigUint,
    /// The generator g.
    pub g: BigUint,
    /// The subgroup order q (X9.42 only).
    pub q: Option<BigUint>,
    /// The cofactor j (X9.42, when present).
    pub j: Option<BigUint>,
    /// The private-value length l (PKCS#3, when present).
    pub private_value_length: Option<BigUint>,
}

/// The PKCS#3 `DH PARAMETERS` PEM block of (p, g), as `openssl dhparam` writes it
/// (`privateValueLength` omitted, as OpenSSL omits it). The error, an encoder failure,
/// is not expected for any p and g.
pub fn to_pkcs3_pem(p: &BigUint, g: &BigUint) -> Result<String, Error> {
    use der::Encode;
    let encoding = |e: der::Error| Error::InvalidArgument(format!("DH parameters cannot be encoded: {e}"));
    let (pb, gb) = (p.to_bytes_be(), g.to_bytes_be());
    let params =
        DhParameter { prime: UintRef::new(&pb).map_err(encoding)?, base: UintRef::new(&gb).map_err(encoding)?, private_value_length: None };
    let der = params.to_der().map_err(encoding)?;
    pem_rfc7468::encode_string(PKCS3_LABEL, pem_rfc7468::LineEnding::LF, &der)
        .map_err(|e| Error::InvalidArgument(format!("PEM encoding failed: {e}")))
}

/// Parses a PEM file's bytes (see module docs for the accepted labels).
pub fn parse_dh_pem(bytes: &[u8]) -> Result<DhParams, InputError> {
    let (label, der) = decode_pem(bytes, &[PKCS3_LABEL, X942_LABEL])?;
    if label == PKCS3_LABEL {
        let d = DhParameter::from_der(&der).map_err(|e| InputError::Der(format!("{label}: {e}")))?;
        Ok(DhParams {
            format: "pkcs3",
            p: uint_value(&d.prime)?,
            g: uint_value(&d.base)?,
            q: None,
            j: None,
            private_value_length: d.private_value_length.as_ref().map(uint_value).transpose()?,
        })
    } else {
        let d = DomainParameters::from_der(&der).map_err(|e| InputError::Der(format!("{label}: {e}")))?;
        Ok(DhParams {
            format: "x9.42",
            p: uint_value(&d.p)?,
            g: uint_value(&d.g)?,
            q: Some(uint_value(&d.q)?),
            j: d.j.as_ref().map(uint_value).transpose()?,
            private_value_length: None,
        })
    }
}

/// Parses and audits a PEM file's bytes, with the default size cap ([`Limits::dh`]).
pub fn check_dh_pem(bytes: &[u8]) -> Result<CheckReport, InputError> {
    check_dh_pem_with_limits(bytes, &Limits::dh())
}

/// Parses and audits a PEM file's bytes under `limits`.
pub fn check_dh_pem_with_limits(bytes: &[u8], limits: &Limits) -> Result<CheckReport, InputError> {
    check_dh_with_limits(&parse_dh_pem(bytes)?, limits)
}

fn prime_detail(what: &str, prime: bool) -> String {
    if prime {
        format!("{what} is prime (error probability <= 2^-128)")
    } else {
        format!("{what} is composite")
    }
}

/// Audits parsed parameters with the default size cap ([`Limits::dh`]).
pub fn check_dh(d: &DhParams) -> Result<CheckReport, InputError> {
    check_dh_with_limits(d, &Limits::dh())
}

/// Audits parsed parameters; errors if p or q is wider than `limits` allows (before any
/// arithmetic), or if the OS random generator fails.
///
/// The cheap structural checks (`q_divides_p_minus_1`, `j_cofactor`, `g_range`,
/// `private_value_length`) are evaluated first. If one fails, the expensive ones
/// (`p_prime`, `q_prime`, `p_safe_prime`, `g_order`) are reported as skipped instead of
/// run: the report fails either way, and a crafted file must not buy hours of
/// exponentiations with a malformed field. The size minimums do not gate: a number
/// below them is cheap to test and its verdict is still worth reporting. The report keeps
/// the fixed order of the module documentation.
pub fn check_dh_with_limits(d: &DhParams, limits: &Limits) -> Result<CheckReport, InputError> {
    limits.admit("p", &d.p)?;
    if let Some(q) = &d.q {
        limits.admit("q", q)?;
    }
    let p = &d.p;
    let p_minus_1 = if p.is_zero() { BigUint::zero() } else { p - 1u32 };

    let p_size = policy::modulus_size("p_size", "p", p.bits());
    let subgroup = d.q.as_ref().map(|q| {
        let divides = q_divides_p_minus_1(q, &p_minus_1);
        let j = d.j.as_ref().map(|j| j_cofactor(j, q, &p_minus_1, divides.passed()));
        (q, policy::subgroup_size("q_size", "q", q.bits()), divides, j)
    });
    let g_range = g_range(&d.g, &p_minus_1);
    let private_value_length = d.private_value_length.as_ref().map(|l| private_value_length(l, p));
    let structural =
        subgroup.iter().flat_map(|(_, _, divides, j)| std::iter::once(divides).chain(j)).chain([&g_range]).chain(&private_value_length);
    let failed: Vec<&str> = structural.filter(|c| c.status == Status::Fail).map(|c| c.name).collect();
    let gate = (!failed.is_empty()).then(|| format!("not evaluated: the cheaper check {} failed", failed.join(", ")));
    let skipped = |name: &'static str| Check::new(name, Status::Skip, gate.clone().unwrap_or_default());

    // A standard group whose proof primekit ships: its primes are settled, not re-tested
    // (`check-dh --prove` checks the shipped proof itself).
    let named = named_group(p).filter(|g| d.q.as_ref().is_none_or(|q| *q == g.q()));
    let proven = named.filter(|g| g.certificate().is_some());
    let mut checks = vec![p_size];
    checks.extend(named.map(named_group_check));
    match subgroup {
        Some((q, q_size, divides, j)) => {
            checks.push(if gate.is_some() { skipped("p_prime") } else { p_prime(p, None, proven)? });
            let p_odd_prime = checks[1].passed() && p.bit(0);
            checks.push(q_size);
            let q_prime = if gate.is_some() { skipped("q_prime") } else { q_prime(q, proven)? };
            let order = (p_odd_prime && q_prime.passed() && divides.passed()).then(|| q.clone());
            checks.extend([q_prime, divides]);
            checks.extend(j);
            let in_range = g_range.passed();
            checks.push(g_range);
            checks.push(g_order(gate.as_deref(), in_range, &d.g, order.as_ref(), p, false)?);
        }
        None if gate.is_some() => {
            checks.extend([skipped("p_prime"), skipped("p_safe_prime"), g_range, skipped("g_order")]);
        }
        None => {
            // Without a stated q the group must be safe: (p-1)/2 is tested first, so that
            // p itself then needs one Fermat step instead of a full test (see `p_prime`).
            let half = &p_minus_1 >> 1;
            let half_prime = match proven {
                Some(_) => Some(true),
                None if p.bits() > 64 && p.bit(0) => Some(try_is_prime(&half)?),
                None => None,
            };
            if half_prime == Some(false) {
                // The group already fails `p_safe_prime`, found by (usually) one round on
                // (p-1)/2; a full test of p, a prime or a crafted pseudoprime, would cost
                // every round and change nothing.
                let why = "not evaluated: (p-1)/2 is composite, so the group fails p_safe_prime whatever p is";
                checks.extend([Check::new("p_prime", Status::Skip, why), p_safe_prime_fail(), g_range, skipped_g_order()]);
                checks.extend(private_value_length);
                return Ok(CheckReport { format: d.format, checks });
            }
            let p_prime = p_prime(p, half_prime, proven)?;
            // A usable group needs an odd prime p (p = 2 is prime but has no room for g).
            let p_odd_prime = p_prime.passed() && p.bit(0);
            let safe = p_safe_prime(p_odd_prime, half_prime, &half)?;
            let order = (safe.status == Status::Pass).then_some(half);
            checks.extend([p_prime, safe]);
            let in_range = g_range.passed();
            checks.push(g_range);
            checks.push(g_order(gate.as_deref(), in_range, &d.g, order.as_ref(), p, true)?);
        }
    }
    checks.extend(private_value_length);
    Ok(CheckReport { format: d.format, checks })
}

fn skipped_g_order() -> Check {
    Check::new("g_order", Status::Skip, "not evaluated: needs an odd prime p, a prime subgroup order q dividing p-1, and 1 < g < p-1")
}

/// `g_order`, once the subgroup order is established and g is in range; else skipped.
fn g_order(
    gate: Option<&str>,
    in_range: bool,
    g: &BigUint,
    order: Option<&BigUint>,
    p: &BigUint,
    derived: bool,
) -> Result<Check, InputError> {
    match (gate, order) {
        (None, Some(q)) if in_range => g_order_check(g, q, p, derived),
        (Some(why), _) => Ok(Check::new("g_order", Status::Skip, why)),
        _ => Ok(skipped_g_order()),
    }
}

/// `p_prime`. When `half_prime` says (p-1)/2 is prime, p follows from one Fermat step
/// to base 3 by Pocklington ([`safe_prime_by_pocklington`]: gcd(3^2 - 1, p) = 1 for odd
/// p), which replaces p's own t Miller-Rabin rounds; the only error left is that of the
/// test on (p-1)/2. Otherwise p gets the full test. `half_prime` is only set for odd
/// p > 2^64.
fn p_prime(p: &BigUint, half_prime: Option<bool>, proven: Option<&NamedGroup>) -> Result<Check, InputError> {
    if let Some(g) = proven {
        return Ok(Check::new("p_prime", Status::Pass, format!("p is prime: {}", shipped_proof(g))));
    }
    let (prime, detail) = if half_prime == Some(true) {
        let fermat = modpow_vartime(&BigUint::from(3u32), &(p - 1u32), p).map_err(Error::from)?.is_one();
        let prime = safe_prime_by_pocklington(p, 3, fermat);
        let how = "(Pocklington: (p-1)/2 is prime and 3^(p-1) = 1 mod p)";
        (prime, if prime { format!("p is prime {how}; error probability <= 2^-128") } else { "p is composite (3^(p-1) != 1 mod p)".into() })
    } else {
        let prime = try_is_prime(p)?;
        (prime, prime_detail("p", prime))
    };
    Ok(Check::new("p_prime", Status::from_bool(prime), detail))
}

/// `q_prime` (X9.42).
fn q_prime(q: &BigUint, proven: Option<&NamedGroup>) -> Result<Check, InputError> {
    if let Some(g) = proven {
        return Ok(Check::new("q_prime", Status::Pass, format!("q = (p-1)/2 is prime: {}", shipped_proof(g))));
    }
    let prime = try_is_prime(q)?;
    Ok(Check::new("q_prime", Status::from_bool(prime), prime_detail("q", prime)))
}

/// `named_group`: p is one of the standard primes (and q, when stated, is (p-1)/2).
fn named_group_check(g: &NamedGroup) -> Check {
    Check::new("named_group", Status::Pass, format!("p is the {} prime (g = 2 in the RFC; q = (p-1)/2)", g.label()))
}

/// How a shipped proof is described in `p_prime` / `q_prime`.
fn shipped_proof(g: &NamedGroup) -> String {
    format!("the {} prime, proven (with q) by the certificate primekit ships; --prove checks it now", g.label())
}

/// `q_divides_p_minus_1` (X9.42).
fn q_divides_p_minus_1(q: &BigUint, p_minus_1: &BigUint) -> Check {
    let divides = !q.is_zero() && !p_minus_1.is_zero() && (p_minus_1 % q).is_zero();
    Check::new("q_divides_p_minus_1", Status::from_bool(divides), if divides { "q divides p-1" } else { "q does not divide p-1" })
}

/// `j_cofactor` (X9.42, when j is present): j = (p-1)/q, given whether q divides p-1.
fn j_cofactor(j: &BigUint, q: &BigUint, p_minus_1: &BigUint, divides: bool) -> Check {
    let ok = divides && (p_minus_1 / q) == *j;
    Check::new("j_cofactor", Status::from_bool(ok), if ok { "j = (p-1)/q" } else { "j != (p-1)/q" })
}

/// `p_safe_prime` (PKCS#3): (p-1)/2 prime, reusing `half_prime` when `check_dh` already
/// tested it; skipped unless p is an odd prime (a composite (p-1)/2 is reported by
/// `check_dh_with_limits` before p is tested).
fn p_safe_prime(p_odd_prime: bool, half_prime: Option<bool>, half: &BigUint) -> Result<Check, InputError> {
    if !p_odd_prime {
        return Ok(Check::new("p_safe_prime", Status::Skip, "not evaluated: p is not an odd prime"));
    }
    let safe = match half_prime {
        Some(known) => known,
        None => try_is_prime(half)?,
    };
    Ok(if safe { Check::new("p_safe_prime", Status::Pass, "(p-1)/2 is prime: p is a safe prime") } else { p_safe_prime_fail() })
}

fn p_safe_prime_fail() -> Check {
    Check::new(
        "p_safe_prime",
        Status::Fail,
        "(p-1)/2 is composite: p is not a safe prime, and the file names no subgroup \
         order q, so small subgroups cannot be ruled out",
    )
}

/// `g_range`: 1 < g < p-1.
fn g_range(g: &BigUint, p_minus_1: &BigUint) -> Check {
    let one = BigUint::one();
    let g_in_range = *g > one && *p_minus_1 > one && g < p_minus_1;
    Check::new(
        "g_range",
        Status::from_bool(g_in_range),
        if g_in_range { "1 < g < p-1".to_string() } else { format!("g = {} is not in (1, p-1)", short(g)) },
    )
}

/// `private_value_length` (PKCS#3, when present): 1 ..= bits of p.
fn private_value_length(l: &BigUint, p: &BigUint) -> Check {
    let ok = !l.is_zero() && l.bits() <= 64 && l.iter_u64_digits().next().unwrap_or(0) <= p.bits();
    Check::new(
        "private_value_length",
        Status::from_bool(ok),
        format!("privateValueLength = {} bits (must be in 1..={})", short(l), p.bits()),
    )
}

/// g^q mod p: 1 means g lies in the subgroup of prime order q. For a safe prime with
/// q = (p-1)/2 derived (not stated), p-1 means g generates the whole group of order 2q,
/// which OpenSSL accepts but which leaks one bit (the Legendre symbol) of each secret.
fn g_order_check(g: &BigUint, q: &BigUint, p: &BigUint, derived: bool) -> Result<Check, InputError> {
    let r = modpow_vartime(g, q, p).map_err(Error::from)?;
    let which = if derived { "q = (p-1)/2" } else { "q" };
    Ok(if r.is_one() {
        Check::new("g_order", Status::Pass, format!("g^q = 1 mod p: g generates the subgroup of prime order {which}"))
    } else if derived && r == p - 1u32 {
        Check::new("g_order", Status::Warn, "g^q = p-1 mod p: g generates the full group of order 2q (leaks one bit of each secret)")
    } else {
        Check::new("g_order", Status::Fail, format!("g^q != 1 mod p ({which}): g is not in the order-q subgroup"))
    })
}

/// A number for a message: decimal when short, else its size.
fn short(n: &BigUint) -> String {
    if n.bits() <= 64 {
        n.to_string()
    } else {
        format!("<{}-bit number>", n.bits())
    }
}

/// `certificate` (when the caller supplies one, e.g. `check-dh --cert`): the
/// certificate proves p prime (Pocklington chain, [`crate::certificate`]) and its chain
/// proves the subgroup order q too (the stated q, or (p-1)/2 for PKCS#3), so the
/// group's primality rests on a proof instead of a probability. `max_work` is the work
/// limit of [`crate::certificate::verify_with_limit`] (usually
/// [`crate::certificate::DEFAULT_MAX_WORK`]).
pub fn certificate_check(d: &DhParams, cert: &crate::certificate::Certificate, max_work: u128) -> Check {
    let q = d.q.clone().unwrap_or_else(|| if d.p.bits() > 1 { (&d.p - 1u32) >> 1 } else { BigUint::zero() });
    match proves_p_and_q(cert, &d.p, &q, max_work) {
        Ok(()) => Check::new("certificate", Status::Pass, "p and q are proven prime by the certificate"),
        Err(e) => Check::new("certificate", Status::Fail, e),
    }
}

/// Whether `cert` proves p prime and its chain proves q too (q below 2^64 by the exact
/// test); the error says which part fails.
fn proves_p_and_q(cert: &crate::certificate::Certificate, p: &BigUint, q: &BigUint, max_work: u128) -> Result<(), String> {
    crate::certificate::verify_with_limit(cert, Some(p), max_work).map_err(|e| format!("the certificate does not prove p: {e}"))?;
    let q_small_prime = q.bits() <= 64 && crate::primality::is_prime_u64(q.iter_u64_digits().next().unwrap_or(0));
    if q_small_prime || cert.steps.iter().any(|s| s.n() == q) {
        Ok(())
    } else {
        Err("the certificate proves p but not q".into())
    }
}

/// `p_proof` and `q_proof` (`check-dh --prove`): each of p and the subgroup order q
/// (stated, or (p-1)/2 for PKCS#3) proven prime, or reported as probable when no proof
/// came within `opts` (its deadline). Asked only of numbers the report already found
/// prime, so a composite never pays for a proof search.
///
/// A standard group whose certificate primekit ships ([`NamedGroup::certificate`]) is
/// not searched: the shipped certificate is checked now, which proves both numbers.
/// Otherwise p is proven by [`crate::certificate::prove_with`] (whose chain, for a safe
/// prime, starts with a Pocklington step on q and so proves q too); a q the chain does
/// not reach gets a proof of its own.
pub fn proof_checks(d: &DhParams, report: &CheckReport, opts: &crate::certificate::ProveOptions) -> Vec<Check> {
    let passed = |name: &str| report.checks.iter().any(|c| c.name == name && c.passed());
    let q = d.q.clone().unwrap_or_else(|| (&d.p - 1u32) >> 1);
    let q_established = if d.q.is_some() { passed("q_prime") } else { passed("p_safe_prime") };
    if let Some(g) = named_group(&d.p).filter(|g| q == g.q()) {
        if let Some(text) = g.certificate() {
            let check = match shipped_certificate_proves(text, &d.p, &q) {
                Ok(steps) => (Status::Pass, format!("proven: the certificate primekit ships for {} ({steps} steps) checks", g.label())),
                Err(e) => (Status::Fail, format!("the certificate primekit ships for {} does not check: {e}", g.label())),
            };
            return vec![Check::new("p_proof", check.0, check.1.clone()), Check::new("q_proof", check.0, check.1)];
        }
    }
    let mut checks = Vec::new();
    let mut q_in_chain = false;
    if passed("p_prime") {
        let (check, cert) = prove_check("p_proof", "p", &d.p, opts);
        q_in_chain = cert.is_some_and(|c| c.steps.iter().any(|s| s.n() == &q) || (q.bits() <= 64 && check.status == Status::Pass));
        checks.push(check);
    } else {
        checks.push(Check::new("p_proof", Status::Skip, "not evaluated: p is not known to be prime"));
    }
    checks.push(if q_in_chain {
        Check::new("q_proof", Status::Pass, "proven: p's certificate proves q too")
    } else if q_established {
        prove_check("q_proof", "q", &q, opts).0
    } else {
        Check::new("q_proof", Status::Skip, "not evaluated: q is not known to be prime")
    });
    checks
}

/// Checks a shipped certificate ([`proves_p_and_q`]); Ok is its number of steps.
fn shipped_certificate_proves(text: &str, p: &BigUint, q: &BigUint) -> Result<usize, String> {
    let cert = crate::certificate::from_json(text.as_bytes()).map_err(|e| e.to_string())?;
    proves_p_and_q(&cert, p, q, crate::certificate::DEFAULT_MAX_WORK)?;
    Ok(cert.steps.len())
}

/// One proof attempt, as a check: Pass with a certificate (checked by the prover before
/// it returns), Warn "probable" when none came in time, Fail for a composite.
fn prove_check(
    name: &'static str,
    what: &str,
    n: &BigUint,
    opts: &crate::certificate::ProveOptions,
) -> (Check, Option<crate::certificate::Certificate>) {
    use crate::certificate::ProveError;
    match crate::certificate::prove_with(n, opts) {
        Ok(c) => {
            let detail = format!("proven: a certificate of {} steps was made and checked", c.steps.len());
            (Check::new(name, Status::Pass, detail), Some(c))
        }
        Err(ProveError::Composite(how)) => (Check::new(name, Status::Fail, format!("{what} is composite: {how}")), None),
        Err(e @ (ProveError::TimedOut | ProveError::NoProof | ProveError::Error(_))) => {
            (Check::new(name, Status::Warn, format!("probable prime, not proven: {e}")), None)
        }
    }
}
