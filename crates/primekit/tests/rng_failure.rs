//! Randomness failures are errors, never a silent fallback: `is_prime_with_rng` with
//! generators that fail, fail late, or get stuck returns `Error::Rng`, never a verdict
//! that skipped the random rounds; inputs decided without randomness never touch it.

use num_bigint::BigUint;
use num_traits::One;
use primekit::hazmat::primality::is_prime_with_rng;
use primekit::{try_is_prime, Error};
use rand_core::{CryptoRng, RngCore};
use std::num::NonZeroU32;

/// Serves `ok_calls` fills from a counter, then fails every call; counts the calls.
struct FailingRng {
    ok_calls: usize,
    calls: usize,
    stuck_byte: Option<u8>,
}

impl FailingRng {
    fn failing() -> Self {
        FailingRng { ok_calls: 0, calls: 0, stuck_byte: None }
    }
}

impl RngCore for FailingRng {
    fn next_u32(&mut self) -> u32 {
        panic!("the library must use try_fill_bytes")
    }
    fn next_u64(&mut self) -> u64 {
        panic!("the library must use try_fill_bytes")
    }
    fn fill_bytes(&mut self, _: &mut [u8]) {
        panic!("the library must use try_fill_bytes")
    }
    fn try_fill_bytes(&mut self, dest: &mut [u8]) -> Result<(), rand_core::Error> {
        self.calls += 1;
        if let Some(b) = self.stuck_byte {
            dest.fill(b);
            return Ok(());
        }
        if self.calls > self.ok_calls {
            return Err(rand_core::Error::from(NonZeroU32::new(rand_core::Error::CUSTOM_START + 7).unwrap()));
        }
        for (i, d) in dest.iter_mut().enumerate() {
            *d = (self.calls * 131 + i * 7) as u8;
        }
        Ok(())
    }
}

impl CryptoRng for FailingRng {}

fn mersenne(p: u32) -> BigUint {
    (BigUint::one() << p) - 1u8
}

#[test]
fn failing_generator_is_an_error_for_a_prime() {
    for p in [mersenne(127), mersenne(521), mersenne(1279)] {
        let mut rng = FailingRng::failing();
        match is_prime_with_rng(&p, &mut rng) {
            Err(Error::Rng(msg)) => assert!(!msg.is_empty()),
            other => panic!("{} bits: expected Error::Rng, got {other:?}", p.bits()),
        }
        assert_eq!(rng.calls, 1);
    }
}

#[test]
fn generator_failing_midway_is_an_error() {
    // The first rounds get bytes, then the generator dies: no partial "prime".
    for ok_calls in [1, 5, 40] {
        let mut rng = FailingRng { ok_calls, calls: 0, stuck_byte: None };
        let r = is_prime_with_rng(&mersenne(521), &mut rng);
        assert!(matches!(r, Err(Error::Rng(_))), "after {ok_calls} good calls: {r:?}");
    }
}

#[test]
fn stuck_generator_is_detected_not_looped_on() {
    // All-ones bytes always exceed n - 4 for n = 2^521 - 1, so rejection sampling can
    // never succeed; the library gives up after its documented 128 draws.
    let mut rng = FailingRng { ok_calls: 0, calls: 0, stuck_byte: Some(0xFF) };
    let r = is_prime_with_rng(&mersenne(521), &mut rng);
    assert!(matches!(r, Err(Error::Rng(_))), "{r:?}");
    assert_eq!(rng.calls, 128);
}

#[test]
fn inputs_decided_without_randomness_never_touch_it() {
    let cases: [(BigUint, bool); 6] = [
        (BigUint::from(18446744073709551557u64), true), // exact below 2^64
        (BigUint::from(3825123056546413051u64), false),
        (BigUint::one() << 200u32, false),     // even
        (mersenne(127) * 3u8, false),          // small factor
        (mersenne(127) * mersenne(89), false), // base-2 witness
        (BigUint::from(1u8), false),
    ];
    for (n, want) in cases {
        let mut rng = FailingRng::failing();
        assert_eq!(is_prime_with_rng(&n, &mut rng), Ok(want), "{n}");
        assert_eq!(rng.calls, 0, "{n}: generator touched");
    }
}

#[test]
fn operating_system_generator_works() {
    assert_eq!(try_is_prime(&mersenne(521)), Ok(true));
    assert_eq!(try_is_prime(&mersenne(523)), Ok(false));
}
