//! fastmac's benchmark: the measurement core, the comparators it times
//! fastmac against, and the report of the source papers' tables and charts.
//! Its user is the `fastmac` command (crates/fastmac-cli): `fastmac bench`
//! and the cost figures of `fastmac gears`. It parses no argument and
//! writes nothing to stdout: it returns the text, and the command prints it.
//!
//! * [`measure`]: what can be timed (fastmac and the comparators, one
//!   registry), the one timing loop, the core clock, and the typed results.
//! * [`mod@bench`]: `fastmac bench` with an algorithm list, sizes, a time or
//!   `--json`: the comparison table or the JSON run; with `--keys`, the
//!   cost per packet against the number of live keys.
//! * [`report`]: `fastmac bench` with no such option: the papers' tables,
//!   printed and written as a report folder (HTML, SVG, JSON).
//! * [`gear_table`] and [`gear_chart`]: the gears' measured costs and their
//!   strength-versus-cost chart (`fastmac gears table`, and the budget of
//!   `fastmac gears recv`).
//! * [`chart`]: the SVG charts of the report and of the gears.
//!
//! Progress and the subjects left out are told on stderr as the run goes.

pub mod bench;
pub mod chart;
pub mod gear_chart;
pub mod gear_table;
pub mod measure;
pub mod report;

use std::fmt;
use std::io::{self, Write as _};

/// Why a benchmark or report did not run to its end.
#[derive(Debug)]
pub enum Error {
    /// The measurement could not run (its thread pool, a subject that
    /// fails its own check), or its result could not be serialized.
    Measure(String),
    /// A file or folder that could not be written.
    Write {
        /// The file or folder.
        what: String,
        /// The operating system's error.
        source: io::Error,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Measure(message) => f.write_str(message),
            Error::Write { what, source } => write!(f, "cannot write {what}: {source}"),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::Measure(_) => None,
            Error::Write { source, .. } => Some(source),
        }
    }
}

/// `bytes` with the largest suffix (K, M) that divides it, as `fastmac
/// bench --sizes` takes it.
pub fn human(bytes: usize) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{}M", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{}K", b >> 10),
        b => b.to_string(),
    }
}

/// Writes a line to stderr; a closed stderr is ignored (there is nowhere
/// left to report it).
fn warn(line: &str) {
    let _ = writeln!(io::stderr().lock(), "{line}");
}
