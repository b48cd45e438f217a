//! The first odd primes, computed at compile time by a sieve of Eratosthenes.

/// How many odd primes the table holds (3 .. 104729, the 10000th prime overall).
pub const NUM_SMALL_ODD_PRIMES: usize = 9999;
const LIMIT: usize = 104_730;

const fn build() -> [u32; NUM_SMALL_ODD_PRIMES] {
    let mut composite = [false; LIMIT];
    let mut out = [0u32; NUM_SMALL_ODD_PRIMES];
    let mut count = 0;
    let mut i = 3;
    while i < LIMIT && count < NUM_SMALL_ODD_PRIMES {
        if !composite[i] {
            out[count] = i as u32;
            count += 1;
            let mut j = i * i;
            while j < LIMIT {
                composite[j] = true;
                j += 2 * i;
            }
        }
        i += 2;
    }
    assert!(count == NUM_SMALL_ODD_PRIMES);
    out
}

/// The odd primes 3, 5, 7, ..., in order.
pub static SMALL_ODD_PRIMES: [u32; NUM_SMALL_ODD_PRIMES] = build();

/// The i-th odd prime (0-based: `odd_prime(0) == 3`).
pub fn odd_prime(i: usize) -> u32 {
    SMALL_ODD_PRIMES[i]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        assert_eq!(&SMALL_ODD_PRIMES[..6], &[3, 5, 7, 11, 13, 17]);
        assert_eq!(odd_prime(126), 719); // 128th prime overall
        assert_eq!(odd_prime(998), 7919); // 1000th prime overall
        assert_eq!(odd_prime(NUM_SMALL_ODD_PRIMES - 1), 104729);
    }
}
