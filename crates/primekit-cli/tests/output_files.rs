//! Output paths of every command that writes a file (`genrsa --out/--pubout`, `dhparam
//! --out/--cert`, `gen --cert`, `prove --cert`; `primekit-lab hw-vectors --out` in primekit-lab's
//! tests): devices, FIFOs,
//! `/dev/stdout` and `-` are written in place and stay what they are; bad paths are
//! refused with exit 2 and one line before any work; an interrupted run leaves no file;
//! argument errors are one line `primekit CMD: ...`.

use num_bigint::BigUint;
use num_traits::One;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const BIN: &str = env!("CARGO_BIN_EXE_primekit");

/// A fresh, empty directory for one test.
fn dir(name: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("outfiles-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// The names in `d`, sorted.
fn names(d: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(d).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    v.sort();
    v
}

/// A prime N > 2^64 whose N - 1 is smooth, so `prove` succeeds at once.
fn provable_n() -> String {
    (1u32..).map(|k| BigUint::from(k) * (BigUint::one() << 300u32) + 1u8).find(primekit::is_prime).unwrap().to_string()
}

/// Every writing flag: the arguments with `T` where the output path goes, and a string
/// the written content contains.
fn writers() -> Vec<(Vec<String>, &'static str)> {
    let n = provable_n();
    let w = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    vec![
        (w("genrsa --bits 512 --insecure --out T"), "-----BEGIN PRIVATE KEY-----"),
        (w("genrsa --bits 512 --insecure --pubout T"), "-----BEGIN PUBLIC KEY-----"),
        (w("dhparam --bits 64 --out T"), "-----BEGIN DH PARAMETERS-----"),
        (w("dhparam --bits 128 --provable --cert T"), "\"primekit-certificate\""),
        (w("gen --bits 128 --provable --cert T"), "\"primekit-certificate\""),
        (w(&format!("prove {n} --cert T")), "\"primekit-certificate\""),
    ]
}

/// `args` with `T` replaced by `target`.
fn with_target(args: &[String], target: &str) -> Vec<String> {
    args.iter().map(|a| if a == "T" { target.to_string() } else { a.clone() }).collect()
}

fn run_strings(args: &[String]) -> Output {
    Command::new(BIN).args(args).output().unwrap()
}

fn is_root() -> bool {
    // SAFETY: geteuid has no preconditions.
    unsafe { libc::geteuid() == 0 }
}

/// A character device made here with mknod (never the machine's own /dev nodes).
fn mknod(path: &Path, major: u32, minor: u32) {
    let st = Command::new("mknod").arg(path).args(["c", &major.to_string(), &minor.to_string()]).status().unwrap();
    assert!(st.success(), "mknod {}", path.display());
}

#[test]
fn character_devices_are_written_in_place() {
    if !is_root() {
        eprintln!("skipped: making a character device with mknod needs root");
        return;
    }
    let d = dir("chardev");
    let null = d.join("null");
    mknod(&null, 1, 3);
    for (args, _) in writers() {
        let out = run_strings(&with_target(&args, null.to_str().unwrap()));
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(std::fs::metadata(&null).unwrap().file_type().is_char_device(), "{args:?} replaced the device");
        assert_eq!(names(&d), ["null"], "{args:?}: nothing else in the directory");
    }
    // A device that refuses the write (as /dev/full): an error, and still the device.
    let full = d.join("full");
    mknod(&full, 1, 7);
    let out = run(&["genrsa", "--bits", "512", "--insecure", "--out", full.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).starts_with("primekit genrsa: cannot write"), "{}", stderr(&out));
    assert!(std::fs::metadata(&full).unwrap().file_type().is_char_device());
}

#[test]
fn fifos_are_written_in_place() {
    let d = dir("fifo");
    let fifo = d.join("pipe");
    assert!(Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    for (args, marker) in writers() {
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        let out = run_strings(&with_target(&args, fifo.to_str().unwrap()));
        // Should the command fail before opening the FIFO, this releases the reader.
        let _ = std::fs::OpenOptions::new().write(true).custom_flags(libc::O_NONBLOCK).open(&fifo);
        let text = reader.join().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(text.contains(marker), "{args:?}: read {text:?}");
        assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "{args:?} replaced the FIFO");
        assert_eq!(names(&d), ["pipe"], "{args:?}: nothing else in the directory");
    }
}

#[test]
fn dash_and_dev_stdout_are_standard_output() {
    let d = dir("stdout");
    for (args, marker) in writers() {
        for target in ["-", "/dev/stdout"] {
            let out = Command::new(BIN).args(with_target(&args, target)).current_dir(&d).output().unwrap();
            assert!(out.status.success(), "{args:?} {target}: {}", stderr(&out));
            assert!(String::from_utf8_lossy(&out.stdout).contains(marker), "{args:?} {target}");
        }
        // Standard output redirected to a file: that file gets the content.
        let file = d.join("redirected.txt");
        let out = Command::new(BIN).args(with_target(&args, "/dev/stdout")).stdout(std::fs::File::create(&file).unwrap()).output().unwrap();
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        assert!(std::fs::read_to_string(&file).unwrap().contains(marker), "{args:?}");
        assert_eq!(names(&d), ["redirected.txt"], "{args:?}: nothing else in the directory");
    }
}

/// Runs `args` (a 16,384-bit key: minutes if generated) and checks the refusal: exit 2,
/// one line naming the command, quickly, the directory unchanged.
fn refused(d: &Path, args: &[&str], reason: &str) {
    let before = names(d);
    let t = Instant::now();
    let out = Command::new(BIN).args(args).current_dir(d).output().unwrap();
    assert!(t.elapsed() < Duration::from_secs(10), "{args:?}: refused only after {:?}", t.elapsed());
    assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    assert!(err.starts_with(&format!("primekit {}: ", args[0])), "{args:?}: {err}");
    assert!(err.contains(reason), "{args:?}: {err}");
    assert_eq!(names(d), before, "{args:?}: directory changed");
}

#[test]
fn bad_paths_are_refused_before_any_work() {
    let d = dir("bad");
    std::fs::create_dir(d.join("sub")).unwrap();
    std::os::unix::fs::symlink("nowhere", d.join("dangling")).unwrap();
    std::fs::write(d.join("kept.pem"), "precious").unwrap();
    let big = ["genrsa", "--bits", "16384"];
    let cases: [(&[&str], &str); 8] = [
        (&["--out", "missing/k.pem"], "directory missing does not exist"),
        (&["--out", "sub"], "is a directory"),
        (&["--out", "k.pem/"], "ends with '/'"),
        (&["--out", "dangling"], "symbolic link to a file that does not exist"),
        (&["--out", "a.pem", "--pubout", "a.pem"], "--out and --pubout name the same file"),
        (&["--out", "a.pem", "--pubout", "./sub/../a.pem"], "--out and --pubout name the same file"),
        (&["--out", "kept.pem"], "exists; use --force"),
        (&["--out", "new.pem", "--pubout", "kept.pem"], "exists; use --force"),
    ];
    for (extra, reason) in cases {
        let args: Vec<&str> = big.iter().chain(extra).copied().collect();
        refused(&d, &args, reason);
    }
    assert_eq!(std::fs::read_to_string(d.join("kept.pem")).unwrap(), "precious");
    // A read-only directory (root writes anyway, so only checked for others).
    if !is_root() {
        let ro = d.join("ro");
        std::fs::create_dir(&ro).unwrap();
        std::fs::set_permissions(&ro, std::os::unix::fs::PermissionsExt::from_mode(0o555)).unwrap();
        refused(&d, &["genrsa", "--bits", "16384", "--out", "ro/k.pem"], "not writable");
    }
}

#[test]
fn every_writer_keeps_existing_files_without_force() {
    let d = dir("force");
    let kept = d.join("kept");
    for (args, marker) in writers() {
        std::fs::write(&kept, "precious").unwrap();
        let args = with_target(&args, kept.to_str().unwrap());
        let out = run_strings(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("exists; use --force to replace it"), "{args:?}: {}", stderr(&out));
        assert_eq!(std::fs::read_to_string(&kept).unwrap(), "precious", "{args:?}");
        let forced: Vec<String> = args.iter().cloned().chain(["--force".to_string()]).collect();
        let out = run_strings(&forced);
        assert!(out.status.success(), "{forced:?}: {}", stderr(&out));
        assert!(std::fs::read_to_string(&kept).unwrap().contains(marker), "{forced:?}");
        assert_eq!(names(&d), ["kept"], "{forced:?}: no temporary left");
    }
}

/// Starts a 16,384-bit key into an empty directory, sends `signal` once its temporary
/// file exists, and checks that nothing is left and the exit status is 128 + signal.
fn interrupted_leaves_nothing(signal: libc::c_int) {
    let d = dir(&format!("signal-{signal}"));
    let mut cmd = Command::new(BIN);
    cmd.args(["genrsa", "--bits", "16384", "--out", "k.pem", "--pubout", "p.pem"]).current_dir(&d).stderr(Stdio::piped());
    // A test run with SIGINT ignored (a background job) must not pass that on.
    // SAFETY: signal(2) is async-signal-safe, as pre_exec requires.
    unsafe {
        cmd.pre_exec(|| {
            libc::signal(libc::SIGINT, libc::SIG_DFL);
            Ok(())
        });
    }
    let child = cmd.spawn().unwrap();
    let start = Instant::now();
    while names(&d).is_empty() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(!names(&d).is_empty(), "no temporary file appeared");
    std::thread::sleep(Duration::from_millis(500));
    // SAFETY: kill(2) on our own child's id.
    assert_eq!(unsafe { libc::kill(child.id() as libc::pid_t, signal) }, 0);
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(128 + signal), "{}", stderr(&out));
    assert_eq!(stderr(&out), "primekit genrsa: interrupted; unfinished output removed\n");
    assert_eq!(names(&d), Vec::<String>::new(), "files left after signal {signal}");
}

#[test]
fn sigterm_leaves_no_file() {
    interrupted_leaves_nothing(libc::SIGTERM);
}

#[test]
fn sigint_leaves_no_file() {
    interrupted_leaves_nothing(libc::SIGINT);
}

#[test]
fn argument_errors_are_one_line() {
    let cases: [(&[&str], &str); 8] = [
        (&["genrsa", "--bits", "abc"], "primekit genrsa: invalid value 'abc' for '--bits <BITS>'"),
        (&["genrsa", "--format", "pem"], "primekit genrsa: invalid value 'pem' for '--format <FORMAT>' [possible values: pkcs8, pkcs1]"),
        (&["genrsa", "--outt", "k.pem"], "primekit genrsa: unexpected argument '--outt'"),
        (&["dhparam", "--cert", "c.json"], "primekit dhparam: the following required arguments were not provided: --provable"),
        (&["gen"], "primekit gen: the following required arguments were not provided: --bits <BITS>"),
        (&["prove"], "primekit prove: the following required arguments were not provided: <N>"),
        (&["bench", "gen", "--bogus"], "primekit bench gen: unexpected argument '--bogus'"),
        (&["no-such-command"], "primekit: unrecognized subcommand 'no-such-command'"),
    ];
    for (args, start) in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with(start), "{args:?}: {err}");
        assert!(!err.contains("error:"), "{args:?}: {err}");
    }
    // Help and version still print in full, with status 0.
    for args in [&["--help"][..], &["genrsa", "--help"], &["--version"]] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(!out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn command_errors_name_the_command() {
    for (args, start) in [
        (&["gen", "--bits", "64", "--count", "0"][..], "primekit gen: "),
        (&["dhparam", "--bits", "8"], "primekit dhparam: "),
        (&["next", "x"], "primekit next: "),
        (&["genrsa", "--bits", "1024"], "primekit genrsa: "),
    ] {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = stderr(&out);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with(start), "{args:?}: {err}");
    }
}
