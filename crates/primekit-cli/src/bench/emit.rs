//! Shared ending of the research benchmarks: JSON lines on stdout, an optional markdown
//! table on stderr, or the error on stderr with a failure code.

use serde_json::Value;
use std::process::ExitCode;

/// Prints `records` (and `markdown(records)` to stderr if given) or reports the error.
pub fn print_records(records: Result<Vec<Value>, String>, markdown: Option<fn(&[Value]) -> String>) -> ExitCode {
    match records {
        Ok(recs) => {
            recs.iter().for_each(|r| println!("{r}"));
            if let Some(md) = markdown {
                eprintln!("{}", md(&recs));
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
