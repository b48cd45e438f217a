//! `primekit gen --bits K [--safe] [--count N] [--jobs J] [--hex]`: random (safe) primes,
//! one per line; `--provable [--cert FILE [--force]]` adds a certificate to each, inline or
//! (one prime) written through [`crate::files`]. On a terminal, long safe-prime runs (>= 1536 bits) show a progress line
//! on stderr (candidates tested, rate, elapsed); nothing extra when piped.

use clap::Args as ClapArgs;
use num_bigint::BigUint;
use primekit::hazmat::gen::{generate_prime_probed, generate_primes_probed, Probe};
use primekit::Error;
use primekit::{PrimeOptions, MAX_GEN_BITS};
use std::io::IsTerminal;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

#[derive(ClapArgs)]
pub struct Args {
    /// Size of each prime in bits (top two bits set). Primes: 2..=8192; safe: 3..=8192.
    #[arg(long)]
    bits: u32,
    /// Generate safe primes p = 2q + 1 with q prime.
    #[arg(long)]
    safe: bool,
    /// Number of primes.
    #[arg(long, default_value_t = 1)]
    count: usize,
    /// Threads: with --count 1 they race on one prime, otherwise they share the count.
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Print in hexadecimal (0x-prefixed) instead of decimal.
    #[arg(long)]
    hex: bool,
    /// One JSON object per prime: {"command":"gen","bits":K,"safe":..,"prime":"<decimal or 0x-hex>"}.
    #[arg(long)]
    json: bool,
    /// A provable prime, with a certificate (Pocklington chain; docs/certificate-format.md).
    #[arg(long)]
    provable: bool,
    /// With --provable: write the certificate here (`-`: standard output; one certificate,
    /// so --count 1); else each is printed after its prime (or in its JSON object).
    #[arg(long, requires = "provable")]
    cert: Option<std::path::PathBuf>,
    /// Replace an existing --cert file.
    #[arg(long, requires = "cert")]
    force: bool,
    /// With --provable: derive the prime from this hex seed by the FIPS 186-5 Shawe-Taylor
    /// routine (SHA-256; the seed length is 4 bits per hex digit), reproducibly.
    #[arg(long, requires = "provable", conflicts_with = "safe")]
    seed: Option<String>,
    /// With --provable: Maurer's random relative sizes (closer to uniform over primes of
    /// the size, slower) instead of the fixed 1/2.
    #[arg(long, requires = "provable", conflicts_with_all = ["safe", "seed"])]
    maurer: bool,
}

/// Prints `p` as the CLI does everywhere: decimal, or 0x-prefixed lowercase hex.
pub fn format_number(p: &BigUint, hex: bool) -> String {
    if hex {
        format!("0x{}", p.to_str_radix(16))
    } else {
        p.to_string()
    }
}

/// Prints `primekit CMD: error` and returns the exit status for a library error: 2 for
/// bad input, 1 for anything else.
pub fn exit_for(cmd: &str, e: &Error) -> ExitCode {
    eprintln!("primekit {cmd}: {e}");
    match e {
        Error::InvalidArgument(_) | Error::InputTooLarge { .. } => ExitCode::from(2),
        _ => ExitCode::from(1),
    }
}

/// Runs `f`, when `show` is set with a fresh candidate counter ([`Probe::counting`])
/// that a spinner on stderr reports; otherwise with the production `Probe::default()`.
pub fn with_progress<T>(show: bool, f: impl FnOnce(Probe<'_>) -> T) -> T {
    if !show {
        return f(Probe::default());
    }
    let tested = AtomicU64::new(0);
    let done = AtomicBool::new(false);
    std::thread::scope(|s| {
        s.spawn(|| {
            let bar = indicatif::ProgressBar::new_spinner();
            bar.set_style(indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}").expect("valid template"));
            let start = std::time::Instant::now();
            while !done.load(Ordering::Relaxed) {
                let n = tested.load(Ordering::Relaxed);
                let rate = n as f64 / start.elapsed().as_secs_f64().max(1e-9);
                bar.set_message(format!("{n} candidates tested, {rate:.0}/s"));
                bar.tick();
                std::thread::sleep(Duration::from_millis(200));
            }
            bar.finish_and_clear();
        });
        let out = f(Probe::counting(&tested));
        done.store(true, Ordering::Relaxed);
        out
    })
}

/// `gen --provable`: `--count` primes (or safe primes), each with its certificate. A
/// certificate file holds one certificate (docs/certificate-format.md), so `--cert FILE`
/// takes `--count 1`; more primes print their certificates inline (after each prime, or
/// in each JSON line). `--seed` fixes the prime, so it takes `--count 1` too.
fn run_provable(a: &Args) -> ExitCode {
    if a.count == 0 {
        eprintln!("primekit gen: --count must be at least 1");
        return ExitCode::from(2);
    }
    if a.count > 1 && a.cert.is_some() {
        eprintln!(
            "primekit gen: --cert FILE holds one certificate, so it takes --count 1; without --cert each prime is followed by its certificate (or, with --json, carries it in its line)"
        );
        return ExitCode::from(2);
    }
    if a.count > 1 && a.seed.is_some() {
        eprintln!("primekit gen: --seed determines the prime, so it takes --count 1");
        return ExitCode::from(2);
    }
    let [pending] = match crate::files::reserve_or_exit("gen", [crate::files::Output::public("--cert", a.cert.as_deref())], a.force) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let mut pending = pending;
    for _ in 0..a.count {
        let made = match (&a.seed, a.safe) {
            (Some(hex), _) => match BigUint::parse_bytes(hex.trim_start_matches("0x").as_bytes(), 16) {
                Some(seed) if !hex.is_empty() => {
                    primekit::hazmat::gen::shawe_taylor_random_prime(a.bits, &seed, 4 * hex.trim_start_matches("0x").len())
                        .map(|st| (st.prime, st.certificate))
                }
                _ => {
                    eprintln!("primekit gen: --seed must be hexadecimal digits");
                    return ExitCode::from(2);
                }
            },
            (None, true) => primekit::generate_provable_safe_prime(a.bits),
            (None, false) if a.maurer => primekit::hazmat::gen::generate_provable_prime_maurer(a.bits),
            (None, false) => primekit::generate_provable_prime(a.bits),
        };
        let (p, cert) = match made {
            Ok(x) => x,
            Err(e) => return exit_for("gen", &e),
        };
        let cert_text = primekit::certificate::to_json(&cert);
        let text = format_number(&p, a.hex);
        let inline = match pending.take() {
            Some(pending) => {
                if let Err(e) = pending.commit(cert_text.as_bytes()) {
                    eprintln!("primekit gen: {e}");
                    return ExitCode::from(1);
                }
                None
            }
            None => Some(cert_text),
        };
        if a.json {
            let cert: Option<serde_json::Value> = inline.as_deref().and_then(|t| serde_json::from_str(t).ok());
            crate::outln!(
                "gen",
                "{}",
                serde_json::json!({"command": "gen", "bits": a.bits, "safe": a.safe, "provable": true, "prime": text, "certificate": cert})
            );
        } else {
            crate::outln!("gen", "{text}");
            if let Some(c) = inline {
                crate::outln!("gen", "{c}");
            }
        }
    }
    ExitCode::SUCCESS
}

pub fn run(a: Args) -> ExitCode {
    if a.provable {
        return run_provable(&a);
    }
    if a.count == 0 {
        eprintln!("primekit gen: --count must be at least 1");
        return ExitCode::from(2);
    }
    if a.bits > MAX_GEN_BITS {
        eprintln!("primekit gen: --bits {} exceeds the cap of {MAX_GEN_BITS}", a.bits);
        return ExitCode::from(2);
    }
    let opts = PrimeOptions::new(a.bits).safe(a.safe).jobs(a.jobs);
    let show = a.safe && a.bits >= 1536 && std::io::stderr().is_terminal();
    let result = with_progress(show, |probe| {
        if a.count == 1 {
            generate_prime_probed(&opts, probe).map(|p| vec![p])
        } else {
            generate_primes_probed(&opts, a.count, probe)
        }
    });
    match result {
        Ok(ps) => {
            for p in ps {
                let text = format_number(&p, a.hex);
                if a.json {
                    crate::outln!("gen", "{}", serde_json::json!({"command": "gen", "bits": a.bits, "safe": a.safe, "prime": text}));
                } else {
                    crate::outln!("gen", "{text}");
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => exit_for("gen", &e),
    }
}
