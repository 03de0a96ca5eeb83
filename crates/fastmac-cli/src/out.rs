//! Writing to stdout and stderr without panicking: `println!` panics when
//! stdout is a closed pipe (`fastmac list | head -1`). A closed stdout
//! becomes [`CliError::StdoutClosed`], which ends the command quietly, as
//! `head` expects of a writer: with status 0 for a listing, 1 for `tag`
//! and `check`, whose output is lost (src/lib.rs, `main`); any other
//! write error is reported like bad input.

use std::io::{self, Write};

use crate::input::CliError;

/// Writes `text` to stdout and flushes it.
pub fn print(text: &str) -> Result<(), CliError> {
    print_bytes(text.as_bytes())
}

/// Writes `bytes` to stdout (a file name need not be UTF-8) and flushes
/// them.
pub fn print_bytes(bytes: &[u8]) -> Result<(), CliError> {
    let mut stdout = io::stdout().lock();
    stdout.write_all(bytes).and_then(|()| stdout.flush()).map_err(|source| {
        if source.kind() == io::ErrorKind::BrokenPipe {
            CliError::StdoutClosed
        } else {
            CliError::Write { what: "stdout".to_owned(), source }
        }
    })
}

/// Writes a line to stderr; a closed stderr is ignored (there is nowhere
/// left to report it).
pub fn warn(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}

/// `println!` that returns [`CliError`] instead of panicking.
macro_rules! outln {
    () => { $crate::out::print("\n") };
    ($($arg:tt)*) => { $crate::out::print(&format!("{}\n", format_args!($($arg)*))) };
}
pub(crate) use outln;
