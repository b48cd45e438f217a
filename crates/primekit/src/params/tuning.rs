//! Measured tuning tables of the prime generators: how many small primes the sieve
//! uses and how many positions one sieve segment covers.
//!
//! Unlike [`super::error_bound`], nothing here comes from a proof: the sieve depth was
//! measured (the comments give the measurements and how to repeat them) and the segment
//! length is a sizing rule. They change speed only, never the error bound or the output:
//! the sieve only removes candidates with a small factor, and the segment length only
//! groups the same positions differently.

/// Number of odd primes sieved for a `bits`-bit (safe) prime. Measured with
/// `primekit bench gen` (README, "Prime generation"): more primes cost one word division
/// each per window and save exponentiations, which grow ~cubically with size.
pub fn sieve_primes(bits: u32, safe: bool) -> usize {
    if safe {
        match bits {
            0..=256 => 2000,
            257..=768 => 60_000,
            // One window's sieve costs ~8 ns per prime since the IFMA residues
            // (`examples/sieve_window_speed`: 3.2 / 4.9 / 7.5 ms at 200k / 400k / 800k
            // primes, 1024 bits) and a 1024-bit Fermat lane ~45 us with ~730 candidates
            // per safe prime at 200k primes, falling as 1/(ln B)^2: modelled total flat
            // from 400k to 800k (35.5 ms vs 37 at 200k); measured flat too (`bench gen
            // --safe --count 300 --sieve-primes`: 40.1 / 40.6 / 42.1 / 42.1 ms at 200k /
            // 400k / 600k / 1.2M, standard error ~2.4 ms, loaded machine). 290k keeps
            // to the 2^22 list: more would build the 16 MB 2^26 list (~50 ms per process,
            // `examples/prime_list_speed`). Re-measured with the column-pair Fermat kernel
            // (25 us per 1024-bit lane): 32.7 / 27.8 / 27.7 / 27.5 / 30.0 ms at 60k / 120k
            // / 200k / 290k / 600k (`--count 300`), still flat around 290k.
            769..=1280 => 290_000,
            // Larger sizes: the modelled optimum (2 F / (c ln B)) exceeds the whole 2^26
            // list; at 1536 bits 3.95M vs 400k measured 214-279 vs 301 ms (count 32).
            _ => 3_950_000,
        }
    } else {
        match bits {
            0..=256 => 500,
            257..=640 => 2000,
            641..=1536 => 9999,
            _ => 30_000,
        }
    }
}

/// Positions one sieve segment covers: about the expected distance to a (safe) prime, at
/// least 1024 positions (and at most 2^16 for safe primes; 2^12 for plain primes).
/// `log2_window` is the search window's log2 (see `gen::options`).
pub fn segment_len(safe: bool, log2_window: u32) -> usize {
    if safe {
        1 << (log2_window - 2).clamp(10, 16)
    } else {
        1 << 12
    }
}
