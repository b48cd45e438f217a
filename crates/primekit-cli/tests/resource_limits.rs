//! Resource limits of `primekit test` as a user meets them: oversized numbers are refused
//! at once with a clear message; streams run in memory bounded independently of their
//! length; a huge garbage line is drained, not stored. Peak memory is the child's
//! ru_maxrss from wait4, so it measures this process tree and nothing else.

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_primekit");

struct Run {
    status: i32,
    stdout_lines: usize,
    stderr: String,
    max_rss_kb: i64,
    took: Duration,
}

/// Runs `primekit test <args>` feeding `input` (produced chunk by chunk) on stdin.
fn run(args: &[&str], mut input: impl FnMut(&mut dyn Write) + Send + 'static) -> Run {
    let start = Instant::now();
    let mut child = Command::new(BIN)
        .arg("test")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn primekit");
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        input(&mut stdin);
    });
    let mut stdout = child.stdout.take().unwrap();
    let counter = std::thread::spawn(move || {
        let mut buf = vec![0u8; 1 << 16];
        let mut lines = 0;
        loop {
            match stdout.read(&mut buf) {
                Ok(0) | Err(_) => return lines,
                Ok(k) => lines += buf[..k].iter().filter(|&&b| b == b'\n').count(),
            }
        }
    });
    let mut stderr = child.stderr.take().unwrap();
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = stderr.read_to_string(&mut s);
        s
    });
    let mut status = 0;
    // SAFETY: plain wait4 on our own child's pid with valid out-pointers; the Child
    // handle is not waited on afterwards.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = child.id() as libc::pid_t;
    let r = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(r, pid, "wait4");
    let took = start.elapsed();
    writer.join().unwrap();
    Run {
        status: libc::WEXITSTATUS(status),
        stdout_lines: counter.join().unwrap(),
        stderr: err_reader.join().unwrap(),
        max_rss_kb: usage.ru_maxrss,
        took,
    }
}

fn hundred_thousand_digits() -> String {
    std::iter::once('7').chain(std::iter::repeat('3').take(99_999)).collect()
}

#[test]
fn hundred_thousand_digit_argument_is_refused_within_a_second() {
    let n = hundred_thousand_digits();
    let r = run(&[&n], |_| {});
    println!("100,000-digit argument: exit {} in {:?}: {}", r.status, r.took, r.stderr.trim());
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("argument 1") && r.stderr.contains("65536-bit input cap"), "{}", r.stderr);
    assert!(r.took < Duration::from_secs(1), "took {:?}", r.took);
}

#[test]
fn hundred_thousand_digit_line_is_refused_and_the_stream_goes_on() {
    let r = run(&[], |w| {
        let _ = writeln!(w, "{}\n7\n8", hundred_thousand_digits());
    });
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("line 1"), "{}", r.stderr);
    assert_eq!(r.stdout_lines, 2, "lines 2 and 3 still answered");
    assert!(r.took < Duration::from_secs(1), "took {:?}", r.took);
}

#[test]
fn ten_megabyte_garbage_line_fails_fast_in_bounded_memory() {
    let r = run(&[], |w| {
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..10 {
            if w.write_all(&chunk).is_err() {
                return;
            }
        }
    });
    println!("10 MB garbage line: exit {} in {:?}, peak RSS {} kB", r.status, r.took, r.max_rss_kb);
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("line 1"), "{}", r.stderr);
    assert!(r.max_rss_kb < 10 * 1024, "peak RSS {} kB: the line was stored", r.max_rss_kb);
    assert!(r.took < Duration::from_secs(2), "took {:?}", r.took);
}

/// `lines` lines cycling through small primes and composites.
fn stream(lines: usize) -> impl FnMut(&mut dyn Write) + Send + 'static {
    move |w| {
        let words = ["1000003\n", "1000001\n", "2147483647\n", "4294967297\n", "18446744073709551557\n"];
        let mut buf = Vec::with_capacity(1 << 16);
        for i in 0..lines {
            buf.extend_from_slice(words[i % words.len()].as_bytes());
            if buf.len() > 60_000 {
                if w.write_all(&buf).is_err() {
                    return;
                }
                buf.clear();
            }
        }
        let _ = w.write_all(&buf);
    }
}

#[test]
fn million_line_stream_runs_in_bounded_memory() {
    let small = run(&["--jobs", "2"], stream(100_000));
    let big = run(&["--jobs", "2"], stream(1_000_000));
    println!(
        "stream of 10^5 lines: {:?}, peak RSS {} kB; 10^6 lines: {:?}, peak RSS {} kB",
        small.took, small.max_rss_kb, big.took, big.max_rss_kb
    );
    assert_eq!((small.status, big.status), (0, 0), "{}", big.stderr);
    assert_eq!((small.stdout_lines, big.stdout_lines), (100_000, 1_000_000));
    // Ten times the input (about 12 MB) must not cost ten times the memory.
    assert!(big.max_rss_kb < small.max_rss_kb + 4 * 1024, "10^5: {} kB, 10^6: {} kB", small.max_rss_kb, big.max_rss_kb);
    assert!(big.max_rss_kb < 64 * 1024);
}
