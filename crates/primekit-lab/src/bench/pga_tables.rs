//! `primekit-lab bench pga-tables`: Dobrosavljević's (2021) Tables 5.1 (primes) and 5.2 (safe primes) —
//! the minimal mean runtime of each PGA × sieve combination over a small (r, L) grid —
//! with OpenSSL's native generator measured in the same run (`--features compare`), the
//! ratio to it, and the thesis's figures beside; plus one runtime heatmap over (r, L)
//! per combination (like Fig. 5.1–5.21). Writes DIR/tables.md, DIR/points.jsonl and
//! DIR/heat_*.png, and prints every grid point as a JSON line.
//!
//! The grid is deliberately small and the counts low so that the default run fits in
//! minutes; the minimum over noisy means is biased low, so rerun with a larger
//! `--count` (the thesis used 64 × 8,192 calls per point) for firmer figures.
//!
//! Paper scale is a job array: `--shard i/n` measures its share of every grid point's
//! primes and only prints the JSON lines; `primekit-lab bench merge` averages each point by
//! count and `primekit-lab render pga-best` makes the tables.
//!
//! Default run (minutes): `primekit-lab bench pga-tables --out DIR`. Bigger sweeps, e.g.
//! `--bits 1024,2048,3072 --count 64 --safe-bits 1024,2048 --safe-count 16` take hours
//! (a safe 1024-bit prime costs about a second, a 2048-bit one about ten); build with
//! `--features compare` for OpenSSL's column. Single points: `primekit-lab bench pga`.

use super::inputs::Shard;
use super::pga::{measure, os_rng};
use crate::plot;
use clap::Args as ClapArgs;
use primekit_research::pga::params::{natural_min_l, thesis_gamma};
use primekit_research::pga::{Config, Generator, Pga, SieveKind};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(ClapArgs)]
pub struct Args {
    /// Prime sizes k for Table 5.1 (primes), comma-separated; `--bits` alone skips it.
    #[arg(long, value_delimiter = ',', num_args = 0.., default_value = "1024")]
    bits: Vec<u32>,
    /// Primes per grid point.
    #[arg(long, default_value_t = 8)]
    count: usize,
    /// Prime sizes for Table 5.2 (safe primes); `--safe-bits` alone skips it.
    #[arg(long, value_delimiter = ',', num_args = 0.., default_value = "1024")]
    safe_bits: Vec<u32>,
    /// Safe primes per grid point (about a second each at 1024 bits).
    #[arg(long, default_value_t = 2)]
    safe_count: usize,
    /// Security level γ (error and failure probability <= 2^-γ); default as in the
    /// thesis: 128, and 100 for the safe OpenSSL PGA.
    #[arg(long)]
    gamma: Option<f64>,
    /// Output directory (not written by a shard).
    #[arg(long, default_value = "pga-tables")]
    out: PathBuf,
    /// Run part i of n (0-based) of every grid point's primes; combine with `bench merge`.
    #[arg(long, default_value = "0/1")]
    shard: Shard,
    /// Accepted for job arrays; the grid runs on one thread (timings stay clean).
    #[arg(long, default_value_t = 1)]
    jobs: usize,
}

/// The thesis's minimal runtimes at k = 1024, γ = 128 (Tables 5.1, 5.2), in ms.
pub(crate) fn thesis_ms(pga: Pga, sieve: SieveKind, safe: bool) -> f64 {
    use Pga as P;
    use SieveKind as S;
    let (p, s) = match (pga, sieve) {
        (P::Nss, S::Nss) => (34.5, 1220.0),
        (P::Nss, S::Openssl) => (34.0, 1250.0),
        (P::Nss, S::Dirichlet) => (40.5, 5300.0),
        (P::Natural, S::Nss) => (33.0, 1270.0),
        (P::Natural, S::Openssl) => (34.5, 1350.0),
        (P::Natural, S::Dirichlet) => (42.0, 5125.0),
        (P::Openssl, S::Nss) => (45.0, 2500.0),
        (P::Openssl, S::Openssl) => (41.5, 2100.0),
        (P::Openssl, S::Dirichlet) => (60.0, 16500.0),
    };
    if safe {
        s
    } else {
        p
    }
}
/// The thesis's native OpenSSL 3.0 generator at k = 1024 (primes), in ms.
const THESIS_OPENSSL_MS: f64 = 41.0;

/// The (r values, L values) grid of one combination; `None` for L means L is unused.
fn grid(pga: Pga, sieve: SieveKind, safe: bool, bits: u32, gamma: f64) -> (Vec<usize>, Option<Vec<u64>>) {
    use Pga as P;
    use SieveKind as S;
    let mut dir: Vec<usize> = if safe { vec![32, 64, 100] } else { vec![16, 50, 100] };
    dir.extend([200usize, 300].iter().filter(|&&r| (r == 200 && bits >= 2048) || (r == 300 && bits >= 3072)));
    let lmin = natural_min_l(bits, gamma);
    if !safe {
        match (pga, sieve) {
            (P::Nss, S::Nss | S::Openssl) => (vec![64, 256, 1024, 2048], Some(vec![700, 4000, 16000, 48000])),
            (P::Nss, S::Dirichlet) => (dir, Some(vec![700, 16000, 64000])),
            (P::Natural, S::Nss) => (vec![64, 256, 1024, 2048], Some(vec![lmin, 2 * lmin])),
            (P::Natural, S::Openssl) => (vec![64, 256, 1024, 2048, 3024], None),
            (P::Openssl, S::Nss) => (vec![16, 64, 256, 1024], Some(vec![1000, 8000])),
            (P::Openssl, S::Openssl) => (vec![16, 64, 128, 256, 512, 2048], None),
            (_, S::Dirichlet) => (dir, None),
        }
    } else {
        match (pga, sieve) {
            (P::Nss, S::Nss | S::Openssl) => (vec![1024, 4096], Some(vec![8000, 32000])),
            (P::Nss, S::Dirichlet) => (vec![64, 100], Some(vec![16000])),
            (P::Natural, S::Nss) => (vec![1024, 4096], Some(vec![4000])),
            (P::Natural, S::Openssl) => (vec![1024, 3024], None),
            (P::Openssl, S::Nss) => (vec![256], Some(vec![1000])),
            (P::Openssl, S::Openssl) => (vec![128, 512], None),
            (_, S::Dirichlet) => (vec![32, 56], None),
        }
    }
}

/// The best point of one combination.
struct Best {
    pga: Pga,
    sieve: SieveKind,
    r: usize,
    l: Option<u64>,
    t: u64,
    ms: f64,
}

/// The grid of one table; a shard measures its share of each point's `count` primes and
/// writes no heatmap.
#[allow(clippy::too_many_arguments)]
fn table(
    bits: u32,
    safe: bool,
    count: usize,
    gamma: Option<f64>,
    out: &std::path::Path,
    shard: &Shard,
    points: &mut String,
    md: &mut String,
) -> Result<(), Box<dyn std::error::Error>> {
    let mut rng = os_rng()?;
    let whole = shard.total == 1;
    #[cfg(feature = "compare")]
    let openssl_ms = match shard.share(count.max(4)) {
        0 => None,
        n => {
            let m = super::pga::measure_openssl(bits, safe, n);
            primekit_cli::files::print_or_exit(&format!("{}\n", m.json));
            writeln!(points, "{}", m.json)?;
            Some(m.mean_ms)
        }
    };
    #[cfg(not(feature = "compare"))]
    let openssl_ms: Option<f64> = None;
    let mut best = Vec::new();
    for pga in Pga::ALL {
        for sieve in SieveKind::ALL {
            let gamma = gamma.unwrap_or_else(|| thesis_gamma(pga, safe));
            let (rs, ls) = grid(pga, sieve, safe, bits, gamma);
            let lv = ls.clone().unwrap_or(vec![2]);
            let mut heat = vec![vec![None; lv.len()]; rs.len()];
            let mut b: Option<Best> = None;
            for (i, &r) in rs.iter().enumerate() {
                for (j, &l) in lv.iter().enumerate() {
                    let cfg = Config { pga, sieve, safe, bits, r, l, gamma };
                    if Generator::new(&cfg).is_err() {
                        continue; // e.g. m_r too wide for k
                    }
                    let n = shard.share(count);
                    if n == 0 {
                        continue;
                    }
                    eprintln!("k={bits} safe={safe} {}/{} r={r} L={l} ...", pga.name(), sieve.name());
                    let m = measure(&cfg, n, &mut rng)?;
                    primekit_cli::files::print_or_exit(&format!("{}\n", m.json));
                    writeln!(points, "{}", m.json)?;
                    heat[i][j] = Some(m.mean_ms);
                    if b.as_ref().is_none_or(|b| m.mean_ms < b.ms) {
                        let t = m.json["t"].as_u64().unwrap_or(0);
                        let l_used = m.json["L"].as_u64();
                        b = Some(Best { pga, sieve, r, l: ls.as_ref().and(l_used), t, ms: m.mean_ms });
                    }
                }
            }
            let name = format!("heat_{bits}_{}_{}{}.png", pga.name(), sieve.name(), if safe { "_safe" } else { "" });
            let title = format!(
                "{}{} PGA + {} sieve, k = {bits}: mean ms ({count} per cell)",
                if safe { "safe " } else { "" },
                pga.name(),
                sieve.name()
            );
            let ys: Vec<u64> = if ls.is_some() { lv.clone() } else { vec![0] };
            let rs64: Vec<u64> = rs.iter().map(|&r| r as u64).collect();
            if whole {
                plot::heatmap(&out.join(&name), &title, &rs64, &ys, if ls.is_some() { "L" } else { "L (unused)" }, &heat)?;
            }
            best.extend(b);
        }
    }
    let label = if safe { "Table 5.2 (safe primes)" } else { "Table 5.1 (primes)" };
    let gamma_text = gamma.map_or("as in the thesis (128; 100 for the safe OpenSSL PGA)".to_string(), |g| format!("= {g}"));
    writeln!(md, "\n## {label}, k = {bits}, γ {gamma_text}, {count} per grid point\n")?;
    let os = openssl_ms.map_or("n/a (build with --features compare)".to_string(), |v| format!("{v:.2}"));
    writeln!(md, "OpenSSL `BN_generate_prime_ex2` in the same run: {os} ms.\n")?;
    writeln!(md, "| PGA | sieve | best r | best L | t | min mean (ms) | / OpenSSL | thesis k=1024 (ms) | thesis / its OpenSSL |")?;
    writeln!(md, "|---|---|---|---|---|---|---|---|---|")?;
    for b in &best {
        let ratio = openssl_ms.map_or("–".into(), |o| format!("{:.2}", b.ms / o));
        let th = thesis_ms(b.pga, b.sieve, safe);
        let th_ratio = if safe { "–".to_string() } else { format!("{:.2}", th / THESIS_OPENSSL_MS) };
        let l = b.l.map_or("–".into(), |l| l.to_string());
        writeln!(md, "| {} | {} | {} | {l} | {} | {:.2} | {ratio} | {th} | {th_ratio} |", b.pga.name(), b.sieve.name(), b.r, b.t, b.ms)?;
    }
    if let Some(f) = best.iter().min_by(|a, b| a.ms.total_cmp(&b.ms)) {
        let second = best.iter().filter(|b| !(b.pga == f.pga && b.sieve == f.sieve)).map(|b| b.ms).fold(f64::INFINITY, f64::min);
        write!(
            md,
            "\nFastest: {} PGA + {} sieve, {:.2} ms ({:.0}% ahead of the runner-up",
            f.pga.name(),
            f.sieve.name(),
            f.ms,
            (second / f.ms - 1.0) * 100.0
        )?;
        match openssl_ms {
            Some(o) => writeln!(md, "; {:.2}× OpenSSL's time).", f.ms / o)?,
            None => writeln!(md, ").")?,
        }
    }
    Ok(())
}

pub fn run(a: Args) -> ExitCode {
    let result = (|| -> Result<(), Box<dyn std::error::Error>> {
        if a.count == 0 {
            return Err("--count must be positive".into());
        }
        let _ = a.jobs;
        let whole = a.shard.total == 1;
        if whole {
            std::fs::create_dir_all(&a.out)?;
        }
        let mut md = String::from("# Dobrosavljević 2021, Tables 5.1/5.2 reproduced (`primekit-lab bench pga-tables`)\n\n");
        writeln!(
            md,
            "Command: `primekit-lab bench pga-tables --bits {:?} --count {} --safe-bits {:?} --safe-count {}{}`.",
            a.bits,
            a.count,
            a.safe_bits,
            a.safe_count,
            a.gamma.map(|g| format!(" --gamma {g}")).unwrap_or_default()
        )?;
        writeln!(md, "Minimal mean runtime over a small (r, L) grid per combination; t and U derived per point (eq. 3.1–3.13). Thesis figures: AMD EPYC 7742, k = 1024, 64 × 8,192 calls per point; compare ratios, not milliseconds. Heatmaps: `heat_<k>_<pga>_<sieve>[_safe].png`.")?;
        let mut points = String::new();
        for &bits in &a.bits {
            table(bits, false, a.count, a.gamma, &a.out, &a.shard, &mut points, &mut md)?;
        }
        if a.safe_count > 0 {
            for &bits in &a.safe_bits {
                table(bits, true, a.safe_count, a.gamma, &a.out, &a.shard, &mut points, &mut md)?;
            }
        }
        if whole {
            crate::files::replace(&a.out.join("tables.md"), md.as_bytes())?;
            crate::files::replace(&a.out.join("points.jsonl"), points.as_bytes())?;
            eprintln!("wrote {}", a.out.join("tables.md").display());
        }
        Ok(())
    })();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("primekit-lab bench pga-tables: {e}");
            ExitCode::from(2)
        }
    }
}
