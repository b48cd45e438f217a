//! `bench pga` runs every PGA x sieve combination of Dobrosavljević (2021), safe and
//! non-safe, with default parameters (the Dirichlet sieve's r is derived from k).

use std::process::Command;

#[test]
fn all_nine_combinations_run_with_defaults() {
    for safe in [false, true] {
        let mut args =
            vec!["bench", "pga", "--pga", "nss,natural,openssl", "--sieve", "nss,openssl,dirichlet", "--bits", "512", "--count", "1"];
        if safe {
            args.push("--safe");
        }
        let out = Command::new(env!("CARGO_BIN_EXE_primekit-lab")).args(&args).output().unwrap();
        assert!(out.status.success(), "safe={safe}: {}", String::from_utf8_lossy(&out.stderr));
        let lines: Vec<serde_json::Value> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .filter(|v: &serde_json::Value| v.get("op").is_some())
            .collect();
        let mut combos: Vec<(String, String)> = lines
            .iter()
            .filter(|v| v["engine"] != "openssl")
            .map(|v| (v["pga"].as_str().unwrap_or("").to_string(), v["sieve"].as_str().unwrap_or("").to_string()))
            .collect();
        combos.sort();
        combos.dedup();
        assert_eq!(combos.len(), 9, "safe={safe}: {combos:?}");
    }
}
