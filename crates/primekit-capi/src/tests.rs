//! The boundary's contract from the Rust side (the C programs in examples/c test the
//! installed library): bad arguments give their codes, outputs are cleared on error,
//! panics are caught.

use super::*;
use std::ffi::CStr;
use std::ptr::{null, null_mut};

fn last_error() -> String {
    unsafe { CStr::from_ptr(primekit_last_error()) }.to_string_lossy().into_owned()
}

/// Calls an output-producing function and returns its status and bytes.
fn call(f: impl FnOnce(*mut *mut u8, *mut usize) -> c_int) -> (c_int, Vec<u8>) {
    let (mut out, mut len) = (std::ptr::NonNull::<u8>::dangling().as_ptr(), 7usize);
    let code = f(&mut out, &mut len);
    if code != PRIMEKIT_OK {
        assert!(out.is_null() && len == 0, "outputs not cleared on error {code}");
        return (code, Vec::new());
    }
    let bytes = unsafe { std::slice::from_raw_parts(out, len) }.to_vec();
    assert_eq!(unsafe { *out.add(len) }, 0, "buffer not NUL-terminated");
    unsafe { primekit_free(out.cast()) };
    (code, bytes)
}

#[test]
fn is_prime_reads_big_endian_with_leading_zeros() {
    let mut r = -1;
    // 2^61 - 1 (a Mersenne prime) with two leading zero bytes; 2^61 + 1 is divisible by 3.
    let m61 = [0u8, 0, 0x1f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff];
    assert_eq!(unsafe { primekit_is_prime(m61.as_ptr(), m61.len(), &mut r) }, PRIMEKIT_OK);
    assert_eq!(r, 1);
    let c = [0x20u8, 0, 0, 0, 0, 0, 0, 1];
    assert_eq!(unsafe { primekit_is_prime(c.as_ptr(), c.len(), &mut r) }, PRIMEKIT_OK);
    assert_eq!(r, 0);
    assert_eq!(unsafe { primekit_is_prime_str(c"0x1FFFFFFFFFFFFFFF".as_ptr(), &mut r) }, PRIMEKIT_OK);
    assert_eq!(r, 1);
}

#[test]
fn bad_arguments_give_codes_not_crashes() {
    let mut r = -1;
    let one = [1u8];
    assert_eq!(unsafe { primekit_is_prime(null(), 1, &mut r) }, PRIMEKIT_ERR_NULL);
    assert!(last_error().contains("n is NULL"), "{}", last_error());
    assert_eq!(unsafe { primekit_is_prime(one.as_ptr(), 0, &mut r) }, PRIMEKIT_ERR_LENGTH);
    // 2^40 bytes: refused by length before any read (the pointer covers one byte).
    assert_eq!(unsafe { primekit_is_prime(one.as_ptr(), 1 << 40, &mut r) }, PRIMEKIT_ERR_LENGTH);
    assert_eq!(unsafe { primekit_is_prime(one.as_ptr(), 1, null_mut()) }, PRIMEKIT_ERR_NULL);
    assert_eq!(unsafe { primekit_is_prime_str(c"\xff\xfe".as_ptr(), &mut r) }, PRIMEKIT_ERR_ENCODING);
    for bad in [c"", c"12a", c"-7", c"0x", c" 7", c"1_000"] {
        assert_eq!(unsafe { primekit_is_prime_str(bad.as_ptr(), &mut r) }, PRIMEKIT_ERR_ENCODING, "{bad:?}");
    }
    let big = vec![0xffu8; 32_768 / 8 + 1];
    assert_eq!(unsafe { primekit_is_prime(big.as_ptr(), big.len(), &mut r) }, PRIMEKIT_ERR_TOO_LARGE);
    let two = [2u8];
    assert_eq!(call(|o, l| unsafe { primekit_prev_prime(two.as_ptr(), 1, o, l) }).0, PRIMEKIT_ERR_INVALID_ARGUMENT);
    assert_eq!(unsafe { primekit_next_prime(two.as_ptr(), 1, null_mut(), null_mut()) }, PRIMEKIT_ERR_NULL);
    assert_eq!(call(|o, l| unsafe { primekit_generate_primes(64, 0, 0, 1, o, l) }).0, PRIMEKIT_ERR_INVALID_ARGUMENT);
    assert_eq!(call(|o, l| unsafe { primekit_generate_primes(64, 0, 1, 0, o, l) }).0, PRIMEKIT_ERR_INVALID_ARGUMENT);
    assert_eq!(call(|o, l| unsafe { primekit_generate_primes(1, 0, 1, 1, o, l) }).0, PRIMEKIT_ERR_INVALID_ARGUMENT);
    assert_eq!(call(|o, l| unsafe { primekit_generate_rsa_key(1024, 0, 0, 1, o.cast(), l) }).0, PRIMEKIT_ERR_INVALID_ARGUMENT);
    assert_eq!(call(|o, l| unsafe { primekit_generate_rsa_key(2048, 0, 2, 1, o.cast(), l) }).0, PRIMEKIT_ERR_INVALID_ARGUMENT);
    assert_eq!(call(|o, l| unsafe { primekit_generate_dh_params(63, 1, o.cast(), l) }).0, PRIMEKIT_ERR_INVALID_ARGUMENT);
    assert_eq!(call(|o, l| unsafe { primekit_prove(two.as_ptr(), 1, 1, -1.0, o.cast(), l) }).0, PRIMEKIT_ERR_INVALID_ARGUMENT);
    assert_eq!(call(|o, l| unsafe { primekit_format_number(two.as_ptr(), 1, 8, o.cast(), l) }).0, PRIMEKIT_ERR_INVALID_ARGUMENT);
}

#[test]
fn walks_and_conversions_agree_with_known_primes() {
    // The primes around 10^12: 999999999989 and 1000000000039.
    let (code, n) = call(|o, l| unsafe { primekit_parse_number(c"1000000000000".as_ptr(), o, l) });
    assert_eq!(code, PRIMEKIT_OK);
    let (_, next) = call(|o, l| unsafe { primekit_next_prime(n.as_ptr(), n.len(), o, l) });
    let (_, prev) = call(|o, l| unsafe { primekit_prev_prime(n.as_ptr(), n.len(), o, l) });
    let (_, next_dec) = call(|o, l| unsafe { primekit_format_number(next.as_ptr(), next.len(), 10, o.cast(), l) });
    let (_, prev_hex) = call(|o, l| unsafe { primekit_format_number(prev.as_ptr(), prev.len(), 16, o.cast(), l) });
    assert_eq!(next_dec, b"1000000000039");
    assert_eq!(prev_hex, format!("{:#x}", 999_999_999_989u64).as_bytes());
}

#[test]
fn generated_primes_have_the_width_and_are_prime() {
    let (code, all) = call(|o, l| unsafe { primekit_generate_primes(100, 1, 3, 2, o, l) });
    assert_eq!(code, PRIMEKIT_OK);
    assert_eq!(all.len(), 3 * 13);
    for p in all.chunks(13) {
        let p = BigUint::from_bytes_be(p);
        assert_eq!(p.bits(), 100);
        assert!(primekit::is_prime(&p) && primekit::is_prime(&(&p >> 1)), "{p} is not a safe prime");
    }
}

#[test]
fn audit_reports_and_input_errors() {
    let (code, pem) = call(|o, l| unsafe { primekit_generate_dh_params(256, 1, o.cast(), l) });
    assert_eq!(code, PRIMEKIT_OK);
    let mut ok = -1;
    let (code, json) = call(|o, l| unsafe { primekit_check_dh(pem.as_ptr(), pem.len(), &mut ok, o.cast(), l) });
    assert_eq!(code, PRIMEKIT_OK);
    let v: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert_eq!(v["command"], "check-dh");
    assert_eq!(v["format"], "pkcs3");
    // A 256-bit group fails the size policy; p is a safe prime.
    assert_eq!((ok, &v["ok"]), (0, &serde_json::Value::from(false)));
    let status = |name: &str| v["checks"].as_array().unwrap().iter().find(|c| c["name"] == name).unwrap()["status"].clone();
    assert_eq!((status("p_size"), status("p_safe_prime")), ("fail".into(), "pass".into()));
    let (code, _) = call(|o, l| unsafe { primekit_check_rsa(pem.as_ptr(), pem.len(), &mut ok, o.cast(), l) });
    assert_eq!(code, PRIMEKIT_ERR_BAD_INPUT);
    assert!(last_error().starts_with("wrong_label: "), "{}", last_error());
    let (code, _) = call(|o, l| unsafe { primekit_check_dh(b"hello".as_ptr(), 5, &mut ok, o.cast(), l) });
    assert_eq!(code, PRIMEKIT_ERR_BAD_INPUT);
    assert_eq!(call(|o, l| unsafe { primekit_check_dh(pem.as_ptr(), 1 << 40, &mut ok, o.cast(), l) }).0, PRIMEKIT_ERR_LENGTH);
}

/// The PARI and Primo forms: headed as their formats are, refused below 2^64 and for an
/// unknown format (the checkers of these forms run in the library's tests).
#[test]
fn prove_as_pari_and_primo() {
    let n = ((BigUint::from(1u8) << 89u32) - 1u8).to_bytes_be();
    let (code, pari) = call(|o, l| unsafe { primekit_prove_as(n.as_ptr(), n.len(), 1, 0.0, PRIMEKIT_CERT_PARI, o.cast(), l) });
    assert_eq!(code, PRIMEKIT_OK);
    assert!(pari.starts_with(b"[["), "{}", String::from_utf8_lossy(&pari));
    let (code, primo) = call(|o, l| unsafe { primekit_prove_as(n.as_ptr(), n.len(), 1, 0.0, PRIMEKIT_CERT_PRIMO, o.cast(), l) });
    assert_eq!(code, PRIMEKIT_OK);
    assert!(primo.starts_with(b"[PRIMO - Primality Certificate]\nFormat=4\n"), "{}", String::from_utf8_lossy(&primo));
    let small = [97u8];
    for format in [PRIMEKIT_CERT_PARI, PRIMEKIT_CERT_PRIMO] {
        assert_eq!(
            call(|o, l| unsafe { primekit_prove_as(small.as_ptr(), 1, 1, 0.0, format, o.cast(), l) }).0,
            PRIMEKIT_ERR_INVALID_ARGUMENT
        );
    }
    assert_eq!(call(|o, l| unsafe { primekit_prove_as(n.as_ptr(), n.len(), 1, 0.0, 3, o.cast(), l) }).0, PRIMEKIT_ERR_INVALID_ARGUMENT);
    let (code, json) = call(|o, l| unsafe { primekit_prove_as(n.as_ptr(), n.len(), 1, 0.0, PRIMEKIT_CERT_JSON, o.cast(), l) });
    assert_eq!(code, PRIMEKIT_OK);
    assert_eq!(unsafe { primekit_verify_certificate(json.as_ptr(), json.len(), n.as_ptr(), n.len(), 0) }, PRIMEKIT_OK);
}

#[test]
fn prove_then_verify_and_a_wrong_number_fails() {
    // 2^89 - 1, a Mersenne prime above 2^64, so the certificate has steps.
    let n = ((BigUint::from(1u8) << 89u32) - 1u8).to_bytes_be();
    let (code, cert) = call(|o, l| unsafe { primekit_prove(n.as_ptr(), n.len(), 1, 0.0, o.cast(), l) });
    assert_eq!(code, PRIMEKIT_OK);
    assert_eq!(unsafe { primekit_verify_certificate(cert.as_ptr(), cert.len(), n.as_ptr(), n.len(), 0) }, PRIMEKIT_OK);
    assert_eq!(unsafe { primekit_verify_certificate(cert.as_ptr(), cert.len(), null(), 0, 0) }, PRIMEKIT_OK);
    let other = [0x0bu8];
    assert_eq!(unsafe { primekit_verify_certificate(cert.as_ptr(), cert.len(), other.as_ptr(), 1, 0) }, PRIMEKIT_ERR_INVALID_CERTIFICATE);
    assert_eq!(unsafe { primekit_verify_certificate(cert.as_ptr(), cert.len(), null(), 1, 0) }, PRIMEKIT_ERR_NULL);
    assert_eq!(unsafe { primekit_verify_certificate(b"{}".as_ptr(), 2, null(), 0, 0) }, PRIMEKIT_ERR_INVALID_CERTIFICATE);
    let composite = (BigUint::from(1u8) << 89u32) + 1u8;
    let c = composite.to_bytes_be();
    assert_eq!(call(|o, l| unsafe { primekit_prove(c.as_ptr(), c.len(), 1, 0.0, o.cast(), l) }).0, PRIMEKIT_ERR_COMPOSITE);
}

#[test]
fn a_panic_becomes_an_internal_error() {
    let code = boundary::guard(|| panic!("boom"));
    assert_eq!(code, PRIMEKIT_ERR_INTERNAL);
    assert!(last_error().contains("boom"), "{}", last_error());
    assert_eq!(boundary::guard(|| Ok(())), PRIMEKIT_OK);
    assert_eq!(last_error(), "");
}

#[test]
fn every_code_has_a_message_and_version_and_kernel_are_set() {
    for code in PRIMEKIT_OK..=PRIMEKIT_ERR_INTERNAL {
        let text = unsafe { CStr::from_ptr(primekit_strerror(code)) }.to_str().unwrap();
        assert_ne!(text, "unknown status code", "code {code}");
    }
    assert_eq!(unsafe { CStr::from_ptr(primekit_strerror(-5)) }.to_str().unwrap(), "unknown status code");
    assert_eq!(unsafe { CStr::from_ptr(primekit_version()) }.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
    let mut name = null();
    assert_eq!(unsafe { primekit_kernel(&mut name) }, PRIMEKIT_OK);
    let name = unsafe { CStr::from_ptr(name) }.to_str().unwrap();
    assert_eq!(name, primekit::hazmat::mont::Kernel::selected().unwrap().name());
}
