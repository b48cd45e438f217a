//! Every lane backend against the one-lane reference and num-bigint.

use super::test_support::{next_fermat_pass, random_odd};
use super::*;
use crate::arith::limbs::to_limbs;
use num_bigint::RandBigInt;
use num_traits::One;
use rand::SeedableRng;

/// Each available kernel's widest shared-modulus batch agrees with modpow lane by lane,
/// for both timings, on partial and full batches.
#[test]
fn shared_modulus_matches_modpow_on_every_kernel() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(14);
    for (bits, top) in [(70u64, false), (256, false), (1024, false), (1024, true), (1536, true), (2048, false), (3072, true)] {
        // Random moduli, and the largest odd one of the size (2^bits - 1).
        let m = if top { (BigUint::one() << bits) - 1u8 } else { random_odd(&mut rng, bits) };
        for kernel in Kernel::available() {
            let ctx = MontContext::with_kernel(&m, kernel).unwrap();
            for timing in [Timing::Vartime, Timing::ConstantTime] {
                let batch = SharedModulus::for_rounds(&ctx, 8, timing);
                let n = ctx.len();
                for count in [1, batch.lanes()] {
                    let xs: Vec<BigUint> = (0..count).map(|k| if k == 0 { &m - 1u8 } else { rng.gen_biguint_below(&m) }).collect();
                    let limbs: Vec<Vec<Limb>> = xs.iter().map(|x| to_limbs(x, n).unwrap()).collect();
                    // All-ones exponents for the full batches.
                    let e = if count > 1 { (BigUint::one() << (bits - 1)) - 1u8 } else { rng.gen_biguint(bits - 1) };
                    let el = to_limbs(&e, n).unwrap();
                    let x = batch.load(&limbs);
                    let y = match timing {
                        Timing::Vartime => batch.pow_vartime(&x, &el),
                        Timing::ConstantTime => batch.pow_ct(&x, &el, n * 64),
                    };
                    let y2 = batch.sqr(&y);
                    // Stored back to ordinary limbs: the loaded values, then the powers.
                    assert_eq!(batch.store_vartime(&x, count), limbs, "{kernel} {timing:?} bits {bits} store of load");
                    let want: Vec<Vec<Limb>> = xs.iter().map(|xk| to_limbs(&xk.modpow(&e, &m), n).unwrap()).collect();
                    assert_eq!(batch.store_vartime(&y, count), want, "{kernel} {timing:?} bits {bits} store of powers");
                    for (k, xk) in xs.iter().enumerate() {
                        let want = xk.modpow(&e, &m);
                        let mask = batch.eq_ct(&y, &batch.target(&want));
                        assert_eq!(mask >> k & 1, 1, "{kernel} {timing:?} bits {bits} lane {k}");
                        let mask2 = batch.eq_ct(&y2, &batch.target(&(&want * &want % &m)));
                        assert_eq!(mask2 >> k & 1, 1, "square, {kernel} {timing:?} bits {bits} lane {k}");
                        let other = (&want + 1u8) % &m;
                        assert_eq!(batch.eq_ct(&y, &batch.target(&other)) >> k & 1, 0, "{kernel} lane {k} must differ");
                    }
                    // Missing lanes hold 1 (1^e = 1).
                    let ones = batch.eq_ct(&y, &batch.target(&BigUint::one()));
                    assert_eq!(ones & !lane_mask(count) & lane_mask(batch.lanes()), !lane_mask(count) & lane_mask(batch.lanes()));
                }
            }
        }
    }
}

/// The IFMA kernel offers eight lanes where it pays, the AVX2 kernel four, the others
/// one; small moduli stay single.
#[test]
fn widest_batch_follows_the_kernel() {
    let m = random_odd(&mut rand::rngs::StdRng::seed_from_u64(3), 1024);
    for kernel in Kernel::available() {
        let ctx = MontContext::with_kernel(&m, kernel).unwrap();
        let wide = SharedModulus::for_rounds(&ctx, 8, Timing::ConstantTime);
        let want = match kernel {
            Kernel::Ifma => 8,
            Kernel::Avx2 => 4,
            _ => 1,
        };
        assert_eq!(wide.lanes(), want, "{kernel}");
        assert_eq!(wide.kernel(), kernel);
        assert_eq!(SharedModulus::for_rounds(&ctx, 2, Timing::ConstantTime).lanes(), 1, "too few rounds to pay");
        let small = MontContext::with_kernel(&BigUint::from(1_000_003u32), kernel).unwrap();
        assert_eq!(SharedModulus::for_rounds(&small, 8, Timing::Vartime).lanes(), 1);
    }
}

/// Fermat batches on every kernel agree with modpow, including base-2 pseudoprimes and
/// candidates one bit shorter; sizes outside the batch's are refused.
#[test]
fn fermat_batch_matches_modpow_on_every_kernel() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(15);
    // The oracle: num-bigint's modpow, once per candidate (kept across kernels).
    let want = super::test_support::fermat_passes;
    for bits in [12usize, 64, 200, 1024, 1536, 2048, 3072] {
        let mut cands: Vec<BigUint> = (0..8).map(|_| random_odd(&mut rng, bits as u64)).collect();
        // Move some to the next base-2 probable prime so that lanes pass.
        for c in cands.iter_mut().step_by(3) {
            *c = next_fermat_pass(c);
        }
        cands[5] = random_odd(&mut rng, bits as u64 - 1);
        if bits == 12 {
            cands[1] = BigUint::from(2047u32); // 23 * 89, a base-2 pseudoprime
            cands[2] = BigUint::from(2821u32); // 7 * 13 * 31, a Carmichael number
        }
        if bits == 64 {
            cands[3] = (BigUint::one() << 64u32) - 59u8; // the largest 64-bit prime
            cands[4] = (BigUint::one() << 64u32) - 1u8; // composite, all ones
        }
        cands.retain(|c| c.bits() as usize == bits || c.bits() as usize + 1 == bits);
        for kernel in Kernel::available() {
            let batch = FermatBatch::with_kernel(bits, kernel).unwrap();
            for chunk in cands.chunks(batch.lanes()) {
                let mask = batch.test_ct(chunk).unwrap();
                for (k, n) in chunk.iter().enumerate() {
                    assert_eq!(mask >> k & 1 == 1, want(n), "{kernel} bits {bits} n {n}");
                }
                assert_eq!(mask & !lane_mask(chunk.len()), 0, "padding lanes cleared");
            }
            assert!(batch.test_ct(&[BigUint::from(3u8) << bits]).is_err(), "too large");
            if bits > 12 {
                assert!(batch.test_ct(&[random_odd(&mut rng, bits as u64 - 2)]).is_err(), "too small");
            }
        }
    }
}

/// Measurement behind the AVX2 lanes' size rule ([`avx2_columns::lanes_pay`]) (not a
/// pass/fail test): eight variable-time exponentiations by one Miller-Rabin exponent d
/// (the rounds of one number) per size, in the AVX2 kernel's batch where it pays
/// ([`SharedModulus::for_rounds`], else one at a time) against the ADX kernel one at a
/// time, fastest of nine interleaved passes. `PRIMEKIT_BITS=640,768 cargo test --release
/// -p primekit --lib lanes_vs_scalar -- --ignored --nocapture`.
#[test]
#[ignore = "measurement"]
fn lanes_vs_scalar() {
    if !Kernel::Avx2.is_available() {
        return;
    }
    let sizes = std::env::var("PRIMEKIT_BITS").unwrap_or_else(|_| "640,768,1000,1024,1280,1536,2048,3072,4096".into());
    let mut rng = rand::rngs::StdRng::seed_from_u64(5);
    for bits in sizes.split(',').map(|b| b.trim().parse::<u64>().expect("bits")) {
        let m = random_odd(&mut rng, bits);
        let nm1 = &m - 1u8;
        let d = &nm1 >> nm1.trailing_zeros().unwrap_or(0);
        let d_limbs = d.to_u64_digits();
        let (lane_ctx, scalar_ctx) =
            (MontContext::with_kernel(&m, Kernel::Avx2).unwrap(), MontContext::with_kernel(&m, Kernel::Adx).unwrap());
        let (lanes, scalar) = (SharedModulus::for_rounds(&lane_ctx, 8, Timing::Vartime), SharedModulus::single(&scalar_ctx));
        let bases: Vec<Vec<Limb>> = (0..8).map(|_| to_limbs(&rng.gen_biguint_below(&m), lane_ctx.len()).unwrap()).collect();
        let run = |b: &SharedModulus| {
            let t = std::time::Instant::now();
            for chunk in bases.chunks(b.lanes()) {
                std::hint::black_box(b.pow_vartime(&b.load(chunk), &d_limbs));
            }
            t.elapsed().as_secs_f64() * 1e3
        };
        let (mut tl, mut ts) = (f64::INFINITY, f64::INFINITY);
        for _ in 0..9 {
            tl = tl.min(run(&lanes));
            ts = ts.min(run(&scalar));
        }
        eprintln!("{bits} bits, 8 rounds: avx2 {tl:.3} ms ({} lanes), adx {ts:.3} ms, ratio {:.3}", lanes.lanes(), tl / ts);
    }
}

/// Variable-time Fermat batches of mixed public sizes on every kernel agree with modpow:
/// full and partial batches, batches of small numbers only, the largest odd numbers of
/// the size, pseudoprimes, Mersenne primes; bad candidates give errors.
#[test]
fn fermat_batch_vartime_mixed_sizes_match_modpow_on_every_kernel() {
    let mut rng = rand::rngs::StdRng::seed_from_u64(16);
    for bits in [512usize, 1024, 2048, 3072] {
        let cands = super::test_support::mixed_size_candidates(&mut rng, bits as u64);
        let want: Vec<bool> = cands.iter().map(super::test_support::fermat_passes).collect();
        assert!(want.iter().filter(|&&w| w).count() >= 8, "numbers that pass are in the batches");
        let short: Vec<usize> = (0..cands.len()).filter(|&i| cands[i].bits() < 64).collect();
        for kernel in Kernel::available() {
            let batch = FermatBatch::with_kernel(bits, kernel).unwrap();
            let lanes = batch.lanes();
            // Full batches (the last one partial), the same shifted by half a batch (other
            // mixes), two pairs, and small numbers only.
            let all: Vec<usize> = (0..cands.len()).collect();
            let mut groups: Vec<Vec<usize>> = all.chunks(lanes).chain(all[lanes / 2..].chunks(lanes)).map(<[usize]>::to_vec).collect();
            groups.extend([vec![0, 1], vec![cands.len() - 2, cands.len() - 1]].into_iter().map(|g| g[..g.len().min(lanes)].to_vec()));
            groups.extend(short.chunks(lanes).map(<[usize]>::to_vec));
            for g in groups {
                let chunk: Vec<BigUint> = g.iter().map(|&i| cands[i].clone()).collect();
                let mask = batch.test_vartime(&chunk).unwrap();
                for (k, &i) in g.iter().enumerate() {
                    assert_eq!(mask >> k & 1 == 1, want[i], "{kernel} bits {bits} lane {k} of {} n {}", g.len(), cands[i]);
                }
                assert_eq!(mask & !lane_mask(g.len()), 0, "padding lanes cleared");
            }
            // A bad candidate after a good one where the batch has room for two.
            let with_good =
                |bad: BigUint| if lanes > 1 { batch.test_vartime(&[BigUint::from(7u8), bad]) } else { batch.test_vartime(&[bad]) };
            assert_eq!(with_good(BigUint::from(10u8)), Err(ArithError::EvenModulus));
            assert_eq!(with_good(BigUint::one()), Err(ArithError::ModulusTooSmall));
            assert_eq!(batch.test_vartime(&[BigUint::from(0u8)]), Err(ArithError::ModulusTooSmall));
            let large = (BigUint::one() << bits) + 1u8;
            assert_eq!(with_good(large), Err(ArithError::ModulusTooLarge { bits: bits as u64 + 1, max: bits as u64 }));
        }
    }
}
