//! Decimal/hex text -> `BigUint` -> `is_prime`: parsing never panics, round-trips, and
//! the verdict matches exact oracles (the u64 test below 2^64; small-prime divisibility
//! above). Inputs are capped at 1024 bits so each run stays fast; the size cap itself is
//! covered by `try_is_prime`'s `InputTooLarge` check (unit tests).
//! Switch to `primekit-cli`'s `numio` parser once it lands on main.
#![no_main]

use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use num_traits::ToPrimitive;
use primekit::primality::is_prime_u64;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if text.len() > 400 {
        return;
    }
    for radix in [10u32, 16] {
        let Some(n) = BigUint::parse_bytes(text.trim().as_bytes(), radix) else { continue };
        let back = BigUint::parse_bytes(n.to_str_radix(radix).as_bytes(), radix);
        assert_eq!(back.as_ref(), Some(&n), "round trip radix {radix}");
        if n.bits() > 1024 {
            continue;
        }
        let verdict = primekit::try_is_prime(&n).expect("no error below the size cap");
        if let Some(v) = n.to_u64() {
            assert_eq!(verdict, is_prime_u64(v), "n = {n}");
        } else if let Some(p) = (3u32..200).step_by(2).find(|p| (&n % *p) == BigUint::from(0u8)) {
            assert!(!verdict, "n = {n} has factor {p}");
        } else if !n.bit(0) {
            assert!(!verdict, "even n = {n}");
        }
    }
});
