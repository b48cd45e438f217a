//! `primekit-lab hw-report --dir results/hw`: renders the RTL Lucas tester's measurements
//! (written by `hw/run.sh report`) beside Le Masle, Luk & Moritz 2011, Tables I-II:
//! `README.md` with the tables and `time-vs-luts.{svg,png}`. Every figure of ours comes
//! from the JSON files in the directory; the paper's are its published values.

use crate::plots::{render, Chart, Series, Style, BLUE, ORANGE};
use clap::Args as ClapArgs;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(ClapArgs)]
pub struct Args {
    /// Directory with sim-1024-*.json, synth-1024-*.json and cpu-1024.jsonl.
    #[arg(long, default_value = "results/hw")]
    pub dir: PathBuf,
}

/// Le Masle et al. 2011, Table I: (N_p, N_r, LUTs, ms at 150 MHz on a Virtex-5).
const TABLE1: [(u64, u64, u64, f64); 8] = [
    (1, 1, 56_329, 24.34),
    (1, 2, 58_739, 12.66),
    (2, 1, 60_431, 13.16),
    (2, 2, 70_651, 7.33),
    (3, 1, 68_386, 11.27),
    (3, 2, 82_792, 6.61),
    (3, 4, 106_158, 4.29),
    (3, 8, 142_647, 3.11),
];
/// Table II: (process, N_p, N_r, GHz, ms).
const TABLE2: [(&str, u64, u64, f64, f64); 9] = [
    ("65 nm", 1, 1, 1.00, 5.43),
    ("65 nm", 1, 2, 1.00, 2.82),
    ("65 nm", 2, 1, 1.00, 2.93),
    ("65 nm", 2, 2, 1.00, 1.62),
    ("65 nm", 3, 1, 1.00, 2.51),
    ("65 nm", 3, 2, 1.00, 1.46),
    ("65 nm", 3, 4, 0.75, 1.69),
    ("65 nm", 3, 8, 0.50, 2.01),
    ("45 nm", 3, 2, 1.66, 0.90),
];
/// Table II's area column (kGates, NAND2 equivalents), in TABLE2's order.
const TABLE2_KGATES: [u32; 9] = [400, 416, 464, 498, 533, 595, 709, 838, 618];
const FPGA_MHZ: f64 = 150.0;

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

/// LUTs and flip-flops in a Yosys `num_cells_by_type` map (xc5v: LUT1-6, INV, SRL*).
fn luts_ffs(cells: &Value) -> (u64, u64) {
    let mut luts = 0;
    let mut ffs = 0;
    if let Some(m) = cells.as_object() {
        for (k, v) in m {
            let n = v.as_u64().unwrap_or(0);
            if k.starts_with("LUT") || k == "INV" || k.starts_with("SRL") {
                luts += n;
            } else if k.starts_with("FD") {
                ffs += n;
            }
        }
    }
    (luts, ffs)
}

/// Rough NAND2 equivalents of Yosys' generic cells (`synth; abc -g ...`): INV 0.67, NAND2 and
/// NOR2 1, AND2 and OR2 1.33, XOR2, XNOR2 and MUX2 2.33, a flip-flop 5 (with its enable or
/// reset). Conventional standard-cell ratios, for a trend only: not TSMC's cells.
fn gate_equivalents(cells: &Value) -> f64 {
    cells.as_object().map_or(0.0, |m| {
        m.iter()
            .map(|(k, v)| {
                let n = v.as_f64().unwrap_or(0.0);
                let w = match k.as_str() {
                    "$_NOT_" => 0.67,
                    "$_NAND_" | "$_NOR_" => 1.0,
                    "$_AND_" | "$_OR_" => 1.33,
                    "$_XOR_" | "$_XNOR_" | "$_MUX_" => 2.33,
                    k if k.contains("DFF") => 5.0,
                    _ => 1.0,
                };
                n * w
            })
            .sum()
    })
}

/// Generic gate equivalents of the tester for (N_p, N_r): its modules other than the
/// multiplier (one hierarchical run) plus the configuration's multiplier.
fn generic_gates(dir: &Path, np: u64, nr: u64) -> Option<f64> {
    let rest = read_json(&dir.join("generic-1024-lucas_tester.json"))?;
    let mul = read_json(&dir.join(format!("generic-1024-mul-np{np}-nr{nr}.json")))?;
    let others: f64 =
        rest["modules"].as_object()?.iter().filter(|(k, _)| !k.contains("lucas_mont_mul")).map(|(_, c)| gate_equivalents(c)).sum();
    Some(others + gate_equivalents(&mul["cells"]))
}

/// The tester without its multiplier, from the hierarchical synthesis of the whole tester.
fn rest_of_tester(dir: &Path) -> Option<(u64, u64)> {
    let v = read_json(&dir.join("synth-1024-lucas_tester.json"))?;
    let mut sum = (0, 0);
    for (name, cells) in v["modules"].as_object()? {
        if !name.contains("lucas_mont_mul") {
            let (l, f) = luts_ffs(cells);
            sum = (sum.0 + l, sum.1 + f);
        }
    }
    Some(sum)
}

/// The paper's two tables measure different workloads on the same designs: Table I the
/// mean over random inputs, Table II one input that runs the whole ladder. Their cycle
/// ratio is the paper's share of random inputs that reach the ladder (times any per-test
/// difference); beside it, ours, and our full-ladder cycles against Table II's.
fn cycle_fit(dir: &Path) -> String {
    let mut out = String::from(
        "| N_p | N_r | paper: Table I cycles / Table II cycles | ours: random / full-ladder cycles | our full-ladder / Table II cycles |\n|---|---|---|---|---|\n",
    );
    let mut share = None;
    for (np, nr, _, p1_ms) in TABLE1 {
        let Some(&(_, _, _, ghz, p2_ms)) = TABLE2.iter().find(|t| t.0 == "65 nm" && t.1 == np && t.2 == nr) else { continue };
        let (p1, p2) = (p1_ms * FPGA_MHZ * 1e3, p2_ms * ghz * 1e6);
        let sim = read_json(&dir.join(format!("sim-1024-np{np}-nr{nr}.json")));
        let ours = sim.as_ref().and_then(|s| Some((class_cycles(s, "random")?, class_cycles(s, "prime")?)));
        if let Some(s) = &sim {
            if let (Some(l), Some(c)) = (s["classes"]["random"]["laddered"].as_f64(), s["classes"]["random"]["count"].as_f64()) {
                share = Some((l, c));
            }
        }
        let (r, f) = ours.map_or(("not simulated".into(), "".into()), |(r, f)| (format!("{:.3}", r / f), format!("{:.2}", f / p2)));
        let _ = writeln!(out, "| {np} | {nr} | {:.3} | {r} | {f} |", p1 / p2);
    }
    if let Some((l, c)) = share {
        let _ = writeln!(out, "\nShare of our random inputs that reach the U/V ladder: {l:.0}/{c:.0} = {:.3}.", l / c);
    }
    out
}

fn class_cycles(sim: &Value, class: &str) -> Option<f64> {
    sim["classes"][class]["mean_cycles"].as_f64()
}

pub fn run(a: Args) -> ExitCode {
    match report(&a.dir) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("primekit-lab hw-report: {e}");
            ExitCode::from(1)
        }
    }
}

fn report(dir: &Path) -> Result<(), String> {
    let rest = rest_of_tester(dir);
    let cpu: Vec<Value> = std::fs::read_to_string(dir.join("cpu-1024.jsonl"))
        .unwrap_or_default()
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect();
    let mut md = String::new();
    let _ = writeln!(md, "# The RTL Lucas tester beside Le Masle, Luk & Moritz 2011\n");
    let _ = writeln!(
        md,
        "Generated by `primekit-lab hw-report` from the JSON files in this directory (written by `hw/run.sh report`). \
         Cycles: Verilator simulation of `hw/rtl` at K = 1024, mean over the `random` class (uniform odd 1024-bit \
         inputs, top bit set; the paper used 10,000 random 1024-bit values) and over the `prime` class (every stage runs). \
         LUTs and flip-flops: Yosys `synth_xilinx -family xc5v` (Virtex-5, experimental in Yosys) without I/O buffers; the \
         multiplier synthesised per configuration, the rest of the tester once (hierarchy kept). \"Paper cycles\" are the \
         paper's time × its clock.\n"
    );
    let sims: Vec<Value> =
        TABLE1.iter().filter_map(|&(np, nr, _, _)| read_json(&dir.join(format!("sim-1024-np{np}-nr{nr}.json")))).collect();
    let (inputs, agree): (u64, u64) =
        sims.iter().fold((0, 0), |(i, a), s| (i + s["inputs"].as_u64().unwrap_or(0), a + s["agree"].as_u64().unwrap_or(0)));
    let _ = writeln!(
        md,
        "Agreement with the software model (verdicts, and U, V at one random ladder step per input): {agree} of {inputs} \
         simulated 1024-bit inputs over {} configurations.\n",
        sims.len()
    );
    let _ = writeln!(md, "## Table I: Virtex-5 at {FPGA_MHZ} MHz\n");
    let _ = writeln!(
        md,
        "| N_p | N_r | inputs (random) | agree | cycles, random | cycles, prime | ms at 150 MHz | paper ms | paper cycles | ours / paper | LUTs | FFs | paper LUTs | ours / paper |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    let (mut ours_pts, mut paper_pts) = (Vec::new(), Vec::new());
    let mut our_cycles = std::collections::HashMap::new();
    let mut our_full = std::collections::HashMap::new();
    for (np, nr, p_luts, p_ms) in TABLE1 {
        paper_pts.push((p_luts as f64, p_ms));
        let sim = read_json(&dir.join(format!("sim-1024-np{np}-nr{nr}.json")));
        let mul = read_json(&dir.join(format!("synth-1024-mul-np{np}-nr{nr}.json")));
        let p_cycles = p_ms * FPGA_MHZ * 1e3;
        let (sim_cols, ms) = match &sim {
            Some(s) => {
                let r = class_cycles(s, "random").unwrap_or(f64::NAN);
                let p = class_cycles(s, "prime").unwrap_or(f64::NAN);
                our_cycles.insert((np, nr), r);
                our_full.insert((np, nr), p);
                let ms = r / (FPGA_MHZ * 1e3);
                (
                    format!("{} | {}/{} | {:.0} | {:.0} | {:.2}", s["classes"]["random"]["count"], s["agree"], s["inputs"], r, p, ms),
                    Some(ms),
                )
            }
            None => ("not run | | | | ".into(), None),
        };
        let ratio = ms.map_or("".into(), |m| format!("{:.2}", m / p_ms));
        let (area, luts) = match (&mul, rest) {
            (Some(m), Some((rl, rf))) => {
                let (l, f) = luts_ffs(&m["cells"]);
                (format!("{} | {}", l + rl, f + rf), Some(l + rl))
            }
            _ => ("not synthesised | ".into(), None),
        };
        if let (Some(l), Some(m)) = (luts, ms) {
            ours_pts.push((l as f64, m));
        }
        let lratio = luts.map_or("".into(), |l| format!("{:.2}", l as f64 / p_luts as f64));
        let _ = writeln!(md, "| {np} | {nr} | {sim_cols} | {p_ms} | {p_cycles:.0} | {ratio} | {area} | {p_luts} | {lratio} |");
    }
    let _ = writeln!(md, "\n## Where the cycles differ\n");
    let _ = write!(md, "{}", cycle_fit(dir));
    let _ = writeln!(md, "\n## Table II: ASIC clocks\n");
    let _ = writeln!(
        md,
        "The paper's ASIC figures are for \"a single 1024-bit input [that] goes through all the steps of Alg. 2\" (its worst \
         case), so ours are the mean cycles of the `prime` class (full ladder) at the paper's clock. No TSMC library here, so \
         no area or power.\n"
    );
    let _ = writeln!(
        md,
        "| process | N_p | N_r | GHz | our ms | paper ms | paper cycles | ours / paper | our generic kGE (trend) | paper kGates |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|");
    for (i, (proc_, np, nr, ghz, p_ms)) in TABLE2.into_iter().enumerate() {
        let p_cycles = p_ms * ghz * 1e6;
        let gates = generic_gates(dir, np, nr).map_or("not synthesised".into(), |g| format!("{:.0}", g / 1e3));
        let kgates = TABLE2_KGATES[i];
        match our_full.get(&(np, nr)) {
            Some(c) => {
                let ms = c / (ghz * 1e6);
                let _ = writeln!(
                    md,
                    "| {proc_} | {np} | {nr} | {ghz:.2} | {ms:.3} | {p_ms} | {p_cycles:.0} | {:.2} | {gates} | {kgates} |",
                    ms / p_ms
                );
            }
            None => {
                let _ = writeln!(md, "| {proc_} | {np} | {nr} | {ghz:.2} | not run | {p_ms} | {p_cycles:.0} | | {gates} | {kgates} |");
            }
        }
    }
    let _ = writeln!(
        md,
        "\nGeneric kGE: Yosys `synth; abc -g AND,NAND,OR,NOR,XOR,XNOR,MUX` cells weighted as rough NAND2 equivalents \
         (INV 0.67, NAND/NOR 1, AND/OR 1.33, XOR/XNOR/MUX 2.33, flip-flop 5): a trend across configurations, not a TSMC gate count."
    );
    // The vectors draw the random class first from the same seed, so the RTL's random
    // inputs are the first of the CPU's when the CPU ran more; the primes come after them
    // in the stream, so they are then other primes of the same size.
    let rtl_random = sims.iter().filter_map(|s| s["random_inputs"].as_u64()).max();
    let cpu_random = cpu.iter().find(|v| v["class"] == "random").and_then(|v| v["count"].as_u64());
    match (rtl_random, cpu_random) {
        (Some(r), Some(c)) if c > r => {
            let _ = writeln!(md, "\n## CPU: primekit's NIST Lucas test on the paper's workload\n");
            let _ = writeln!(
                md,
                "{c} random inputs from the vectors' seed, the first {r} of them the RTL's random inputs; the primes are other \
                 primes of the same size (drawn after the random inputs). Le Masle et al. timed 10,000 random 1024-bit inputs.\n"
            );
        }
        _ => {
            let _ = writeln!(md, "\n## CPU: primekit's NIST Lucas test on the same inputs\n");
        }
    }
    let _ = writeln!(
        md,
        "Paper's software (GMP 5.0.1 on a Xeon W3505, 2.53 GHz): 2.40 ms on random inputs (Table I), 3.30 ms on a full-ladder \
         input (Table II). The `prime` class is our full-ladder case.\n"
    );
    let _ = writeln!(md, "| class | inputs | passed | mean ms | kernel | CPU | Linux |");
    let _ = writeln!(md, "|---|---|---|---|---|---|---|");
    for c in &cpu {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:.3} | {} | {} | {} |",
            c["class"].as_str().unwrap_or("?"),
            c["count"],
            c["passed"],
            c["mean_ms"].as_f64().unwrap_or(f64::NAN),
            c["kernel"].as_str().unwrap_or("?"),
            c["cpu"].as_str().unwrap_or("?"),
            c["linux"].as_str().unwrap_or("?")
        );
    }
    if !ours_pts.is_empty() {
        render(
            &dir.join("time-vs-luts"),
            &Chart {
                title: "1024-bit NIST Lucas tester: time at 150 MHz vs LUTs (Virtex-5)".into(),
                x_label: "LUTs".into(),
                y_label: "ms per test (random odd inputs)".into(),
                series: vec![
                    Series { name: "ours (Verilator cycles, Yosys xc5v LUTs)".into(), points: ours_pts, style: Style::Points, color: BLUE },
                    Series { name: "Le Masle et al. 2011, Table I".into(), points: paper_pts, style: Style::Points, color: ORANGE },
                ],
                hline: None,
                legend_low: false,
            },
        )?;
        let _ = writeln!(md, "\n![time vs LUTs](time-vs-luts.svg)");
    }
    crate::files::replace(&dir.join("README.md"), md.as_bytes())
}
