//! Dobrosavljević's (2021) nine PGA × sieve combinations and their safe variants produce primes of
//! exactly k bits with the top two bits set, checked by `primekit::is_prime` and, when
//! the system `openssl` CLI is present, by `openssl prime` as an independent oracle.

use num_bigint::BigUint;
use primekit_research::pga::{Config, Generator, Pga, SieveKind};
use rand_chacha::rand_core::{OsRng, SeedableRng};

fn config(pga: Pga, sieve: SieveKind, safe: bool, bits: u32) -> Config {
    // Dirichlet: m_r must leave room for z in the k-bit interval.
    let r = if sieve == SieveKind::Dirichlet { 20 } else { 64 };
    Config { pga, sieve, safe, bits, r, l: 2000, gamma: 64.0 }
}

fn generate_all(bits: u32, safe: bool, per_combo: usize) -> Vec<(Config, BigUint)> {
    let mut rng = rand_chacha::ChaCha20Rng::from_rng(OsRng).unwrap();
    let mut out = Vec::new();
    for pga in Pga::ALL {
        for sieve in SieveKind::ALL {
            let cfg = config(pga, sieve, safe, bits);
            let mut g = Generator::new(&cfg).unwrap();
            for _ in 0..per_combo {
                let p = g.generate_retrying(&mut rng).unwrap().prime;
                assert_eq!(p.bits(), bits as u64, "{cfg:?}");
                assert!(p.bit(bits as u64 - 2), "second-highest bit clear: {cfg:?}");
                assert!(primekit::is_prime(&p), "{cfg:?}: {p} composite");
                if safe {
                    assert!(primekit::is_prime(&(&p >> 1u32)), "{cfg:?}: (p-1)/2 composite for {p}");
                }
                out.push((cfg.clone(), p));
            }
        }
    }
    out
}

#[test]
fn nine_combinations_generate_primes() {
    for bits in [256, 512] {
        generate_all(bits, false, if bits == 256 { 4 } else { 1 });
    }
}

#[test]
fn nine_combinations_generate_safe_primes() {
    generate_all(256, true, 2);
}

/// `openssl prime` as an oracle independent of our arithmetic.
#[test]
fn openssl_cli_agrees() {
    let Ok(out) = std::process::Command::new("openssl").arg("version").output() else {
        eprintln!("system openssl CLI not found; oracle skipped");
        return;
    };
    assert!(out.status.success());
    let mut primes = generate_all(384, false, 1);
    primes.extend(generate_all(160, true, 1));
    for (cfg, p) in &primes {
        let mut numbers = vec![p.clone()];
        if cfg.safe {
            numbers.push(p >> 1u32);
        }
        for n in numbers {
            let out = std::process::Command::new("openssl").arg("prime").arg(n.to_string()).output().unwrap();
            let text = String::from_utf8_lossy(&out.stdout);
            assert!(text.trim_end().ends_with("is prime") && !text.contains("not"), "{cfg:?}: openssl says {text}");
        }
    }
    // And the oracle can say no.
    let out = std::process::Command::new("openssl").arg("prime").arg((&primes[0].1 * 3u8).to_string()).output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("not prime"));
}

#[test]
fn bad_configurations_are_errors() {
    let ok = config(Pga::Nss, SieveKind::Nss, false, 256);
    assert!(Generator::new(&Config { bits: 16, ..ok.clone() }).is_err());
    assert!(Generator::new(&Config { r: 0, ..ok.clone() }).is_err());
    assert!(Generator::new(&Config { r: 100_000, ..ok.clone() }).is_err());
    assert!(Generator::new(&Config { l: 0, ..ok.clone() }).is_err());
    assert!(Generator::new(&Config { gamma: 0.0, ..ok.clone() }).is_err());
    assert!(Generator::new(&Config { sieve: SieveKind::Dirichlet, r: 60, ..ok.clone() }).is_err(), "m_r wider than k");
    assert!(Pga::parse("foo").is_err() && SieveKind::parse("bar").is_err());
}

#[test]
fn derived_parameters_are_used() {
    let g = Generator::new(&Config { pga: Pga::Natural, ..config(Pga::Natural, SieveKind::Nss, false, 1024) }).unwrap();
    // Natural + NSS sieve: the array is raised to eq. 3.8's minimum.
    assert!(g.config().l >= primekit_research::pga::params::natural_min_l(1024, 64.0));
    let g = Generator::new(&Config { gamma: 128.0, l: 700, ..config(Pga::Nss, SieveKind::Openssl, false, 1024) }).unwrap();
    assert_eq!((g.derived().t, g.derived().u), (7, Some(90)));
}

/// The CLI's defaults (`bench pga`: r = 2048, the Dirichlet sieve's r derived from k,
/// L = 16000, the thesis's γ) give a valid generator for every combination, safe and
/// not, at 512, 1024 and 2048 bits (the sizes the thesis and the benchmarks use), so no
/// combination fails before its first prime.
#[test]
fn cli_defaults_are_valid_for_every_combination_and_size() {
    use primekit_research::pga::{params::thesis_gamma, sieve_dirichlet::default_r};
    for bits in [512u32, 1024, 2048] {
        for safe in [false, true] {
            for pga in Pga::ALL {
                for sieve in SieveKind::ALL {
                    let r = if sieve == SieveKind::Dirichlet { default_r(bits, 2048) } else { 2048 };
                    let cfg = Config { pga, sieve, safe, bits, r, l: 16000, gamma: thesis_gamma(pga, safe) };
                    if let Err(e) = Generator::new(&cfg) {
                        panic!("{cfg:?}: {e}");
                    }
                }
            }
        }
    }
}
