//! Helpers shared by the CLI's integration tests.

use std::process::{Child, Command, Stdio};

/// `program args` started with stdin, stdout and stderr piped.
pub fn spawn_piped(program: &str, args: &[&str]) -> Child {
    Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap_or_else(|e| panic!("spawn {program}: {e}"))
}
