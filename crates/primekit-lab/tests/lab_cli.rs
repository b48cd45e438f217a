//! `primekit-lab` as a command: it lists the research commands, shares `primekit`'s
//! conventions (completions, man page, `--version`, one-line errors) and writes
//! `hw-vectors --out` through `primekit`'s output files (complete or absent, never
//! replacing a file without `--force`).

use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_primekit-lab");
const RESEARCH: [&str; 7] = ["hw-vectors", "hw-report", "dist", "bench", "claims", "report", "render"];

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run primekit-lab")
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).expect("utf-8")
}

#[test]
fn help_completions_man_and_version() {
    let help = stdout(&run(&["--help"]));
    for cmd in RESEARCH {
        assert!(help.lines().any(|l| l.trim_start().starts_with(&format!("{cmd} "))), "--help lacks {cmd}");
    }
    let bench = stdout(&run(&["bench", "--help"]));
    for b in ["suite", "pga-tables", "table5", "merge", "modexp"] {
        assert!(bench.contains(b), "bench --help lacks {b}");
    }
    let bash = stdout(&run(&["completions", "bash"]));
    assert!(bash.contains("complete -F") && bash.contains("primekit-lab") && bash.contains("pga-tables"));
    let page = stdout(&run(&["man"]));
    assert!(page.contains(".TH primekit-lab 1") && page.contains("hw\\-vectors"), "{:.300}", page);
    let version = stdout(&run(&["--version"]));
    assert!(version.starts_with(&format!("primekit-lab {}\nkernel: ", env!("CARGO_PKG_VERSION"))), "{version}");
    let out = run(&["bench", "suite", "--bogus"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "primekit-lab bench suite: unexpected argument '--bogus' found\n");
}

#[test]
fn hw_vectors_out_is_written_whole_and_never_replaced_silently() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("lab-out-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("vectors.txt");
    let args = ["hw-vectors", "--k", "64", "--random", "2", "--primes", "1", "--squares", "1", "--long-d", "1", "--out"];
    let to_stdout = stdout(&run(&[&args[..args.len() - 1], &["--out", "-"]].concat()));
    assert!(to_stdout.contains("prime"), "{to_stdout}");
    let out = Command::new(BIN).args(args).arg(&file).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), to_stdout, "the same vectors in the file as on stdout");
    std::fs::write(&file, "keep me\n").unwrap();
    let out = Command::new(BIN).args(args).arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("primekit-lab hw-vectors: ") && err.lines().count() == 1, "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "keep me\n");
    let out = Command::new(BIN).args(args).arg(&file).arg("--force").output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), to_stdout);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bench_ct_random_class_is_chosen_by_random_class() {
    let args = ["bench", "ct", "--measurements", "200", "--bits", "192", "--targets", "candidate_rounds", "--seed", "1"];
    for (class, tag, note) in [(None, "odd", false), (Some("primes"), "primes", true)] {
        let extra: Vec<&str> = class.map(|c| vec!["--random-class", c]).unwrap_or_default();
        let out = stdout(&run(&[&args[..], &extra[..]].concat()));
        let line: serde_json::Value = serde_json::from_str(out.trim()).expect("one JSON line");
        assert_eq!(line["random_class"], tag, "{line}");
        assert_eq!(line["detail"].as_str().unwrap().contains("random class: one of 1000 random primes"), note, "{line}");
    }
    let out = run(&["bench", "ct", "--random-class", "even"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("possible values: odd, primes"));
}

#[test]
fn bench_ct_fixed_class_is_chosen_by_fixed() {
    let args = ["bench", "ct", "--measurements", "200", "--bits", "256", "--targets", "pow2_ct,passes_ct", "--seed", "1"];
    for (fixed, tag, note) in [(None, "special", false), (Some("special"), "special", false), (Some("random"), "random", true)] {
        let extra: Vec<&str> = fixed.map(|f| vec!["--fixed", f]).unwrap_or_default();
        let out = stdout(&run(&[&args[..], &extra[..]].concat()));
        let lines: Vec<serde_json::Value> = out.lines().map(|l| serde_json::from_str(l).expect("a JSON line")).collect();
        assert_eq!(lines.len(), 2, "{out}");
        for l in &lines {
            assert_eq!(l["fixed"], tag, "{l}");
            assert_eq!(l["detail"].as_str().unwrap().contains("fixed class: one random"), note, "{l}");
        }
    }
    let out = run(&["bench", "ct", "--fixed", "zero"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("possible values: special, random"));
}
