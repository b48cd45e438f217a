//! `primekit test` end to end: order kept, bad lines reported and skipped, exit codes,
//! size cap enforced at once, `--jobs` agreeing with one job.

mod common;

use std::io::Write;
use std::time::{Duration, Instant};

fn run(args: &[&str], stdin: &str) -> (String, String, i32) {
    let mut child = common::spawn_piped(env!("CARGO_BIN_EXE_primekit"), args);
    let mut sin = child.stdin.take().unwrap();
    let input = stdin.to_owned();
    let writer = std::thread::spawn(move || {
        let _ = sin.write_all(input.as_bytes());
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    (String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap(), out.status.code().unwrap_or(-1))
}

#[test]
fn stdin_lines_in_order_with_bad_lines_reported() {
    let input = "17\n\n-5\n  0x1f  \n1\nabc\n561\n0\n170141183460469231731687303715884105727\n";
    let (out, err, code) = run(&["test"], input);
    assert_eq!(out, "17 prime\n0x1f prime\n1 neither\n561 composite\n0 neither\n170141183460469231731687303715884105727 prime\n");
    assert!(err.contains("line 2: empty input"), "{err}");
    assert!(err.contains("line 3: signs are not accepted"), "{err}");
    assert!(err.contains("line 6: unexpected character 'a'"), "{err}");
    assert_eq!(code, 2);
}

#[test]
fn arguments_and_clean_exit() {
    let (out, err, code) = run(&["test", "2", "4", "0xFFFFFFFFFFFFFFC5"], "");
    assert_eq!(out, "2 prime\n4 composite\n0xFFFFFFFFFFFFFFC5 prime\n");
    assert!(err.is_empty());
    assert_eq!(code, 0);
    let (out, _, code) = run(&["test", "--json", "7"], "");
    assert_eq!(out.trim(), r#"{"argument":1,"input":"7","result":"prime"}"#);
    assert_eq!(code, 0);
}

#[test]
fn jobs_agree_with_one_job() {
    let input: String = (1_000_000u64..1_003_000).map(|n| format!("{n}\n")).collect();
    let (one, _, c1) = run(&["test"], &input);
    let (four, _, c4) = run(&["test", "--jobs", "4"], &input);
    assert_eq!((c1, c4), (0, 0));
    assert_eq!(one, four);
    assert_eq!(one.lines().count(), 3000);
    // 1,000,003 is prime; 1,000,000 is not.
    assert!(one.starts_with("1000000 composite\n1000001 composite\n1000002 composite\n"));
}

/// One number with `--jobs`: its rounds run on the threads, with the same verdicts (a
/// prime; composites found by the base-2 round and by trial division) and output, from
/// arguments and from stdin.
#[test]
fn one_number_on_several_threads() {
    use num_bigint::BigUint;
    let m1279 = (BigUint::from(1u8) << 1279u32) - 1u8;
    let prime = m1279.to_string();
    for jobs in ["1", "3"] {
        let (out, err, code) = run(&["test", "--jobs", jobs, &prime], "");
        assert_eq!((out, err, code), (format!("{prime} prime\n"), String::new(), 0), "jobs {jobs}");
        for factor in [1_000_033u32, 3] {
            let composite = (&m1279 * factor).to_string();
            let (out, _, code) = run(&["test", "--jobs", jobs, "--json", &composite], "");
            assert!(out.contains(r#""result":"composite""#), "jobs {jobs}, factor {factor}: {out}");
            assert_eq!(code, 0);
        }
        let (out, _, _) = run(&["test", "--jobs", jobs], &format!("{prime}\n"));
        assert_eq!(out, format!("{prime} prime\n"), "stdin, jobs {jobs}");
    }
}

#[test]
fn oversized_input_fails_fast() {
    let huge = "9".repeat(100_000);
    let start = Instant::now();
    let (out, err, code) = run(&["test"], &format!("{huge}\n13\n"));
    assert!(start.elapsed() < Duration::from_secs(5), "took {:?}", start.elapsed());
    assert_eq!(out, "13 prime\n");
    assert!(err.contains("line 1: number exceeds the 32768-bit input cap"), "{err}");
    assert_eq!(code, 2);
    let (_, err, code) = run(&["test", &huge], "");
    assert!(err.contains("argument 1: number exceeds"), "{err}");
    assert_eq!(code, 2);
}

/// Ctrl-C during a long test (a 9,941-bit prime: 129 rounds, seconds on any kernel)
/// stops it between rounds: exit status 130, no verdict printed for it, well before the
/// test could have finished.
#[test]
fn ctrl_c_stops_a_long_test_promptly() {
    let m9941 = format!("0x1{}", "f".repeat(9940 / 4)); // 2^9941 - 1, prime (Lucas-Lehmer)
    let t = Instant::now();
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_primekit"))
        .args(["test", "7", &m9941])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(700));
    let interrupted_at = t.elapsed();
    let kill = std::process::Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let after_signal = t.elapsed() - interrupted_at;
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(130), "stdout {stdout} stderr {stderr}");
    assert_eq!(stdout, "7 prime\n", "the first input is answered, the interrupted one is not");
    assert!(stderr.contains("interrupted at argument 2"), "{stderr}");
    assert!(after_signal < Duration::from_secs(3), "stopped {after_signal:?} after the signal");
}
