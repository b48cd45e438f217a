//! Output files written atomically: the content goes to a temporary file in the target's
//! directory, is flushed to disk, and only then takes the target's name, so an
//! interrupted run never leaves a partial file (a half-written key is worse than none).

use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};

/// A file being written; becomes `target` on [`Pending::commit`], vanishes if dropped.
pub struct Pending {
    tmp: PathBuf,
    target: PathBuf,
    file: Option<File>,
    overwrite: bool,
}

/// Reserves `target`: fails at once (before any expensive work) if its directory is not
/// writable, or if it exists and `overwrite` is false. `private`: mode 0600 on Unix.
pub fn create(target: &Path, overwrite: bool, private: bool) -> Result<Pending, String> {
    if !overwrite && target.exists() {
        return Err(format!("{} exists; use --force to overwrite it", target.display()));
    }
    let dir = target.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let name = target.file_name().ok_or_else(|| format!("{} is not a file name", target.display()))?;
    let tmp = dir.join(format!(".{}.tmp-{}", name.to_string_lossy(), std::process::id()));
    let mut opts = OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    if private {
        use std::os::unix::fs::OpenOptionsExt;
        opts.mode(0o600);
    }
    #[cfg(not(unix))]
    let _ = private;
    let file = opts.open(&tmp).map_err(|e| format!("cannot write {}: {e}", target.display()))?;
    Ok(Pending { tmp, target: target.to_path_buf(), file: Some(file), overwrite })
}

/// [`create`] for an optional output flag (overwriting, not private): the error, printed
/// after `prefix`, becomes exit status 2 before any work starts.
pub fn reserve(path: Option<&Path>, prefix: &str) -> Result<Option<Pending>, std::process::ExitCode> {
    path.map(|p| create(p, true, false)).transpose().map_err(|e| {
        eprintln!("{prefix}{e}");
        std::process::ExitCode::from(2)
    })
}

impl Pending {
    /// Writes `bytes`, syncs, and gives the file its name (refusing, without --force, a
    /// target that appeared meanwhile).
    pub fn commit(mut self, bytes: &[u8]) -> Result<(), String> {
        let target = self.target.display().to_string();
        let mut file = self.file.take().expect("committed once");
        file.write_all(bytes).and_then(|_| file.sync_all()).map_err(|e| format!("cannot write {target}: {e}"))?;
        drop(file);
        if self.overwrite {
            std::fs::rename(&self.tmp, &self.target).map_err(|e| format!("cannot write {target}: {e}"))
        } else {
            // A hard link fails if the target exists: no window in which it is replaced.
            std::fs::hard_link(&self.tmp, &self.target).map_err(|e| match e.kind() {
                std::io::ErrorKind::AlreadyExists => format!("{target} exists; use --force to overwrite it"),
                _ => format!("cannot write {target}: {e}"),
            })
        }
    }
}

impl Drop for Pending {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.tmp);
    }
}
