//! Independent reference checks, written on plain num-bigint and sharing no code with
//! primekit: they certify that a corpus entry really has the property its category
//! claims, so a mistyped or mislabelled number fails the test instead of passing silently.

use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::{One, ToPrimitive, Zero};

pub fn big(s: &str) -> BigUint {
    BigUint::parse_bytes(s.as_bytes(), 10).unwrap_or_else(|| panic!("bad decimal {s}"))
}

/// The first `k` primes (sieve of Eratosthenes; k <= 2000).
pub fn first_primes(k: usize) -> Vec<u32> {
    let limit = 20_000usize;
    let mut comp = vec![false; limit];
    let mut out = Vec::new();
    for i in 2..limit {
        if !comp[i] {
            out.push(i as u32);
            for j in (i * i..limit).step_by(i) {
                comp[j] = true;
            }
        }
    }
    out.truncate(k);
    out
}

/// Is odd `n > a` a strong probable prime to base `a` (Miller's test, Massimo & Paterson 2020, §2.1)?
pub fn strong_probable_prime(n: &BigUint, a: u32) -> bool {
    let one = BigUint::one();
    let nm1 = n - 1u8;
    let s = nm1.trailing_zeros().expect("n > 1");
    let mut x = BigUint::from(a).modpow(&(&nm1 >> s), n);
    if x == one || x == nm1 {
        return true;
    }
    for _ in 1..s {
        x = &x * &x % n;
        if x == nm1 {
            return true;
        }
    }
    false
}

/// How many of the leading prime bases 2, 3, 5, ... (up to `max`) `n` passes in a row.
pub fn leading_prime_bases_passed(n: &BigUint, max: usize) -> usize {
    first_primes(max).into_iter().take_while(|&p| strong_probable_prime(n, p)).count()
}

/// A prime base below 2000 that witnesses the compositeness of `n`, if any: a proof of
/// compositeness that does not trust the label.
pub fn mr_witness(n: &BigUint) -> Option<u32> {
    first_primes(300).into_iter().find(|&p| BigUint::from(p) < *n && !strong_probable_prime(n, p))
}

/// Exact primality for n < 3.3 * 10^24 (> 2^81): strong tests to the first 13 prime bases
/// (OEIS A014233: psi_13 = 3317044064679887385961981 is the least composite passing them).
pub fn is_prime_below_2_81(n: &BigUint) -> bool {
    assert!(n.bits() <= 81, "oracle exact only below 2^81");
    if *n < BigUint::from(2u8) {
        return false;
    }
    for p in first_primes(13) {
        if *n == BigUint::from(p) {
            return true;
        }
        if (n % p).is_zero() {
            return false;
        }
    }
    first_primes(13).into_iter().all(|p| strong_probable_prime(n, p))
}

/// Fermat test: a^(n-1) = 1 mod n.
pub fn fermat_liar(n: &BigUint, a: u32) -> bool {
    BigUint::from(a).modpow(&(n - 1u8), n).is_one()
}

/// Jacobi symbol (a / n) for odd n > 0.
pub fn jacobi(a: &BigUint, n: &BigUint) -> i32 {
    let (mut a, mut n) = (a % n, n.clone());
    let mut t = 1;
    while !a.is_zero() {
        while a.is_even() {
            a >>= 1;
            let r = (&n % 8u8).to_u8().unwrap();
            if r == 3 || r == 5 {
                t = -t;
            }
        }
        std::mem::swap(&mut a, &mut n);
        if (&a % 4u8).to_u8() == Some(3) && (&n % 4u8).to_u8() == Some(3) {
            t = -t;
        }
        a %= &n;
    }
    if n.is_one() {
        t
    } else {
        0
    }
}

/// Outcome of the Lucas tests with Selfridge's parameters (Baillie-Wagstaff 1980,
/// method A): D the first of 5, -7, 9, -11, ... with (D/n) = -1, P = 1, Q = (1 - D)/4.
pub struct LucasSelfridge {
    /// U_{n+1} = 0 mod n (Lucas probable prime; composites passing: OEIS A217120).
    pub lucas: bool,
    /// n + 1 = d 2^s, U_d = 0 or V_{d 2^r} = 0 for some r < s (strong; A217255).
    pub strong: bool,
}

/// Run both Lucas tests on odd n > 1 that is not a perfect square.
pub fn lucas_selfridge(n: &BigUint) -> LucasSelfridge {
    assert!(n.is_odd() && n.sqrt().pow(2) != *n, "needs an odd non-square");
    let mut d: i64 = 5;
    let dm = loop {
        let dm = if d > 0 { BigUint::from(d as u64) % n } else { n - (BigUint::from((-d) as u64) % n) };
        if jacobi(&dm, n) == -1 {
            break dm;
        }
        d = if d > 0 { -(d + 2) } else { -d + 2 };
    };
    // Q = (1 - D) / 4 mod n.
    let q = {
        let v = (1 - d) / 4;
        if v >= 0 {
            BigUint::from(v as u64) % n
        } else {
            n - (BigUint::from((-v) as u64) % n)
        }
    };
    let half = |x: BigUint| if x.is_even() { x >> 1 } else { (x + n) >> 1 };
    let sub = |a: &BigUint, b: &BigUint| if a >= b { a - b } else { a + n - b };
    // (U_k, V_k, Q^k) for k = e by left-to-right binary; P = 1.
    let uvq = |e: &BigUint| {
        let (mut u, mut v, mut qk) = (BigUint::one(), BigUint::one(), q.clone());
        for i in (0..e.bits() - 1).rev() {
            u = &u * &v % n;
            v = sub(&(&v * &v % n), &(&qk * 2u8 % n));
            qk = &qk * &qk % n;
            if e.bit(i) {
                let (u2, v2) = (u.clone(), v.clone());
                u = half((&u2 + &v2) % n);
                v = half((&dm * &u2 + &v2) % n);
                qk = &qk * &q % n;
            }
        }
        (u, v, qk)
    };
    let np1 = n + 1u8;
    let (u, _, _) = uvq(&np1);
    let lucas = u.is_zero();
    let s = np1.trailing_zeros().unwrap();
    let (u, mut v, mut qk) = uvq(&(&np1 >> s));
    let mut strong = u.is_zero();
    for _ in 0..s {
        strong |= v.is_zero();
        v = sub(&(&v * &v % n), &(&qk * 2u8 % n));
        qk = &qk * &qk % n;
    }
    LucasSelfridge { lucas, strong }
}

/// Lucas-Lehmer: for odd prime p, 2^p - 1 is prime iff s_{p-2} = 0, s_0 = 4, s_{i+1} = s_i^2 - 2.
pub fn lucas_lehmer(p: u32) -> bool {
    if p == 2 {
        return true;
    }
    let m = (BigUint::one() << p) - 1u8;
    let mut s = BigUint::from(4u8);
    for _ in 0..p - 2 {
        s = (&s * &s + &m - 2u8) % &m;
    }
    s.is_zero()
}

/// Pepin: F_k = 2^(2^k) + 1 (k >= 1) is prime iff 3^((F_k - 1)/2) = -1 mod F_k.
pub fn pepin(k: u32) -> bool {
    let f = (BigUint::one() << (1u32 << k)) + 1u8;
    BigUint::from(3u8).modpow(&((&f - 1u8) >> 1), &f) == &f - 1u8
}
