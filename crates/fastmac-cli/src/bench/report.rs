//! The results of a run: a table for people, or one JSON object in the
//! schema of issue 3: `{"machine": {...}, "results": [{"alg", "impl",
//! "size", "ns_per_msg", "gb_per_s", "cycles_per_byte", ...}]}`.

use std::fmt::Write as _;

use serde::Serialize;

use super::clock;

/// One measured cell.
#[derive(Serialize, Clone, Debug)]
pub struct ResultRow {
    pub alg: String,
    #[serde(rename = "impl")]
    pub implementation: String,
    /// Message size in bytes.
    pub size: usize,
    /// Median time per message, ns.
    pub ns_per_msg: f64,
    /// Fastest loop, ns per message: on a shared machine the least
    /// disturbed run, for reference next to the median.
    pub ns_min: f64,
    /// 10^9 bytes per second.
    pub gb_per_s: f64,
    /// Core cycles per byte (`null` where the clock is not measured).
    pub cycles_per_byte: Option<f64>,
    /// Core cycles per message.
    pub cycles_per_msg: Option<f64>,
    pub threads: usize,
    /// fastmac's NH backend, for fastmac rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend: Option<String>,
    /// Timed loops behind the median.
    pub samples: usize,
}

/// What the numbers were measured on.
#[derive(Serialize, Clone, Debug)]
pub struct Machine {
    pub cpu: String,
    pub logical_cpus: usize,
    pub os: String,
    pub arch: String,
    /// fastmac's NH backend (detected, or forced by FASTMAC_BACKEND).
    pub fastmac_backend: String,
    /// Median of the core clock measured before each size, GHz.
    pub core_clock_ghz: Option<f64>,
    pub core_clock_range_ghz: Option<[f64; 2]>,
    pub clock_method: String,
    pub timer: String,
    /// Nettle's version, or why it was not measured.
    pub nettle: String,
    /// Subjects that could not be measured, and why.
    pub notes: Vec<String>,
    #[serde(skip)]
    clocks: Vec<f64>,
}

impl Machine {
    /// Describes this machine; `notes` are the subjects left out.
    pub fn describe(notes: Vec<String>) -> Self {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split(':').nth(1))
                    .map(|s| s.trim().to_owned())
            })
            .unwrap_or_else(|| "unknown".to_owned());
        let nettle = match super::nettle::Nettle::get() {
            Ok(lib) => format!("libnettle.so.8, version {}", lib.version),
            Err(why) => format!("absent: {why}"),
        };
        Machine {
            cpu,
            logical_cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            os: std::env::consts::OS.to_owned(),
            arch: std::env::consts::ARCH.to_owned(),
            fastmac_backend: fastmac::umac::Backend::detect().name().to_owned(),
            core_clock_ghz: None,
            core_clock_range_ghz: None,
            clock_method: clock::METHOD.to_owned(),
            timer: "std::time::Instant (CLOCK_MONOTONIC); loops >= 0.5 ms; subjects interleaved; medians".to_owned(),
            nettle,
            notes,
            clocks: Vec::new(),
        }
    }

    /// Records one clock measurement.
    pub fn record_clock(&mut self, ghz: Option<f64>) {
        if let Some(g) = ghz {
            self.clocks.push(g);
            let mut sorted = self.clocks.clone();
            sorted.sort_by(f64::total_cmp);
            self.core_clock_ghz = Some(sorted[sorted.len() / 2]);
            self.core_clock_range_ghz = Some([sorted[0], sorted[sorted.len() - 1]]);
        }
    }
}

/// A whole run.
#[derive(Serialize, Clone, Debug)]
pub struct Report {
    pub machine: Machine,
    pub results: Vec<ResultRow>,
}

impl Report {
    /// The JSON object (pretty-printed).
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("plain data serializes")
    }

    /// ns/message of `alg` by `implementation` at `size`, if measured.
    pub fn ns(&self, alg: &str, implementation: &str, size: usize) -> Option<f64> {
        self.results
            .iter()
            .find(|r| r.alg == alg && r.implementation == implementation && r.size == size)
            .map(|r| r.ns_per_msg)
    }

    /// A text table; fastmac rows also show how many times faster than
    /// Nettle (UMAC) or than one core (the parallel rows) they are.
    pub fn to_table(&self) -> String {
        let m = &self.machine;
        let mut out = String::new();
        let clock = m.core_clock_ghz.map_or("not measured".to_owned(), |g| format!("{g:.2} GHz"));
        let _ = writeln!(out, "{} ({} logical CPUs), core clock {clock}, NH backend {}", m.cpu, m.logical_cpus, m.fastmac_backend);
        let _ = writeln!(out, "nettle: {}", m.nettle);
        let _ = writeln!(
            out,
            "{:>9} {:<12} {:<17} {:>12} {:>9} {:>8} {:>9}  ratio",
            "size", "alg", "impl", "ns/msg", "GB/s", "c/B", "c/msg"
        );
        for r in &self.results {
            let ratio = if r.implementation == "fastmac" {
                self.ns(&r.alg, "nettle", r.size).map(|n| format!("{:.2}x nettle", n / r.ns_per_msg))
            } else if r.implementation == "fastmac-parallel" {
                self.ns(&r.alg, "fastmac", r.size).map(|n| format!("{:.2}x 1 core", n / r.ns_per_msg))
            } else {
                None
            };
            let _ = writeln!(
                out,
                "{:>9} {:<12} {:<17} {:>12.1} {:>9.2} {:>8} {:>9}  {}",
                r.size,
                r.alg,
                r.implementation,
                r.ns_per_msg,
                r.gb_per_s,
                r.cycles_per_byte.map_or("-".to_owned(), |c| format!("{c:.3}")),
                r.cycles_per_msg.map_or("-".to_owned(), |c| format!("{c:.0}")),
                ratio.unwrap_or_default()
            );
        }
        out
    }
}
