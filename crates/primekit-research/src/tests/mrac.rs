//! MRAC: OpenSSL 1.1.1's default test (Massimo & Paterson 2020, §3.1): t(k) random-base rounds chosen
//! for random inputs by bit length k (Table 1). Fails on adversarial inputs with
//! probability up to 4^-t; here for comparison only.

use super::mr_fixed::mr_rounds_test;
use crate::instrument::Outcome;
use num_bigint::BigUint;
use primekit::Error;
use rand_core::CryptoRngCore;

/// Rounds OpenSSL 1.1.1 uses for a k-bit input (Massimo & Paterson 2020, Table 1, `BN_prime_checks`).
pub const fn mrac_rounds(bits: u64) -> u32 {
    match bits {
        3747.. => 3,
        1345.. => 4,
        476.. => 5,
        400.. => 6,
        347.. => 7,
        308.. => 8,
        55.. => 27,
        _ => 34,
    }
}

/// Trial division by the first `r` odd primes, then `mrac_rounds(bits)` random rounds.
pub fn mrac(n: &BigUint, r: usize, rng: &mut impl CryptoRngCore) -> Result<Outcome, Error> {
    mr_rounds_test(n, r, mrac_rounds(n.bits()), rng)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_1_boundaries() {
        let want =
            [(6, 34), (54, 34), (55, 27), (307, 27), (308, 8), (347, 7), (400, 6), (476, 5), (1024, 5), (1345, 4), (2048, 4), (3747, 3)];
        for (k, t) in want {
            assert_eq!(mrac_rounds(k), t, "k={k}");
        }
    }
}
