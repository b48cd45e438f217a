//! `primekit-lab report --out DIR`: regenerates every table and plot of the research suite
//! in one run — Massimo & Paterson 2020, Table 2 (`table2.*`), Table 3 (`table3.*`), the r sweeps behind
//! Figures 4-7, Figures 1-7 as SVG and PNG, the Lucas/BPSW cost ratios and Hamburg's (2014)
//! modmul comparison — with the JSON lines of every measurement and a README.md index.

use crate::bench::{adversarial, inputs::Shard, lucas, modmul, suite};
use crate::plots::{render, Chart, Series, Style, BLUE, GREEN, ORANGE};
use clap::Args as ClapArgs;
use primekit_research::cost_model::{cost_random_odd, sigma_mertens, sigmas, Costs};
use primekit_research::tests::mrac::mrac_rounds;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(ClapArgs)]
pub struct ReportArgs {
    /// Output directory (created if missing).
    #[arg(long)]
    out: PathBuf,
    /// Random odd inputs per size for Table 2 and the sweeps.
    #[arg(long, default_value_t = 2000)]
    count: usize,
    /// Prime inputs per size.
    #[arg(long, default_value_t = 6)]
    primes: usize,
    /// Adversarial inputs for Table 3.
    #[arg(long, default_value_t = 1000)]
    adversarial: usize,
    /// r values of the sweeps (Figures 4-7).
    #[arg(long, value_delimiter = ',', default_value = "0,16,32,64,128,256,384,512,768,1024,1536,2047,3072")]
    sweep_r: Vec<usize>,
    /// Sizes of the sweeps (Figures 4-7: 1024, 512, 2048, 3072).
    #[arg(long, value_delimiter = ',', default_value = "512,1024,2048,3072")]
    sweep_bits: Vec<u32>,
    /// Worker threads (1 keeps timings clean; more finishes sooner on a quiet machine).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
    /// Seed for the inputs.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Only redraw Figures 1-7 from the sweeps already in --out (sweep.jsonl and, from a
    /// `--features compare` run or `bench suite --engine openssl`, sweep-openssl.jsonl).
    #[arg(long)]
    replot: bool,
}

/// Writes `recs` as JSON lines, each with its `kernel` ([`crate::bench::emit::tagged`]).
fn write_jsonl(path: &Path, recs: &[Value]) -> Result<(), String> {
    let text: String = recs.iter().map(|r| format!("{}\n", crate::bench::emit::tagged(r.clone()))).collect();
    crate::files::replace(path, text.as_bytes())
}

/// Writes one report file (complete or absent, [`crate::files::replace`]).
fn write(path: &Path, text: &str) -> Result<(), String> {
    crate::files::replace(path, text.as_bytes())
}

fn costs_at(recs: &[Value], bits: u32) -> Option<Costs> {
    recs.iter().find(|v| v["op"] == "cost" && v["bits"] == bits).map(|v| Costs {
        c_td: v["c_td_ms"].as_f64().unwrap_or(0.0),
        c_mr: v["c_mr_ms"].as_f64().unwrap_or(0.0),
        c_lucas: v["c_lucas_ms"].as_f64().unwrap_or(0.0),
    })
}

fn model_curve(bits: u32, t: u32, c: &Costs, r_max: usize, scale: f64) -> Vec<(f64, f64)> {
    (0..=r_max).step_by(4).map(|r| (r as f64, cost_random_odd(bits as u64, r, t, false, c) / scale)).collect()
}

fn measured(recs: &[Value], test: &str, bits: u32) -> Vec<(f64, f64)> {
    let mut v: Vec<(f64, f64)> = recs
        .iter()
        .filter(|v| v["op"] == "suite" && v["test"] == test && v["bits"] == bits && v["part"] == "overall")
        .map(|v| (v["r_used"].as_f64().unwrap_or(0.0), v["mean_ms"].as_f64().unwrap_or(f64::NAN)))
        .collect();
    v.sort_by(|a, b| a.0.total_cmp(&b.0));
    v
}

/// One engine's r sweep: file-name suffix, label, records.
type Sweep<'a> = (&'a str, &'a str, &'a [Value]);

fn figures(out: &Path, sweeps: &[Sweep], sweep_bits: &[u32], r_max: usize) -> Result<Vec<String>, String> {
    let mut made = Vec::new();
    // Figure 1: σ_r, exact (eq. 2) and Mertens (eq. 3).
    let s = sigmas(2047);
    render(
        &out.join("fig1_sigma"),
        &Chart {
            title: "Figure 1: fraction of odd composites removed by trial division".into(),
            x_label: "r (first r odd primes)".into(),
            y_label: "σ_r".into(),
            series: vec![
                Series {
                    name: "σ_r exact (eq. 2)".into(),
                    points: (1..=2047).map(|r| (r as f64, s[r])).collect(),
                    style: Style::Line,
                    color: BLUE,
                },
                Series {
                    name: "Mertens 1 - 2e^-γ/ln p_r (eq. 3)".into(),
                    points: (8..=2047).map(|r| (r as f64, sigma_mertens(r))).collect(),
                    style: Style::Dashed,
                    color: ORANGE,
                },
                Series {
                    name: "paper: σ_128 = 0.831, σ_2047 = 0.885".into(),
                    points: vec![(128.0, 0.831), (2047.0, 0.885)],
                    style: Style::Points,
                    color: GREEN,
                },
            ],
            hline: None,
            legend_low: true,
        },
    )?;
    made.push("fig1_sigma".into());
    // Figure 2: MRAC model at 1024 bits in units of C_MR, the paper's costs vs each engine's.
    let paper = Costs::PAPER_1024;
    let mut series = vec![Series {
        name: format!("paper costs (C_MR/C_TD = {:.0})", paper.c_mr / paper.c_td),
        points: model_curve(1024, 5, &paper, r_max, paper.c_mr),
        style: Style::Line,
        color: BLUE,
    }];
    for (i, (_, label, sweep)) in sweeps.iter().enumerate() {
        if let Some(c) = costs_at(sweep, 1024) {
            series.push(Series {
                name: format!("{label} costs here (C_MR/C_TD = {:.0})", c.c_mr / c.c_td),
                points: model_curve(1024, 5, &c, r_max, c.c_mr),
                style: Style::Line,
                color: if i == 0 { ORANGE } else { GREEN },
            });
        }
    }
    render(
        &out.join("fig2_mrac_model_1024"),
        &Chart {
            title: "Figure 2: model cost of MRAC vs r, k = 1024".into(),
            x_label: "r".into(),
            y_label: "expected cost / C_MR".into(),
            series,
            hline: None,
            legend_low: false,
        },
    )?;
    made.push("fig2_mrac_model_1024".into());
    for (suffix, label, sweep) in sweeps {
        // Figure 3: MR64 vs MRAC model at 1024 bits with this engine's costs.
        if let Some(c) = costs_at(sweep, 1024) {
            let stem = format!("fig3_mr64_vs_mrac_model_1024{suffix}");
            render(
                &out.join(&stem),
                &Chart {
                    title: format!("Figure 3: model cost of MR64 and MRAC vs r, k = 1024 ({label} C_TD, C_MR)"),
                    x_label: "r".into(),
                    y_label: "expected ms per random odd input".into(),
                    series: vec![
                        Series {
                            name: "MR64 model".into(),
                            points: model_curve(1024, 64, &c, r_max, 1.0),
                            style: Style::Line,
                            color: ORANGE,
                        },
                        Series { name: "MRAC model".into(), points: model_curve(1024, 5, &c, r_max, 1.0), style: Style::Line, color: BLUE },
                    ],
                    hline: None,
                    legend_low: false,
                },
            )?;
            made.push(stem);
        }
        // Figures 4-7: measured points and the model at each size.
        for (fig, bits) in [(4, 1024u32), (5, 512), (6, 2048), (7, 3072)] {
            if !sweep_bits.contains(&bits) {
                continue;
            }
            let Some(c) = costs_at(sweep, bits) else { continue };
            let (m64, mac) = (measured(sweep, "mr64", bits), measured(sweep, "mrac", bits));
            if m64.is_empty() && mac.is_empty() {
                continue;
            }
            let best = m64.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
            let stem = format!("fig{fig}_mrac_mr64_{bits}{suffix}");
            render(
                &out.join(&stem),
                &Chart {
                    title: format!("Figure {fig}: MRAC and MR64 on random odd {bits}-bit inputs, {label} arithmetic"),
                    x_label: "r (primes used by trial division)".into(),
                    y_label: "mean ms per input".into(),
                    series: vec![
                        Series { name: "MR64 measured".into(), points: m64, style: Style::Points, color: ORANGE },
                        Series {
                            name: "MR64 model (eq. 6, 8)".into(),
                            points: model_curve(bits, 64, &c, r_max, 1.0),
                            style: Style::Line,
                            color: ORANGE,
                        },
                        Series { name: "MRAC measured".into(), points: mac, style: Style::Points, color: BLUE },
                        Series {
                            name: format!("MRAC model (eq. 4, 6), t = {}", mrac_rounds(bits as u64)),
                            points: model_curve(bits, mrac_rounds(bits as u64), &c, r_max, 1.0),
                            style: Style::Line,
                            color: BLUE,
                        },
                    ],
                    hline: best.is_finite().then(|| (best, "MR64 minimum (measured)".to_string())),
                    legend_low: false,
                },
            )?;
            made.push(stem);
        }
    }
    Ok(made)
}

pub(crate) fn lucas_table(recs: &[Value]) -> String {
    // GMP's mpz_probab_prime_p (a `bpsw` line of engine gmp) when the run had the peer.
    let gmp = |bits: &Value| recs.iter().find(|v| v["op"] == "bpsw" && v["engine"] == "gmp" && &v["bits"] == bits);
    let with_gmp = recs.iter().any(|v| v["engine"] == "gmp");
    let mut s = String::from(
        "| k | MR round ms | Lucas | strong Lucas | NIST Lucas (Le Masle et al. 2011) | BPSW | strong Lucas ms / 0.90 ms (45 nm ASIC) |",
    );
    s += if with_gmp { " GMP BPSW (peer) |\n|---|---|---|---|---|---|---|---|\n" } else { "\n|---|---|---|---|---|---|---|\n" };
    for v in recs.iter().filter(|v| v["op"] == "lucas_summary") {
        let r = &v["over_mr_round"];
        let f = |k: &str| r[k].as_f64().map(|x| format!("{x:.2}×")).unwrap_or("–".into());
        let _ = write!(
            s,
            "| {} | {:.3} | {} | {} | {} | {} | {} |",
            v["bits"],
            v["mean_ms"].as_f64().unwrap_or(0.0),
            f("lucas"),
            f("strong_lucas"),
            f("nist_lucas"),
            f("bpsw"),
            r["strong_lucas_ms_vs_asic_45nm_0.90ms"].as_f64().map(|x| format!("{x:.2}")).unwrap_or("–".into())
        );
        if with_gmp {
            let g = gmp(&v["bits"]).and_then(|g| Some((g["mean_ms"].as_f64()?, g["over_mr_round"].as_f64()?)));
            let _ = write!(s, " {} |", g.map(|(ms, x)| format!("{ms:.3} ms = {x:.1}×")).unwrap_or("–".into()));
        }
        s.push('\n');
    }
    s + "\nTargets: strong Lucas ≤ 2.0× and BPSW ≤ 3.2× one MR round (the Lucas part of Massimo & Paterson 2020: 17.04×).\n"
}

pub(crate) fn modmul_table(recs: &[Value]) -> String {
    let mut s = String::from("| prime | Montgomery/special, mul | Montgomery/special, sqr | Hamburg (2014) |\n|---|---|---|---|\n");
    for v in recs.iter().filter(|v| v["op"] == "modmul_ratio") {
        let _ = writeln!(
            s,
            "| {} | {:.2} | {:.2} | ≈2 at 256 bits, 2–3 towards 512 |",
            v["prime"].as_str().unwrap_or(""),
            v["mul_ratio"].as_f64().unwrap_or(0.0),
            v["sqr_ratio"].as_f64().unwrap_or(0.0)
        );
    }
    s
}

/// The sweeps that have records: primekit's (suffix "") and OpenSSL's ("_openssl").
fn engine_sweeps<'a>(primekit: &'a [Value], openssl: &'a [Value]) -> Vec<Sweep<'a>> {
    [("", "primekit's", primekit), ("_openssl", "OpenSSL's", openssl)].into_iter().filter(|s| !s.2.is_empty()).collect()
}

/// `--replot`: Figures 1-7 redrawn from DIR/sweep.jsonl and DIR/sweep-openssl.jsonl,
/// measuring nothing.
fn replot(a: &ReportArgs) -> Result<(), String> {
    crate::plots::init_font()?;
    let read = |name: &str| -> Result<Vec<Value>, String> {
        let path = a.out.join(name);
        if path.exists() {
            crate::cmd_render::records(&path)
        } else {
            Ok(Vec::new())
        }
    };
    let (p, o) = (read("sweep.jsonl")?, read("sweep-openssl.jsonl")?);
    if p.is_empty() && o.is_empty() {
        return Err(format!("no sweep.jsonl or sweep-openssl.jsonl in {}", a.out.display()));
    }
    let mut bits: Vec<u32> = p.iter().chain(&o).filter_map(|v| v["bits"].as_u64()).map(|b| b as u32).collect();
    bits.sort();
    bits.dedup();
    let r_max = p.iter().chain(&o).filter_map(|v| v["r"].as_u64()).max().unwrap_or(2047).max(2047) as usize;
    for f in figures(&a.out, &engine_sweeps(&p, &o), &bits, r_max)? {
        eprintln!("[report] {}", a.out.join(f).display());
    }
    Ok(())
}

fn report(a: &ReportArgs) -> Result<(), String> {
    std::fs::create_dir_all(&a.out).map_err(|e| format!("{}: {e}", a.out.display()))?;
    crate::plots::init_font()?;
    let step = |s: &str| eprintln!("[report] {s}");
    // Table 2 and the r sweeps behind Figures 4-7, on one engine's arithmetic (same inputs
    // for every engine: the seeds do not depend on it).
    // Returns Table 2's markdown and the sweep's records.
    let run_suite = |engine: &str, tests: &[&str], suffix: &str| -> Result<(String, Vec<Value>), String> {
        let args = |bits: Vec<u32>, r: Vec<usize>, tests: Vec<String>, seed: u64| suite::Args {
            bits,
            r,
            tests,
            count: a.count,
            primes: Some(a.primes),
            jobs: a.jobs,
            shard: Shard::ALL,
            seed,
            engine: engine.into(),
        };
        step(&format!("Table 2 (bench suite, {engine} arithmetic)"));
        let t2 = suite::measure(&args(
            vec![512, 1024, 2048],
            vec![0, 64, 128, 384, 2047],
            tests.iter().map(|t| t.to_string()).collect(),
            a.seed,
        ))?;
        write_jsonl(&a.out.join(format!("table2{suffix}.jsonl")), &t2)?;
        let t2md = suite::markdown(&t2);
        write(&a.out.join(format!("table2{suffix}.md")), &t2md)?;
        step(&format!("r sweeps for Figures 4-7 ({engine} arithmetic)"));
        let sweep = suite::measure(&args(a.sweep_bits.clone(), a.sweep_r.clone(), vec!["mrac".into(), "mr64".into()], a.seed ^ 0x5eed))?;
        write_jsonl(&a.out.join(format!("sweep{suffix}.jsonl")), &sweep)?;
        Ok((t2md, sweep))
    };
    let (t2md, sweep) = run_suite("primekit", &["mrac", "mr64", "mr128", "bpsw"], "")?;
    #[cfg(feature = "compare")]
    let sweep_openssl = run_suite("openssl", &["mrac", "mr64", "mr128"], "-openssl")?.1;
    #[cfg(not(feature = "compare"))]
    let sweep_openssl: Vec<Value> = Vec::new();
    step("Table 3 (bench adversarial)");
    let t3 = adversarial::measure(&adversarial::Args { bits: 1024, count: a.adversarial, jobs: a.jobs, shard: Shard::ALL, seed: a.seed })?;
    write_jsonl(&a.out.join("table3.jsonl"), &t3)?;
    let t3md = adversarial::markdown(&t3);
    write(&a.out.join("table3.md"), &t3md)?;
    step("Lucas tests (bench lucas)");
    let lu = lucas::measure(&lucas::Args { bits: vec![512, 1024, 2048], count: a.primes.max(4), reps: 3, seed: a.seed })?;
    write_jsonl(&a.out.join("lucas.jsonl"), &lu)?;
    step("modmul (bench modmul)");
    let mm = modmul::measure(&modmul::Args { bits: vec![256, 448, 521], count: 100_000, reps: 5 })?;
    write_jsonl(&a.out.join("modmul.jsonl"), &mm)?;
    step("figures");
    let r_max = a.sweep_r.iter().copied().max().unwrap_or(2047).max(2047);
    let figs = figures(&a.out, &engine_sweeps(&sweep, &sweep_openssl), &a.sweep_bits, r_max)?;
    let mut md = String::from("# primekit research report\n\nRegenerate with `primekit-lab report --out DIR` (see docs/research.md). Machines differ from those of Massimo & Paterson 2020, so compare ratios.\n\n");
    // Each table between render markers, so `primekit-lab render` re-derives it from the JSON
    // written here (paths as given to --out, relative to where the command ran).
    let block =
        |kind: &str, file: &str, body: &str| format!("<!-- render: {kind} {} -->\n{body}<!-- end render -->\n", a.out.join(file).display());
    let _ = write!(
        md,
        "## Table 2 (Massimo & Paterson 2020): mean ms per test, {} random odd inputs and {} primes per size\n\n{}\n## Table 3 (Massimo & Paterson 2020)\n\n{}\n## Lucas tests vs one MR round (same primes)\n\n{}\n## Montgomery vs special-form multiplication (Hamburg 2014)\n\n{}\n## Figures\n\n",
        a.count,
        a.primes,
        block("table2", "table2.jsonl", &t2md),
        block("table3", "table3.jsonl", &t3md),
        block("lucas", "lucas.jsonl", &lucas_table(&lu)),
        block("modmul", "modmul.jsonl", &modmul_table(&mm))
    );
    for f in &figs {
        let _ = writeln!(md, "- [{f}.svg]({f}.svg) · ![{f}]({f}.png)");
    }
    write(&a.out.join("README.md"), &md)?;
    step(&format!("done: {}", a.out.display()));
    Ok(())
}

pub fn run(a: ReportArgs) -> ExitCode {
    if a.count == 0 || a.primes == 0 || a.adversarial == 0 {
        eprintln!("primekit-lab report: --count, --primes and --adversarial must be positive");
        return ExitCode::from(2);
    }
    match if a.replot { replot(&a) } else { report(&a) } {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("primekit-lab report: {e}");
            ExitCode::FAILURE
        }
    }
}
