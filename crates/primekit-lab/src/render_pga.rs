//! Markdown for the committed results of Dobrosavljević 2021 (`primekit-lab render`): the
//! interleaved head-to-head of the nine PGA × sieve combinations, the best grid point of
//! each (Tables 5.1/5.2) and the distribution checks (§5.2, Fig. 5.22).

use crate::bench::timing::median;
use serde_json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;

fn combo(v: &Value) -> String {
    format!("{} + {}", v["pga"].as_str().unwrap_or("?"), v["sieve"].as_str().unwrap_or("?"))
}

/// One arm of the interleaved runs: its per-run means, t and primes per run.
#[derive(Default)]
struct Arm {
    runs: Vec<f64>,
    t: Option<u64>,
    count: u64,
}

/// `bench pga` runs (several per arm): per size, every combination ranked by the median
/// over runs of its per-run mean, beside OpenSSL's generator measured in the same runs.
pub fn interleaved(recs: &[Value]) -> String {
    let mut arms: BTreeMap<(u64, bool), BTreeMap<String, Arm>> = BTreeMap::new();
    for v in recs.iter().filter(|v| v["op"] == "pga") {
        let (Some(bits), Some(ms)) = (v["bits"].as_u64(), v["mean_ms"].as_f64()) else { continue };
        let name = if v["engine"] == "openssl" { "OpenSSL BN_generate_prime_ex2".to_string() } else { combo(v) };
        let e = arms.entry((bits, v["safe"].as_bool().unwrap_or(false))).or_default().entry(name).or_default();
        e.runs.push(ms);
        e.t = v["t"].as_u64();
        e.count = v["count"].as_u64().unwrap_or(0);
    }
    let mut s = String::from(
        "| k | safe | PGA + sieve | t | primes × runs | median of run means | range | / OpenSSL |\n|---|---|---|---|---|---|---|---|\n",
    );
    for ((bits, safe), m) in &arms {
        let openssl = m.iter().find(|(k, _)| k.starts_with("OpenSSL")).map(|(_, v)| median(v.runs.clone()));
        let mut rows: Vec<(&String, f64, &Arm)> = m.iter().map(|(k, v)| (k, median(v.runs.clone()), v)).collect();
        rows.sort_by(|a, b| a.1.total_cmp(&b.1));
        for (name, med, Arm { runs, t, count }) in rows {
            let (lo, hi) = runs.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| (a.min(x), b.max(x)));
            let ratio = openssl.map_or("–".into(), |o| format!("{:.2}", med / o));
            let _ = writeln!(
                s,
                "| {bits} | {} | {name} | {} | {count} × {} | {med:.1} ms | {lo:.1}–{hi:.1} | {ratio} |",
                if *safe { "yes" } else { "no" },
                t.map_or("–".into(), |t| t.to_string()),
                runs.len()
            );
        }
    }
    s
}

/// The thesis's minimal runtime of a combination at k = 1024 (Tables 5.1/5.2) and its
/// rank among the nine, from the record's `pga` and `sieve` names.
fn thesis(v: &Value, safe: bool) -> Option<(f64, usize)> {
    use crate::bench::pga_tables::thesis_ms;
    use primekit_research::pga::{Pga, SieveKind};
    let (pga, sieve) = (Pga::parse(v["pga"].as_str()?).ok()?, SieveKind::parse(v["sieve"].as_str()?).ok()?);
    let ms = thesis_ms(pga, sieve, safe);
    let rank = 1 + Pga::ALL.iter().flat_map(|&p| SieveKind::ALL.map(|s| thesis_ms(p, s, safe))).filter(|&x| x < ms).count();
    Some((ms, rank))
}

/// Each combination's best (lowest) mean at (`bits`, `safe`) from `bench pga-tables`
/// points, as ("pga + sieve", ms, thesis ms), fastest first.
pub fn best_means(recs: &[Value], bits: u64, safe: bool) -> Vec<(String, f64, f64)> {
    let mut best: BTreeMap<String, (f64, f64)> = BTreeMap::new();
    for v in recs.iter().filter(|v| v["op"] == "pga" && v["engine"] == "primekit" && v["bits"] == bits && v["safe"] == safe) {
        let (Some(ms), Some((th, _))) = (v["mean_ms"].as_f64(), thesis(v, safe)) else { continue };
        let e = best.entry(combo(v)).or_insert((f64::INFINITY, th));
        e.0 = e.0.min(ms);
    }
    let mut out: Vec<(String, f64, f64)> = best.into_iter().map(|(k, (ms, th))| (k, ms, th)).collect();
    out.sort_by(|a, b| a.1.total_cmp(&b.1));
    out
}

/// Ranks 1..=n of `x` (ties share their average rank).
fn ranks(x: &[f64]) -> Vec<f64> {
    x.iter()
        .map(|&a| {
            let below = x.iter().filter(|&&b| b < a).count() as f64;
            let equal = x.iter().filter(|&&b| b == a).count() as f64;
            below + (equal + 1.0) / 2.0
        })
        .collect()
}

/// Spearman's rank correlation of two equally long samples (Pearson's on their ranks).
pub fn spearman(x: &[f64], y: &[f64]) -> f64 {
    let (rx, ry) = (ranks(x), ranks(y));
    let n = rx.len() as f64;
    let (mx, my) = (rx.iter().sum::<f64>() / n, ry.iter().sum::<f64>() / n);
    let cov: f64 = rx.iter().zip(&ry).map(|(a, b)| (a - mx) * (b - my)).sum();
    let vx: f64 = rx.iter().map(|a| (a - mx).powi(2)).sum();
    let vy: f64 = ry.iter().map(|b| (b - my).powi(2)).sum();
    cov / (vx * vy).sqrt()
}

/// `bench pga-tables` grid points: per size, the best (lowest mean) point of each
/// combination, ranked, beside OpenSSL's generator from the same run and the thesis's
/// figure and rank at k = 1024.
pub fn best_points(recs: &[Value]) -> String {
    let mut best: BTreeMap<(u64, bool), BTreeMap<String, &Value>> = BTreeMap::new();
    let mut openssl: BTreeMap<(u64, bool), f64> = BTreeMap::new();
    for v in recs.iter().filter(|v| v["op"] == "pga") {
        let (Some(bits), Some(ms)) = (v["bits"].as_u64(), v["mean_ms"].as_f64()) else { continue };
        let key = (bits, v["safe"].as_bool().unwrap_or(false));
        if v["engine"] == "openssl" {
            openssl.insert(key, ms);
            continue;
        }
        let e = best.entry(key).or_default().entry(combo(v)).or_insert(v);
        if ms < e["mean_ms"].as_f64().unwrap_or(f64::INFINITY) {
            *e = v;
        }
    }
    let mut s = String::from(
        "| k | safe | rank | PGA + sieve | best r | best L | t | per point | mean ms | / OpenSSL | thesis, k = 1024: ms (rank) |\n|---|---|---|---|---|---|---|---|---|---|---|\n",
    );
    for (key, m) in &best {
        let mut rows: Vec<(&String, &&Value)> = m.iter().collect();
        rows.sort_by(|a, b| a.1["mean_ms"].as_f64().unwrap_or(f64::NAN).total_cmp(&b.1["mean_ms"].as_f64().unwrap_or(f64::NAN)));
        for (rank, (name, v)) in rows.into_iter().enumerate() {
            let ms = v["mean_ms"].as_f64().unwrap_or(f64::NAN);
            let ratio = openssl.get(key).map_or("–".into(), |o| format!("{:.2}", ms / o));
            // L is a parameter of the NSS PGA and the NSS sieve only.
            let l = if v["pga"] == "nss" || v["sieve"] == "nss" {
                v["L"].as_u64().map_or("–".into(), |l| l.to_string())
            } else {
                "–".into()
            };
            let th = thesis(v, key.1).map_or("–".into(), |(ms, r)| format!("{ms} ({r})"));
            let ms = if ms < 100.0 { format!("{ms:.1}") } else { format!("{ms:.0}") };
            let _ = writeln!(
                s,
                "| {} | {} | {} | {name} | {} | {l} | {} | {} | {ms} | {ratio} | {th} |",
                key.0,
                if key.1 { "yes" } else { "no" },
                rank + 1,
                v["r"],
                v["t"],
                v["count"]
            );
        }
    }
    for ((bits, safe), o) in &openssl {
        let _ = writeln!(s, "\nOpenSSL `BN_generate_prime_ex2`, k = {bits}{}: {o:.0} ms per prime.", if *safe { ", safe" } else { "" });
    }
    s
}

/// `primekit-lab dist` results: the MSB-byte check and the residue checks per combination.
pub fn distribution(recs: &[Value]) -> String {
    let mut s = String::from("| k | safe | PGA + sieve | primes | MSB bins outside μ ± 1.96√μ (of 64) | MSB χ² (dof) | MSB p | residue p-values mod 3, 5, 7, 11, 13, 17 |\n|---|---|---|---|---|---|---|---|\n");
    for v in recs.iter().filter(|v| v["op"] == "dist") {
        let m = &v["msb"];
        let res: Vec<String> = v["residues"]
            .as_array()
            .map(|a| {
                a.iter()
                    .map(|r| {
                        let p = r["p_value"].as_f64().unwrap_or(f64::NAN);
                        if p < 1e-3 {
                            format!("{p:.1e}")
                        } else {
                            format!("{p:.3}")
                        }
                    })
                    .collect()
            })
            .unwrap_or_default();
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {:.1} ({}) | {:.2} | {} |",
            v["bits"],
            if v["safe"].as_bool().unwrap_or(false) { "yes" } else { "no" },
            combo(v),
            v["count"],
            m["outside"],
            m["chi2"].as_f64().unwrap_or(f64::NAN),
            m["dof"],
            m["p_value"].as_f64().unwrap_or(f64::NAN),
            res.join(", ")
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spearman_on_known_rankings() {
        assert!((spearman(&[1.0, 2.0, 3.0, 4.0], &[10.0, 20.0, 30.0, 40.0]) - 1.0).abs() < 1e-12);
        assert!((spearman(&[1.0, 2.0, 3.0, 4.0], &[4.0, 3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        // Ties share the average rank: ranks (1, 2.5, 2.5, 4) against (1, 2, 3, 4).
        let r = spearman(&[1.0, 2.0, 2.0, 3.0], &[1.0, 2.0, 3.0, 4.0]);
        assert!((r - 4.5 / (4.5f64 * 5.0).sqrt()).abs() < 1e-12, "{r}");
    }
}
