//! The report's data model: what was measured on this machine, and the
//! tables built from it. Rendering (terminal, HTML, SVG) reads only this.

use std::collections::HashMap;

use serde::Serialize;

pub use crate::measure::many_keys::KeysRun;
pub use crate::measure::{Machine, Row};

use super::plan::{Imp, Job};

/// A job that was not run, and why (the algorithm is not in this build,
/// or a comparator library is absent).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Missing {
    /// What was not measured.
    #[serde(flatten)]
    pub job: Job,
    /// Why, in a few words.
    pub reason: String,
}

/// Everything one run produced.
#[derive(Debug, Clone)]
pub struct Results {
    /// The machine.
    pub machine: Machine,
    /// Measured rows.
    pub rows: Vec<Row>,
    /// Jobs not run.
    pub missing: Vec<Missing>,
    /// The many-keys table's run (`fastmac bench --keys` at the report's
    /// few points).
    pub keys: KeysRun,
    /// The report's own parameters (`--quick`, measuring time).
    pub run: String,
    index: HashMap<(String, Imp, usize), usize>,
}

impl Results {
    /// Indexes the rows for lookup.
    pub fn new(machine: Machine, rows: Vec<Row>, missing: Vec<Missing>, keys: KeysRun, run: String) -> Results {
        let index = rows.iter().enumerate().map(|(i, row)| ((row.alg.clone(), row.imp, row.size), i)).collect();
        Results { machine, rows, missing, keys, run, index }
    }

    /// The row of one algorithm, implementation and size, if measured.
    pub fn get(&self, alg: &str, imp: Imp, size: usize) -> Option<&Row> {
        self.index.get(&(alg.to_owned(), imp, size)).map(|&i| &self.rows[i])
    }

    /// Why a job is missing, if it is.
    pub fn why_missing(&self, alg: &str, imp: Imp) -> Option<&str> {
        self.missing.iter().find(|m| m.job.alg == alg && m.job.imp == imp).map(|m| m.reason.as_str())
    }
}

impl Results {
    /// The machine and the run, as (name, value) lines for every page.
    pub fn header(&self) -> Vec<(&'static str, String)> {
        let m = &self.machine;
        let clock = m.core_clock_ghz.map_or("not measured".to_owned(), |g| format!("{g:.2} GHz"));
        vec![
            ("CPU", format!("{} ({} logical CPUs)", m.cpu, m.logical_cpus)),
            ("backend", m.fastmac_backend.to_owned()),
            ("clock", format!("{clock}; {}", m.clock_method)),
            ("timer", m.timer.clone()),
            ("GNU Nettle", m.nettle.clone()),
            ("OpenSSL", m.openssl.clone()),
            ("BLAKE3", m.blake3.clone()),
            ("AEGIS", m.aegis.clone()),
            ("measured", m.date.clone()),
            ("run", self.run.clone()),
        ]
    }
}

/// How a table row should look.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RowKind {
    /// fastmac, measured on this machine.
    Fastmac,
    /// Another implementation, measured on this machine in the same run.
    Comparator,
    /// A row the paper printed that has no counterpart here.
    PaperOnly,
}

/// One table of the report.
#[derive(Debug, Clone)]
pub struct Table {
    /// Anchor and file stem (`openssh`, `acsa`, ...).
    pub id: &'static str,
    /// Heading.
    pub title: String,
    /// Which paper and table it reproduces.
    pub source: String,
    /// Column headings.
    pub header: Vec<String>,
    /// Rows of formatted cells, each with its kind.
    pub rows: Vec<(RowKind, Vec<String>)>,
    /// Notes printed under the table (units, how cycles were obtained,
    /// what is missing).
    pub notes: Vec<String>,
}

/// The text of a cell that was not measured.
pub const NOT_MEASURED: &str = "missing";

/// The text of a cell the paper did not print.
pub const NOT_PRINTED: &str = "";

/// Formats a number with three significant digits (more for large
/// integers), the precision a noisy shared VM supports.
pub fn sig3(value: f64) -> String {
    if !value.is_finite() {
        return NOT_MEASURED.to_owned();
    }
    let magnitude = value.abs();
    if magnitude >= 100.0 {
        format!("{value:.0}")
    } else if magnitude >= 10.0 {
        format!("{value:.1}")
    } else if magnitude >= 1.0 {
        format!("{value:.2}")
    } else if magnitude == 0.0 {
        "0".to_owned()
    } else {
        let decimals = (2 - magnitude.log10().floor() as i32).max(0) as usize;
        format!("{value:.decimals$}")
    }
}

/// Formats an optional measurement.
pub fn opt(value: Option<f64>) -> String {
    value.map(sig3).unwrap_or_else(|| NOT_MEASURED.to_owned())
}

/// Formats a speed-up factor (`12.3x`).
pub fn times(value: Option<f64>) -> String {
    value.map(|v| format!("{}x", sig3(v))).unwrap_or_else(|| NOT_MEASURED.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn three_significant_digits() {
        assert_eq!(sig3(1234.4), "1234");
        assert_eq!(sig3(12.345), "12.3");
        assert_eq!(sig3(1.2345), "1.23");
        assert_eq!(sig3(0.012345), "0.0123");
        assert_eq!(sig3(0.5), "0.500");
        assert_eq!(sig3(f64::NAN), NOT_MEASURED);
    }
}
