//! Test numbers for primality: `cargo run --release -p primekit --example is_prime [N...]`.
//!
//! Each argument (decimal, or hexadecimal with `0x`) is answered `prime` or `composite`
//! with `try_is_prime`, which reports inputs over the size cap as errors instead of
//! panicking. Without arguments it tests a few well-known numbers: the Mersenne prime
//! 2^127 - 1, the Carmichael number 561, and the 2048-bit prime of RFC 3526 group 14.

use primekit::{try_is_prime, BigUint};
use std::process::ExitCode;

/// The RFC 3526 2048-bit MODP prime, 2^2048 - 2^1984 - 1 + 2^64 * (floor(2^1918 pi) + 124476).
const RFC3526_MODP_2048: &str = "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD\
EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED\
EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F\
83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B\
E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510\
15728E5A8AACAA68FFFFFFFFFFFFFFFF";

fn parse(s: &str) -> Option<BigUint> {
    match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
        Some(hex) => BigUint::parse_bytes(hex.as_bytes(), 16),
        None => BigUint::parse_bytes(s.as_bytes(), 10),
    }
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    if args.is_empty() {
        args = vec!["170141183460469231731687303715884105727".into(), "561".into(), format!("0x{RFC3526_MODP_2048}")];
    }
    let mut status = ExitCode::SUCCESS;
    for a in &args {
        let Some(n) = parse(a) else {
            eprintln!("is_prime: {a:.40}: not a decimal or 0x-hexadecimal number");
            status = ExitCode::from(2);
            continue;
        };
        match try_is_prime(&n) {
            Ok(p) => println!(
                "{} ({} bits): {}",
                if a.len() > 40 { format!("{}...", &a[..40]) } else { a.clone() },
                n.bits(),
                if p { "prime" } else { "composite" }
            ),
            Err(e) => {
                eprintln!("is_prime: {a:.40}: {e}");
                status = ExitCode::from(2);
            }
        }
    }
    status
}
