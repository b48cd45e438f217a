//! `primekit bench rsa`: RSA key generation, CPU time per key (one thread per engine),
//! primekit (FIPS 186-5 A.1.3, `generate_rsa_key_with`) beside OpenSSL 3's
//! `EVP_PKEY_keygen` and RustCrypto's `rsa::RsaPrivateKey::new` (both e = 65537) under
//! `--features compare`. The engines take turns key by key, so each sees the same
//! background load. Key generation time is widely spread (it waits on random prime
//! hits): each line gives the mean, its standard error and the median.

use super::cpu_clock::thread_cpu_ms;
use super::emit;
use clap::Args as ClapArgs;
use primekit::RsaKeyOptions;
use serde_json::json;
use std::process::ExitCode;

#[derive(ClapArgs)]
pub struct Args {
    /// Modulus sizes in bits, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "2048,3072,4096")]
    bits: Vec<u32>,
    /// Keys per engine and size.
    #[arg(long, default_value_t = 16)]
    count: usize,
}

type Engine = (&'static str, fn(u32) -> Option<u32>);

fn primekit_key(bits: u32) -> Option<u32> {
    let opts = RsaKeyOptions::new(bits).insecure(bits < 2048);
    primekit::generate_rsa_key_with(&opts).ok().map(|k| k.n.bits() as u32)
}

fn engines() -> Vec<Engine> {
    #[allow(unused_mut)]
    let mut v: Vec<Engine> = vec![("primekit", primekit_key)];
    #[cfg(feature = "compare")]
    {
        use primekit_research::peers::openssl_rsa;
        v.push(("openssl", openssl_rsa::generate_rsa_key_bits));
        v.push(("rustcrypto-rsa", openssl_rsa::rustcrypto_rsa_key_bits));
    }
    v
}

pub fn run(a: Args) -> ExitCode {
    if let Err(code) = super::begin("rsa", a.count, &a.bits, 1024..=16384) {
        return code;
    }
    let engines = engines();
    for &bits in &a.bits {
        let mut samples = vec![Vec::with_capacity(a.count); engines.len()];
        for _ in 0..a.count {
            for (i, (name, generate)) in engines.iter().enumerate() {
                let t = thread_cpu_ms();
                match generate(bits) {
                    Some(got) if got == bits => samples[i].push(thread_cpu_ms() - t),
                    other => {
                        eprintln!("primekit bench rsa: {name} failed to make a {bits}-bit key ({other:?})");
                        return ExitCode::FAILURE;
                    }
                }
            }
        }
        for ((name, _), s) in engines.iter().zip(&samples) {
            let n = s.len() as f64;
            let mean = s.iter().sum::<f64>() / n;
            let sd = (s.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
            let mut sorted = s.clone();
            sorted.sort_by(f64::total_cmp);
            let kernel = if *name == "primekit" { emit::process_kernel() } else { name };
            emit::line(json!({
                "op": "rsa_keygen", "engine": name, "kernel": kernel, "bits": bits, "count": s.len(),
                "mean_ms": mean, "stderr_ms": sd / n.sqrt(), "median_ms": sorted[sorted.len() / 2], "time": "thread CPU",
            }));
        }
    }
    ExitCode::SUCCESS
}
