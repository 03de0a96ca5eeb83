//! Shared by the CLI tests: run the `fastmac` binary with arguments and stdin.

use std::io::Write;
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
