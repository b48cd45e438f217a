//! Every file a command writes (`--out`, `--pubout`, `--cert`) goes through here, so all
//! commands treat a path the same way:
//!
//! - `-` (and `/dev/stdout`) is standard output.
//! - A regular file, or a name that does not exist yet, is written to a temporary file in
//!   the same directory, flushed to disk, and only then given its name (renamed with
//!   `--force`, hard-linked without it, so an existing file is never replaced by
//!   accident); the directory is flushed too. An interrupted run never leaves a partial
//!   file: a half-written key is worse than none. A symbolic link to a regular file
//!   writes the file it points to and keeps the link.
//! - Anything else that exists (a character or block device, a FIFO) is opened for
//!   writing in place and written: never renamed over or replaced, and without
//!   `--force`, since writing to a device or pipe is exactly what was asked for.
//!
//! Every path is checked before the command does any work, so a bad one costs nothing:
//! a missing or unwritable directory, a directory, a name ending in `/`, a dangling
//! symbolic link, a socket, two outputs naming the same file, or an existing file
//! without `--force` is refused with one line and exit status 2.
//!
//! Temporary files are removed when dropped and, through a handler installed with the
//! first of them, on SIGINT and SIGTERM (the process then exits with 128 + the signal).

use std::ffi::OsStr;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::{Mutex, MutexGuard, OnceLock};

/// One requested output: the flag that named it (for messages), its path if given, and
/// whether it holds a secret (created with mode 0600).
pub struct Output<'a> {
    pub flag: &'static str,
    pub path: Option<&'a Path>,
    pub private: bool,
}

impl<'a> Output<'a> {
    /// An output that anyone may read.
    pub fn public(flag: &'static str, path: Option<&'a Path>) -> Self {
        Output { flag, path, private: false }
    }

    /// An output holding a secret: mode 0600.
    pub fn private(flag: &'static str, path: Option<&'a Path>) -> Self {
        Output { flag, path, private: true }
    }
}

/// Where a checked path will be written.
#[derive(Debug, PartialEq)]
enum Target {
    /// Standard output (`-`, `/dev/stdout`).
    Stdout,
    /// An existing device or FIFO: opened and written in place.
    InPlace(PathBuf),
    /// A regular file (existing or not): temporary file, then rename or link. `path` is
    /// where the name goes (a symbolic link resolved).
    File { path: PathBuf },
}

/// An output being prepared; written by [`Pending::commit`]. A temporary file that was
/// never committed is removed on drop.
pub struct Pending {
    target: Target,
    shown: String,
    tmp: Option<(PathBuf, File)>,
    force: bool,
}

/// Checks every output of a command and prepares them, before any work: the first bad
/// path is returned as one line (`--flag PATH: reason`); nothing is left behind then.
/// `force` allows replacing existing regular files.
pub fn reserve<const N: usize>(outputs: [Output<'_>; N], force: bool) -> Result<[Option<Pending>; N], String> {
    let mut checked = Vec::with_capacity(N);
    for o in &outputs {
        let target = match o.path {
            Some(p) => Some(check(p, force).map_err(|e| format!("{} {}: {e}", o.flag, p.display()))?),
            None => None,
        };
        checked.push(target);
    }
    refuse_same_files(&outputs, &checked)?;
    let mut prepared = Vec::with_capacity(N);
    for (o, target) in outputs.iter().zip(checked) {
        let pending = match (o.path, target) {
            (Some(p), Some(t)) => Some(prepare(p, t, o.private, force).map_err(|e| format!("{} {}: {e}", o.flag, p.display()))?),
            _ => None,
        };
        prepared.push(pending);
    }
    let mut it = prepared.into_iter();
    Ok(std::array::from_fn(|_| it.next().flatten()))
}

/// [`reserve`] for commands that print `primekit CMD: message` and exit 2 on a bad path.
pub fn reserve_or_exit<const N: usize>(cmd: &str, outputs: [Output<'_>; N], force: bool) -> Result<[Option<Pending>; N], ExitCode> {
    let _ = COMMAND.set(cmd.to_string());
    reserve(outputs, force).map_err(|e| {
        eprintln!("{} {cmd}: {e}", crate::cli::prog());
        ExitCode::from(2)
    })
}

/// Writes one file of a generated directory (research reports), replacing any earlier
/// version, by the same rules: complete or absent, a device or FIFO written in place.
pub fn replace(path: &Path, bytes: &[u8]) -> Result<(), String> {
    let [pending] = reserve([Output::public("file", Some(path))], true)?;
    pending.map_or(Ok(()), |p| p.commit(bytes))
}

/// What `path` is and whether it may be written, without touching it.
fn check(path: &Path, force: bool) -> Result<Target, String> {
    if path.as_os_str() == "-" || is_stdout_alias(path) {
        return Ok(Target::Stdout);
    }
    if ends_with_slash(path.as_os_str()) {
        return Err("ends with '/': a file name is needed".into());
    }
    let link = match std::fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return check_new(path),
        Err(e) => return Err(describe(&e)),
    };
    let meta = if link.file_type().is_symlink() {
        std::fs::metadata(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => "symbolic link to a file that does not exist".to_string(),
            _ => format!("symbolic link that cannot be followed ({})", describe(&e)),
        })?
    } else {
        link
    };
    let kind = meta.file_type();
    if kind.is_dir() {
        Err("is a directory".into())
    } else if kind.is_file() {
        if !force {
            return Err("exists; use --force to replace it".into());
        }
        // Through a link, the file it points to is replaced and the link kept.
        let resolved = std::fs::canonicalize(path).map_err(|e| describe(&e))?;
        check_dir(&parent_of(&resolved))?;
        Ok(Target::File { path: resolved })
    } else if is_socket(&kind) {
        Err("is a socket; only files, devices and FIFOs can be written".into())
    } else {
        writable(path).map_err(|e| format!("cannot write: {e}"))?;
        Ok(Target::InPlace(path.to_path_buf()))
    }
}

/// A name that does not exist yet: its directory must exist and be writable.
fn check_new(path: &Path) -> Result<Target, String> {
    check_dir(&parent_of(path))?;
    Ok(Target::File { path: path.to_path_buf() })
}

/// The directory that will hold the temporary file: it must exist, be a directory, and
/// accept new files.
fn check_dir(dir: &Path) -> Result<(), String> {
    match std::fs::metadata(dir) {
        Ok(m) if m.is_dir() => writable(dir).map_err(|e| format!("directory {} is not writable ({e})", dir.display())),
        Ok(_) => Err(format!("{} is not a directory", dir.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(format!("directory {} does not exist", dir.display())),
        Err(e) => Err(format!("directory {}: {}", dir.display(), describe(&e))),
    }
}

/// `path`'s directory (`.` for a bare name).
fn parent_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

/// True for a path ending in `/`: it names a directory, never a file to create (and
/// `Path` would silently drop the slash).
fn ends_with_slash(p: &OsStr) -> bool {
    p.as_encoded_bytes().last() == Some(&b'/')
}

/// `/dev/stdout` and its aliases mean this process's standard output, whatever that is
/// (a pipe, a terminal, a file the shell opened): written as `-` is, never replaced.
fn is_stdout_alias(path: &Path) -> bool {
    ["/dev/stdout", "/dev/fd/1", "/proc/self/fd/1"].iter().any(|a| path == Path::new(a))
}

#[cfg(unix)]
fn is_socket(kind: &std::fs::FileType) -> bool {
    use std::os::unix::fs::FileTypeExt;
    kind.is_socket()
}

#[cfg(not(unix))]
fn is_socket(_: &std::fs::FileType) -> bool {
    false
}

/// Whether this process may write `path` (access(2) with W_OK, which also reports a
/// read-only file system), so that a refusal comes before the work, not after it.
#[cfg(unix)]
fn writable(path: &Path) -> Result<(), String> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(path.as_os_str().as_bytes()).map_err(|_| "path contains a NUL byte".to_string())?;
    // SAFETY: `c` is a valid NUL-terminated string that outlives the call.
    if unsafe { libc::access(c.as_ptr(), libc::W_OK) } == 0 {
        Ok(())
    } else {
        Err(describe(&std::io::Error::last_os_error()))
    }
}

#[cfg(not(unix))]
fn writable(_: &Path) -> Result<(), String> {
    Ok(())
}

/// An I/O error as a message without Rust's "(os error N)" suffix.
fn describe(e: &std::io::Error) -> String {
    let s = e.to_string();
    match s.find(" (os error") {
        Some(i) => s[..i].to_string(),
        None => s,
    }
}

/// Refuses two outputs that are the same file (one would overwrite the other): equal
/// paths, or equal once resolved. Standard output and devices may be shared.
fn refuse_same_files(outputs: &[Output<'_>], checked: &[Option<Target>]) -> Result<(), String> {
    let files: Vec<(&Output<'_>, PathBuf)> = outputs
        .iter()
        .zip(checked)
        .filter_map(|(o, t)| match t {
            Some(Target::File { path }) => Some((o, resolved(path))),
            _ => None,
        })
        .collect();
    for (i, (a, pa)) in files.iter().enumerate() {
        for (b, pb) in &files[i + 1..] {
            if pa == pb || a.path == b.path {
                return Err(format!("{} and {} name the same file ({})", a.flag, b.flag, a.path.unwrap_or(Path::new("")).display()));
            }
        }
    }
    Ok(())
}

/// `path` made absolute with its directory's symbolic links resolved (the name itself
/// need not exist), for comparing two outputs.
fn resolved(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    match (std::fs::canonicalize(parent_of(path)), path.file_name()) {
        (Ok(dir), Some(name)) => dir.join(name),
        _ => path.to_path_buf(),
    }
}

/// Creates the temporary file of a regular-file target (proving the directory takes new
/// files); nothing to do yet for standard output or a device.
fn prepare(shown: &Path, target: Target, private: bool, force: bool) -> Result<Pending, String> {
    let tmp = match &target {
        Target::File { path } => Some(create_temporary(path, private)?),
        _ => None,
    };
    Ok(Pending { target, shown: shown.display().to_string(), tmp, force })
}

/// A new file `.NAME.PID-K.tmp` beside `path` (mode 0600 if `private`), registered for
/// removal on SIGINT/SIGTERM.
fn create_temporary(path: &Path, private: bool) -> Result<(PathBuf, File), String> {
    let dir = parent_of(path);
    let name = path.file_name().ok_or("not a file name")?.to_string_lossy().into_owned();
    let mut opts = OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(if private { 0o600 } else { 0o666 });
    }
    #[cfg(not(unix))]
    let _ = private;
    interrupt::install();
    // A temporary left by a killed process with the same id must not block this one.
    let mut last = None;
    for k in 0..16 {
        let tmp = dir.join(format!(".{name}.{}-{k}.tmp", std::process::id()));
        let mut registry = registry();
        match opts.open(&tmp) {
            Ok(file) => {
                registry.push(tmp.clone());
                return Ok((tmp, file));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(format!("cannot create a file in {}: {}", dir.display(), describe(&e))),
        }
    }
    Err(format!("cannot create a temporary file in {}: {}", dir.display(), last.map(|e| describe(&e)).unwrap_or_default()))
}

impl Pending {
    /// Whether this output is standard output (`-`, `/dev/stdout`).
    pub fn is_stdout(&self) -> bool {
        matches!(self.target, Target::Stdout)
    }

    /// Writes `bytes` to the output: standard output, the device in place, or the file
    /// (synced, then named; without `--force` a file that appeared meanwhile is kept).
    pub fn commit(mut self, bytes: &[u8]) -> Result<(), String> {
        let shown = self.shown.clone();
        let fail = |e: std::io::Error| format!("cannot write {shown}: {}", describe(&e));
        match &self.target {
            Target::Stdout => write_stdout(bytes).map_err(|e| format!("cannot write to standard output: {}", describe(&e))),
            Target::InPlace(path) => write_in_place(path, bytes).map_err(fail),
            Target::File { path } => {
                let Some((tmp, mut file)) = self.tmp.take() else { return Err(format!("cannot write {shown}: no temporary file")) };
                let result = file.write_all(bytes).and_then(|_| file.sync_all()).map_err(fail).and_then(|_| {
                    drop(file);
                    self.name(&tmp, path)
                });
                remove_temporary(&tmp);
                result
            }
        }
    }

    /// Gives the synced temporary `tmp` the name `path`, then syncs the directory so the
    /// name survives a crash.
    fn name(&self, tmp: &Path, path: &Path) -> Result<(), String> {
        let shown = &self.shown;
        if self.force {
            std::fs::rename(tmp, path).map_err(|e| format!("cannot write {shown}: {}", describe(&e)))?;
        } else {
            // A hard link fails if the name exists: no moment in which a file that
            // appeared since the check is replaced.
            match std::fs::hard_link(tmp, path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    return Err(format!("{shown} exists; use --force to replace it"))
                }
                // A file system without hard links: rename, if the name is still free.
                Err(e) if std::fs::symlink_metadata(path).is_err_and(|m| m.kind() == std::io::ErrorKind::NotFound) => {
                    std::fs::rename(tmp, path).map_err(|_| format!("cannot write {shown}: {}", describe(&e)))?
                }
                Err(e) => return Err(format!("cannot write {shown}: {}", describe(&e))),
            }
        }
        sync_dir(&parent_of(path)).map_err(|e| format!("cannot sync the directory of {shown}: {}", describe(&e)))
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        if let Some((tmp, file)) = self.tmp.take() {
            drop(file);
            remove_temporary(&tmp);
        }
    }
}

/// Writes a command's result text to standard output and flushes it: `Ok(true)` when
/// written, `Ok(false)` when the reader went away (`primekit gen --count 100 | head -1`):
/// the command then stops and exits 0, as Unix filters do, instead of the panic of a
/// `println!` into a closed pipe. Another write error (a full disk) is `Err` with the
/// reason. Used through [`outln!`](crate::outln).
pub fn print_out(text: &str) -> Result<bool, String> {
    stdout_bytes(text.as_bytes()).map_err(|e| format!("cannot write to standard output: {}", describe(&e)))
}

/// Writes and flushes `bytes` on standard output: `Ok(false)` when the reader went away.
fn stdout_bytes(bytes: &[u8]) -> std::io::Result<bool> {
    let mut out = std::io::stdout().lock();
    match out.write_all(bytes).and_then(|_| out.flush()) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(e),
    }
}

/// [`print_out`] where no exit status can be returned: when the reader went away the
/// process ends with status 0, on another write error with the reason and status 1. For
/// output that holds no file open (benchmark lines): exiting skips destructors.
pub fn print_or_exit(text: &str) {
    match print_out(text) {
        Ok(true) => {}
        Ok(false) => std::process::exit(0),
        Err(e) => {
            eprintln!("{}: {e}", crate::cli::prog());
            std::process::exit(1);
        }
    }
}

/// Standard output, flushed; a reader that went away (`| head`) is not an error.
pub fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    stdout_bytes(bytes).map(|_| ())
}

/// Opens an existing device or FIFO for writing (never creating or truncating it; for a
/// FIFO this waits for a reader) and writes `bytes`.
fn write_in_place(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut opts = OpenOptions::new();
    opts.write(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // A terminal opened here must not become the controlling terminal.
        opts.custom_flags(libc::O_NOCTTY);
    }
    let mut f = opts.open(path)?;
    f.write_all(bytes)?;
    f.flush()
}

/// fsync of a directory; file systems that cannot sync a directory are not an error.
fn sync_dir(dir: &Path) -> std::io::Result<()> {
    match File::open(dir).and_then(|d| d.sync_all()) {
        Err(e) if matches!(e.kind(), std::io::ErrorKind::InvalidInput | std::io::ErrorKind::Unsupported) => Ok(()),
        r => r,
    }
}

/// The command writing the files, named in the signal handler's message.
static COMMAND: OnceLock<String> = OnceLock::new();

/// The temporary files not yet committed or dropped, for the signal handler.
static PENDING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// The registry, usable even if a thread panicked while holding it.
fn registry() -> MutexGuard<'static, Vec<PathBuf>> {
    PENDING.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes a temporary file and forgets it.
fn remove_temporary(tmp: &Path) {
    let mut registry = registry();
    let _ = std::fs::remove_file(tmp);
    registry.retain(|p| p != tmp);
}

/// SIGINT and SIGTERM remove the pending temporary files before the process exits.
///
/// The signal handler only records the signal and writes one byte to a pipe (all it may
/// safely do); a thread waiting on the pipe removes the files and exits with status
/// 128 + signal, as a shell reports a process killed by it. A signal the process was
/// started with ignored (as `nohup` does) stays ignored.
#[cfg(unix)]
mod interrupt {
    use std::sync::atomic::{AtomicI32, Ordering};
    use std::sync::Once;

    static PIPE_WRITE: AtomicI32 = AtomicI32::new(-1);
    static SIGNAL: AtomicI32 = AtomicI32::new(0);
    static INSTALL: Once = Once::new();

    extern "C" fn on_signal(sig: libc::c_int) {
        SIGNAL.store(sig, Ordering::SeqCst);
        let byte = 0u8;
        // SAFETY: write(2) is async-signal-safe; the buffer is one valid byte.
        unsafe { libc::write(PIPE_WRITE.load(Ordering::SeqCst), (&byte as *const u8).cast(), 1) };
    }

    /// Installs the handler once per process; on failure the signals keep their default
    /// action (the temporaries are then left, as before any handler).
    pub fn install() {
        INSTALL.call_once(|| {
            let mut fds = [0 as libc::c_int; 2];
            // SAFETY: `fds` has room for the two descriptors pipe(2) returns.
            if unsafe { libc::pipe(fds.as_mut_ptr()) } != 0 {
                return;
            }
            PIPE_WRITE.store(fds[1], Ordering::SeqCst);
            let reader = fds[0];
            if std::thread::Builder::new().name("primekit-cleanup".into()).spawn(move || wait_and_clean(reader)).is_err() {
                return;
            }
            for sig in [libc::SIGINT, libc::SIGTERM] {
                handle(sig);
            }
        });
    }

    /// Points `sig` at [`on_signal`] unless it is ignored.
    fn handle(sig: libc::c_int) {
        // SAFETY: zeroed sigaction structures are valid; the pointers passed are to
        // live locals, and `on_signal` has the signature sa_handler expects.
        unsafe {
            let mut old: libc::sigaction = std::mem::zeroed();
            if libc::sigaction(sig, std::ptr::null(), &mut old) != 0 || old.sa_sigaction == libc::SIG_IGN {
                return;
            }
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as libc::sighandler_t;
            action.sa_flags = libc::SA_RESTART;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(sig, &action, std::ptr::null_mut());
        }
    }

    /// Waits for the handler's byte, then removes the temporaries and exits.
    fn wait_and_clean(reader: libc::c_int) {
        let mut byte = 0u8;
        loop {
            // SAFETY: reads at most one byte into a valid one-byte buffer.
            let n = unsafe { libc::read(reader, (&mut byte as *mut u8).cast(), 1) };
            if n == 1 {
                break;
            }
            if n < 0 && std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return;
        }
        let registry = super::registry();
        for tmp in registry.iter() {
            let _ = std::fs::remove_file(tmp);
        }
        let sig = SIGNAL.load(Ordering::SeqCst);
        let cmd = super::COMMAND.get().map(|c| format!("{} {c}", crate::cli::prog())).unwrap_or_else(|| crate::cli::prog().into());
        eprintln!("{cmd}: interrupted; unfinished output removed");
        std::process::exit(128 + sig);
    }
}

#[cfg(not(unix))]
mod interrupt {
    /// No handler off Unix: the temporaries are still removed on drop.
    pub fn install() {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_paths_before_writing() {
        let dir = std::env::temp_dir().join(format!("primekit-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let new = dir.join("new.txt");
        assert_eq!(check(&new, false), Ok(Target::File { path: new.clone() }));
        assert_eq!(check(Path::new("-"), false), Ok(Target::Stdout));
        assert_eq!(check(&dir, true), Err("is a directory".into()));
        assert!(check(&dir.join("missing/x"), true).unwrap_err().contains("does not exist"));
        let slash = PathBuf::from(format!("{}/", new.display()));
        assert!(check(&slash, true).unwrap_err().contains("ends with '/'"));
        std::fs::write(&new, "x").unwrap();
        assert!(check(&new, false).unwrap_err().contains("--force"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}
