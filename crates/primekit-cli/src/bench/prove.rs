//! `primekit bench prove`: proving given primes prime with a certificate, and checking
//! the certificate, beside PARI/GP (`primecert` then `primecertisvalid`) and FLINT
//! (`fmpz_is_prime` through python-flint: a proof, but no certificate). Every engine
//! gets the same primes, drawn from `--seed`.
//!
//! Times are CPU time, start-up excluded: primekit's thread; PARI's `getabstime()` inside
//! one `gp -q` process per size; Python's `time.process_time()` inside one `python3`
//! process per size. A check too quick for PARI's millisecond clock is repeated until
//! 50 ms have passed, and FLINT's test likewise, and the mean taken. When primekit's
//! certificates have a PARI form ([`to_pari`]), PARI's check of them is timed as well
//! (`verify_ms_pari_on_primekit`). A prime an engine fails on is counted in `failed`
//! (with the first error) instead of stopping the run; an engine missing on the machine
//! gives one line with `skipped` and the reason.

use super::cpu_clock::thread_cpu_ms;
use super::emit;
use super::inputs::random_primes;
use clap::Args as ClapArgs;
use num_bigint::BigUint;
use primekit::certificate::{prove_with, to_json, to_pari, verify, ProveOptions};
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, ExitCode, Stdio};

const ENGINES: [&str; 3] = ["primekit", "pari", "flint"];

#[derive(ClapArgs)]
pub struct Args {
    /// Sizes in bits, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "256,512,1024")]
    bits: Vec<u32>,
    /// Primes per size.
    #[arg(long, default_value_t = 4)]
    count: usize,
    /// Seed of the primes (the same for every engine).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Engines, comma-separated: primekit, pari, flint.
    #[arg(long, value_delimiter = ',', default_value = "primekit,pari,flint")]
    engines: Vec<String>,
    /// primekit proves with elliptic-curve steps only (PARI's shape, so PARI can check
    /// every certificate) instead of using Pocklington steps where N - 1 factors.
    #[arg(long)]
    ecpp_only: bool,
    /// Also write each primekit certificate here as BITS-INDEX.json (for other checkers).
    #[arg(long, value_name = "DIR")]
    certs: Option<PathBuf>,
}

pub fn run(a: Args) -> ExitCode {
    if a.count == 0 || a.bits.iter().any(|b| !(128..=8192).contains(b)) {
        eprintln!("primekit bench prove: --count must be positive and --bits within 128..=8192");
        return ExitCode::from(2);
    }
    if let Some(e) = a.engines.iter().find(|e| !ENGINES.contains(&e.as_str())) {
        eprintln!("primekit bench prove: unknown engine {e:?}: choose from {}", ENGINES.join(", "));
        return ExitCode::from(2);
    }
    let want = |e: &str| a.engines.iter().any(|x| x == e);
    for &bits in &a.bits {
        let primes = random_primes(a.seed ^ (u64::from(bits) << 20), bits, a.count);
        let base = json!({"op": "prove", "bits": bits, "seed": a.seed, "primes": primes.len()});
        let mut exported = Vec::new();
        if want("primekit") {
            let opts = ProveOptions { ecpp_only: a.ecpp_only, ..ProveOptions::default() };
            let certs = a.certs.as_ref().map(|d| (d.as_path(), bits));
            let (line, pari_texts) = primekit_run(&primes, &opts, certs);
            exported = pari_texts;
            emit::line(merge(&base, line));
        }
        if want("pari") {
            emit::line(merge(&base, pari_run(&primes, &exported)));
        }
        if want("flint") {
            emit::line(merge(&base, flint_run(&primes)));
        }
    }
    ExitCode::SUCCESS
}

fn merge(base: &Value, line: Value) -> Value {
    let mut out = base.clone();
    if let (Some(o), Some(l)) = (out.as_object_mut(), line.as_object()) {
        o.extend(l.iter().map(|(k, v)| (k.clone(), v.clone())));
    }
    out
}

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

fn median(v: &[f64]) -> Option<f64> {
    let mut s = v.to_vec();
    s.sort_by(f64::total_cmp);
    s.get(s.len() / 2).copied()
}

/// The fields every engine's line has: `count` is the primes proved, `failed` the rest.
fn summary(
    engine: &str,
    prove_ms: &[f64],
    verify_ms: &[f64],
    cert_bytes: &[f64],
    steps: &[f64],
    failed: usize,
    error: Option<String>,
) -> Value {
    json!({"engine": engine, "count": prove_ms.len(), "failed": failed, "error": error,
        "mean_ms": mean(prove_ms), "median_ms": median(prove_ms), "verify_ms": mean(verify_ms),
        "cert_bytes": mean(cert_bytes), "steps": mean(steps), "time": "CPU"})
}

/// primekit's line, and its certificates' PARI forms (those that have one).
fn primekit_run(primes: &[BigUint], opts: &ProveOptions, certs: Option<(&std::path::Path, u32)>) -> (Value, Vec<String>) {
    let (mut prove_ms, mut verify_ms, mut bytes, mut steps) = (vec![], vec![], vec![], vec![]);
    let (mut failed_ms, mut error, mut pari) = (vec![], None, vec![]);
    // The primes without a certificate, so that a failure can be rerun alone.
    let mut failed_primes: Vec<String> = vec![];
    for (i, p) in primes.iter().enumerate() {
        let t = thread_cpu_ms();
        let cert = prove_with(p, opts);
        let dt = thread_cpu_ms() - t;
        let cert = match cert {
            Ok(c) => c,
            Err(e) => {
                failed_ms.push(dt);
                failed_primes.push(format!("{p:#x}"));
                error.get_or_insert_with(|| e.to_string());
                continue;
            }
        };
        let t = thread_cpu_ms();
        let ok = verify(&cert, Some(p)).is_ok();
        let dv = thread_cpu_ms() - t;
        if !ok {
            failed_ms.push(dt);
            failed_primes.push(format!("{p:#x}"));
            error.get_or_insert_with(|| "a certificate from prove did not verify".into());
            continue;
        }
        prove_ms.push(dt);
        verify_ms.push(dv);
        let text = to_json(&cert);
        if let Some((dir, bits)) = certs {
            if let Err(e) = std::fs::write(dir.join(format!("{bits}-{i}.json")), &text) {
                error.get_or_insert_with(|| format!("cannot write a certificate to {}: {e}", dir.display()));
            }
        }
        bytes.push(text.len() as f64);
        steps.push(cert.steps.len() as f64);
        if let Ok(text) = to_pari(&cert) {
            pari.push(text);
        }
    }
    let mut line = summary("primekit", &prove_ms, &verify_ms, &bytes, &steps, failed_ms.len(), error);
    // How long a failure took to give up.
    line["failed_mean_ms"] = json!(mean(&failed_ms));
    line["failed_primes"] = json!(failed_primes);
    line["cert_format"] = json!("primekit JSON");
    line["ecpp_only"] = json!(opts.ecpp_only);
    line["pari_exportable"] = json!(pari.len());
    (line, pari)
}

fn skipped(engine: &str, reason: String) -> Value {
    json!({"engine": engine, "kernel": engine, "count": 0, "mean_ms": null, "skipped": reason})
}

/// Runs `program args` with `input` on stdin; its stdout, or why not.
fn run_with_input(program: &str, args: &[&str], input: String) -> Result<String, String> {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{program} not found: {e}"))?;
    let mut stdin = child.stdin.take().expect("piped stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let out = child.wait_with_output().map_err(|e| format!("{program}: {e}"))?;
    let _ = writer.join();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() || stderr.contains("at top-level") {
        let why = stderr.lines().chain(stdout.lines()).find(|l| !l.contains("Warning")).unwrap_or("").trim();
        return Err(format!("{program} exited with {}: {why}", out.status));
    }
    Ok(stdout)
}

/// Parses "TAG v1 v2 ..." lines with the given tag into their numbers.
fn tagged_rows(out: &str, tag: &str) -> Vec<Vec<f64>> {
    out.lines().filter_map(|l| l.strip_prefix(tag)).map(|rest| rest.split_whitespace().filter_map(|v| v.parse().ok()).collect()).collect()
}

fn version(program: &str, args: &[&str]) -> Option<String> {
    let out = Command::new(program).args(args).output().ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// GP statements timing `primecertisvalid(c)` (with `tv = 0` before): repeated until 50 ms
/// have passed, the mean in `tv / n`, every verdict and-ed into `ok`. `getabstime()`, not
/// `gettime()`: the latter restarts its clock at every call and drops the part below a
/// millisecond, so a sub-millisecond check would read 0 forever.
const GP_TIME_CHECK: &str =
    "n = 0; ok = 1; t0 = getabstime(); until(tv >= 50, ok = primecertisvalid(c) && ok; n++; tv = getabstime() - t0)";

fn pari_run(primes: &[BigUint], ours: &[String]) -> Value {
    let Some(v) = version("gp", &["--version-short"]) else {
        return skipped("pari", "gp not found (install pari-gp)".into());
    };
    let list = |v: &[String]| format!("[{}]", v.join(", "));
    let script = format!(
        "default(parisizemax, 2^31);\n\
         P = {};\n\
         for(i = 1, #P, t0 = getabstime(); c = primecert(P[i]); tp = getabstime() - t0; tv = 0; if(c == 0, print(\"E \", i), \
           {GP_TIME_CHECK}; printf(\"R %d %.4f %d %d %d\\n\", tp, tv / n, ok, #Str(c), #c)));\n\
         K = {};\n\
         for(i = 1, #K, c = K[i]; tv = 0; {GP_TIME_CHECK}; printf(\"K %.4f %d\\n\", tv / n, ok));\n\
         quit\n",
        list(&primes.iter().map(BigUint::to_string).collect::<Vec<_>>()),
        list(ours),
    );
    let out = match run_with_input("gp", &["-q", "-f"], script) {
        Ok(o) => o,
        Err(e) => return skipped("pari", e),
    };
    let rows = tagged_rows(&out, "R ");
    let col = |i: usize| rows.iter().filter(|r| r.len() == 5 && r[2] == 1.0).map(|r| r[i]).collect::<Vec<f64>>();
    let failed = primes.len() - col(0).len();
    let error = (failed > 0).then(|| format!("{failed} primes without a certificate PARI accepts"));
    let mut line = summary("pari", &col(0), &col(1), &col(3), &col(4), failed, error);
    let on_ours = tagged_rows(&out, "K ");
    let rejected = on_ours.iter().filter(|r| r.get(1) != Some(&1.0)).count();
    line["kernel"] = json!("pari");
    line["version"] = json!(v);
    line["cert_format"] = json!("GP text");
    line["verify_ms_pari_on_primekit"] = json!(mean(&on_ours.iter().filter_map(|r| r.first().copied()).collect::<Vec<_>>()));
    line["pari_rejects_primekit"] = json!(rejected);
    if ours.is_empty() {
        line["note"] = json!("no primekit certificate with a PARI form to check");
    }
    line
}

/// Python: reads primes (one per line), prints "R <mean ms> <verdict>" for each, the
/// test repeated until 50 ms of CPU time have passed; exits 3 without python-flint.
const FLINT_SCRIPT: &str = r#"
import sys, time
try:
    import flint
except ImportError:
    sys.exit(3)
print("V python-flint %s, FLINT %s" % (flint.__version__, getattr(flint, "__FLINT_VERSION__", "?")))
for line in sys.stdin:
    if not line.strip():
        continue
    n = flint.fmpz(int(line))
    reps, ok, t0 = 0, True, time.process_time()
    while True:
        ok = ok and n.is_prime()
        reps += 1
        dt = time.process_time() - t0
        if dt >= 0.05:
            break
    print("R", dt * 1000 / reps, 1 if ok else 0)
"#;

fn flint_run(primes: &[BigUint]) -> Value {
    let input: String = primes.iter().map(|p| format!("{p}\n")).collect();
    let out = match run_with_input("python3", &["-c", FLINT_SCRIPT], input) {
        Ok(o) => o,
        Err(e) if e.contains("exit status: 3") => return skipped("flint", "python-flint not installed (pip install python-flint)".into()),
        Err(e) => return skipped("flint", e),
    };
    let rows = tagged_rows(&out, "R ");
    let ms: Vec<f64> = rows.iter().filter(|r| r.len() == 2 && r[1] == 1.0).map(|r| r[0]).collect();
    let failed = primes.len() - ms.len();
    let error = (failed > 0).then(|| format!("fmpz_is_prime rejected {failed} primes"));
    let mut line = summary("flint", &ms, &[], &[], &[], failed, error);
    line["kernel"] = json!("flint");
    line["version"] = json!(out.lines().find_map(|l| l.strip_prefix("V ")));
    line["note"] = json!("fmpz_is_prime: a primality proof, no certificate");
    line
}
