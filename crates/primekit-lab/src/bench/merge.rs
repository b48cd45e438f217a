//! `primekit-lab bench merge FILE...`: combines the JSON lines of sharded `bench suite`,
//! `bench adversarial`, `bench dist` and `bench pga-tables` runs (`--shard i/n`) into the
//! records one unsharded run would print: counts, totals and histograms are summed, means
//! recomputed from the totals, "overall" rebuilt from the merged parts, cost lines averaged
//! weighted by count, distribution histograms re-judged from their summed counts, grid
//! points' means weighted by their counts (a median cannot be merged: it is dropped).
//! Lines of different kernels (`kernel`, the arithmetic each shard ran on) are never
//! combined.

use super::suite;
use clap::Args as ClapArgs;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::io::Read;
use std::process::ExitCode;

#[derive(ClapArgs)]
pub struct Args {
    /// JSON-lines files from the shards (standard input if none).
    files: Vec<std::path::PathBuf>,
}

fn num(v: &Value, k: &str) -> f64 {
    v[k].as_f64().unwrap_or(0.0)
}

/// Merged records from every shard's records.
pub fn merge(records: &[Value]) -> Vec<Value> {
    let mut suite_parts: BTreeMap<String, Value> = BTreeMap::new();
    let mut costs: BTreeMap<(String, u64), (Value, f64)> = BTreeMap::new();
    let mut adv: BTreeMap<String, Value> = BTreeMap::new();
    let mut dists: BTreeMap<String, Value> = BTreeMap::new();
    let mut points: BTreeMap<String, Value> = BTreeMap::new();
    for v in records {
        match v["op"].as_str() {
            Some("suite") if v["part"] != "overall" => {
                let key = format!("{}|{}|{}|{:08}|{}", v["kernel"], v["test"], v["bits"], v["r"].as_u64().unwrap_or(0), v["part"]);
                let e = suite_parts.entry(key).or_insert_with(|| {
                    let mut z = v.clone();
                    z["count"] = json!(0);
                    z["total_ms"] = json!(0.0);
                    z["declared_prime"] = json!(0);
                    z
                });
                e["count"] = json!(e["count"].as_u64().unwrap_or(0) + v["count"].as_u64().unwrap_or(0));
                e["total_ms"] = json!(num(e, "total_ms") + num(v, "total_ms"));
                e["declared_prime"] = json!(e["declared_prime"].as_u64().unwrap_or(0) + v["declared_prime"].as_u64().unwrap_or(0));
                e["mean_ms"] = json!(num(e, "total_ms") / e["count"].as_u64().unwrap_or(1).max(1) as f64);
            }
            Some("cost") => {
                let bits = v["bits"].as_u64().unwrap_or(0);
                let w = num(v, "count");
                let e = costs.entry((v["kernel"].to_string(), bits)).or_insert_with(|| {
                    let mut z = json!({"op": "cost", "engine": v.get("engine").cloned().unwrap_or(json!("primekit")), "bits": bits, "count": 0, "c_mr_ms": 0.0, "c_td_ms": 0.0, "c_lucas_ms": 0.0, "mean_ms": 0.0, "td_primes": v["td_primes"]});
                    if let Some(k) = v.get("kernel") {
                        z["kernel"] = k.clone();
                    }
                    (z, 0.0)
                });
                for k in ["c_mr_ms", "c_td_ms", "c_lucas_ms", "mean_ms"] {
                    e.0[k] = json!((num(&e.0, k) * e.1 + num(v, k) * w) / (e.1 + w).max(1e-300));
                }
                e.1 += w;
                e.0["count"] = json!(e.1 as u64);
            }
            Some("adversarial") => {
                let summary = v.get("misclassified").is_some();
                let key = format!(
                    "{}|{}|{}|{}",
                    v["kernel"],
                    v["test"],
                    v["bits"],
                    if summary { "summary".into() } else { format!("{:04}", v["rounds"].as_u64().unwrap_or(0)) }
                );
                match adv.get_mut(&key) {
                    None => {
                        adv.insert(key, v.clone());
                    }
                    Some(e) => {
                        for k in ["inputs", "count", "misclassified"] {
                            if e.get(k).is_some() {
                                e[k] = json!(e[k].as_u64().unwrap_or(0) + v[k].as_u64().unwrap_or(0));
                            }
                        }
                        for k in ["expected", "total_ms"] {
                            if e.get(k).is_some() {
                                e[k] = json!(num(e, k) + num(v, k));
                            }
                        }
                        if summary {
                            e["mean_ms"] = json!(num(e, "total_ms") / num(e, "count").max(1.0));
                        }
                    }
                }
            }
            Some("dist") => {
                let key = ["kernel", "pga", "sieve", "safe", "bits", "r", "L", "gamma", "seed", "total_count"]
                    .map(|k| v[k].to_string())
                    .join("|");
                match dists.get_mut(&key) {
                    None => {
                        dists.insert(key, start_dist(v));
                    }
                    Some(e) => add_dist(e, v),
                }
            }
            Some("pga") => {
                let key =
                    ["kernel", "engine", "pga", "sieve", "safe", "bits", "r", "L", "gamma", "t", "U"].map(|k| v[k].to_string()).join("|");
                match points.get_mut(&key) {
                    None => {
                        let mut z = v.clone();
                        if let Some(o) = z.as_object_mut() {
                            o.remove("median_ms");
                        }
                        points.insert(key, z);
                    }
                    Some(e) => add_point(e, v),
                }
            }
            _ => {}
        }
    }
    let mut out: Vec<Value> = costs.into_values().map(|c| c.0).collect();
    let parts: Vec<Value> = suite_parts.into_values().collect();
    for c in parts.iter().filter(|v| v["part"] == "composite") {
        out.push(c.clone());
        if let Some(p) = parts.iter().find(|p| {
            p["part"] == "prime" && p["kernel"] == c["kernel"] && p["test"] == c["test"] && p["bits"] == c["bits"] && p["r"] == c["r"]
        }) {
            out.push(p.clone());
            out.push(suite::overall(c, p));
        }
    }
    out.extend(adv.into_values());
    out.extend(dists.into_values().map(judge_dist));
    out.extend(points.into_values());
    out
}

/// Sets `obj[key] = x` when `obj` is a JSON object (a malformed record is left alone).
fn set(obj: Option<&mut Value>, key: &str, x: Value) {
    if let Some(o) = obj.and_then(Value::as_object_mut) {
        o.insert(key.into(), x);
    }
}

/// Bin-wise sum of two count arrays; `Null` when they are not arrays of equal length.
fn sum_counts(a: &Value, b: &Value) -> Value {
    match (a.as_array(), b.as_array()) {
        (Some(a), Some(b)) if a.len() == b.len() => {
            json!(a.iter().zip(b).map(|(x, y)| x.as_u64().unwrap_or(0) + y.as_u64().unwrap_or(0)).collect::<Vec<_>>())
        }
        _ => Value::Null,
    }
}

/// A new merged distribution record from its first shard: the shard it came from is
/// remembered, so that a shard given twice or a missing one is reported, not summed.
fn start_dist(v: &Value) -> Value {
    let mut z = v.clone();
    let shard = v["shard"].clone();
    set(Some(&mut z), "shards_seen", json!([shard]));
    z
}

/// Adds the histograms of `v` (same check, another shard) into `e`.
fn add_dist(e: &mut Value, v: &Value) {
    let count = e["count"].as_u64().unwrap_or(0) + v["count"].as_u64().unwrap_or(0);
    set(Some(e), "count", json!(count));
    let msb = sum_counts(&e["msb"]["counts"], &v["msb"]["counts"]);
    set(e.get_mut("msb"), "counts", msb);
    let theirs = v["residues"].as_array().cloned().unwrap_or_default();
    if let Some(ours) = e.get_mut("residues").and_then(Value::as_array_mut) {
        let same_p = ours.len() == theirs.len() && ours.iter().zip(&theirs).all(|(a, b)| a["p"] == b["p"]);
        for (k, a) in ours.iter_mut().enumerate() {
            let c = if same_p { sum_counts(&a["counts"], &theirs[k]["counts"]) } else { Value::Null };
            set(Some(a), "counts", c);
        }
    }
    if let Some(seen) = e.get_mut("shards_seen").and_then(Value::as_array_mut) {
        seen.push(v["shard"].clone());
    }
    if let Some(o) = e.as_object_mut() {
        o.remove("plot");
    }
}

/// Whether the shards seen are exactly 0/n .. n-1/n once each (records without a shard
/// field, from unsharded runs, pass when alone).
fn shards_complete(seen: &[Value]) -> Result<(), String> {
    if seen.len() == 1 && seen[0].is_null() {
        return Ok(());
    }
    let parsed: Option<Vec<(usize, usize)>> = seen
        .iter()
        .map(|s| {
            let (i, n) = s.as_str()?.split_once('/')?;
            Some((i.parse().ok()?, n.parse().ok()?))
        })
        .collect();
    let Some(mut p) = parsed else { return Err("a record without its shard (i/n) cannot be merged with others".into()) };
    p.sort();
    let n = p[0].1;
    if p.iter().enumerate().all(|(k, &(i, m))| i == k && m == n) && p.len() == n {
        Ok(())
    } else {
        Err(format!("shards seen {:?} are not each of 0..{n} of {n} once", p.iter().map(|(i, n)| format!("{i}/{n}")).collect::<Vec<_>>()))
    }
}

/// Recomputes a merged distribution record's fits from its summed counts; a record whose
/// MSB histogram has no counts (written before they were recorded) is left as it is.
fn judge_dist(mut v: Value) -> Value {
    use primekit_research::pga::distribution::Fit;
    let seen = v.as_object_mut().and_then(|o| o.remove("shards_seen")).and_then(|s| s.as_array().cloned()).unwrap_or_default();
    if v["msb"].get("counts").is_none() && seen.len() <= 1 {
        return v;
    }
    if let Err(e) = shards_complete(&seen) {
        set(Some(&mut v), "error", json!(e));
    }
    let counts = |x: &Value| -> Option<Vec<u64>> { x.as_array().filter(|a| !a.is_empty())?.iter().map(Value::as_u64).collect() };
    let msb = match counts(&v["msb"]["counts"]) {
        Some(c) => crate::cmd_dist::msb_json(&Fit::from_counts((0xC0..0xC0 + c.len() as u32).collect(), c)),
        None => json!({"error": "shards with different MSB bins, or without counts, cannot be merged"}),
    };
    set(Some(&mut v), "msb", msb);
    if let Some(res) = v.get_mut("residues").and_then(Value::as_array_mut) {
        for r in res.iter_mut() {
            let labels: Option<Vec<u32>> = r["classes"].as_array().and_then(|a| a.iter().map(|x| x.as_u64().map(|x| x as u32)).collect());
            match (labels, counts(&r["counts"]), r["p"].as_u64()) {
                (Some(l), Some(c), Some(p)) if l.len() == c.len() => *r = crate::cmd_dist::residue_json(p as u32, &Fit::from_counts(l, c)),
                _ => *r = json!({"p": r["p"].clone(), "error": "residue counts cannot be merged"}),
            }
        }
    }
    v
}

/// Adds grid point `v` (same point, another shard) into `e`: count-weighted means.
fn add_point(e: &mut Value, v: &Value) {
    let (ce, cv) = (num(e, "count"), num(v, "count"));
    for k in ["mean_ms", "mean_candidates", "mean_rounds", "cpu_mean_ms"] {
        if e.get(k).is_some() {
            e[k] = json!((num(e, k) * ce + num(v, k) * cv) / (ce + cv).max(1.0));
        }
    }
    if e.get("min_ms").is_some() {
        e["min_ms"] = json!(num(e, "min_ms").min(num(v, "min_ms")));
    }
    if e.get("max_ms").is_some() {
        e["max_ms"] = json!(num(e, "max_ms").max(num(v, "max_ms")));
    }
    e["count"] = json!((ce + cv) as u64);
}

pub fn run(a: Args) -> ExitCode {
    let mut text = String::new();
    if a.files.is_empty() {
        if let Err(e) = std::io::stdin().read_to_string(&mut text) {
            eprintln!("primekit-lab bench merge: reading standard input: {e}");
            return ExitCode::FAILURE;
        }
    }
    for f in &a.files {
        match std::fs::read_to_string(f) {
            Ok(t) => text += &t,
            Err(e) => {
                eprintln!("primekit-lab bench merge: {}: {e}", f.display());
                return ExitCode::FAILURE;
            }
        }
    }
    let records: Vec<Value> = text.lines().filter_map(|l| serde_json::from_str(l).ok()).collect();
    let merged = merge(&records);
    for r in &merged {
        primekit_cli::outln!("bench merge", "{r}");
    }
    if merged.iter().any(|v| v["op"] == "suite") {
        eprintln!("{}", suite::markdown(&merged));
    }
    if merged.iter().any(|v| v["op"] == "adversarial") {
        eprintln!("{}", super::adversarial::markdown(&merged));
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(part: &str, count: u64, total: f64) -> Value {
        json!({"op": "suite", "engine": "primekit", "test": "mr64", "bits": 1024, "r": 128, "r_used": 130, "part": part, "count": count, "total_ms": total, "mean_ms": total / count as f64, "declared_prime": 0})
    }

    #[test]
    fn shards_sum_to_one_run() {
        let recs = vec![
            part("composite", 100, 50.0),
            part("prime", 2, 40.0),
            part("composite", 300, 90.0),
            part("prime", 6, 120.0),
            json!({"op": "adversarial", "test": "mrac", "bits": 1024, "rounds": 1, "inputs": 7}),
            json!({"op": "adversarial", "test": "mrac", "bits": 1024, "rounds": 1, "inputs": 5}),
            json!({"op": "adversarial", "test": "mrac", "bits": 1024, "count": 12, "misclassified": 1, "expected": 0.5, "total_ms": 6.0, "mean_ms": 0.5}),
            json!({"op": "adversarial", "test": "mrac", "bits": 1024, "count": 8, "misclassified": 0, "expected": 0.25, "total_ms": 2.0, "mean_ms": 0.25}),
        ];
        let m = merge(&recs);
        let find = |p: &str| m.iter().find(|v| v["op"] == "suite" && v["part"] == p).unwrap().clone();
        assert_eq!(find("composite")["count"], 400);
        assert!((find("composite")["mean_ms"].as_f64().unwrap() - 140.0 / 400.0).abs() < 1e-12);
        assert!((find("prime")["mean_ms"].as_f64().unwrap() - 20.0).abs() < 1e-12);
        let q = primekit_research::cost_model::prime_density(1024);
        assert!((find("overall")["mean_ms"].as_f64().unwrap() - ((1.0 - q) * 0.35 + q * 20.0)).abs() < 1e-12);
        let hist = m.iter().find(|v| v["rounds"] == 1).unwrap();
        assert_eq!(hist["inputs"], 12);
        let s = m.iter().find(|v| v.get("misclassified").is_some()).unwrap();
        assert_eq!((s["count"].as_u64(), s["misclassified"].as_u64(), s["expected"].as_f64()), (Some(20), Some(1), Some(0.75)));
    }

    /// Two shards of a distribution check sum to the one-run histogram, re-judged; two
    /// shards of a grid point average by count.
    #[test]
    fn dist_and_grid_points_merge() {
        use primekit_research::pga::distribution::Fit;
        let labels: Vec<u32> = (0xC0..=0xFF).collect();
        let a: Vec<u64> = (0..64).map(|i| 10 + i % 3).collect();
        let b: Vec<u64> = (0..64).map(|i| 12 + i % 5).collect();
        let rec = |c: &[u64], r: &[u64]| {
            json!({"op": "dist", "pga": "nss", "sieve": "nss", "safe": false, "bits": 512, "r": 64, "L": 100, "count": c.iter().sum::<u64>(),
                   "msb": crate::cmd_dist::msb_json(&Fit::from_counts(labels.clone(), c.to_vec())),
                   "residues": [crate::cmd_dist::residue_json(3, &Fit::from_counts(vec![1, 2], r.to_vec()))], "plot": "x.png"})
        };
        let shard = |mut r: Value, s: &str| {
            r["shard"] = json!(s);
            r
        };
        let m = merge(&[shard(rec(&a, &[5, 7]), "0/2"), shard(rec(&b, &[6, 4]), "1/2")]);
        assert_eq!(m.len(), 1);
        assert!(m[0].get("error").is_none(), "{}", m[0]);
        let sum: Vec<u64> = a.iter().zip(&b).map(|(x, y)| x + y).collect();
        let want = Fit::from_counts(labels.clone(), sum.clone());
        assert_eq!(m[0]["count"], json!(sum.iter().sum::<u64>()));
        assert_eq!(m[0]["msb"]["counts"], json!(sum));
        assert_eq!(m[0]["msb"]["chi2"], json!(want.chi2));
        assert_eq!(m[0]["residues"][0]["counts"], json!([11, 11]));
        assert_eq!(m[0]["residues"][0]["chi2"], json!(0.0));
        assert!(m[0].get("plot").is_none());
        // The same shard twice, or one missing, is reported rather than summed silently.
        let twice = merge(&[shard(rec(&a, &[5, 7]), "0/2"), shard(rec(&a, &[5, 7]), "0/2")]);
        assert!(twice[0]["error"].as_str().is_some_and(|e| e.contains("0/2")), "{}", twice[0]);
        let missing = merge(&[shard(rec(&a, &[5, 7]), "0/3"), shard(rec(&b, &[6, 4]), "1/3")]);
        assert!(missing[0].get("error").is_some());
        // An older record without counts passes through untouched; malformed ones do not panic.
        let old = json!({"op": "dist", "pga": "nss", "msb": {"chi2": 1.0, "p_value": 0.5}, "residues": []});
        assert_eq!(merge(std::slice::from_ref(&old))[0], old);
        let bad = json!({"op": "dist", "pga": "nss", "msb": 7, "residues": [3, "x"], "count": "many"});
        let _ = merge(&[bad.clone(), bad]);
        let empty = json!({"op": "dist", "pga": "x", "msb": {"counts": []}, "residues": [{"p": 3, "classes": [], "counts": []}]});
        let _ = merge(&[empty.clone(), empty]);
        let point = |count: u64, mean: f64| {
            json!({"op": "pga", "engine": "primekit", "pga": "nss", "sieve": "nss", "safe": false, "bits": 1024, "r": 64, "L": 100, "t": 7, "U": 4,
                   "count": count, "mean_ms": mean, "median_ms": mean, "min_ms": mean / 2.0, "max_ms": mean * 2.0})
        };
        let m = merge(&[point(3, 10.0), point(1, 30.0)]);
        assert_eq!(m.len(), 1);
        assert_eq!((m[0]["count"].as_u64(), m[0]["mean_ms"].as_f64()), (Some(4), Some(15.0)));
        assert_eq!((m[0]["min_ms"].as_f64(), m[0]["max_ms"].as_f64()), (Some(5.0), Some(60.0)));
        assert!(m[0].get("median_ms").is_none());
        // Different points stay apart.
        let mut other = point(1, 30.0);
        other["r"] = json!(128);
        assert_eq!(merge(&[point(3, 10.0), other]).len(), 2);
    }

    #[test]
    fn kernels_stay_apart() {
        let on = |kernel: &str, mut v: Value| {
            v["kernel"] = json!(kernel);
            v
        };
        let cost = |kernel: &str, c_mr: f64| json!({"op": "cost", "engine": "primekit", "kernel": kernel, "bits": 1024, "count": 10, "c_mr_ms": c_mr, "td_primes": 64});
        let recs = vec![
            on("adx", part("composite", 100, 50.0)),
            on("adx", part("prime", 2, 40.0)),
            on("portable", part("composite", 300, 90.0)),
            on("portable", part("prime", 6, 120.0)),
            cost("adx", 1.0),
            cost("portable", 3.0),
        ];
        let m = merge(&recs);
        // A cost line keeps its engine (OpenSSL's arithmetic is not primekit's).
        let mut o = cost("openssl", 2.0);
        o["engine"] = json!("openssl");
        assert_eq!(merge(&[o])[0]["engine"], "openssl");
        for (kernel, count, c_mr) in [("adx", 100, 1.0), ("portable", 300, 3.0)] {
            let of = |op: &str, p: &str| {
                m.iter().find(|v| v["op"] == op && v["kernel"] == kernel && (p.is_empty() || v["part"] == p)).unwrap().clone()
            };
            assert_eq!(of("suite", "composite")["count"], count);
            assert_eq!(of("suite", "overall")["kernel"], kernel);
            assert_eq!(of("cost", "")["c_mr_ms"], c_mr);
            assert_eq!(of("cost", "")["engine"], "primekit");
        }
        assert_eq!(m.iter().filter(|v| v["part"] == "overall").count(), 2);
    }
}
