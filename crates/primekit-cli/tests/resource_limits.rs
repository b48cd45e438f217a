//! Resource limits of the CLI as a user meets them: oversized numbers are refused at once
//! with a clear message; streams run in memory bounded independently of their length; a
//! huge garbage line is drained, not stored; a huge garbage key file fails fast.
//!
//! Peak memory is the child's VmHWM (high-water resident set of its own address space,
//! fresh at exec) sampled from /proc every millisecond until it exits. Not ru_maxrss:
//! Linux carries the spawning process's peak into the child's ru_maxrss across exec, so
//! it would measure this test binary. Sampling can miss only the last millisecond, so the
//! inputs below hold the child at its fullest for much longer than that.

mod common;

use std::io::{Read, Write};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_primekit");

struct Run {
    status: i32,
    stdout_lines: usize,
    stderr: String,
    peak_kb: u64,
    took: Duration,
}

fn vm_hwm_kb(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs `primekit <args>` feeding `input` (produced chunk by chunk) on stdin.
fn run(args: &[&str], input: impl FnMut(&mut dyn Write) + Send + 'static) -> Run {
    run_program(BIN, args, input)
}

fn run_program(program: &str, args: &[&str], mut input: impl FnMut(&mut dyn Write) + Send + 'static) -> Run {
    let start = Instant::now();
    let mut child = common::spawn_piped(program, args);
    let pid = child.id();
    let sampler = std::thread::spawn(move || {
        let mut peak = 0;
        // The line disappears once the process has exited (its memory is released).
        while let Some(kb) = vm_hwm_kb(pid) {
            peak = peak.max(kb);
            std::thread::sleep(Duration::from_millis(1));
        }
        peak
    });
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || input(&mut stdin));
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
    let mut stderr = String::new();
    child.stderr.take().unwrap().read_to_string(&mut stderr).unwrap();
    writer.join().unwrap();
    let peak_kb = sampler.join().unwrap();
    let status = child.wait().unwrap();
    Run { status: status.code().unwrap_or(-1), stdout_lines: counter.join().unwrap(), stderr, peak_kb, took: start.elapsed() }
}

#[test]
fn the_memory_probe_sees_a_reader_that_stores_its_input() {
    // The control for the bounded-memory tests: `sort` must hold all input before output.
    let r = run_program("sort", &[], |w| {
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..16 {
            let _ = w.write_all(&chunk);
        }
        std::thread::sleep(Duration::from_millis(300));
    });
    println!("control: sort of a 16 MB line, peak RSS {} kB", r.peak_kb);
    assert!(r.peak_kb > 16 * 1024, "probe missed a 16 MB buffer: {} kB", r.peak_kb);
}

fn hundred_thousand_digits() -> String {
    std::iter::once('7').chain(std::iter::repeat_n('3', 99_999)).collect()
}

#[test]
fn hundred_thousand_digit_argument_is_refused_within_a_second() {
    let n = hundred_thousand_digits();
    let r = run(&["test", &n], |_| {});
    println!("100,000-digit argument: exit {} in {:?}: {}", r.status, r.took, r.stderr.trim());
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("argument 1") && r.stderr.contains("32768-bit input cap"), "{}", r.stderr);
    assert!(r.took < Duration::from_secs(1), "took {:?}", r.took);
}

#[test]
fn hundred_thousand_digit_line_is_refused_and_the_stream_goes_on() {
    let r = run(&["test"], |w| {
        let _ = writeln!(w, "{}\n7\n8", hundred_thousand_digits());
    });
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("line 1"), "{}", r.stderr);
    assert_eq!(r.stdout_lines, 2, "lines 2 and 3 still answered");
    assert!(r.took < Duration::from_secs(1), "took {:?}", r.took);
}

#[test]
fn ten_megabyte_garbage_line_is_drained_in_bounded_memory() {
    let r = run(&["test"], |w| {
        let chunk = vec![b'x'; 1 << 20];
        for _ in 0..10 {
            if w.write_all(&chunk).is_err() {
                return;
            }
        }
        // Hold the 10 MB line open: a reader that stored it would sit at its peak now.
        std::thread::sleep(Duration::from_millis(300));
        let _ = w.write_all(b"\n7\n");
    });
    println!("10 MB garbage line: exit {} in {:?}, peak RSS {} kB", r.status, r.took, r.peak_kb);
    assert_eq!(r.status, 2);
    assert!(r.stderr.contains("line 1"), "{}", r.stderr);
    assert_eq!(r.stdout_lines, 1, "the line after the garbage is still answered");
    assert!(r.peak_kb > 0 && r.peak_kb < 8 * 1024, "peak RSS {} kB: the line was stored", r.peak_kb);
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
    let small = run(&["test", "--jobs", "2"], stream(100_000));
    let big = run(&["test", "--jobs", "2"], stream(1_000_000));
    println!(
        "stream of 10^5 lines: {:?}, peak RSS {} kB; 10^6 lines: {:?}, peak RSS {} kB",
        small.took, small.peak_kb, big.took, big.peak_kb
    );
    assert_eq!((small.status, big.status), (0, 0), "{}", big.stderr);
    assert_eq!((small.stdout_lines, big.stdout_lines), (100_000, 1_000_000));
    // Ten times the input (about 12 MB) must not cost ten times the memory.
    assert!(small.peak_kb > 0 && big.peak_kb < small.peak_kb + 4 * 1024, "10^5: {} kB, 10^6: {} kB", small.peak_kb, big.peak_kb);
    assert!(big.peak_kb < 32 * 1024);
}

#[test]
fn ten_megabyte_garbage_key_file_fails_fast() {
    let path = std::env::temp_dir().join(format!("primekit-garbage-{}.pem", std::process::id()));
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        for i in 0..10u32 << 20 {
            f.write_all(&[(i.wrapping_mul(2_654_435_761) >> 13) as u8]).unwrap();
        }
    }
    for cmd in ["check-dh", "check-rsa"] {
        let r = run(&[cmd, path.to_str().unwrap()], |_| {});
        println!("{cmd} on a 10 MB garbage file: exit {} in {:?}, peak RSS {} kB: {}", r.status, r.took, r.peak_kb, r.stderr.trim());
        assert_eq!(r.status, 2, "{cmd}: {}", r.stderr);
        assert!(!r.stderr.is_empty());
        assert!(r.took < Duration::from_secs(1), "{cmd} took {:?}", r.took);
        assert!(r.peak_kb < 8 * 1024, "{cmd}: peak RSS {} kB", r.peak_kb);
    }
    std::fs::remove_file(&path).unwrap();
}
