//! The cycle-free model of the RTL Lucas tester against the software NIST Lucas test
//! (research tier) and the corpus: same verdict on every public vector and on random odd
//! inputs, every Lucas pseudoprime (OEIS A217120) passes, every corpus prime passes.

use num_bigint::BigUint;
use primekit_research::hw_model::{run, HwConfig, HwVerdict};
use primekit_research::tests::TestKind;
use rand_chacha::rand_core::{RngCore, SeedableRng};
use rand_chacha::ChaCha20Rng;

fn corpus() -> Vec<(BigUint, bool, String)> {
    include_str!("../../primekit/tests/data/vectors.tsv")
        .lines()
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let n: BigUint = f[0].parse().ok()?; // negative values are not inputs
            Some((n, f[1] == "prime", f.get(3).unwrap_or(&"").to_string()))
        })
        .collect()
}

fn software(n: &BigUint, rng: &mut ChaCha20Rng) -> bool {
    TestKind::NistLucas.run(n, 0, rng).expect("odd n >= 3").prime
}

#[test]
fn model_agrees_with_the_software_test_on_the_corpus() {
    let cfg = HwConfig::new(4096, 3, 2);
    let mut rng = ChaCha20Rng::seed_from_u64(1);
    let (mut checked, mut psp) = (0, 0);
    for (n, prime, notes) in corpus() {
        if n.bits() > 4096 {
            continue;
        }
        let hw = run(&n, cfg, &[]).verdict;
        if !n.bit(0) || n < BigUint::from(3u8) {
            assert_eq!(hw, HwVerdict::Error, "{n}");
            continue;
        }
        // Below 2^16, n may divide a D of the search: the hardware then skips the D
        // (n <= |D|), the software when n | D; both call primes prime.
        if n.bits() > 16 {
            assert_eq!(hw == HwVerdict::Prime, software(&n, &mut rng), "model and software differ on {n}");
        }
        if prime {
            assert_eq!(hw, HwVerdict::Prime, "prime {n} rejected");
        }
        if notes.contains("A217120") {
            assert_eq!(hw, HwVerdict::Prime, "Lucas pseudoprime {n} rejected ({notes})");
            psp += 1;
        }
        checked += 1;
    }
    assert!(checked > 1000, "{checked}");
    assert_eq!(psp, 146);
}

#[test]
fn model_agrees_with_the_software_test_on_random_inputs() {
    let mut rng = ChaCha20Rng::seed_from_u64(2);
    let mut passed = 0;
    for bits in [64u32, 128, 256, 512] {
        let cfg = HwConfig::new(bits, 2, 2);
        for _ in 0..200 {
            let mut bytes = vec![0u8; bits as usize / 8];
            rng.fill_bytes(&mut bytes);
            let mut n = BigUint::from_bytes_le(&bytes);
            n.set_bit(0, true);
            n.set_bit(u64::from(bits) - 1, true);
            let hw = run(&n, cfg, &[]).verdict == HwVerdict::Prime;
            assert_eq!(hw, software(&n, &mut rng), "{n}");
            passed += hw as u32;
        }
    }
    assert!(passed > 0, "no random input passed: the comparison saw only composites");
}

#[test]
fn checkpoints_do_not_depend_on_the_configuration_except_through_r() {
    // U R mod n for two configurations with different L differ exactly by 2^(L1 - L2).
    let n = BigUint::parse_bytes(b"ffffffffffffffffffffffffffffff61", 16).unwrap(); // 2^128 - 159, prime
    let (a, b) = (HwConfig::new(128, 1, 1), HwConfig::new(128, 3, 8));
    let (ta, tb) = (run(&n, a, &[50]), run(&n, b, &[50]));
    assert_eq!(ta.verdict, HwVerdict::Prime);
    let shift = BigUint::from(2u8).modpow(&BigUint::from(b.l() - a.l()), &n);
    assert_eq!(&ta.checkpoints[0].1 * &shift % &n, tb.checkpoints[0].1);
    assert_eq!(&ta.checkpoints[0].2 * &shift % &n, tb.checkpoints[0].2);
}
