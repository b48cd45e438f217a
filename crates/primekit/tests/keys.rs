//! `primekit::keys`: DH parameter and RSA key audits on files crafted here with the
//! `der` crate (good groups from RFCs, and each kind of bad file). Independent oracles:
//! published groups and Mersenne primes (prime by Lucas-Lehmer), num-bigint's own
//! modpow/modinv, and products that are composite by construction. Files made by the
//! system `openssl` CLI are exercised in `primekit-cli/tests/check_cli.rs`.

mod common;

use common::craft::*;
use der::asn1::{Int, UintRef};
use der::{Encode, Sequence};
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;
use primekit::keys::dh::{check_dh_pem, DhParameter};
use primekit::keys::rsa::check_rsa_pem;
use primekit::keys::{CheckReport, InputError, Status, MAX_INPUT_BYTES};

fn status(r: &CheckReport, name: &str) -> Status {
    r.get(name).unwrap_or_else(|| panic!("no check {name} in {r:?}")).status
}

#[test]
fn rfc3526_safe_prime_group_passes_every_check() {
    let r = check_dh_pem(&pkcs3(&hex(MODP2048_P), &BigUint::from(2u32))).unwrap();
    assert_eq!(r.format, "pkcs3");
    let names: Vec<_> = r.checks.iter().map(|c| c.name).collect();
    assert_eq!(names, ["p_size", "named_group", "p_prime", "p_safe_prime", "g_range", "g_order"]);
    assert!(r.checks.iter().all(|c| c.status == Status::Pass), "{}", r.to_text());
    assert!(r.ok());
}

#[test]
fn rfc5114_x942_group_passes_and_checks_j() {
    let (p, g, q) = rfc5114();
    let j = (&p - 1u32) / &q;
    let r = check_dh_pem(&x942(&p, &g, &q, Some(&j))).unwrap();
    assert_eq!(r.format, "x9.42");
    assert!(r.ok(), "{}", r.to_text());
    assert_eq!(status(&r, "j_cofactor"), Status::Pass);
    let r = check_dh_pem(&x942(&p, &g, &q, Some(&(j + 2u32)))).unwrap();
    assert_eq!(status(&r, "j_cofactor"), Status::Fail);
    assert!(!r.ok());
}

#[test]
fn composite_p_fails() {
    // Composite by construction: a prime times 3.
    let p = hex(MODP2048_P) * 3u32;
    let r = check_dh_pem(&pkcs3(&p, &BigUint::from(2u32))).unwrap();
    // (p-1)/2 is composite too (oracle: num-bigint, 2^(h-1) != 1 mod h), which one round
    // finds: the group fails p_safe_prime and the full test of p is not paid for.
    let h = (&p - 1u32) >> 1;
    assert!(!BigUint::from(2u32).modpow(&(&h - 1u32), &h).is_one());
    assert_eq!(status(&r, "p_safe_prime"), Status::Fail);
    assert_eq!(status(&r, "p_prime"), Status::Skip);
    assert_eq!(status(&r, "g_order"), Status::Skip);
    assert!(!r.ok());
    // Stated as X9.42 with a q dividing p-1 (q = 3), p itself is tested, and fails.
    let r = check_dh_pem(&x942(&p, &BigUint::from(2u32), &BigUint::from(2u32), None)).unwrap();
    assert_eq!(status(&r, "q_divides_p_minus_1"), Status::Pass, "{}", r.to_text());
    assert_eq!(status(&r, "p_prime"), Status::Fail);
}

/// "Safety in Numbers" (Galbraith, Massimo, Paterson, PKC 2019; Massimo & Paterson 2020, §1): composites
/// built to pass OpenSSL's DH checks, from Wycheproof via the corpus (flag GaMaPa19).
#[test]
fn safety_in_numbers_composites_fail_as_p() {
    let composites = safety_in_numbers_composites();
    for p in &composites {
        let r = check_dh_pem(&pkcs3(p, &BigUint::from(2u32))).unwrap();
        assert_ne!(status(&r, "p_prime"), Status::Pass, "{p}");
        assert_ne!(status(&r, "p_safe_prime"), Status::Pass, "{p}");
        assert!(!r.ok());
        assert!(!primekit::is_prime(p), "{p}");
    }
    assert!(composites.len() >= 3, "expected the 1024-bit GaMaPa19 composites in the corpus");
}

#[test]
fn safe_form_with_prime_half_but_composite_p_fails() {
    // (p-1)/2 = 2^127 - 1 is prime (Lucas-Lehmer), but p = 2^128 - 1 = 3 * 5 * 17 * ...
    let p = (BigUint::one() << 128u32) - 1u32;
    let r = check_dh_pem(&pkcs3(&p, &BigUint::from(2u32))).unwrap();
    assert_eq!(status(&r, "p_prime"), Status::Fail);
    assert!(r.get("p_prime").unwrap().detail.contains("3^(p-1) != 1"));
    assert_eq!(status(&r, "p_safe_prime"), Status::Skip);
}

#[test]
fn composite_q_fails() {
    // 2q divides p-1 (j is even) but is composite.
    let (p, g, q) = rfc5114();
    let r = check_dh_pem(&x942(&p, &g, &(q * 2u32), None)).unwrap();
    assert_eq!(status(&r, "q_prime"), Status::Fail);
    assert_eq!(status(&r, "q_divides_p_minus_1"), Status::Pass);
    assert_eq!(status(&r, "g_order"), Status::Skip);
    assert!(!r.ok());
}

#[test]
fn q_not_dividing_p_minus_1_fails() {
    let (p, g, _) = rfc5114();
    // A prime that is not q: 2^127 - 1.
    let m127 = (BigUint::one() << 127u32) - 1u32;
    let r = check_dh_pem(&x942(&p, &g, &m127, None)).unwrap();
    assert_eq!(status(&r, "q_size"), Status::Fail);
    assert_eq!(status(&r, "q_divides_p_minus_1"), Status::Fail);
    // The cheap structural failure means no primality test is paid for.
    for name in ["p_prime", "q_prime", "g_order"] {
        assert_eq!(status(&r, name), Status::Skip, "{name}");
        assert!(r.get(name).unwrap().detail.contains("q_divides_p_minus_1 failed"));
    }
}

#[test]
fn g_out_of_range_fails() {
    let p = hex(MODP2048_P);
    for g in [BigUint::from(0u32), BigUint::one(), &p - 1u32, p.clone(), &p + 5u32] {
        let r = check_dh_pem(&pkcs3(&p, &g)).unwrap();
        assert_eq!(status(&r, "g_range"), Status::Fail, "g = {g}");
        assert!(!r.ok());
    }
}

#[test]
fn g_of_wrong_order_fails_for_x942() {
    let (p, _, q) = rfc5114();
    let g = BigUint::from(2u32);
    // Oracle: num-bigint says 2 is outside the order-q subgroup.
    assert!(!g.modpow(&q, &p).is_one());
    let r = check_dh_pem(&x942(&p, &g, &q, None)).unwrap();
    assert_eq!(status(&r, "g_range"), Status::Pass);
    assert_eq!(status(&r, "g_order"), Status::Fail);
    assert!(!r.ok());
}

#[test]
fn generator_of_full_safe_prime_group_warns() {
    let p = hex(MODP2048_P);
    let q = (&p - 1u32) >> 1;
    // Smallest g > 2 with g^q = -1 (a quadratic non-residue), found with num-bigint.
    let g = (3u32..).map(BigUint::from).find(|g| g.modpow(&q, &p) == &p - 1u32).unwrap();
    let r = check_dh_pem(&pkcs3(&p, &g)).unwrap();
    assert_eq!(status(&r, "g_order"), Status::Warn);
    assert!(r.ok(), "a warning alone does not fail the report");
}

#[test]
fn small_groups_follow_the_size_policy() {
    // 2^521 - 1 is prime (Lucas-Lehmer) but not safe, and far too small.
    let p = (BigUint::one() << 521u32) - 1u32;
    let r = check_dh_pem(&pkcs3(&p, &BigUint::from(3u32))).unwrap();
    assert_eq!(status(&r, "p_size"), Status::Fail);
    assert_eq!(status(&r, "p_safe_prime"), Status::Fail);
    // Stated with a q that divides p-1, p is tested: a size below the minimum does not
    // stop the (cheap) primality test.
    let r = check_dh_pem(&x942(&p, &BigUint::from(3u32), &BigUint::from(2u32), None)).unwrap();
    assert_eq!(status(&r, "p_size"), Status::Fail);
    assert_eq!(status(&r, "q_size"), Status::Fail);
    assert_eq!(status(&r, "p_prime"), Status::Pass);
}

#[test]
fn malformed_dh_input_is_an_error_not_a_report() {
    let good = pkcs3(&hex(MODP2048_P), &BigUint::from(2u32));
    // Truncated PEM: cut in the middle of the base64.
    let cut = &good[..good.len() / 2];
    assert!(matches!(check_dh_pem(cut), Err(InputError::Pem(m)) if m.contains("truncated")));
    // Valid PEM around truncated DER.
    let der = pem_rfc7468::decode_vec(&good).unwrap().1;
    assert!(matches!(check_dh_pem(&pem("DH PARAMETERS", &der[..100])), Err(InputError::Der(_))));
    // Garbage base64.
    let garbage = b"-----BEGIN DH PARAMETERS-----\nMIIB!!!not*base64@@\n-----END DH PARAMETERS-----\n";
    assert!(matches!(check_dh_pem(garbage), Err(InputError::Pem(_))));
    // Wrong label.
    let e = check_dh_pem(&pem("CERTIFICATE", &der)).unwrap_err();
    assert!(matches!(e, InputError::WrongLabel { .. }));
    assert!(e.to_string().contains("found \"CERTIFICATE\""), "{e}");
    // Not PEM at all.
    assert!(matches!(check_dh_pem(&der), Err(InputError::NotPem(_))));
    assert!(matches!(check_dh_pem(b""), Err(InputError::NotPem(_))));
    // An X9.42 label over PKCS#3 content (q missing).
    assert!(matches!(check_dh_pem(&pem("X9.42 DH PARAMETERS", &der)), Err(InputError::Der(_))));
}

#[test]
fn negative_p_is_malformed() {
    #[derive(Sequence)]
    struct SignedParams {
        p: Int,
        g: Int,
    }
    let der = SignedParams { p: Int::new(&[0x80, 1]).unwrap(), g: Int::new(&[2]).unwrap() }.to_der().unwrap();
    assert!(matches!(check_dh_pem(&pem("DH PARAMETERS", &der)), Err(InputError::Der(_))));
}

#[test]
fn oversize_inputs_fail_fast() {
    let t = std::time::Instant::now();
    let garbage = vec![b'A'; 10_000_000];
    assert!(matches!(check_dh_pem(&garbage), Err(InputError::TooLarge { .. })));
    assert!(matches!(check_rsa_pem(&garbage), Err(InputError::TooLarge { .. })));
    assert!(t.elapsed().as_secs_f64() < 1.0, "took {:?}", t.elapsed());
    // Just under the cap: explanatory text then a good block is still read.
    let mut big = vec![b'x'; MAX_INPUT_BYTES - 2000];
    big.push(b'\n');
    big.extend(pkcs3(&hex(MODP2048_P), &BigUint::from(2u32)));
    assert!(check_dh_pem(&big).unwrap().ok());
    // A number beyond the audit's cap, and with the cap raised beyond the primality
    // test's own cap, is refused before any work.
    let big = pkcs3(&((BigUint::one() << 20_000u32) + 1u32), &BigUint::from(2u32));
    assert!(matches!(check_dh_pem(&big), Err(InputError::OverLimit { what: "p", bits: 20_001, max: 10_000 })));
    let huge = pkcs3(&((BigUint::one() << 70_000u32) + 1u32), &BigUint::from(2u32));
    let unlimited = primekit::keys::Limits::with_max_bits(u64::MAX);
    for r in [check_dh_pem(&huge), primekit::keys::dh::check_dh_pem_with_limits(&huge, &unlimited)] {
        assert!(matches!(r, Err(InputError::Prime(primekit::Error::InputTooLarge { .. }))));
    }
}

#[test]
fn consistent_rsa_key_passes_in_pkcs1_and_pkcs8() {
    let k = big_key();
    let r = check_rsa_pem(&pkcs1_pem(&k)).unwrap();
    assert_eq!(r.format, "pkcs1");
    let names: Vec<_> = r.checks.iter().map(|c| c.name).collect();
    assert_eq!(
        names,
        ["n_size", "p_prime", "q_prime", "n_equals_pq", "pq_distance", "e_valid", "ed_inverse", "dp_crt", "dq_crt", "qinv_crt"]
    );
    assert!(r.checks.iter().all(|c| c.status == Status::Pass), "{}", r.to_text());
    let r = check_rsa_pem(&pkcs8_pem(&k, "1.2.840.113549.1.1.1")).unwrap();
    assert_eq!(r.format, "pkcs8");
    assert!(r.ok(), "{}", r.to_text());
}

#[test]
fn d_in_phi_form_is_accepted() {
    let (p, q) = (mersenne(607), mersenne(521));
    let e = BigUint::from(65537u32);
    let phi = (&p - 1u32) * (&q - 1u32);
    let d = e.modinv(&phi).unwrap();
    let r = check_rsa_pem(&pkcs1_pem(&rsa_key_with_d(p, q, e, d))).unwrap();
    assert!(r.ok(), "{}", r.to_text());
}

#[test]
fn n_not_equal_to_pq_fails() {
    let mut k = good_key();
    k.n += 2u32;
    let r = check_rsa_pem(&pkcs1_pem(&k)).unwrap();
    assert_eq!(status(&r, "n_equals_pq"), Status::Fail);
    assert!(!r.ok());
}

#[test]
fn wrong_d_fails() {
    let mut k = good_key();
    k.d += 2u32;
    let r = check_rsa_pem(&pkcs1_pem(&k)).unwrap();
    assert_eq!(status(&r, "ed_inverse"), Status::Fail);
    assert_eq!(status(&r, "dp_crt"), Status::Fail);
    assert!(r.get("ed_inverse").unwrap().detail.starts_with("NOT"));
}

#[test]
fn wrong_crt_values_fail_one_by_one() {
    for (field, name) in [(0, "dp_crt"), (1, "dq_crt"), (2, "qinv_crt")] {
        let mut k = good_key();
        match field {
            0 => k.dp += 1u32,
            1 => k.dq += 1u32,
            _ => k.qinv += &k.p, // congruent mod p but not reduced
        }
        let r = check_rsa_pem(&pkcs1_pem(&k)).unwrap();
        let failed: Vec<_> = r.checks.iter().filter(|c| c.status == Status::Fail).map(|c| c.name).collect();
        assert_eq!(failed, [name]);
        // A failed cheap check leaves the primality tests unrun.
        assert_eq!(status(&r, "p_prime"), Status::Skip);
    }
}

#[test]
fn composite_factor_and_close_factors_fail() {
    // p * 3 is composite by construction; d, dP, dQ, qInv are derived from it, so every
    // cheap check passes and only the primality test can tell.
    let (p, q) = (good_key().p * 3u32, good_key().q);
    let e = BigUint::from(65537u32);
    let d = e.modinv(&(&p - 1u32).lcm(&(&q - 1u32))).expect("65537 is prime and divides neither p-1 nor q-1 here");
    let r = check_rsa_pem(&pkcs1_pem(&rsa_key_with_d(p, q, e, d))).unwrap();
    assert_eq!(status(&r, "ed_inverse"), Status::Pass);
    assert_eq!(status(&r, "p_prime"), Status::Fail);
    assert_eq!(status(&r, "q_prime"), Status::Pass);
    // p = q: n = p^2 falls to Fermat (and to a square root).
    let p = mersenne(607);
    let r = check_rsa_pem(&pkcs1_pem(&rsa_key_with_d(p.clone(), p.clone(), 65537u32.into(), BigUint::one()))).unwrap();
    assert_eq!(status(&r, "pq_distance"), Status::Fail);
}

#[test]
fn exponent_policy() {
    let (p, q) = (mersenne(607), mersenne(521));
    let lambda = (&p - 1u32).lcm(&(&q - 1u32));
    let e3 = BigUint::from(3u32);
    if let Some(d) = e3.modinv(&lambda) {
        let r = check_rsa_pem(&pkcs1_pem(&rsa_key_with_d(p.clone(), q.clone(), e3, d))).unwrap();
        assert_eq!(status(&r, "e_valid"), Status::Warn);
        assert!(r.ok());
    }
    let r = check_rsa_pem(&pkcs1_pem(&rsa_key_with_d(p, q, 65536u32.into(), BigUint::one()))).unwrap();
    assert_eq!(status(&r, "e_valid"), Status::Fail);
}

#[test]
fn unsupported_and_malformed_rsa_inputs() {
    let k = good_key();
    // Encrypted PKCS#8 (content irrelevant: refused by label).
    let e = check_rsa_pem(&pem("ENCRYPTED PRIVATE KEY", &rsa_der(&k))).unwrap_err();
    assert!(matches!(e, InputError::Unsupported(_)) && e.to_string().contains("encrypted keys are unsupported"), "{e}");
    // Legacy encrypted PKCS#1.
    let body = String::from_utf8(pkcs1_pem(&k)).unwrap();
    let legacy = body.replacen('\n', "\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-256-CBC,00112233445566778899AABBCCDDEEFF\n\n", 1);
    let e = check_rsa_pem(legacy.as_bytes()).unwrap_err();
    assert!(e.to_string().contains("encrypted keys are unsupported"), "{e}");
    // PKCS#8 with a non-RSA algorithm (Ed25519).
    let e = check_rsa_pem(&pkcs8_pem(&k, "1.3.101.112")).unwrap_err();
    assert!(matches!(e, InputError::Unsupported(_)) && e.to_string().contains("Ed25519"), "{e}");
    // A DH file given to the RSA audit, and the reverse.
    let dh = pkcs3(&hex(MODP2048_P), &BigUint::from(2u32));
    assert!(matches!(check_rsa_pem(&dh), Err(InputError::WrongLabel { .. })));
    assert!(matches!(check_dh_pem(&pkcs1_pem(&k)), Err(InputError::WrongLabel { .. })));
    // Truncated key.
    let cut = &pkcs1_pem(&k)[..300];
    assert!(matches!(check_rsa_pem(cut), Err(InputError::Pem(_))));
}

#[test]
fn text_rendering_has_stable_lines() {
    let r = check_dh_pem(&x942(&(hex(MODP2048_P) * 3u32), &BigUint::from(2u32), &BigUint::from(2u32), None)).unwrap();
    assert_eq!(r.format, "x9.42");
    assert!(!r.ok());
    let c = &r.checks[1];
    assert_eq!(c.name, "p_prime");
    assert_eq!(c.status, Status::Fail);
    assert!(!c.passed());
    assert!(c.detail.contains("composite"));
    assert!(r.to_text().contains("FAIL  p_prime: p is composite"));
    assert!(r.to_text().contains("result: FAILED"));
}

#[test]
fn json_rendering_has_stable_keys() {
    // Stated with q = 2 (which divides p - 1), so that p itself is tested.
    let r = check_dh_pem(&x942(&(hex(MODP2048_P) * 3u32), &BigUint::from(2u32), &BigUint::from(2u32), None)).unwrap();
    let v = r.to_json();
    assert_eq!(v["format"], "x9.42");
    assert_eq!(v["ok"], false);
    let c = &v["checks"][1];
    assert_eq!(c["name"], "p_prime");
    assert_eq!(c["status"], "fail");
    assert_eq!(c["passed"], false);
    assert!(c["detail"].as_str().unwrap().contains("composite"));
    // Exactly these keys, in serde_json's (alphabetical) order.
    let text = v.to_string();
    assert!(
        text.starts_with(
            r#"{"checks":[{"detail":"p has 2050 bits: at least the recommended 2048 bits","name":"p_size","passed":true,"status":"pass"},"#
        ),
        "{text}"
    );
    assert!(text.ends_with(r#"],"format":"x9.42","ok":false}"#), "{text}");
}

#[test]
fn pkcs3_pem_round_trips_through_the_audit() {
    use primekit::keys::dh::{parse_dh_pem, to_pkcs3_pem};
    let (p, g) = (hex(MODP2048_P), BigUint::from(2u32));
    let pem = to_pkcs3_pem(&p, &g).unwrap();
    assert!(pem.starts_with("-----BEGIN DH PARAMETERS-----\n") && pem.ends_with("-----END DH PARAMETERS-----\n"), "{pem}");
    let d = parse_dh_pem(pem.as_bytes()).unwrap();
    assert_eq!((d.format, &d.p, &d.g, &d.q), ("pkcs3", &p, &g, &None));
    assert!(check_dh_pem(pem.as_bytes()).unwrap().ok());
}

#[test]
fn private_value_length_is_range_checked() {
    let (pb, gb) = (hex(MODP2048_P).to_bytes_be(), [2u8]);
    for (len, expected) in [(256u16, Status::Pass), (0, Status::Fail), (4096, Status::Fail)] {
        let lb = len.to_be_bytes();
        let der = DhParameter {
            prime: UintRef::new(&pb).unwrap(),
            base: UintRef::new(&gb).unwrap(),
            private_value_length: Some(UintRef::new(&lb).unwrap()),
        }
        .to_der()
        .unwrap();
        let r = check_dh_pem(&pem("DH PARAMETERS", &der)).unwrap();
        assert_eq!(status(&r, "private_value_length"), expected, "length {len}");
    }
}

/// Small but well-formed files to mutate: cheap to audit when a mutation stays valid.
fn mutation_bases() -> Vec<(bool, Vec<u8>)> {
    let p = mersenne(521);
    vec![
        (true, pkcs3(&p, &BigUint::from(3u32))),
        (true, x942(&p, &BigUint::from(3u32), &mersenne(127), Some(&BigUint::from(5u32)))),
        (false, pkcs1_pem(&good_key())),
        (false, pkcs8_pem(&good_key(), "1.2.840.113549.1.1.1")),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Whatever bytes are flipped, in the PEM text or in the DER beneath it, the audit
    /// returns a report or an error: it never panics.
    #[test]
    fn mutated_files_never_panic(which in 0usize..4, at in 0usize..4096, xor in 1u8..=255, in_der: bool) {
        let (is_dh, file) = mutation_bases().swap_remove(which);
        let mutated = if in_der {
            let (label, mut der) = pem_rfc7468::decode_vec(&file).unwrap();
            let i = at % der.len();
            der[i] ^= xor;
            pem(label, &der)
        } else {
            let mut f = file.clone();
            let i = at % f.len();
            f[i] ^= xor;
            f
        };
        let _ = if is_dh { check_dh_pem(&mutated).map(|_| ()) } else { check_rsa_pem(&mutated).map(|_| ()) };
    }

    /// Truncation at every length is an error or a report, never a panic.
    #[test]
    fn truncated_files_never_panic(which in 0usize..4, keep in 0usize..4096) {
        let (is_dh, file) = mutation_bases().swap_remove(which);
        let k = keep % file.len();
        // Dropping only the trailing newline leaves a complete, valid file.
        proptest::prop_assume!(!file[k..].iter().all(|b| b.is_ascii_whitespace()));
        let cut = &file[..k];
        let r = if is_dh { check_dh_pem(cut).map(|_| ()) } else { check_rsa_pem(cut).map(|_| ()) };
        proptest::prop_assert!(r.is_err());
    }
}
