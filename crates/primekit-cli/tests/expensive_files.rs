//! Files made to be expensive, as an attacker would feed `check-dh` / `check-rsa`
//! (the class of CVE-2023-3446): by default each is refused (exit 2, naming `--max-bits`)
//! or judged (exit 1) within one second, with nothing expensive run; with the cap raised
//! the audit runs.

#[path = "../../primekit/tests/common/craft.rs"]
mod craft;

use craft::*;
use num_bigint::BigUint;
use num_integer::Integer;
use num_traits::One;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_primekit");

/// The budget the defaults must keep for every crafted file, process start included.
const BUDGET: Duration = Duration::from_secs(1);

fn write(name: &str, bytes: &[u8]) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("expensive-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

/// Runs `primekit cmd file args...`; returns (exit code, stdout + stderr, wall time).
fn run(cmd: &str, file: &PathBuf, args: &[&str]) -> (i32, String, Duration) {
    let t = Instant::now();
    let out = Command::new(BIN).arg(cmd).arg(file).args(args).output().unwrap();
    let elapsed = t.elapsed();
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.code().unwrap_or(-1), text, elapsed)
}

/// The first odd number from `start` with no prime factor below 200,000: what a
/// primality test cannot dismiss by trial division, so only exponentiations can.
fn no_small_factors(start: BigUint) -> BigUint {
    let primes: Vec<u32> =
        (3u32..200_000).step_by(2).filter(|&k| (3..).step_by(2).take_while(|d| d * d <= k).all(|d| k % d != 0)).collect();
    let mut n = start | BigUint::one();
    while primes.iter().any(|&q| (&n % q).bits() == 0) {
        n += 2u32;
    }
    n
}

fn assert_refused(cmd: &str, name: &str, bytes: &[u8], what: &str) {
    let f = write(name, bytes);
    let (code, out, elapsed) = run(cmd, &f, &[]);
    assert_eq!(code, 2, "{name}: {out}");
    assert!(out.contains(what) && out.contains("--max-bits"), "{name}: {out}");
    assert!(elapsed < BUDGET, "{name}: refused in {elapsed:?}");
    let (code, out, _) = run(cmd, &f, &["--json"]);
    assert_eq!(code, 2);
    assert!(out.contains("\"error_kind\":\"over_limit\""), "{name}: {out}");
}

#[test]
fn huge_dh_groups_are_refused_quickly() {
    let two = BigUint::from(2u32);
    // Composites without small factors of 16,384 and 30,000 bits (one round each costs
    // seconds on a scalar kernel).
    for bits in [16_384u32, 30_000] {
        let p = no_small_factors(BigUint::from(3u32).pow(bits * 600 / 1000) | (BigUint::one() << (bits - 1)));
        assert_eq!(p.bits(), u64::from(bits));
        assert_refused("check-dh", &format!("composite_{bits}.pem"), &pkcs3(&p, &two), &format!("p has {bits} bits"));
    }
    // A prime p (2^19937 - 1, Lucas-Lehmer): the worst case, every round runs.
    assert_refused("check-dh", "prime_19937.pem", &pkcs3(&mersenne(19937), &two), "p has 19937 bits");
    // A 2048-bit p with a 12,000-bit q.
    let (p, g, _) = rfc5114();
    assert_refused("check-dh", "huge_q.pem", &x942(&p, &g, &mersenne(11213).pow(2), None), "q has 22426 bits");
}

/// n = r(2r - 1) with r and 2r - 1 prime and r = 1 mod 8 is a strong pseudoprime to
/// base 2 (checked here with num-bigint): the test's random bases find it at once.
#[test]
fn base_2_strong_pseudoprime_group_is_judged_quickly() {
    let r = hex(
        "858cd87e14859e31d3a0d933bf17445881eba7414d6a03e720fddb0fcf8a385bf93d701dbf914ed7d691495e75d9e627d92a2d25bb63e9762ee579ff30ca7f31",
    );
    let n = &r * ((&r << 1) - 1u32);
    let (s, d) = {
        let m: BigUint = &n - 1u32;
        let s: u64 = m.trailing_zeros().unwrap();
        (s, m >> s)
    };
    let x = BigUint::from(2u32).modpow(&d, &n);
    let strong = x.is_one() || (0..s).any(|i| BigUint::from(2u32).modpow(&(&d << i), &n) == &n - 1u32);
    assert!(strong && n.is_odd(), "the crafted n must be a base-2 strong pseudoprime");
    for (name, bytes) in
        [("spsp_pkcs3.pem", pkcs3(&n, &BigUint::from(2u32))), ("spsp_x942.pem", x942(&n, &BigUint::from(3u32), &BigUint::from(2u32), None))]
    {
        let f = write(name, &bytes);
        let (code, out, elapsed) = run("check-dh", &f, &[]);
        assert_eq!(code, 1, "{name}: {out}");
        assert!(out.contains("FAIL  p_prime: p is composite") || out.contains("FAIL  p_safe_prime"), "{name}: {out}");
        assert!(elapsed < BUDGET, "{name}: judged in {elapsed:?}");
    }
}

/// An RSA key of valid structure (n = pq, d, CRT values all consistent) with a
/// 21,154-bit n from two Mersenne primes.
#[test]
fn huge_valid_rsa_key_is_refused_quickly() {
    let (p, q) = (mersenne(11213), mersenne(9941));
    let e = BigUint::from(65537u32);
    let d = e.modinv(&(&p - 1u32).lcm(&(&q - 1u32))).unwrap();
    let key = pkcs1_pem(&rsa_key_with_d(p, q, e, d));
    assert_refused("check-rsa", "huge_rsa.pem", &key, "n has 21154 bits");
}

/// Raising the cap runs the audit: a 12,000-bit composite group without small factors
/// is judged (its (p-1)/2 is found composite by the first round).
#[test]
fn raised_cap_runs_the_audit() {
    let p = no_small_factors(BigUint::one() << 11_999u32);
    let f = write("composite_12000.pem", &pkcs3(&p, &BigUint::from(2u32)));
    let (code, out, _) = run("check-dh", &f, &["--max-bits", "12000"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("FAIL  p_safe_prime"), "{out}");
}
