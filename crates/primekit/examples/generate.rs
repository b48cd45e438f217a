//! Generate primes: `cargo run --release -p primekit --example generate [BITS]`.
//!
//! A random prime, a safe prime (p and (p - 1)/2 prime), several primes on all cores with
//! the options builder (here: p = 3 mod 4 and gcd(p - 1, 65537) = 1, as for RSA), the
//! primes around a number, and an RSA key as PKCS #8 PEM. BITS defaults to 1024.

use primekit::{
    generate_prime, generate_primes, generate_rsa_key, generate_safe_prime, is_prime, next_prime, prev_prime, BigUint, PrimeOptions,
};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let bits: u32 = match std::env::args().nth(1) {
        Some(a) => a.parse().map_err(|e| format!("BITS: {a:?}: {e}"))?,
        None => 1024,
    };

    let p = generate_prime(bits)?;
    assert!(is_prime(&p) && p.bits() == u64::from(bits));
    println!("prime ({bits} bits):       {:x}", p);

    let q = generate_safe_prime(bits)?;
    println!("safe prime ({bits} bits):  {:x}", q);

    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let opts = PrimeOptions::new(bits).congruence(BigUint::from(4u8), BigUint::from(3u8)).rsa_exponent(65537).jobs(cores);
    for r in generate_primes(&opts, 3)? {
        assert_eq!(&r % 4u8, BigUint::from(3u8));
        println!("p = 3 mod 4, RSA-ready:   {:x}", r);
    }

    let n = BigUint::from(10u8).pow(30);
    println!("around 10^30:             {} < 10^30 < {}", prev_prime(&n)?, next_prime(&n)?);

    let key = generate_rsa_key(2048, &BigUint::from(65537u32))?;
    println!("{}", key.public_key_pem()?);
    Ok(())
}
