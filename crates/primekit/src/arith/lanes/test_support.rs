//! Oracles and shared cases for the lane backends' tests: each backend's test passes
//! its own kernel to the checks here.

// The wide backends that use these exist on x86_64 only.
#![cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]

use num_bigint::{BigUint, RandBigInt};
use num_traits::{One, Zero};

/// The base-2 Fermat oracle: 2^(n - 1) = 1 (mod n), by num-bigint. Each number's answer
/// is computed once per process and kept: the checks run the same candidates through
/// several batches, partial batches and kernels.
pub(super) fn fermat_passes(n: &BigUint) -> bool {
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};
    static SEEN: OnceLock<Mutex<HashMap<BigUint, bool>>> = OnceLock::new();
    let seen = SEEN.get_or_init(Default::default);
    if let Some(&pass) = seen.lock().unwrap_or_else(|e| e.into_inner()).get(n) {
        return pass;
    }
    let pass = BigUint::from(2u8).modpow(&(n - 1u8), n).is_one();
    seen.lock().unwrap_or_else(|e| e.into_inner()).insert(n.clone(), pass);
    pass
}

/// A random odd number of exactly `bits` bits.
pub(super) fn random_odd(rng: &mut impl rand::Rng, bits: u64) -> BigUint {
    let mut n = rng.gen_biguint(bits) | BigUint::one();
    n.set_bit(bits - 1, true);
    n
}

/// The odd primes below 2,000, for trial division before the (slow) modpow oracle.
fn small_odd_primes() -> Vec<u32> {
    (3u32..2000).filter(|&p| is_small_prime(p.into())).collect()
}

/// Whether `n` has a prime factor below 2,000 other than itself: composite for sure.
fn has_small_factor(n: &BigUint, small: &[u32]) -> bool {
    small.iter().any(|&p| *n > BigUint::from(p) && (n % p).is_zero())
}

/// Whether the odd `n` is a base-2 probable prime, found cheaply: no factor below 2,000,
/// then primekit's own variable-time strong base-2 test (several times faster than
/// num-bigint's modpow at 2k-4k bits) as a filter, and the num-bigint oracle
/// [`fermat_passes`] on what the filter lets through, so every number reported is one
/// the oracle passes. A strong base-2 probable prime is a Fermat one, so the filter only
/// drops composites unless primekit's test is wrong: then the searches below find
/// nothing and panic (or skip a number a modpow-only search would stop at).
fn probable_prime(n: &BigUint, small: &[u32]) -> bool {
    if has_small_factor(n, small) {
        return false;
    }
    let filter = *n < BigUint::from(5u8) || crate::primality::MillerRabin::new_vartime(n).map_or(true, |mr| mr.passes_base_two_vartime());
    filter && fermat_passes(n)
}

/// Odd candidates a search looks at before declaring its filter broken: about 58 times
/// the expected count, bits * ln(2) / 2 (one odd number in that many is prime).
fn search_limit(bits: u64) -> u64 {
    20 * bits
}

/// A base-2 probable prime with exactly `bits` bits (the oracle is modpow itself, so any
/// odd number is a valid case), found by [`probable_prime`].
pub(super) fn random_prime(rng: &mut impl rand::Rng, bits: u64) -> BigUint {
    let small = small_odd_primes();
    for _ in 0..search_limit(bits) {
        let n = random_odd(rng, bits);
        if probable_prime(&n, &small) {
            return n;
        }
    }
    panic!("no base-2 probable prime of {bits} bits in {} random odd numbers: the filter is wrong", search_limit(bits));
}

/// The first base-2 probable prime at or above the odd `n`, stepping by 2 and testing by
/// [`probable_prime`]: where a modpow-only walk would stop, except at a base-2
/// pseudoprime with a factor below 2,000 (341 = 11 * 31 is one) or one that is not a
/// strong pseudoprime (both vanishingly rare at the random sizes searched here).
pub(crate) fn next_fermat_pass(n: &BigUint) -> BigUint {
    let small = small_odd_primes();
    let mut n = n.clone();
    for _ in 0..search_limit(n.bits()) {
        if probable_prime(&n, &small) {
            return n;
        }
        n += 2u8;
    }
    panic!("no base-2 probable prime in {} odd numbers from {n}: the filter is wrong", search_limit(n.bits()));
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

/// Whether the small `p` is prime (trial division).
fn is_small_prime(p: u64) -> bool {
    p >= 2 && (2..p).take_while(|d| d * d <= p).all(|d| !p.is_multiple_of(d))
}

/// 2^p − 1 for the largest prime p <= `bits`: a Mersenne prime or a base-2 Fermat
/// pseudoprime (p divides 2^(p−1) − 1 = (M_p − 1)/2 and 2^p ≡ 1 mod M_p), all ones.
fn mersenne_at_most(bits: u64) -> BigUint {
    let p = (2..=bits).rev().find(|&p| is_small_prime(p)).expect("bits >= 2");
    (BigUint::one() << p) - 1u8
}

/// Public candidates of mixed sizes up to `bits` (>= 64) for variable-time batches, in
/// an order that mixes sizes within each batch: the largest odd numbers of the size
/// (2^bits − 1, 2^bits − 3), random odd numbers of bits, bits − 1, bits − 20 and bits/2
/// bits, 2^p − 1 for the largest primes p <= bits and <= bits − 20 (pseudoprimes or
/// primes; 2^521 − 1, 2^607 − 1, 2^1279 − 1, 2^2203 − 1 are Mersenne primes, at and
/// below 512 + 9, 1024 − 417, ...), the small primes 3, 5, 7, 31, the base-2
/// pseudoprimes 341, 561, 645, 1105, 2^32 + 1 and a Carmichael number of about 44 bits,
/// and products of two Mersenne primes.
pub(super) fn mixed_size_candidates(rng: &mut impl rand::Rng, bits: u64) -> Vec<BigUint> {
    let mersenne = |p: u32| (BigUint::one() << p) - 1u8;
    let mut big = vec![
        (BigUint::one() << bits) - 1u8,
        random_odd(rng, bits),
        mersenne_at_most(bits),
        random_odd(rng, bits - 1),
        (BigUint::one() << bits) - 3u8,
        random_odd(rng, bits - 20),
        mersenne_at_most(bits - 20),
        random_odd(rng, bits / 2),
    ];
    big.extend([521u32, 607, 1279, 2203].into_iter().filter(|&p| u64::from(p) <= bits).map(mersenne));
    // (2^61 − 1)(2^89 − 1), 150 bits; (2^127 − 1)(2^521 − 1) when it fits.
    big.push(mersenne(61) * mersenne(89));
    if bits >= 648 {
        big.push(mersenne(127) * mersenne(521));
    }
    let (a, b, c) = (6 * 195 + 1u64, 12 * 195 + 1u64, 18 * 195 + 1u64);
    let small: Vec<BigUint> =
        [3u64, 341, 5, 561, 7, 645, 31, 1105, (1 << 32) + 1].into_iter().map(BigUint::from).chain([BigUint::from(a) * b * c]).collect();
    // Interleave: each run of lanes holds large and small numbers.
    let mut out = Vec::new();
    let (mut bi, mut si) = (big.into_iter(), small.into_iter());
    loop {
        let (x, y) = (bi.next(), si.next());
        if x.is_none() && y.is_none() {
            return out;
        }
        out.extend(x.into_iter().chain(y));
    }
}

/// A Fermat lane kernel with `lanes` lanes, run at each batch's own shape (`fermat`
/// takes only the candidates), against the oracle on [`mixed_size_candidates`] of 200
/// and 1024 bits: from each start, batches of 1 to `lanes` candidates.
pub(super) fn check_fermat_mixed_sizes(fermat: impl Fn(&[BigUint]) -> u8, lanes: usize) {
    use rand::SeedableRng;
    let mut rng = rand::rngs::StdRng::seed_from_u64(64);
    for bits in [200u64, 1024] {
        let cands = mixed_size_candidates(&mut rng, bits);
        for start in 0..cands.len() {
            let end = cands.len().min(start + 1 + start % lanes);
            check_fermat(|c: &[BigUint], _| fermat(c), &cands[start..end], bits as usize);
        }
    }
}
