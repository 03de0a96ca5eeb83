//! `fastmac bench` with no algorithm list: the source papers' tables and
//! charts (issue 7), measured on this machine, printed to the terminal and
//! written to a report folder (index.html, one .svg per chart,
//! results.json).
//!
//! The measuring itself belongs to the bench module (one timing loop for
//! the whole CLI); this module decides what to measure, in which time
//! budget, and how to show it.

mod chart;
mod gears;
mod html;
mod json;
mod live;
mod model;
mod paper;
mod plan;
mod progress;
mod subjects;
mod tables;
mod text;

use std::path::{Path, PathBuf};
use std::time::Duration;

use chart::Chart;
use model::{Machine, Missing, Results, Row, Table};
use plan::Job;
use progress::Progress;

use crate::input::CliError;

/// `fastmac bench` with no algorithm list: measure, print the tables,
/// write the folder.
pub fn run(quick: bool, out: &Path) -> Result<(), CliError> {
    // A bad FASTMAC_BACKEND is reported, not silently ignored.
    crate::apply_backend_env()?;
    let (budget, mode) = if quick { (Budget::QUICK, "--quick") } else { (Budget::DEFAULT, "default") };
    let started = std::time::Instant::now();
    let mut results = measure(&mut live::Live::default(), budget);
    results.machine.run = format!(
        "{mode}: {} measurements in {:.0} s of measuring time, medians of interleaved loops",
        results.rows.len(),
        budget.measuring.as_secs_f64()
    );
    let report = Report::new(results);
    print!("{}", report.to_text());
    let files = report.write(out).map_err(|source| CliError::Write { what: out.display().to_string(), source })?;
    eprintln!(
        "fastmac bench: {:.1} s; wrote {}",
        started.elapsed().as_secs_f64(),
        files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ")
    );
    Ok(())
}

/// The time a whole run may take: the limits, less what key setup,
/// clock calibration and writing the folder cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Budget {
    /// Time spent measuring, shared by every job.
    pub measuring: Duration,
}

impl Budget {
    /// `fastmac bench`: at most 90 s.
    pub const DEFAULT: Budget = Budget { measuring: Duration::from_secs(72) };
    /// `fastmac bench --quick`: at most 15 s.
    pub const QUICK: Budget = Budget { measuring: Duration::from_secs(9) };
}

/// What the report asks of the bench module.
pub trait Measurer {
    /// The machine, the backend and the clock, after measuring.
    fn machine(&mut self) -> Machine;
    /// Algorithm names the library knows (for rows that appear once an
    /// issue lands, such as the gears).
    fn known_algorithms(&self) -> Vec<String>;
    /// Gets ready to measure `jobs`; returns those that cannot be measured
    /// here (an algorithm not in this build, Nettle absent), with why.
    fn prepare(&mut self, jobs: &[Job]) -> Vec<Missing>;
    /// Measures every prepared job of `size`, about `per_job` each.
    fn measure_size(&mut self, size: usize, per_job: Duration) -> Vec<Row>;
}

/// Runs every job of the seven tables within `budget`, with a progress bar.
pub fn measure(measurer: &mut dyn Measurer, budget: Budget) -> Results {
    let extra = plan::extra_acsa_algs(&measurer.known_algorithms());
    let jobs = plan::jobs(&extra);
    let mut missing = measurer.prepare(&jobs);
    let todo: Vec<&Job> = jobs.iter().filter(|j| !missing.iter().any(|m| m.job == **j)).collect();
    let mut sizes: Vec<usize> = todo.iter().map(|j| j.size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let per_job = budget.measuring / todo.len().max(1) as u32;
    let mut progress = Progress::new(sizes.len());
    let mut rows = Vec::with_capacity(todo.len());
    for size in sizes {
        let count = todo.iter().filter(|j| j.size == size).count();
        progress.step(&format!("{count} MACs at {size} B"));
        rows.extend(measurer.measure_size(size, per_job));
    }
    progress.finish();
    for job in todo {
        if !rows.iter().any(|r| r.alg == job.alg && r.imp == job.imp && r.size == job.size) {
            missing.push(Missing { job: job.clone(), reason: "the bench module returned no row".into() });
        }
    }
    let machine = measurer.machine();
    if let Some(ghz) = machine.clock_ghz {
        for row in &mut rows {
            row.use_clock(ghz);
        }
    }
    Results::new(machine, rows, missing)
}

/// The report built from one run: tables in print order, and each chart
/// with the id of the table it follows.
pub struct Report {
    /// The run.
    pub results: Results,
    /// The seven tables.
    pub tables: Vec<Table>,
    /// The charts: (id of the table they follow, chart).
    pub charts: Vec<(&'static str, Chart)>,
}

impl Report {
    /// Builds every table and chart.
    pub fn new(results: Results) -> Report {
        let tables = vec![
            tables::openssh(&results),
            tables::sweep(&results),
            tables::acsa(&results),
            tables::badger(&results),
            tables::go(&results),
            tables::strength(&results),
            tables::comparators(&results),
        ];
        let charts = vec![
            ("sweep", tables::sweep_chart(&results)),
            ("badger", tables::badger_chart(&results)),
            ("strength", tables::strength_chart(&results)),
        ];
        Report { results, tables, charts }
    }

    /// What the terminal shows.
    pub fn to_text(&self) -> String {
        let mut out = text::machine(&self.results.machine);
        for table in &self.tables {
            out.push_str(&text::table(table));
        }
        out
    }

    /// Writes index.html, one .svg per chart and results.json into `dir`,
    /// and returns the files written.
    pub fn write(&self, dir: &Path) -> std::io::Result<Vec<PathBuf>> {
        std::fs::create_dir_all(dir)?;
        let mut files = Vec::new();
        let mut put = |name: String, content: String| -> std::io::Result<()> {
            let path = dir.join(name);
            std::fs::write(&path, content)?;
            files.push(path);
            Ok(())
        };
        put("index.html".into(), html::page(&self.results.machine, &self.tables, &self.charts))?;
        for (_, chart) in &self.charts {
            put(format!("{}.svg", chart.id), chart.to_svg())?;
        }
        let badger = tables::badger_costs(&self.results).ok();
        put("results.json".into(), json::results(&self.results, badger.as_ref()))?;
        Ok(files)
    }
}

/// Today's date and time in UTC, ISO 8601, from the system clock.
pub fn utc_now() -> String {
    let secs = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let (days, rem) = (secs / 86_400, secs % 86_400);
    let (y, m, d) = civil_from_days(days as i64);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02}:{:02} UTC", rem / 3600, rem / 60 % 60, rem % 60)
}

/// Days since 1970-01-01 to (year, month, day), proleptic Gregorian
/// (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A measurer with made-up, size-linear costs: it exercises building
    /// and rendering, not measuring. Badger is "not implemented".
    struct Synthetic {
        jobs: Vec<Job>,
    }

    impl Measurer for Synthetic {
        fn machine(&mut self) -> Machine {
            Machine {
                cpu: "test CPU".into(),
                cpus: 2,
                backend: "portable".into(),
                clock_ghz: Some(3.0),
                clock_method: "synthetic".into(),
                date: utc_now(),
                nettle: "absent".into(),
                run: String::new(),
                json: serde_json::json!({"cpu": "test CPU"}),
            }
        }
        fn known_algorithms(&self) -> Vec<String> {
            vec!["umac-64".into()]
        }
        fn prepare(&mut self, jobs: &[Job]) -> Vec<Missing> {
            let (badger, rest): (Vec<Job>, Vec<Job>) = jobs.iter().cloned().partition(|j| j.alg.starts_with("badger"));
            self.jobs = rest;
            badger.into_iter().map(|job| Missing { job, reason: "not in this build".into() }).collect()
        }
        fn measure_size(&mut self, size: usize, _: Duration) -> Vec<Row> {
            self
                .jobs
                .iter()
                .filter(|j| j.size == size)
                .map(|job| {
                    let per_byte = if job.alg.starts_with("hmac") { 2.0 } else { 0.05 };
                    let ns = 20.0 + per_byte * job.size as f64;
                    Row {
                        alg: job.alg.clone(),
                        imp: job.imp,
                        size: job.size,
                        ns_per_msg: ns,
                        gb_per_s: job.size as f64 / ns,
                        cycles_per_byte: Some(ns * 3.0 / job.size as f64),
                        json: serde_json::json!({"alg": job.alg, "size": job.size, "ns_per_msg": ns}),
                    }
                })
                .collect()
        }
    }

    #[test]
    fn a_run_renders_every_table_chart_and_file() {
        let results = measure(&mut Synthetic { jobs: vec![] }, Budget { measuring: Duration::ZERO });
        assert!(results.missing.iter().all(|m| m.job.alg.starts_with("badger")));
        assert_eq!(results.machine.clock_ghz, Some(3.0));
        let report = Report::new(results);
        assert_eq!(report.tables.len(), 7);
        let text = report.to_text();
        assert!(text.contains("UMAC-64") && text.contains("Badger-64: not in this build"));
        let dir = std::env::temp_dir().join(format!("fastmac-report-unit-{}", std::process::id()));
        let files = report.write(&dir).unwrap();
        let names: Vec<String> =
            files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["index.html", "figure1.svg", "figure6.svg", "strength.svg", "results.json"]);
        let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
        assert_eq!(html.matches("<svg").count(), 3);
        let json: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
        assert_eq!(json["results"].as_array().unwrap().len(), report.results.rows.len());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn calendar_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_778), (2026, 11, 21));
    }
}
