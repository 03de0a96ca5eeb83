//! `fastmac bench` with no algorithm list: the source papers' tables and
//! charts, measured on this machine, and a packet's cost when many keys are
//! live, printed to the terminal and written to a report folder
//! (index.html, one .svg per chart, results.json).
//!
//! The measuring belongs to the measurement core ([`crate::measure`]); this
//! module decides what to measure, in which time budget, and how to show
//! it.

mod html;
mod json;
mod model;
mod paper;
mod plan;
mod progress;
mod tables;
mod text;

use std::path::{Path, PathBuf};
use std::time::Duration;

use model::{KeysRun, Missing, Results, Table};
use plan::{Imp, Job};
use progress::Progress;

use crate::Error;
use crate::chart::Chart;
use crate::measure::Subject;
use crate::measure::subjects::Entry;

/// `fastmac bench` with no algorithm list: measure, write the folder, and
/// return what the terminal shows. The folder is checked first, so an
/// unwritable `out` fails before a minute of measuring.
pub fn run(quick: bool, out: &Path) -> Result<Written, Error> {
    writable_dir(out)?;
    let (budget, mode, key_counts) = if quick {
        (MEASURING_QUICK, "--quick", plan::KEYS_COUNTS_QUICK)
    } else {
        (MEASURING, "default", plan::KEYS_COUNTS)
    };
    let started = std::time::Instant::now();
    let results = measure(budget, mode, key_counts).map_err(Error::Measure)?;
    let report = Report::new(results);
    let files = report.write(out).map_err(|source| Error::Write { what: out.display().to_string(), source })?;
    Ok(Written { text: report.to_text(), files, started })
}

/// A report run and written.
pub struct Written {
    /// The tables as the terminal shows them.
    pub text: String,
    /// The files written.
    pub files: Vec<PathBuf>,
    started: std::time::Instant,
}

impl Written {
    /// The closing line for stderr: the run's time so far and the files.
    pub fn summary(&self) -> String {
        format!(
            "fastmac bench: {:.1} s; wrote {}",
            self.started.elapsed().as_secs_f64(),
            self.files.iter().map(|f| f.display().to_string()).collect::<Vec<_>>().join(", ")
        )
    }
}

/// Fails at once, before a long measurement, if `dir` cannot be created or
/// a file cannot be written in it.
fn writable_dir(dir: &Path) -> Result<(), Error> {
    let failed = |source| Error::Write { what: dir.display().to_string(), source };
    std::fs::create_dir_all(dir).map_err(failed)?;
    let probe = dir.join(format!(".fastmac-write-check-{}", std::process::id()));
    std::fs::write(&probe, b"").map_err(failed)?;
    std::fs::remove_file(&probe).map_err(failed)
}

/// Measuring time of a whole run, shared by every job: `fastmac bench`
/// takes at most 90 s and `--quick` at most 15 s, less what key setup,
/// clock calibration, the many-keys run (a few seconds, [`measure_keys`])
/// and writing the folder cost.
const MEASURING: Duration = Duration::from_secs(72);
/// The measuring time of `--quick`.
const MEASURING_QUICK: Duration = Duration::from_secs(9);

/// The subjects of every job, each measured only at its jobs' sizes, and
/// the jobs that cannot be measured here (no subject in this build, Nettle
/// absent), with why.
fn prepare(jobs: &[Job], registry: &[Entry]) -> (Vec<Subject>, Vec<Missing>) {
    let mut groups: Vec<(&str, Imp, Vec<usize>)> = Vec::new();
    for job in jobs {
        match groups.iter_mut().find(|g| g.0 == job.alg && g.1 == job.imp) {
            Some(group) => group.2.push(job.size),
            None => groups.push((&job.alg, job.imp, vec![job.size])),
        }
    }
    let mut subjects = Vec::new();
    let mut missing = Vec::new();
    for (alg, imp, sizes) in groups {
        let made = match registry.iter().find(|e| e.alg == alg && e.imp == imp) {
            Some(entry) => entry.make(),
            None => Err("not in this build of fastmac".to_owned()),
        };
        match made {
            Ok(subject) => subjects.push(subject.only_at(sizes)),
            Err(reason) => missing.extend(
                sizes
                    .into_iter()
                    .map(|size| Missing { job: Job { alg: alg.to_owned(), imp, size }, reason: reason.clone() }),
            ),
        }
    }
    (subjects, missing)
}

/// Runs every job of the first eight tables within `budget`, then the
/// many-keys table's run at `key_counts` live keys, each with a progress
/// bar.
fn measure(budget: Duration, mode: &str, key_counts: &[usize]) -> Result<Results, String> {
    let jobs = plan::jobs(crate::measure::GEAR_NAMES);
    let (mut subjects, missing) = prepare(&jobs, &crate::measure::registry());
    let mut sizes: Vec<usize> = jobs.iter().map(|j| j.size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let measured = jobs.len() - missing.len();
    let per_job = budget / measured.max(1) as u32;
    let mut notes: Vec<String> =
        missing.iter().map(|m| format!("{} ({}) not measured: {}", m.job.alg, m.job.imp.name(), m.reason)).collect();
    notes.dedup();
    let passes = crate::measure::timing::PASSES;
    let mut progress = Progress::new(sizes.len() * passes);
    let mut step = 0;
    let run = crate::measure::run(&mut subjects, &sizes, per_job, notes, |size, count| {
        progress.step(&format!("pass {} of {passes}: {count} MACs at {size} B", step / sizes.len() + 1));
        step += 1;
    })?;
    progress.finish();
    let keys = measure_keys(key_counts);
    let summary = format!(
        "{mode}: {} measurements in {:.0} s of measuring time, medians of interleaved loops",
        run.results.len(),
        budget.as_secs_f64()
    );
    Ok(Results::new(run.machine, run.results, missing, keys, summary))
}

/// The many-keys table's run: the memory figures, then each MAC at every
/// count of live keys and size, a step of the progress bar each. It is
/// timed by its own fixed rounds, not from the shared budget: a cell's
/// rounds must each visit tens of thousands of keys.
fn measure_keys(key_counts: &[usize]) -> KeysRun {
    let mut progress = Progress::new(1 + plan::KEYS_ALGS.len());
    let counts = key_counts.iter().map(usize::to_string).collect::<Vec<_>>().join(", ");
    let run = crate::measure::many_keys::run(plan::KEYS_ALGS, key_counts, plan::KEYS_SIZES, |what| {
        progress.step(&format!("many keys ({counts} live keys): {what}"));
    });
    progress.finish();
    run
}

/// The report built from one run: tables in print order, and each chart
/// with the id of the table it follows.
pub struct Report {
    /// The run.
    pub results: Results,
    /// The nine tables.
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
            tables::picked(&results),
            tables::many_keys(&results),
        ];
        let charts = vec![
            ("sweep", tables::sweep_chart(&results)),
            ("badger", tables::badger_chart(&results)),
            ("strength", tables::strength_chart(&results)),
            ("keys", tables::many_keys_chart(&results)),
        ];
        Report { results, tables, charts }
    }

    /// What the terminal shows.
    pub fn to_text(&self) -> String {
        let mut out = text::machine(&self.results);
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
        put("index.html".into(), html::page(&self.results, &self.tables, &self.charts))?;
        for (_, chart) in &self.charts {
            put(format!("{}.svg", chart.id), chart.to_svg())?;
        }
        let badger = tables::badger_costs(&self.results).ok();
        put("results.json".into(), json::results(&self.results, badger.as_ref()))?;
        Ok(files)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::many_keys::{KeysRow, Memory};
    use crate::measure::{Clock, Machine, Row};

    /// Results with made-up, size-linear costs for every job but Badger's
    /// ("not in this build"): they exercise building and rendering, not
    /// measuring.
    fn synthetic() -> Results {
        let jobs = plan::jobs(crate::measure::GEAR_NAMES);
        let (badger, rest): (Vec<Job>, Vec<Job>) = jobs.into_iter().partition(|j| j.alg.starts_with("badger"));
        let missing = badger.into_iter().map(|job| Missing { job, reason: "not in this build".into() }).collect();
        let rows = rest
            .into_iter()
            .map(|job| {
                let per_byte = if job.alg.starts_with("hmac") { 2.0 } else { 0.05 };
                let ns = 20.0 + per_byte * job.size as f64;
                let mut row = Row {
                    alg: job.alg,
                    imp: job.imp,
                    size: job.size,
                    ns_per_msg: ns,
                    ns_min: ns,
                    gb_per_s: job.size as f64 / ns,
                    cycles_per_byte: None,
                    cycles_per_msg: None,
                    threads: 1,
                    backend: None,
                    state_bytes: None,
                    samples: 5,
                    loops: crate::measure::timing::Loops::default(),
                };
                row.use_clock(Some(3.0));
                row
            })
            .collect();
        let mut machine = Machine::describe(&Clock::default(), vec![]);
        machine.cpu = "test CPU".into();
        machine.core_clock_ghz = Some(3.0);
        let keys = synthetic_keys(&machine);
        Results::new(machine, rows, missing, keys, "synthetic".into())
    }

    /// A many-keys run at the default plan's points with made-up figures:
    /// one key costs 20 ns, 10 more per MAC down the plan, plus 0.1 ns per
    /// byte; each factor of 16 in live keys adds that cost again (4096
    /// keys: 4 times it, 65536: 5 times); from 4096 keys, half the states'
    /// mappings in 2 MiB pages.
    fn synthetic_keys(machine: &Machine) -> KeysRun {
        let mut results = Vec::new();
        for (i, &alg) in plan::KEYS_ALGS.iter().enumerate() {
            let aegis = alg == plan::AEGIS_128L;
            for &keys in plan::KEYS_COUNTS {
                for &size in plan::KEYS_SIZES {
                    let one_key = 20.0 + 10.0 * i as f64 + 0.1 * size as f64;
                    let ns = one_key * (1.0 + (keys as f64).log2() / 4.0);
                    results.push(KeysRow {
                        alg,
                        path: if aegis { "keyed state cloned per packet" } else { "one-shot" },
                        keys,
                        size,
                        ns_per_packet: ns,
                        ns_min: ns,
                        state_bytes: if aegis { 384 } else { 4032 },
                        huge_page_share: Some(if keys >= 4096 { 0.5 } else { 0.0 }),
                    });
                }
            }
        }
        KeysRun {
            machine: machine.clone(),
            memory: Memory { latency_ns: 95.5, overlapped_line_ns: 12.3, sequential_gb_s: 10.5 },
            transparent_huge_pages: Some("madvise".into()),
            rounds: 5,
            distinct_packets: 64,
            results,
        }
    }

    #[test]
    fn a_run_renders_every_table_chart_and_file() {
        let results = synthetic();
        assert!(results.missing.iter().all(|m| m.job.alg.starts_with("badger")));
        assert_eq!(results.machine.core_clock_ghz, Some(3.0));
        let report = Report::new(results);
        assert_eq!(report.tables.len(), 9);
        let text = report.to_text();
        assert!(text.contains("UMAC-64") && text.contains("Badger-64: not in this build"));
        let dir = std::env::temp_dir().join(format!("fastmac-report-unit-{}", std::process::id()));
        let files = report.write(&dir).unwrap();
        let names: Vec<String> = files.iter().map(|f| f.file_name().unwrap().to_string_lossy().into_owned()).collect();
        assert_eq!(names, ["index.html", "figure1.svg", "figure6.svg", "strength.svg", "keys.svg", "results.json"]);
        let html = std::fs::read_to_string(dir.join("index.html")).unwrap();
        assert_eq!(html.matches("<svg").count(), 4);
        let json: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap()).unwrap();
        assert_eq!(json["results"].as_array().unwrap().len(), report.results.rows.len());
        assert_eq!(json["missing"][0]["reason"], "not in this build");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The many-keys run reaches the terminal, the page, its own SVG and
    /// results.json: every row with its state bytes, each cell with its
    /// multiple of the one-key figure, the memory line, and a line per MAC
    /// and size through every count of keys.
    #[test]
    fn many_keys_render_as_table_9_its_chart_and_json() {
        let report = Report::new(synthetic());
        let text = report.to_text();
        let table = &text[text.find("9. Many live keys").expect("table 9 printed")..];
        assert!(table.contains("memory past the caches: 95.5 ns per dependent miss, 12.3 ns per line"), "{table}");
        let row = |name: &str, keys: &str| {
            table
                .lines()
                .find(|l| l.starts_with(name) && l[name.len()..].split_whitespace().next() == Some(keys))
                .unwrap_or_else(|| panic!("no {name} row at {keys} keys: {table}"))[name.len()..]
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        };
        // One key: 20 + 0.1 per byte; 65536 keys: 5 times that.
        assert_eq!(row("UMAC-64", "1"), "1 4032 0% 26.4 170.0");
        assert_eq!(row("UMAC-64", "65536"), "65536 4032 50% 132.0 (5.0x) 850.0 (5.0x)");
        assert_eq!(row("UMAC-128", "4096"), "4096 4032 50% 145.6 (4.0x) 720.0 (4.0x)");
        assert_eq!(row("AEGISMAC-128L keyed (aegis crate)", "65536"), "65536 384 50% 232.0 (5.0x) 950.0 (5.0x)");
        assert!(table.contains("transparent huge pages: madvise; 2 MiB pages = the share"), "{table}");
        assert!(table.contains("AEGISMAC-128L keyed (aegis crate): keyed state cloned per packet"), "{table}");

        let html = html::page(&report.results, &report.tables, &report.charts);
        assert!(html.contains("<section id=\"keys\"><h2>9. Many live keys") && html.contains("id=\"chart-keys\""));

        let (_, chart) = report.charts.iter().find(|(after, _)| *after == "keys").expect("a chart after table 9");
        let svg = chart.to_svg();
        let doc = roxmltree::Document::parse(&svg).expect("the SVG parses");
        let series: Vec<(&str, usize)> = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("series"))
            .map(|n| {
                let points = n.children().filter(|c| c.tag_name().name() == "circle").count();
                (n.attribute("data-series").unwrap_or_default(), points)
            })
            .collect();
        let names: Vec<&str> = series.iter().map(|s| s.0).collect();
        assert_eq!(
            names,
            [
                "UMAC-64, 64 B",
                "UMAC-64, 1500 B",
                "UMAC-128, 64 B",
                "UMAC-128, 1500 B",
                "AEGISMAC-128L keyed, 64 B",
                "AEGISMAC-128L keyed, 1500 B"
            ]
        );
        assert!(series.iter().all(|s| s.1 == plan::KEYS_COUNTS.len()), "{series:?}");
        assert!(svg.contains("live keys (log scale)") && svg.contains(">65536</text>") && svg.contains(">4096</text>"));

        let json: serde_json::Value =
            serde_json::from_str(&json::results(&report.results, None)).expect("results.json parses");
        let keys = &json["many_keys"];
        assert_eq!(keys["memory"]["latency_ns"], 95.5);
        assert_eq!(keys["transparent_huge_pages"], "madvise");
        let rows = keys["results"].as_array().expect("many_keys.results");
        assert_eq!(rows.len(), plan::KEYS_ALGS.len() * plan::KEYS_COUNTS.len() * plan::KEYS_SIZES.len());
        let aegis = rows.iter().find(|r| r["alg"] == plan::AEGIS_128L && r["keys"] == 65536 && r["size"] == 1500);
        assert_eq!(
            aegis.map(|r| (r["ns_per_packet"].as_f64(), r["state_bytes"].as_u64(), r["huge_page_share"].as_f64())),
            Some((Some(950.0), Some(384), Some(0.5)))
        );
    }

    #[test]
    fn table_8_lists_only_macs_each_against_the_umac_of_its_comparison() {
        let results = synthetic();
        let table = tables::picked(&results);
        let names: Vec<&str> = table.rows.iter().map(|(_, cells)| cells[0].as_str()).collect();
        assert!(names.iter().all(|n| !n.contains("NH ceiling") && !n.contains("read")), "{names:?}");
        assert_eq!(names.len(), plan::picked().len());
        assert!(plan::picked().iter().all(|(_, imp)| imp.is_mac()));
        // 1024 B is the third comparator size: each ratio is the row's time
        // over its UMAC's (Nettle's against the same tag length).
        let column = 1 + plan::COMPARATOR_SIZES.iter().position(|&s| s == 1024).unwrap();
        let ns = |alg: &str, imp| results.get(alg, imp, 1024).unwrap().ns_per_msg;
        for ((alg, imp), (_, cells)) in plan::picked().into_iter().zip(&table.rows) {
            if imp == Imp::Fastmac {
                continue;
            }
            let ours = if imp == Imp::Nettle { alg } else { "umac-128" };
            let expected = format!("({})", model::times(Some(ns(alg, imp) / ns(ours, Imp::Fastmac))));
            assert!(cells[column].ends_with(&expected), "{alg} {imp:?}: {} against {expected}", cells[column]);
        }
    }

    #[test]
    fn the_size_axes_mark_1500_bytes_and_the_sweep_says_why_umac_steps_there() {
        let report = Report::new(synthetic());
        // Every chart but two has message size on its x axis: the strength
        // chart's is cycles per byte, the many-keys chart's live keys.
        for (_, chart) in report.charts.iter().filter(|(_, c)| !["strength", "keys"].contains(&c.id)) {
            assert!(chart.to_svg().contains(">1500</text>"), "{} has no 1500 B tick", chart.id);
        }
        let sweep = report.tables.iter().find(|t| t.id == "sweep").unwrap();
        assert!(sweep.notes.iter().any(|n| n == tables::PAST_ONE_CHUNK));
        assert!(report.to_text().contains("UMAC's time steps up past 1024 bytes"));
    }

    #[test]
    fn an_absent_openssl_is_said_in_the_header_and_under_its_rows() {
        // The reason a wrong soname gives, as a run without libcrypto has it.
        let why = crate::measure::openssl::OpenSsl::load("libcrypto.so.0-absent").err().unwrap().to_string();
        let full = synthetic();
        let (absent, rows): (Vec<Row>, Vec<Row>) = full.rows.into_iter().partition(|r| r.imp == Imp::OpenSsl);
        assert!(!absent.is_empty());
        let mut missing = full.missing;
        missing.extend(
            absent
                .into_iter()
                .map(|r| Missing { job: Job { alg: r.alg, imp: r.imp, size: r.size }, reason: why.clone() }),
        );
        let mut machine = full.machine;
        machine.openssl = format!("absent: {why}");
        let text = Report::new(Results::new(machine, rows, missing, full.keys, "synthetic".into())).to_text();
        assert!(text.contains("OpenSSL:    absent: libcrypto.so.0-absent not loaded: "), "{text}");
        let table8 = &text[text.find("8. fastmac against the MACs").unwrap()..];
        assert!(
            table8.contains(&format!("Poly1305 (OpenSSL): {why}"))
                && table8.contains(&format!("AES-128-GMAC (OpenSSL): {why}")),
            "{table8}"
        );
        assert!(
            table8.lines().any(|l| l.starts_with("Poly1305 (OpenSSL)") && l.contains(model::NOT_MEASURED)),
            "{table8}"
        );
    }

    #[test]
    fn every_job_has_a_subject_in_the_registry() {
        let jobs = plan::jobs(crate::measure::GEAR_NAMES);
        let registry = crate::measure::registry();
        for job in &jobs {
            assert!(registry.iter().any(|e| e.alg == job.alg && e.imp == job.imp), "{job:?}");
        }
    }

    #[test]
    fn a_job_without_a_subject_is_missing_with_a_reason() {
        let job = |alg: &str, size| Job { alg: alg.into(), imp: Imp::Fastmac, size };
        let (subjects, missing) =
            prepare(&[job("umac-64", 32), job("md4", 32), job("md4", 64)], &crate::measure::registry());
        assert_eq!(subjects.len(), 1);
        assert!(subjects[0].applies_to(32) && !subjects[0].applies_to(64));
        assert_eq!(missing.len(), 2);
        assert!(missing.iter().all(|m| m.job.alg == "md4" && m.reason == "not in this build of fastmac"));
    }
}
