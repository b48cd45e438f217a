//! `bench prove` prints one JSON line per engine and size: the common fields when the
//! engine ran (even if it failed on some primes), `skipped` with a reason when the engine
//! is missing on the machine.

use serde_json::Value;
use std::process::Command;

#[test]
fn every_engine_reports_one_json_line() {
    let out = Command::new(env!("CARGO_BIN_EXE_primekit"))
        .args(["bench", "prove", "--bits", "128", "--count", "1", "--seed", "3"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<Value> = stdout.lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{l:?}: {e}"))).collect();
    let mut engines = Vec::new();
    for v in &lines {
        let engine = v["engine"].as_str().unwrap_or_else(|| panic!("no engine: {v}"));
        engines.push(engine);
        assert_eq!(v["op"], "prove", "{v}");
        assert_eq!(v["bits"], 128, "{v}");
        assert!(v["kernel"].is_string() && v.get("count").is_some() && v.get("mean_ms").is_some(), "{v}");
        if let Some(reason) = v.get("skipped") {
            eprintln!("SKIP bench prove engine {engine}: {reason}");
            assert!(reason.is_string(), "{v}");
            continue;
        }
        for field in ["count", "failed", "mean_ms", "median_ms", "cert_bytes", "verify_ms", "steps"] {
            assert!(v.get(field).is_some(), "{engine}: no {field}: {v}");
        }
        assert_eq!(v["count"].as_u64().unwrap() + v["failed"].as_u64().unwrap(), 1, "{v}");
        if v["count"] == 1 {
            assert!(v["mean_ms"].as_f64().is_some_and(|t| t >= 0.0), "{v}");
        } else {
            eprintln!("SKIP bench prove engine {engine} proved nothing: {}", v["error"]);
        }
    }
    assert_eq!(engines, ["primekit", "pari", "flint"], "{stdout}");
}

#[test]
fn unknown_engines_are_refused() {
    let out = Command::new(env!("CARGO_BIN_EXE_primekit")).args(["bench", "prove", "--engines", "primekit,magma"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("magma"));
}
