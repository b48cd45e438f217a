//! `primekit-lab render KIND FILE...`: the Markdown table of one kind of committed result,
//! rebuilt from its JSON lines without measuring anything. The results READMEs and
//! docs/research.md embed these tables between `<!-- render: KIND FILE... -->` and
//! `<!-- end render -->`; a test re-renders every such block and fails on any difference,
//! so no figure in them is copied by hand.

use crate::bench::timing::median;
use crate::bench::{adversarial, suite};
use clap::{Args as ClapArgs, ValueEnum};
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Kind {
    /// Massimo & Paterson 2020, Table 2 (`bench suite` lines).
    Table2,
    /// Massimo & Paterson 2020, Table 3 (`bench adversarial` lines).
    Table3,
    /// Lucas tests against one Miller-Rabin round (`bench lucas` lines).
    Lucas,
    /// Hamburg 2014: Montgomery against special-form products (`bench modmul` lines).
    Modmul,
    /// Massimo & Paterson 2020, Table 5: medians over the runs given, per engine
    /// (`bench table5` lines, one file per run).
    Table5,
    /// Dobrosavljević 2021: the nine combinations ranked, from interleaved `bench pga` runs.
    PgaInterleaved,
    /// Dobrosavljević 2021, Tables 5.1/5.2: each combination's best grid point (`bench pga-tables`).
    PgaBest,
    /// Dobrosavljević 2021, §5.2 and Fig. 5.22: distribution checks (`primekit-lab dist` lines).
    Dist,
}

#[derive(ClapArgs)]
pub struct Args {
    kind: Kind,
    /// JSON-lines files (for table5: one per run).
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

/// The JSON records of one file; a line that is not JSON is an error naming it.
pub(crate) fn records(path: &Path) -> Result<Vec<Value>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| serde_json::from_str(l).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1)))
        .collect()
}

/// Table 5 per engine and size: medians over the runs of each arm's mean time per prime,
/// of the measured overhead (with its range) and of Appendix A's two predictions.
pub fn table5(runs: &[Vec<Value>]) -> String {
    // (engine, bits) -> per-run (mr64 ms, mrac ms, t, overhead, eq10/eq9, restarting, paper, r, sieve)
    type Row = (f64, f64, u64, f64, Option<f64>, Option<f64>, Option<f64>, u64, u64);
    let mut cells: BTreeMap<(String, u64, u64, u64), Vec<Row>> = BTreeMap::new();
    for run in runs {
        let arm = |engine: &str, bits: u64, sieve: u64, inside: &str| {
            run.iter().find(|v| {
                v["op"] == "table5"
                    && v["inside"] == inside
                    && v["bits"] == bits
                    && v["sieve_primes"] == sieve
                    && v["engine"].as_str().unwrap_or("primekit") == engine
            })
        };
        for s in run.iter().filter(|v| v["op"] == "table5" && v.get("overhead_pct").is_some()) {
            let engine = s["engine"].as_str().unwrap_or("primekit").to_string();
            let Some(bits) = s["bits"].as_u64() else { continue };
            let sieve = s["sieve_primes"].as_u64().unwrap_or(0);
            let td = s["redundant_td"].as_u64().unwrap_or(0);
            let (Some(m64), Some(mac)) = (arm(&engine, bits, sieve, "mr64"), arm(&engine, bits, sieve, "mrac")) else { continue };
            cells.entry((engine, bits, sieve, td)).or_default().push((
                m64["mean_ms"].as_f64().unwrap_or(f64::NAN),
                mac["mean_ms"].as_f64().unwrap_or(f64::NAN),
                mac["t"].as_u64().unwrap_or(0),
                s["overhead_pct"].as_f64().unwrap_or(f64::NAN),
                s["model_overhead_pct"].as_f64(),
                s["model_restarting_overhead_pct"].as_f64(),
                s["paper_overhead_pct"].as_f64(),
                m64["r"].as_u64().unwrap_or(0),
                s["sieve_primes"].as_u64().unwrap_or(0),
            ));
        }
    }
    let mut out = String::from(
        "| arithmetic | k | sieve | r (MR64 arm) | runs | MR64 inside ms | MRAC inside ms (t) | overhead: median (range) | eq. 10 / eq. 9 | with restarts | paper |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    let pct = |x: f64| if x.is_finite() { format!("{x:.0}%") } else { "–".into() };
    let opt_median = |v: Vec<Option<f64>>| if v.iter().all(Option::is_some) { median(v.into_iter().flatten().collect()) } else { f64::NAN };
    for ((engine, bits, _, _), rows) in &cells {
        let col = |f: &dyn Fn(&Row) -> f64| median(rows.iter().map(f).collect());
        let (lo, hi) = rows.iter().map(|r| r.3).fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), x| (a.min(x), b.max(x)));
        let _ = writeln!(
            out,
            "| {engine} | {bits} | {} | {} | {} | {:.2} | {:.2} ({}) | {} ({}–{}) | {} | {} | {} |",
            rows[0].8,
            rows[0].7,
            rows.len(),
            col(&|r| r.0),
            col(&|r| r.1),
            rows[0].2,
            pct(col(&|r| r.3)),
            pct(lo),
            pct(hi),
            pct(opt_median(rows.iter().map(|r| r.4).collect())),
            pct(opt_median(rows.iter().map(|r| r.5).collect())),
            pct(opt_median(rows.iter().map(|r| r.6).collect())),
        );
    }
    out
}

/// The Markdown of `kind` from the records of `files`.
pub fn render(kind: Kind, files: &[PathBuf]) -> Result<String, String> {
    let mut all = Vec::new();
    for f in files {
        all.push(records(f)?);
    }
    let flat: Vec<Value> = all.iter().flatten().cloned().collect();
    Ok(match kind {
        Kind::Table2 => suite::markdown(&flat),
        Kind::Table3 => adversarial::markdown(&flat),
        Kind::Lucas => crate::cmd_report::lucas_table(&flat),
        Kind::Modmul => crate::cmd_report::modmul_table(&flat),
        Kind::Table5 => table5(&all),
        Kind::PgaInterleaved => crate::render_pga::interleaved(&flat),
        Kind::PgaBest => crate::render_pga::best_points(&flat),
        Kind::Dist => crate::render_pga::distribution(&flat),
    })
}

pub fn run(a: Args) -> ExitCode {
    match render(a.kind, &a.files) {
        Ok(md) => {
            primekit_cli::out!("render", "{md}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("primekit-lab render: {e}");
            ExitCode::from(2)
        }
    }
}
