//! Resource limits: inputs above the documented cap (`MAX_INPUT_BITS` = 32768 bits,
//! `arith::MAX_MODULUS_BITS` = 131072) are refused with an error before any big work,
//! so a hostile size costs no more than reading it.

use num_bigint::BigUint;
use num_traits::One;
use primekit::hazmat::mont::{ArithError, MontContext, MAX_MODULUS_BITS};
use primekit::hazmat::primality::MillerRabin;
use primekit::MAX_INPUT_BITS;
use primekit::{try_is_prime, Error};
use std::time::{Duration, Instant};

#[test]
fn hundred_thousand_digit_input_is_refused_fast() {
    // A 100,000-digit decimal number (7 then 99,999 threes), about 332,193 bits.
    let text: String = std::iter::once('7').chain(std::iter::repeat_n('3', 99_999)).collect();
    let start = Instant::now();
    let n = BigUint::parse_bytes(text.as_bytes(), 10).unwrap();
    let r = try_is_prime(&n);
    let took = start.elapsed();
    assert_eq!(r, Err(Error::InputTooLarge { bits: n.bits(), max: MAX_INPUT_BITS }));
    assert!(n.bits() > 332_000);
    println!("100,000-digit input: parse + refusal in {took:?}");
    // Generous bound (2 shared cores, debug assertions): the check itself is O(1).
    assert!(took < Duration::from_secs(1), "took {took:?}");
    assert!(r.unwrap_err().to_string().contains("maximum is 32768"));
}

#[test]
fn the_cap_is_exact() {
    // 2^32768 - 1 has exactly MAX_INPUT_BITS bits and is accepted (divisible by 3, so fast).
    let at_cap = (BigUint::one() << MAX_INPUT_BITS) - 1u8;
    assert_eq!(at_cap.bits(), MAX_INPUT_BITS);
    assert_eq!(try_is_prime(&at_cap), Ok(false));
    let over = BigUint::one() << MAX_INPUT_BITS;
    assert_eq!(try_is_prime(&(over + 1u8)), Err(Error::InputTooLarge { bits: MAX_INPUT_BITS + 1, max: MAX_INPUT_BITS }));
}

#[test]
fn arithmetic_layer_refuses_oversized_and_bad_moduli() {
    let big = (BigUint::one() << MAX_MODULUS_BITS) + 1u8;
    assert!(matches!(MontContext::new(&big), Err(ArithError::ModulusTooLarge { .. })));
    assert_eq!(MontContext::new(&BigUint::from(10u8)).unwrap_err(), ArithError::EvenModulus);
    assert_eq!(MontContext::new(&BigUint::one()).unwrap_err(), ArithError::ModulusTooSmall);
    assert!(matches!(MillerRabin::new(&BigUint::from(9u8 * 2)), Err(Error::InvalidArgument(_))));
}
