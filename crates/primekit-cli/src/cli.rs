//! What `primekit` and `primekit-lab` share around their subcommands: argument parsing
//! with one-line errors, `--version` with the kernel and the CPU features, shell
//! completions and the man page.
//!
//! Every error is one line on stderr, `PROG CMD: message`, argument errors included
//! (exit status 2); `--help` and `--version` print as usual.

use clap::{ArgMatches, Command, CommandFactory, Parser};
use std::ffi::OsString;
use std::io::Write;
use std::process::ExitCode;
use std::sync::OnceLock;

static PROG: OnceLock<String> = OnceLock::new();

/// The name of the running binary's top-level command (`primekit` or `primekit-lab`),
/// the first word of every error line; `primekit` before [`parse`] has run.
pub fn prog() -> &'static str {
    PROG.get().map_or("primekit", String::as_str)
}

/// The x86-64 CPU features the arithmetic kernels use, as this process detects them.
fn cpu_features() -> String {
    #[cfg(target_arch = "x86_64")]
    {
        let seen = [
            ("bmi2", std::is_x86_feature_detected!("bmi2")),
            ("adx", std::is_x86_feature_detected!("adx")),
            ("avx2", std::is_x86_feature_detected!("avx2")),
            ("avx512f", std::is_x86_feature_detected!("avx512f")),
            ("avx512dq", std::is_x86_feature_detected!("avx512dq")),
            ("avx512ifma", std::is_x86_feature_detected!("avx512ifma")),
        ];
        let names: Vec<&str> = seen.iter().filter(|(_, on)| *on).map(|(n, _)| *n).collect();
        if names.is_empty() {
            "none of bmi2, adx, avx2, avx512f, avx512dq, avx512ifma".to_string()
        } else {
            names.join(" ")
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        format!("none used on {}", std::env::consts::ARCH)
    }
}

/// The text after the program name in `--version`: the package version, then the kernel
/// the arithmetic uses (and why), the kernels this CPU runs and the CPU features seen.
pub fn version_text(version: &str) -> String {
    use primekit::hazmat::mont::Kernel;
    let kernel = match (Kernel::selected(), std::env::var("PRIMEKIT_KERNEL")) {
        (Ok(k), Ok(v)) if !v.trim().is_empty() => format!("{k} (PRIMEKIT_KERNEL={})", v.trim()),
        (Ok(k), _) => format!("{k} (the fastest this CPU runs; PRIMEKIT_KERNEL chooses another)"),
        (Err(e), _) => format!("none (PRIMEKIT_KERNEL: {e})"),
    };
    format!("{version}\nkernel: {kernel}\nkernels this CPU runs: {}\ncpu features: {}", Kernel::available_names(), cpu_features())
}

/// The subcommand path named on the command line (`genrsa`, `bench gen`), for the
/// prefix of an argument error: the leading words that are subcommands.
fn subcommand_path(mut cmd: Command, args: &[OsString]) -> String {
    let mut path = vec![cmd.get_name().to_string()];
    for arg in args.iter().skip(1) {
        let Some(sub) = cmd.find_subcommand(arg.as_os_str()).cloned() else { break };
        path.push(sub.get_name().to_string());
        cmd = sub;
    }
    path.join(" ")
}

/// The message of a clap error on one line: its first line without clap's "error: ",
/// followed by the indented lines right under it (the missing arguments after a ':',
/// joined by ", "; the `[possible values: ...]` of an invalid value).
fn first_line(text: &str) -> String {
    let mut lines = text.lines().skip_while(|l| l.trim().is_empty());
    let first = lines.next().unwrap_or("invalid arguments");
    let first = first.strip_prefix("error: ").unwrap_or(first);
    let items: Vec<&str> = lines.take_while(|l| l.starts_with(' ') && !l.trim().is_empty()).map(str::trim).collect();
    match first.strip_suffix(':') {
        Some(head) if !items.is_empty() => format!("{head}: {}", items.join(", ")),
        _ if !items.is_empty() => format!("{first} {}", items.join(" ")),
        _ => first.to_string(),
    }
}

/// Parses the process arguments into `C`; on an error prints `PROG CMD: <clap's first
/// line>` and returns exit status 2 (clap's own report is several lines with its own
/// prefix). Help and version requests are printed by clap as usual, the version with
/// [`version_text`]. Then checks `PRIMEKIT_KERNEL` once: every subcommand runs
/// primekit's arithmetic on the process-wide kernel, so a bad value stops here instead
/// of failing each input on its own.
pub fn parse<C: Parser>() -> Result<C, ExitCode> {
    let args: Vec<OsString> = std::env::args_os().collect();
    let cmd = C::command();
    let _ = PROG.set(cmd.get_name().to_string());
    // Once per process: clap keeps the version as a `&'static str`.
    let version: &'static str = Box::leak(version_text(cmd.get_version().unwrap_or("unknown")).into_boxed_str());
    let cmd = cmd.version(version);
    let parsed = cmd.clone().try_get_matches_from(&args).and_then(|m: ArgMatches| C::from_arg_matches(&m));
    let cli = parsed.map_err(|e| {
        use clap::error::ErrorKind;
        if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand) {
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
        eprintln!("{}: {}", subcommand_path(cmd, &args), first_line(&e.render().to_string()));
        ExitCode::from(2)
    })?;
    if let Err(e) = primekit::hazmat::mont::Kernel::selected() {
        eprintln!("{}: PRIMEKIT_KERNEL: {e}", prog());
        return Err(ExitCode::from(2));
    }
    Ok(cli)
}

/// Writes `bytes` to standard output; a closed pipe or another write error is one line
/// on stderr and exit status 1.
fn write_stdout(what: &str, bytes: &[u8]) -> ExitCode {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|()| out.flush()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{} {what}: standard output: {e}", prog());
            ExitCode::from(1)
        }
    }
}

/// `PROG completions SHELL`: the completion script of `C` for `shell` on standard output.
pub fn completions<C: CommandFactory>(shell: clap_complete::Shell) -> ExitCode {
    let mut cmd = C::command();
    let name = cmd.get_name().to_string();
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut cmd, name, &mut buf);
    write_stdout("completions", &buf)
}

/// `PROG man [--dir DIR]`: the man page (roff, section 1) of `C`, generated from the
/// same definitions as `--help`, on standard output; with `dir`, one page per command
/// written into it (`PROG.1`, `PROG-SUBCOMMAND.1`, ...), as packagers install them.
pub fn man<C: CommandFactory>(dir: Option<&std::path::Path>) -> ExitCode {
    let cmd = C::command().disable_help_subcommand(true);
    if let Some(dir) = dir {
        return match clap_mangen::generate_to(cmd, dir) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{} man: {}: {e}", prog(), dir.display());
                ExitCode::from(1)
            }
        };
    }
    let mut buf = Vec::new();
    match clap_mangen::Man::new(cmd).render(&mut buf) {
        Ok(()) => write_stdout("man", &buf),
        Err(e) => {
            eprintln!("{} man: {e}", prog());
            ExitCode::from(1)
        }
    }
}

/// What `--help` and the man page say after the commands of either binary: the
/// environment variable every command reads.
pub const ENVIRONMENT: &str = "Environment:\n  PRIMEKIT_KERNEL=portable|adx|avx2|ifma  the arithmetic kernel of every command \
     (default: the fastest this CPU runs; one it lacks is an error, exit status 2); --version shows the choice";

/// The arguments of `completions`, the same in both binaries.
#[derive(clap::Args)]
pub struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

/// The arguments of `man`, the same in both binaries.
#[derive(clap::Args)]
pub struct ManArgs {
    /// Write one page per command into this directory instead of the main page to stdout.
    #[arg(long)]
    pub dir: Option<std::path::PathBuf>,
}
