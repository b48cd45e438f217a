//! Adversarial corpus: composites built to fool weak primality tests, by category, each
//! with its provenance and an independent check (tests/support/oracles.rs, plain
//! num-bigint) that its members really have the property the category claims.
//!
//! Corpus categories come from `data/vectors.tsv` (provenance per line, see
//! data/README.md), selected by the source's own note; generated categories are made here
//! from a fixed seed. Every test prints `category: count` (run with `--nocapture`) and
//! asserts the count, so a shrinking corpus is noticed.

#[path = "support/oracles.rs"]
mod oracles;

use num_bigint::{BigUint, RandBigInt};
use num_traits::One;
use oracles::*;
use primekit::certificate::{prove, ProveError};
use primekit::hazmat::primality::MillerRabin;
use primekit::hazmat::sieve::trial_divide_vartime;
use primekit::{is_prime, try_is_prime};
use rand::SeedableRng;

/// Composite corpus entries whose notes contain any of `tags`.
fn corpus(tags: &[&str]) -> Vec<(BigUint, String)> {
    include_str!("data/vectors.tsv")
        .lines()
        .filter(|l| tags.iter().any(|t| l.contains(t)))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f[1], "composite", "category entry labelled {}: {}", f[1], f[0]);
            (big(f[0]), f[3].chars().take(120).collect())
        })
        .collect()
}

fn report(category: &str, count: usize) {
    println!("adversarial corpus: {category}: {count}");
}

/// Cheap filter for constructions: no factor among the first 512 odd primes and a strong
/// probable prime to base 2. A false "prime" here only makes the product less adversarial,
/// never prime, so constructed composites stay composite whatever this returns.
fn probable_prime(n: &BigUint) -> bool {
    trial_divide_vartime(&n.to_u64_digits(), 512).is_none() && MillerRabin::new(n).is_ok_and(|m| m.passes_base_two_vartime())
}

#[test]
fn carmichael_numbers() {
    // Corpus: Wycheproof CarmichaelNumber flag (incl. Pinch's tables), Math::Prime::Util's
    // Carmichael list, crypto-primes' LARGE_CARMICHAEL_NUMBER (Arnault 1995, 397 digits).
    let listed = corpus(&["Carmichael"]);
    for (n, note) in &listed {
        // Korselt: a Carmichael number fools the Fermat test for every base coprime to it.
        for a in [2u32, 3, 5, 7, 11, 13] {
            if n % a != BigUint::ZERO {
                assert!(fermat_liar(n, a), "{n} not a Fermat liar for base {a} ({note})");
            }
        }
        assert!(!is_prime(n), "Carmichael number {n} declared prime ({note})");
        // The prover screens by BPSW before its search: a composite gets no certificate
        // and is reported as composite.
        assert!(matches!(prove(n), Err(ProveError::Composite(_))), "Carmichael number {n}: prove ({note})");
    }
    assert!(listed.iter().any(|(n, _)| n.bits() > 1300), "the 397-digit Arnault number is missing");
    report("Carmichael numbers (corpus)", listed.len());
    assert_eq!(listed.len(), 134);

    // Chernick (1939): (6k+1)(12k+1)(18k+1) with all three factors prime is Carmichael.
    let mut rng = rand::rngs::StdRng::seed_from_u64(0xC4E5);
    let mut made = Vec::new();
    for kbits in [40u64, 100, 200] {
        let k0 = rng.gen_biguint(kbits) | (BigUint::one() << (kbits - 1));
        let (_, f) = search_forms(&k0, 1, &[(6, 1), (12, 1), (18, 1)]);
        let n = &f[0] * &f[1] * &f[2];
        let nm1 = &n - 1u8;
        assert!(f.iter().all(|p| &nm1 % (p - 1u8) == BigUint::ZERO), "Korselt criterion");
        assert!(!is_prime(&n), "Chernick Carmichael {n} declared prime");
        made.push(n.bits());
    }
    report(&format!("Chernick Carmichael numbers (generated, bits {made:?})"), made.len());
}

/// OEIS A014233: psi_k, the least composite that is a strong pseudoprime to each of the
/// first k prime bases, k = 1..13 (Pomerance-Selfridge-Wagstaff 1980, Jaeschke 1993
/// for k <= 8, Jiang-Deng 2014 for k = 9..11, Sorenson-Webster 2017 for k = 12, 13).
const A014233: [&str; 13] = [
    "2047",
    "1373653",
    "25326001",
    "3215031751",
    "2152302898747",
    "3474749660383",
    "341550071728321",
    "341550071728321",
    "3825123056546413051",
    "3825123056546413051",
    "3825123056546413051",
    "318665857834031151167461",
    "3317044064679887385961981",
];

#[test]
fn strong_pseudoprimes_to_fixed_bases() {
    for (k, s) in A014233.iter().enumerate() {
        let n = big(s);
        let k = k + 1;
        assert!(leading_prime_bases_passed(&n, 50) >= k, "psi_{k} = {n} must pass the first {k} prime bases");
        assert!(mr_witness(&n).is_some(), "psi_{k} has no witness below 2000");
        assert!(!is_prime(&n), "psi_{k} = {n} declared prime");
    }
    report("strong pseudoprimes to the first k prime bases, OEIS A014233 k=1..13", A014233.len());

    // Corpus: Wycheproof FixedMillerRabinBasis (Jaeschke93, SorWeb15), A001262 (strong
    // pseudoprimes to base 2, crypto-primes/Math::Prime::Util/Go).
    let listed = corpus(&["FixedMillerRabinBasis", "A001262"]);
    let mut most = 0;
    for (n, note) in &listed {
        let passed = leading_prime_bases_passed(n, 50);
        assert!(passed >= 1, "{n} is not even a base-2 strong pseudoprime ({note})");
        assert!(mr_witness(n).is_some(), "{n}: no witness ({note})");
        assert!(!is_prime(n), "{n} declared prime ({note})");
        most = most.max(passed);
    }
    report(&format!("strong pseudoprimes to fixed bases (corpus; up to {most} leading prime bases fooled)"), listed.len());
    assert_eq!(listed.len(), 51);
    assert!(most >= 12);
}

#[test]
fn composites_passing_many_fixed_bases() {
    // Arnault's constructions (46 digits, Go; 337 digits, Arnault 1996 via Wycheproof,
    // Botan, LibTomMath, sympy; 397 digits, Arnault 1995, crypto-primes) and the
    // Prime-and-Prejudice composite (Albrecht-Massimo-Paterson-Somorovsky 2018, as
    // transcribed in MoarVM/MoarVM#1170). Not constructed here: Arnault's method
    // (J. Symbolic Comput. 20 (1995) 151-161) needs a CRT search over the target bases
    // we leave to the cited numbers. The minimum bases each must fool are the
    // properties stated by their sources (and checked in shared/corpus/README.md).
    let listed = corpus(&["Arnault", "moarvm-issue"]);
    let mut fooled = Vec::new();
    for (n, note) in &listed {
        let want = match n.to_string().len() {
            46 => 10,  // 2 ..= 29
            337 => 46, // every prime < 200
            397 => 62, // every prime < 307
            _ => 100,  // 2 ..= 541 (2315-bit Prime and Prejudice number)
        };
        let passed = leading_prime_bases_passed(n, want + 1);
        assert!(passed >= want, "{} digits: passes only {passed} prime bases ({note})", n.to_string().len());
        assert!(!is_prime(n), "{}-digit composite declared prime", n.to_string().len());
        fooled.push((n.bits(), passed));
    }
    report(&format!("composites passing many fixed MR bases (corpus; (bits, bases fooled) {fooled:?})"), listed.len());
    assert_eq!(listed.len(), 4);
}

#[test]
fn lucas_pseudoprimes() {
    // crypto-primes' STRONG_LUCAS (OEIS A217255) and LUCAS (A217120) lists, Selfridge
    // parameters. Each entry is checked to pass our own Lucas test and to be composite
    // by trial division (all are below 500000).
    for (tag, strong, want) in [("A217255", true, 41usize), ("A217120", false, 146)] {
        let listed = corpus(&[tag]);
        for (n, note) in &listed {
            let l = lucas_selfridge(n);
            assert!(if strong { l.strong } else { l.lucas }, "{n} fails the Lucas test its list claims ({note})");
            let v = n.iter_u64_digits().next().unwrap();
            assert!((2..v).take_while(|d| d * d <= v).any(|d| v % d == 0), "{n} is prime");
            assert!(!is_prime(n), "{n} declared prime ({note})");
        }
        report(&format!("{} Lucas pseudoprimes {tag} (corpus)", if strong { "strong" } else { "Selfridge" }), listed.len());
        assert_eq!(listed.len(), want);
    }
}

/// The least x = start + step*i (i >= 0) for which every a*x + b, (a, b) in `forms`, is
/// prime. A sieve over windows of i by the odd primes below 17400 rejects almost every x
/// before any exponentiation; survivors go through `probable_prime`, then `is_prime`.
fn search_forms(start: &BigUint, step: u32, forms: &[(u32, u32)]) -> (BigUint, Vec<BigUint>) {
    const W: usize = 1 << 16;
    let primes: Vec<u64> = first_primes(2000).into_iter().skip(1).map(u64::from).collect();
    let mut base = start.clone();
    loop {
        let mut ok = vec![true; W];
        for &r in &primes {
            let base_r = (&base % r).iter_u64_digits().next().unwrap_or(0);
            for &(a, b) in forms {
                let slope = (a as u64 * step as u64) % r;
                if slope == 0 {
                    continue; // a*x + b is constant mod r (and never 0 for these forms)
                }
                // a*(base + step*i) + b = 0 mod r  <=>  i = -(a*base + b) / slope mod r.
                let c = (a as u64 * base_r + b as u64) % r;
                let inv = BigUint::from(slope).modpow(&BigUint::from(r - 2), &BigUint::from(r)).iter_u64_digits().next().unwrap();
                let mut i = ((r - c) % r * inv % r) as usize;
                while i < W {
                    ok[i] = false;
                    i += r as usize;
                }
            }
        }
        for i in (0..W).filter(|&i| ok[i]) {
            let x = &base + BigUint::from(step as u64 * i as u64);
            let vals: Vec<BigUint> = forms.iter().map(|&(a, b)| &x * a + b).collect();
            if vals.iter().all(probable_prime) && vals.iter().all(is_prime) {
                return (x, vals);
            }
        }
        base += BigUint::from(step as u64 * W as u64);
    }
}

/// n = (2x+1)(4x+1), both factors prime, of about `bits` bits, x odd.
fn two_x_four_x(rng: &mut impl rand::RngCore, bits: u64) -> BigUint {
    let xbits = (bits - 3) / 2;
    let x0 = rng.gen_biguint(xbits) | (BigUint::one() << (xbits - 1)) | BigUint::one();
    let (_, f) = search_forms(&x0, 2, &[(2, 1), (4, 1)]);
    &f[0] * &f[1]
}

#[test]
fn worst_case_2x_plus_1_times_4x_plus_1() {
    // Massimo & Paterson 2020, §3.5.2 / Table 3: with 2x+1, 4x+1 prime (x odd) exactly a quarter of the
    // bases are strong liars, the Monier-Rabin worst case. Sizes 512..2048 bits.
    let mut rng = rand::rngs::StdRng::seed_from_u64(0x2424);
    let mut sizes = Vec::new();
    for bits in [512u64, 768, 1024, 1536, 2048] {
        let n = two_x_four_x(&mut rng, bits);
        assert!(n.bits() + 2 >= bits && n.bits() <= bits, "{} bits", n.bits());
        for _ in 0..3 {
            assert!(!is_prime(&n), "{}-bit (2x+1)(4x+1) declared prime", n.bits());
        }
        sizes.push(n.bits());
        if bits == 512 {
            // The theory, measured: the fraction of random bases that lie is about 1/4.
            let mr = MillerRabin::new(&n).unwrap();
            let mut base_rng = rand_chacha::ChaCha20Rng::seed_from_u64(5);
            let trials = 400;
            let liars = (0..trials).filter(|_| mr.passes_vartime(&mr.random_base(&mut base_rng).unwrap())).count();
            println!("(2x+1)(4x+1), {} bits: {liars}/{trials} random bases are strong liars (theory 1/4)", n.bits());
            assert!((60..=140).contains(&liars), "liar rate {liars}/{trials} far from 1/4");
        }
    }
    report(&format!("(2x+1)(4x+1) products (generated, bits {sizes:?})"), sizes.len());
}

#[test]
fn powers_of_primes() {
    // Wieferich primes 1093 and 3511: their squares are base-2 strong pseudoprimes.
    for p in [1093u32, 3511] {
        let n = BigUint::from(p).pow(2);
        assert!(strong_probable_prime(&n, 2), "{p}^2 should fool base 2");
        assert!(!is_prime(&n));
    }
    let primes: Vec<BigUint> = vec![
        BigUint::from(3u8),
        BigUint::from(65537u32),
        BigUint::from(4294967311u64),           // least prime > 2^32: its square just exceeds 2^64
        BigUint::from(18446744073709551557u64), // largest prime < 2^64
        (BigUint::one() << 127u32) - 1u8,
        (BigUint::one() << 255u32) - 19u8,
        (BigUint::one() << 521u32) - 1u8,
        (BigUint::one() << 1279u32) - 1u8,
    ];
    let mut count = 2;
    for p in &primes {
        assert!(is_prime(p), "{p}");
        for k in 2..=7u32 {
            let n = p.pow(k);
            if n.bits() > 4096 {
                break;
            }
            assert!(!is_prime(&n), "{}-bit prime ^ {k} declared prime", p.bits());
            count += 1;
        }
    }
    report("squares and higher powers of primes (generated)", count);
    assert_eq!(count, 2 + 7 * 6 + 2); // Wieferich squares; k = 2..=7 for seven primes; k = 2, 3 for 2^1279-1
}

/// OEIS A000043: the exponents p of the Mersenne primes 2^p - 1, up to 1279.
const MERSENNE_EXPONENTS: [u32; 15] = [2, 3, 5, 7, 13, 17, 19, 31, 61, 89, 107, 127, 521, 607, 1279];

#[test]
fn mersenne_numbers() {
    // Every 2^p - 1 (p prime, p <= 1279) against Lucas-Lehmer; for prime p >= 3 every
    // composite one is a base-2 strong pseudoprime (2^p = 1 mod n and p | (n-1)/2), so
    // primekit's base-2 filter cannot reject it and the random rounds must.
    let mut composites = 0;
    for p in first_primes(300).into_iter().take_while(|&p| p <= 1279) {
        let m = (BigUint::one() << p) - 1u8;
        let prime = lucas_lehmer(p);
        assert_eq!(prime, MERSENNE_EXPONENTS.contains(&p), "Lucas-Lehmer disagrees with A000043 at p={p}");
        assert_eq!(is_prime(&m), prime, "2^{p}-1");
        if !prime {
            composites += 1;
            if p < 200 {
                assert!(strong_probable_prime(&m, 2), "2^{p}-1 should pass base 2");
            }
        }
    }
    report("composite Mersenne numbers 2^p-1, p prime <= 1279 (generated, Lucas-Lehmer oracle)", composites);
    assert_eq!(composites, 207 - 15);
}

#[test]
fn fermat_numbers() {
    // F_k = 2^(2^k)+1: prime for k <= 4, composite for 5 <= k <= 32 (Pepin's test here
    // for k <= 11; F_12, F_13 by their known factors 114689 and 2710954639361).
    for k in 0..=13u32 {
        let f = (BigUint::one() << (1u32 << k)) + 1u8;
        let prime = match k {
            0 => true,
            1..=11 => pepin(k),
            12 => f.clone() % 114689u32 != BigUint::ZERO,
            _ => f.clone() % 2710954639361u64 != BigUint::ZERO,
        };
        assert_eq!(prime, k <= 4, "oracle on F_{k}");
        assert_eq!(is_prime(&f), prime, "F_{k}");
    }
    report("composite Fermat numbers F_5..F_13 (generated)", 9);
}

#[test]
fn near_powers_of_two() {
    // Every n = 2^k +- c, 62 <= k <= 80, c <= 200, against the exact 13-base test
    // (both sides of the 2^64 boundary between the exact and the probabilistic path).
    let (mut primes, mut composites) = (0, 0);
    for k in 62..=80u32 {
        let top = BigUint::one() << k;
        for c in 0..=200u32 {
            for n in [&top + c, &top - c] {
                if n.bits() > 81 {
                    continue;
                }
                let want = is_prime_below_2_81(&n);
                assert_eq!(try_is_prime(&n), Ok(want), "2^{k} +- {c}");
                if want {
                    primes += 1
                } else {
                    composites += 1
                }
            }
        }
    }
    // Limb boundaries, against a 40-base strong test (independent code, not exact but
    // no adversary chose these numbers).
    for k in [128u32, 192, 256, 512, 1024] {
        let top = BigUint::one() << k;
        for c in (1..=99u32).step_by(2) {
            for n in [&top + c, &top - c] {
                let want = first_primes(40).into_iter().all(|p| strong_probable_prime(&n, p));
                assert_eq!(is_prime(&n), want, "2^{k} +- {c}");
                if want {
                    primes += 1
                } else {
                    composites += 1
                }
            }
        }
    }
    report("primes near powers of two (generated)", primes);
    report("composites near powers of two (generated)", composites);
    assert!(primes > 150 && composites > 7000, "{primes} {composites}");
}
