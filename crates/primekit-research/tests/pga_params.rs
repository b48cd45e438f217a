//! Dobrosavljević 2021 parameter derivation (eq. 3.1–3.13) against an independent mpmath
//! recomputation (`fixtures/pga_params.py`, output pasted in `fixtures/pga_params.txt`),
//! and the monotonic behaviour the thesis states.

use primekit_research::pga::params::{derive_natural, derive_nss, derive_openssl, natural_min_l, nss_rounds};

#[test]
fn derived_parameters_match_mpmath_fixture() {
    let text = include_str!("fixtures/pga_params.txt");
    let mut n = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (k, gamma, r, l): (u32, f64, usize, u64) =
            (f[1].parse().unwrap(), f[2].parse().unwrap(), f[3].parse().unwrap(), f[4].parse().unwrap());
        let (t, u, log2e): (u32, u64, f64) = (f[5].parse().unwrap(), f[6].parse().unwrap(), f[7].parse().unwrap());
        let d = match f[0] {
            "nss" => derive_nss(k, gamma, l).unwrap(),
            "natural" => derive_natural(k, gamma, Some(l)).unwrap(),
            "openssl" => derive_openssl(k, gamma, r).unwrap(),
            other => panic!("unknown pga {other}"),
        };
        assert_eq!(d.t, t, "{line}");
        assert_eq!(d.u.unwrap_or(0), u, "{line}");
        assert!((d.log2_error - log2e).abs() < 1e-6 * log2e.abs(), "{line}: log2 error {} vs {log2e}", d.log2_error);
        n += 1;
    }
    assert_eq!(n, 5 * 2 * 8);
}

#[test]
fn thesis_monotonicity() {
    for k in [512u32, 1024, 2048] {
        // NSS: U·L >= γ k ln²2 (eq. 3.7), so U falls as L grows; the error bound (3.1)
        // grows with L, so t never falls.
        let ls = [700u64, 2000, 8000, 16000, 32000, 48000, 64000];
        let ds: Vec<_> = ls.iter().map(|&l| derive_nss(k, 128.0, l).unwrap()).collect();
        for w in ds.windows(2) {
            assert!(w[1].u <= w[0].u && w[1].t >= w[0].t, "k = {k}: {w:?}");
        }
        // A stricter γ never needs fewer rounds, for every PGA; Natural's L grows with γ.
        for g in [32.0, 64.0, 100.0, 128.0, 192.0].windows(2) {
            assert!(derive_nss(k, g[1], 8000).unwrap().t >= derive_nss(k, g[0], 8000).unwrap().t);
            assert!(derive_natural(k, g[1], None).unwrap().t >= derive_natural(k, g[0], None).unwrap().t);
            assert!(derive_openssl(k, g[1], 128).unwrap().t >= derive_openssl(k, g[0], 128).unwrap().t);
            assert!(natural_min_l(k, g[1]) > natural_min_l(k, g[0]));
        }
        // OpenSSL PGA: more sieving primes mean fewer expected rounds (eq. 3.10), so t
        // never grows with r.
        let ts: Vec<u32> = [8usize, 16, 64, 128, 512, 2048, 5968].iter().map(|&r| derive_openssl(k, 128.0, r).unwrap().t).collect();
        assert!(ts.windows(2).all(|w| w[1] <= w[0]), "k = {k}: {ts:?}");
    }
    // Larger k: composites pass MR far more rarely (eq. 3.2), so t falls with k.
    let ts: Vec<u32> = [256u32, 512, 1024, 2048, 3072, 4096].iter().map(|&k| derive_nss(k, 128.0, 8000).unwrap().t).collect();
    assert!(ts.windows(2).all(|w| w[1] <= w[0]) && ts[0] > ts[5], "{ts:?}");
    // Natural's failure bound (eq. 3.8) at the thesis's k = 1024, γ = 128: L ≈ 63,470,
    // matching its best NSS-sieve array of ≈ 33,000 entries (= L/2).
    let l = natural_min_l(1024, 128.0);
    assert!((63_000..64_000).contains(&l), "{l}");
    assert_eq!(nss_rounds(1024, 128.0, 700), 90);
}

#[test]
fn bad_parameters_are_errors() {
    assert!(derive_nss(1024, 128.0, 0).is_err());
    assert!(derive_nss(8, 128.0, 700).is_err());
    assert!(derive_natural(1024, -1.0, None).is_err());
    assert!(derive_openssl(1024, 128.0, 0).is_err());
    assert!(derive_openssl(1024, 128.0, 100_000).is_err());
}
