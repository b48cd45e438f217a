//! The CLI's number parser (`primekit-cli/src/numio.rs`, included by path since the CLI
//! is a binary crate) -> `is_prime`: parsing never panics, respects the input cap,
//! round-trips, agrees with num-bigint on plain digit strings, and the verdict matches
//! exact oracles (the u64 test below 2^64; small-prime divisibility above). Numbers above
//! 1024 bits are parsed but not tested, so each run stays fast.
#![no_main]

#[allow(dead_code)]
#[path = "../../crates/primekit-cli/src/numio.rs"]
mod numio;

use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use primekit::hazmat::primality::is_prime_u64;
use primekit::MAX_INPUT_BITS;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let parsed = numio::parse_number(text);
    let trimmed = text.trim();
    if !trimmed.is_empty() && trimmed.bytes().all(|b| b.is_ascii_digit()) {
        let reference = BigUint::parse_bytes(trimmed.as_bytes(), 10).unwrap();
        match &parsed {
            Ok(n) => assert_eq!(n, &reference),
            Err(e) => assert!(reference.bits() > MAX_INPUT_BITS, "{trimmed:?} refused: {e}"),
        }
    }
    let Ok(n) = parsed else { return };
    assert!(n.bits() <= MAX_INPUT_BITS);
    assert_eq!(numio::parse_number(&n.to_string()).as_ref(), Ok(&n), "decimal round trip");
    assert_eq!(numio::parse_number(&format!("0x{n:x}")).as_ref(), Ok(&n), "hex round trip");
    if n.bits() > 1024 {
        return;
    }
    let verdict = primekit::try_is_prime(&n).expect("no error below the size cap");
    if let Some(v) = n.to_u64() {
        assert_eq!(verdict, is_prime_u64(v), "n = {n}");
    } else if let Some(p) = (3u32..200).step_by(2).find(|p| (&n % *p) == BigUint::from(0u8)) {
        assert!(!verdict, "n = {n} has factor {p}");
    } else if !n.bit(0) {
        assert!(!verdict, "even n = {n}");
    }
});
