//! Shared ending of the benchmarks: JSON lines on stdout, an optional markdown table on
//! stderr, or the error on stderr with a failure code.
//!
//! Every line a benchmark prints or writes goes through [`tagged`], which adds the
//! `kernel` field when the line does not set it (docs/json.md, rule 7): the peer's own
//! name for a peer engine ([`PEERS`]: its arithmetic, not primekit's, was timed), else
//! the process-wide kernel ([`Kernel::selected`], `PRIMEKIT_KERNEL`) that ran primekit's
//! arithmetic. A line timing one specific kernel sets `kernel` itself.

use primekit::hazmat::mont::Kernel;
use serde_json::Value;
use std::process::ExitCode;

/// Engines that are not primekit: their lines name the peer as `kernel`.
pub const PEERS: [&str; 3] = ["openssl", "gmp", "nettle"];

/// The name of the kernel primekit's arithmetic runs on in this process; `main` has
/// already refused to start when the selection is an error.
pub fn process_kernel() -> &'static str {
    Kernel::selected().map_or("unavailable", Kernel::name)
}

/// `record` with a `kernel` field (unchanged if it has one already or is not an object).
pub fn tagged(mut record: Value) -> Value {
    if let Some(obj) = record.as_object_mut() {
        if !obj.contains_key("kernel") {
            let kernel = match obj.get("engine").and_then(Value::as_str) {
                Some(engine) if PEERS.contains(&engine) => engine,
                _ => process_kernel(),
            };
            obj.insert("kernel".into(), Value::from(kernel));
        }
    }
    record
}

/// Prints one benchmark line (with `kernel`, see [`tagged`]) on stdout; a reader that
/// went away (`| head`) ends the run with status 0 ([`crate::files::print_or_exit`]).
pub fn line(record: Value) {
    crate::files::print_or_exit(&format!("{}\n", tagged(record)));
}

/// Prints `records` (and `markdown(records)` to stderr if given) or reports the error
/// as `PROG bench NAME: error` (PROG: `primekit` or `primekit-lab`).
pub fn print_records(name: &str, records: Result<Vec<Value>, String>, markdown: Option<fn(&[Value]) -> String>) -> ExitCode {
    match records {
        Ok(recs) => {
            let recs: Vec<Value> = recs.into_iter().map(tagged).collect();
            for r in &recs {
                crate::outln!(format!("bench {name}"), "{r}");
            }
            if let Some(md) = markdown {
                eprintln!("{}", md(&recs));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("{} bench {name}: {e}", crate::cli::prog());
            ExitCode::FAILURE
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn kernel_added_unless_present_and_peers_named() {
        let own = tagged(json!({"op": "gen", "engine": "primekit"}));
        assert_eq!(own["kernel"], process_kernel());
        assert!(Kernel::ALL.iter().any(|k| own["kernel"] == k.name()));
        assert_eq!(tagged(json!({"engine": "openssl"}))["kernel"], "openssl");
        assert_eq!(tagged(json!({"engine": "gmp"}))["kernel"], "gmp");
        assert_eq!(tagged(json!({"engine": "primekit", "kernel": "portable"}))["kernel"], "portable");
        assert_eq!(tagged(json!({"note": "x"}))["kernel"], process_kernel());
        assert_eq!(tagged(json!([1, 2])), json!([1, 2]));
    }
}
