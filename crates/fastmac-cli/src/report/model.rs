//! The report's data model: what was measured on this machine, and the
//! tables built from it. Rendering (terminal, HTML, SVG) reads only this.

use std::collections::HashMap;

use super::plan::{Impl, Job};

/// One measured row, in the fields of results.json.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Algorithm name.
    pub alg: String,
    /// Implementation.
    pub imp: Impl,
    /// Message size in bytes.
    pub size: usize,
    /// Median wall time per message.
    pub ns_per_msg: f64,
    /// Throughput in 10^9 bytes per second.
    pub gb_per_s: f64,
    /// Core cycles per byte (ns times the measured core clock); `None` when
    /// the clock could not be measured.
    pub cycles_per_byte: Option<f64>,
    /// The row as `fastmac bench --json` prints it (results.json copies it).
    pub json: serde_json::Value,
}

impl Row {
    /// Recomputes the cycle figures with one clock for the whole run: a
    /// clock measured while this process was descheduled reads low, and
    /// would skew the cycles of one size only.
    pub fn use_clock(&mut self, ghz: f64) {
        let cycles_per_msg = self.ns_per_msg * ghz;
        self.cycles_per_byte = (self.size > 0).then(|| cycles_per_msg / self.size as f64);
        if let serde_json::Value::Object(fields) = &mut self.json {
            fields.insert("cycles_per_byte".into(), serde_json::json!(self.cycles_per_byte));
            fields.insert("cycles_per_msg".into(), serde_json::json!(cycles_per_msg));
        }
    }
}

/// A job that was not run, and why (the algorithm is not in this build,
/// or a comparator library is absent).
#[derive(Debug, Clone, PartialEq)]
pub struct Missing {
    /// What was not measured.
    pub job: Job,
    /// Why, in a few words.
    pub reason: String,
}

/// The machine and the method, printed on every page.
#[derive(Debug, Clone, PartialEq)]
pub struct Machine {
    /// CPU model name.
    pub cpu: String,
    /// Logical CPUs.
    pub cpus: usize,
    /// The NH backend fastmac dispatched to.
    pub backend: String,
    /// The core clock in GHz measured in this process, when it could be.
    pub clock_ghz: Option<f64>,
    /// How cycles are derived from time, in one sentence.
    pub clock_method: String,
    /// When the run started (UTC, ISO 8601).
    pub date: String,
    /// Whether GNU Nettle was found, or why not.
    pub nettle: String,
    /// The report's own parameters (`--quick`, time per measurement).
    pub run: String,
    /// The machine as `fastmac bench --json` prints it.
    pub json: serde_json::Value,
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
    index: HashMap<(String, Impl, usize), usize>,
}

impl Results {
    /// Indexes the rows for lookup.
    pub fn new(machine: Machine, rows: Vec<Row>, missing: Vec<Missing>) -> Results {
        let index = rows.iter().enumerate().map(|(i, row)| ((row.alg.clone(), row.imp, row.size), i)).collect();
        Results { machine, rows, missing, index }
    }

    /// The row of one algorithm, implementation and size, if measured.
    pub fn get(&self, alg: &str, imp: Impl, size: usize) -> Option<&Row> {
        self.index.get(&(alg.to_owned(), imp, size)).map(|&i| &self.rows[i])
    }

    /// Why a job is missing, if it is.
    pub fn why_missing(&self, alg: &str, imp: Impl) -> Option<&str> {
        self.missing.iter().find(|m| m.job.alg == alg && m.job.imp == imp).map(|m| m.reason.as_str())
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
