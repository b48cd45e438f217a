//! Oracles and shared cases for the lane backends' tests: each backend's test passes
//! its own kernel to the checks here.

// The wide backends that use these exist on x86_64 only.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use num_bigint::{BigUint, RandBigInt};
use num_traits::{One, Zero};

/// The base-2 Fermat oracle: 2^(n - 1) = 1 (mod n), by num-bigint.
pub(super) fn fermat_passes(n: &BigUint) -> bool {
    BigUint::from(2u8).modpow(&(n - 1u8), n).is_one()
}

/// A random odd number of exactly `bits` bits.
pub(super) fn random_odd(rng: &mut impl rand::Rng, bits: u64) -> BigUint {
    let mut n = rng.gen_biguint(bits) | BigUint::one();
    n.set_bit(bits - 1, true);
    n
}

/// The odd primes below 2,000, for trial division before the (slow) modpow oracle.
fn small_odd_primes() -> Vec<u32> {
    (3u32..2000).filter(|&p| (2..p).take_while(|d| d * d <= p).all(|d| p % d != 0)).collect()
}

/// Whether `n` has a prime factor below 2,000 other than itself: composite for sure.
fn has_small_factor(n: &BigUint, small: &[u32]) -> bool {
    small.iter().any(|&p| *n > BigUint::from(p) && (n % p).is_zero())
}

/// A base-2 probable prime with exactly `bits` bits (the oracle is modpow itself, so any
/// odd number is a valid case); trial division first keeps modpow calls few.
pub(super) fn random_prime(rng: &mut impl rand::Rng, bits: u64) -> BigUint {
    let small = small_odd_primes();
    loop {
        let n = random_odd(rng, bits);
        if !has_small_factor(&n, &small) && fermat_passes(&n) {
            return n;
        }
    }
}

/// The first base-2 probable prime at or above the odd `n`, stepping by 2. Numbers with
/// a small factor are skipped before the modpow: composites only, so the walk stops
/// where a modpow-only walk would, except at a base-2 pseudoprime with a factor below
/// 2,000 (341 = 11 * 31 is one), about seven times sooner at cryptographic sizes.
pub(crate) fn next_fermat_pass(n: &BigUint) -> BigUint {
    let small = small_odd_primes();
    let mut n = n.clone();
    while has_small_factor(&n, &small) || !fermat_passes(&n) {
        n += 2u8;
    }
    n
}

/// One call of a Fermat lane kernel (`fermat(candidates, bits)`, a lane mask) against
/// the oracle, lane by lane; lanes past the batch must be clear.
pub(super) fn check_fermat(fermat: impl Fn(&[BigUint], usize) -> u8, batch: &[BigUint], bits: usize) {
    let got = fermat(batch, bits);
    for (k, n) in batch.iter().enumerate() {
        assert_eq!(got >> k & 1 == 1, fermat_passes(n), "n={n} lane={k} bits={bits}");
    }
    assert_eq!(u32::from(got) >> batch.len(), 0, "padding lanes must be cleared");
}

/// A Fermat lane kernel with `lanes` lanes against the oracle on base-2 Fermat
/// pseudoprimes (341, 561, 645, 1105, 1387, 1729, 1905, 2047, ...), Carmichael numbers,
/// their neighbours and primes, grouped by bit length.
pub(super) fn check_fermat_pseudoprimes(fermat: impl Fn(&[BigUint], usize) -> u8, lanes: usize) {
    let small: [u64; 24] = [
        341, 561, 645, 1105, 1387, 1729, 1905, 2047, 2465, 2701, 2821, 3277, 4033, 4369, 4371, 4681, 5461, 6601, 7957, 8321, 8481, 8911,
        343, 1031,
    ];
    let mut by_bits: std::collections::BTreeMap<u64, Vec<BigUint>> = Default::default();
    for &n in &small {
        for v in [n, n + 2] {
            let v = BigUint::from(v);
            by_bits.entry(v.bits()).or_default().push(v);
        }
    }
    // Larger Carmichael numbers (6k+1)(12k+1)(18k+1) with all three factors prime.
    for k in [1u64, 6, 35, 45, 51, 55, 56, 100, 121, 195] {
        let (a, b, c) = (6 * k + 1, 12 * k + 1, 18 * k + 1);
        let n = BigUint::from(a) * b * c;
        by_bits.entry(n.bits()).or_default().push(n);
    }
    // 2^(2^5)+1 = 4294967297 = 641 * 6700417 is a base-2 Fermat pseudoprime.
    let f5 = (BigUint::one() << 32u32) + 1u8;
    by_bits.entry(f5.bits()).or_default().push(f5);
    let mut pseudoprimes_seen = 0;
    for (bits, ns) in by_bits {
        for chunk in ns.chunks(lanes) {
            pseudoprimes_seen += chunk.iter().filter(|n| fermat_passes(n)).count();
            check_fermat(&fermat, chunk, bits as usize);
        }
    }
    assert!(pseudoprimes_seen > 20, "the batch must contain numbers that pass");
}
