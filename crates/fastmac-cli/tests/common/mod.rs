//! Shared by the CLI tests: run the `fastmac` binary with arguments and
//! stdin, in scratch folders. Each test file uses part of it.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

/// Runs `fastmac args...` with `stdin` piped in, and collects its output.
pub fn fastmac(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_fastmac"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn fastmac");
    // A command that exits before reading stdin closes the pipe: not an error.
    child.stdin.take().unwrap().write_all(stdin).ok();
    child.wait_with_output().unwrap()
}

/// A scratch folder of this test process, removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    /// `fastmac-cli-NAME-PID` in the system's temporary folder.
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("fastmac-cli-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }

    /// The folder.
    pub fn path(&self) -> &Path {
        &self.0
    }

    /// Writes `contents` to the file `name` in it; its path.
    pub fn write(&self, name: &str, contents: &[u8]) -> String {
        let path = self.0.join(name);
        std::fs::write(&path, contents).unwrap();
        path.to_str().unwrap().to_owned()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}
