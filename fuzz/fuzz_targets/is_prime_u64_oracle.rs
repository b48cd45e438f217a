//! `is_prime` on n < 2^64 against the exact `is_prime_u64` and, below 2^32, against trial
//! division; one Miller-Rabin round (`passes_vartime`, `passes_ct`) against a num-bigint
//! strong-probable-prime reference on the same n and a fuzzer-chosen base.
//! Layout: [n: 8 bytes LE][base: 8 bytes LE].
#![no_main]

use libfuzzer_sys::fuzz_target;
use num_bigint::BigUint;
use primekit::hazmat::primality::{is_prime_u64, MillerRabin};

fn trial_division(n: u64) -> bool {
    n >= 2 && (2..).take_while(|d| d * d <= n).all(|d| n % d != 0)
}

fn strong_probable_prime(n: u64, a: u64) -> bool {
    let (n, a) = (BigUint::from(n), BigUint::from(a));
    let nm1 = &n - 1u8;
    let s = nm1.trailing_zeros().unwrap();
    let mut x = a.modpow(&(&nm1 >> s), &n);
    if x == BigUint::from(1u8) || x == nm1 {
        return true;
    }
    for _ in 1..s {
        x = &x * &x % &n;
        if x == nm1 {
            return true;
        }
    }
    false
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 16 {
        return;
    }
    let n = u64::from_le_bytes(data[..8].try_into().unwrap());
    let verdict = primekit::is_prime(&BigUint::from(n));
    assert_eq!(verdict, is_prime_u64(n), "n = {n}");
    if n < 1 << 32 {
        assert_eq!(verdict, trial_division(n), "n = {n}");
    }
    if n >= 5 && n % 2 == 1 {
        let a = 2 + u64::from_le_bytes(data[8..16].try_into().unwrap()) % (n - 3);
        let mr = MillerRabin::new(&BigUint::from(n)).unwrap();
        let want = strong_probable_prime(n, a);
        assert_eq!(mr.passes_vartime(&[a]), want, "n = {n} a = {a}");
        assert_eq!(mr.passes_ct(&[a]), want, "ct n = {n} a = {a}");
    }
});
