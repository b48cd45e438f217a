//! The conventions of an installed command: `--help` lists the user's jobs only (the
//! research commands are `primekit-lab`'s), `completions` prints scripts that load in
//! their shells, `man` renders a page with every command, and `--version` names the
//! kernel in use and the CPU features seen.

use primekit::hazmat::mont::Kernel;
use std::path::PathBuf;
use std::process::{Command, Output};

const BIN: &str = env!("CARGO_BIN_EXE_primekit");

/// The user's subcommands, as `--help` lists them.
const USER: [&str; 13] =
    ["test", "check-dh", "check-rsa", "gen", "next", "prev", "dhparam", "verify-cert", "prove", "genrsa", "bench", "completions", "man"];
/// Research commands and benchmarks that belong to `primekit-lab`.
const LAB: [&str; 8] = ["hw-vectors", "hw-report", "dist", "claims", "report", "render", "pga-tables", "suite"];

fn run(args: &[&str]) -> Output {
    Command::new(BIN).args(args).output().expect("run primekit")
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8(o.stdout.clone()).expect("utf-8")
}

/// The subcommand names of a clap help text: the first word of each line under "Commands:".
fn listed(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with(' '))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect()
}

#[test]
fn help_lists_the_users_commands_only() {
    let mut names = listed(&stdout(&run(&["--help"])));
    names.retain(|n| n != "help");
    let mut want: Vec<String> = USER.iter().map(|s| s.to_string()).collect();
    names.sort();
    want.sort();
    assert_eq!(names, want);
    let bench = listed(&stdout(&run(&["bench", "--help"])));
    for lab in LAB {
        assert!(!bench.iter().any(|b| b == lab), "bench lists {lab}: {bench:?}");
    }
    assert!(bench.iter().any(|b| b == "gen") && bench.iter().any(|b| b == "test"), "{bench:?}");
    for lab in ["hw-vectors", "claims", "render"] {
        let out = run(&[lab]);
        assert_eq!(out.status.code(), Some(2), "{lab}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("primekit: unrecognized subcommand") && err.lines().count() == 1, "{err}");
    }
}

#[test]
fn completion_scripts_name_every_subcommand() {
    for (shell, marker) in [("bash", "complete -F"), ("zsh", "#compdef primekit"), ("fish", "complete -c primekit")] {
        let script = stdout(&run(&["completions", shell]));
        assert!(script.contains(marker), "{shell}: {marker:?} missing");
        for cmd in USER {
            assert!(script.contains(cmd), "{shell}: no {cmd}");
        }
        assert!(!script.contains("hw-vectors") && !script.contains("pga-tables"), "{shell}: research commands completed");
    }
    let out = run(&["completions", "tcsh"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.starts_with("primekit completions: invalid value 'tcsh'") && err.lines().count() == 1, "{err}");
}

#[test]
fn bash_completion_loads_and_completes() {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("completions-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let script = dir.join("primekit.bash");
    std::fs::write(&script, run(&["completions", "bash"]).stdout).unwrap();
    // Load it, check the registration, then ask the completion function for `primekit check-<TAB>`.
    let probe = "source \"$1\" && complete -p primekit && COMP_WORDS=(primekit check-) COMP_CWORD=1 COMP_LINE='primekit check-' \
                 COMP_POINT=15 && _primekit primekit check- primekit && printf '%s\\n' \"${COMPREPLY[@]}\"";
    let out = Command::new("bash").args(["-c", probe, "bash"]).arg(&script).output().expect("bash");
    let text = stdout(&out);
    let _ = std::fs::remove_dir_all(&dir);
    let mut lines = text.lines();
    assert!(lines.next().is_some_and(|l| l.starts_with("complete ") && l.ends_with(" primekit")), "{text}");
    let mut words: Vec<&str> = lines.collect();
    words.sort();
    assert_eq!(words, ["check-dh", "check-rsa"], "{text}");
}

#[test]
fn man_page_documents_every_command() {
    let page = stdout(&run(&["man"]));
    assert!(page.starts_with(".ie") || page.contains("\n.TH primekit 1"), "{:.200}", page);
    assert!(page.contains(".TH primekit 1"), "no .TH line");
    assert!(page.contains("PRIMEKIT_KERNEL"), "the environment variable is not documented");
    for cmd in USER {
        assert!(page.contains(&format!("primekit\\-{}", cmd.replace('-', "\\-"))), "no {cmd}");
    }
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("man-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let out = Command::new(BIN).args(["man", "--dir"]).arg(&dir).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    for page in ["primekit.1", "primekit-genrsa.1", "primekit-bench.1", "primekit-bench-gen.1"] {
        let text = std::fs::read_to_string(dir.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
        assert!(text.contains(".TH "), "{page}");
    }
    // man(1) renders it when the machine has man.
    if Command::new("man").arg("--version").output().is_ok_and(|o| o.status.success()) {
        let out = Command::new("man").args(["-P", "cat", "-l"]).arg(dir.join("primekit.1")).env("MANWIDTH", "100").output().unwrap();
        let text = stdout(&out);
        assert!(text.contains("primekit") && text.contains("check-dh") && text.contains("SUBCOMMANDS"), "{text}");
    } else {
        eprintln!("skipped: man(1) not installed");
    }
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(BIN).args(["man", "--dir", "/nonexistent/dir"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("primekit man: /nonexistent/dir: "));
}

/// The CPU flags of /proc/cpuinfo among those `--version` reports.
fn cpuinfo_flags() -> Option<Vec<String>> {
    let info = std::fs::read_to_string("/proc/cpuinfo").ok()?;
    let flags = info.lines().find(|l| l.starts_with("flags"))?.split(':').nth(1)?.to_string();
    let want = ["bmi2", "adx", "avx2", "avx512f", "avx512dq", "avx512ifma"];
    Some(want.iter().filter(|w| flags.split_whitespace().any(|f| f == **w)).map(|s| s.to_string()).collect())
}

#[test]
fn version_names_the_kernel_and_the_cpu_features() {
    let text = stdout(&run(&["--version"]));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], format!("primekit {}", env!("CARGO_PKG_VERSION")));
    let best = Kernel::best();
    assert!(lines.iter().any(|l| l.starts_with(&format!("kernel: {best} "))), "{text}");
    assert!(lines.contains(&format!("kernels this CPU runs: {}", Kernel::available_names()).as_str()), "{text}");
    let features = lines.iter().find_map(|l| l.strip_prefix("cpu features: ")).expect("cpu features line");
    if cfg!(target_arch = "x86_64") {
        if let Some(flags) = cpuinfo_flags() {
            assert_eq!(features.split(' ').collect::<Vec<_>>(), flags, "{text}");
        }
    }
    for k in Kernel::available() {
        let out = Command::new(BIN).env("PRIMEKIT_KERNEL", k.name()).arg("--version").output().unwrap();
        assert!(stdout(&out).contains(&format!("kernel: {k} (PRIMEKIT_KERNEL={k})")));
    }
    let out = Command::new(BIN).env("PRIMEKIT_KERNEL", "nonsense").arg("--version").output().unwrap();
    assert!(stdout(&out).contains("kernel: none (PRIMEKIT_KERNEL: unknown kernel \"nonsense\""));
}

/// README's first set-up line (`cargo run --release -- ARGS   # main job`) runs the main
/// job on a real input and succeeds: the audit of the committed RFC 3526 group passes.
#[test]
fn readme_main_job_line_runs() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README.md");
    let line = readme.lines().find(|l| l.trim_end().ends_with("# main job")).expect("a `# main job` line");
    let cmd = line.split('#').next().unwrap().trim();
    let args = cmd.strip_prefix("cargo run --release -- ").unwrap_or_else(|| panic!("not `cargo run --release -- ...`: {cmd}"));
    let out = Command::new(BIN).args(args.split_whitespace()).current_dir(&root).output().unwrap();
    let text = stdout(&out);
    assert!(text.contains("named_group: p is the RFC 3526 modp_2048 prime"), "{text}");
    assert!(text.lines().any(|l| l.starts_with("PASS  p_proof: proven")), "{text}");
    assert!(text.trim_end().ends_with("result: OK (8 checks, 0 warnings)"), "{text}");
}

/// A reader that goes away after the first line (`primekit gen --count 2000 | head -1`)
/// ends the command quietly with status 0, as Unix filters do: no panic from writing
/// into the closed pipe, and no further primes generated for no one. Also for the JSON
/// lines, a certificate stream and the benchmark lines.
#[test]
fn a_closed_pipe_ends_output_quietly() {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    let cases: [&[&str]; 4] = [
        &["gen", "--bits", "256", "--count", "2000"],
        &["gen", "--bits", "256", "--count", "2000", "--json"],
        &["gen", "--bits", "256", "--count", "200", "--provable"],
        &["bench", "test", "--bits", "256,512,1024,2048", "--count", "20"],
    ];
    for args in cases {
        let mut child =
            Command::new(env!("CARGO_BIN_EXE_primekit")).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
        let mut first = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut first).unwrap();
        assert!(!first.trim().is_empty(), "{args:?}: no first line");
        // The reader is dropped here: the next write meets a closed pipe.
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "{args:?}: {err}");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {err}");
    }
}
