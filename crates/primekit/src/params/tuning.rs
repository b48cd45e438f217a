//! Measured tuning tables of the prime generators: how many small primes the sieve
//! uses and how many positions one sieve segment covers.
//!
//! Unlike [`super::error_bound`], nothing here comes from a proof: the sieve depth was
//! measured (the comments give the measurements and how to repeat them) and the segment
//! length is a sizing rule. They change speed only, never the error bound or the output:
//! the sieve only removes candidates with a small factor, and the segment length only
//! groups the same positions differently.

/// Number of odd primes sieved for a `bits`-bit (safe) prime with IFMA lanes (other
/// kernels: [`sieve_primes_on`]; the provable generators also start from this). Measured with
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
            // / 200k / 290k / 600k (`--count 300`), still flat around 290k. Without IFMA
            // (Emerald Rapids, `--count 150 --no-peer`, two runs each) 290k is best too:
            // `avx2` 141 / 145 ms against 167-194 at 100k-150k and 174-217 at 600k-1.2M,
            // whose residues (no IFMA) raise the time per candidate from 0.22-0.25 to
            // 0.29-0.35 ms; `adx` 247 / 279 ms against 286-355 at 100k-150k.
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

/// Number of odd primes the prime generators sieve with on `kernel`: [`sieve_primes`],
/// deeper for plain primes above 2,560 bits, where a candidate's Fermat test costs the
/// scalar and AVX2 kernels 3-5 times what it costs in IFMA lanes.
///
/// Measured (Intel Xeon Emerald Rapids, `PRIMEKIT_KERNEL=adx|avx2 primekit bench gen
/// --bits 2048,3072 --count 32 --no-peer --sieve-primes 30000,100000,290000`): at 3,072
/// bits the time per tested candidate rose by 2-6% from 30k to 290k primes (5.91 / 5.94
/// -> 6.03 ms on `adx`, 4.16 / 4.36 -> 4.43 ms on `avx2`) while the candidates per prime
/// fall as 1 / ln B (Mertens) by 16% (12.8 / 15.2): 11-14% less time per prime
/// modelled. Alternating the two tables, `adx`, `bench gen --bits 3072 --count 32
/// --no-peer`, three pairs: 732 / 743 / 1,109 ms per prime at 30k, 581 / 725 / 634 ms
/// at 290k (76 candidates per prime on average against 111). At 2,048 bits the
/// sieve's one-off residues weigh more (1.90 -> 1.99 ms per candidate at 100k primes,
/// 2.19 at 290k) and the modelled gain (~5% at 100k) was not visible through the spread
/// of such runs (one gave 133 -> 117 ms, another 139 -> 178 ms), so it keeps 30k.
pub fn sieve_primes_on(bits: u32, safe: bool, kernel: crate::arith::Kernel) -> usize {
    use crate::arith::Kernel;
    match (safe, kernel, bits) {
        // The whole 2^22 list (295,947 odd primes); more would build the 2^26 one.
        (false, Kernel::Portable | Kernel::Adx | Kernel::Avx2, 2561..) => 290_000,
        _ => sieve_primes(bits, safe),
    }
}

/// [`sieve_primes_on`] the process kernel ([`crate::arith::Kernel::selected`]); the
/// widest kernel's table if `PRIMEKIT_KERNEL` names no usable kernel, which generation
/// then reports.
pub fn sieve_primes_selected(bits: u32, safe: bool) -> usize {
    let kernel = crate::arith::Kernel::selected().unwrap_or(crate::arith::Kernel::Ifma);
    sieve_primes_on(bits, safe, kernel)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arith::Kernel;

    /// The scalar and AVX2 kernels sieve deeper only for plain primes above 2,560 bits,
    /// never beyond the 2^22 list (whose construction the 2^26 one would multiply), and
    /// never shallower than the IFMA table.
    #[test]
    fn deeper_sieves_stay_in_the_small_list() {
        let small_list = crate::sieve::odd_primes_below_2_22().len();
        for bits in [64, 512, 1024, 1536, 1537, 2048, 2560, 2561, 3072, 4096, 8192] {
            for safe in [false, true] {
                let ifma = sieve_primes(bits, safe);
                assert_eq!(sieve_primes_on(bits, safe, Kernel::Ifma), ifma);
                for k in [Kernel::Portable, Kernel::Adx, Kernel::Avx2] {
                    let n = sieve_primes_on(bits, safe, k);
                    assert!(n >= ifma, "{bits} {safe} {k:?}");
                    if safe || bits <= 2560 {
                        assert_eq!(n, ifma, "{bits} {safe} {k:?}");
                    } else {
                        assert!(n > ifma && n <= small_list, "{bits} {k:?}: {n}");
                    }
                }
            }
        }
    }
}
