//! Time to build the static sieving-prime lists (once per process): the 2^22 list every
//! safe-prime search up to 1280 bits uses, the 2^26 list above.
use primekit::hazmat::sieve::{odd_primes_below_2_22, odd_primes_below_2_26};
use std::time::Instant;

fn main() {
    let t = Instant::now();
    let a = odd_primes_below_2_22().len();
    let t22 = t.elapsed().as_secs_f64() * 1e3;
    let t = Instant::now();
    let b = odd_primes_below_2_26().len();
    let t26 = t.elapsed().as_secs_f64() * 1e3;
    println!("2^22 list: {a} primes in {t22:.1} ms; 2^26 list: {b} primes in {t26:.1} ms");
}
