//! The kernel switch seen from the command line: a bad `PRIMEKIT_KERNEL` stops every
//! subcommand with one line on stderr and status 2; each kernel this CPU has runs; every
//! benchmark line names the kernel it ran on.

use primekit::hazmat::mont::Kernel;
use std::process::{Command, Output};

fn primekit(kernel: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_primekit")).env("PRIMEKIT_KERNEL", kernel).args(args).output().expect("spawn primekit")
}

#[test]
fn unknown_kernel_is_refused_before_any_subcommand() {
    for args in [&["test", "97"][..], &["bench", "test", "--bits", "256", "--count", "4"], &["next", "100"]] {
        let out = primekit("nonsense", args);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}: stdout {:?}", String::from_utf8_lossy(&out.stdout));
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(err.starts_with("primekit: PRIMEKIT_KERNEL: unknown kernel \"nonsense\""), "{err}");
        assert!(err.contains(&Kernel::available_names()), "names the kernels this CPU has: {err}");
    }
}

#[test]
fn kernels_this_cpu_lacks_are_refused() {
    for k in Kernel::ALL.into_iter().filter(|k| !k.is_available()) {
        let out = primekit(k.name(), &["test", "97"]);
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{k}: {err}");
        assert!(out.stdout.is_empty());
        assert!(err.starts_with("primekit: PRIMEKIT_KERNEL: ") && err.contains(&Kernel::available_names()), "{err}");
    }
}

#[test]
fn every_available_kernel_runs() {
    for k in Kernel::available() {
        let out = primekit(k.name(), &["test", "97"]);
        assert_eq!(out.status.code(), Some(0), "{k}: {}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(String::from_utf8(out.stdout).unwrap(), "97 prime\n", "{k}");
    }
}

#[test]
fn bench_lines_carry_the_kernel() {
    for k in Kernel::available() {
        let out = primekit(k.name(), &["bench", "test", "--bits", "256", "--count", "4", "--reps", "1"]);
        assert_eq!(out.status.code(), Some(0), "{k}: {}", String::from_utf8_lossy(&out.stderr));
        let text = String::from_utf8(out.stdout).unwrap();
        let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
        assert!(lines.iter().any(|v| v["op"] == "is_prime"), "{text}");
        for v in &lines {
            let want = match v["engine"].as_str() {
                Some(peer @ ("openssl" | "gmp")) => peer,
                _ => k.name(),
            };
            assert_eq!(v["kernel"], want, "{k}: {v}");
        }
    }
}

#[test]
fn interleaved_test_bench_times_every_engine_on_the_same_inputs() {
    let args = ["bench", "test", "--bits", "256", "--inputs", "primes", "--count", "24", "--reps", "2", "--interleave"];
    let out = primekit("portable", &args);
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    // Timing lines (without `compare`, a note line says the peers were not measured).
    let lines: Vec<serde_json::Value> =
        text.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).filter(|v: &serde_json::Value| v.get("op").is_some()).collect();
    assert_eq!(lines[0]["engine"], "primekit", "{text}");
    for v in &lines {
        assert_eq!((v["op"].as_str(), v["passes"].as_u64(), v["count"].as_u64()), (Some("is_prime"), Some(2), Some(24)), "{v}");
        assert!(v["median_ms"].as_f64().is_some_and(|t| t > 0.0), "{v}");
        // Every engine (peers with `compare`) declares all 24 primes prime.
        assert_eq!(v["declared_prime"], 24, "{text}");
    }
}
