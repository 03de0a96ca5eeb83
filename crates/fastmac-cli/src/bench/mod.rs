//! `fastmac bench`: fastmac against other MACs and the memory read limit,
//! in one process, so that the ratios hold even on a noisy machine.
//!
//! * [`subjects`] is the registry of what can be measured (an algorithm and
//!   an implementation each); adding a row to its table adds a benchmark.
//! * [`measure`] times them: loops of at least 0.5 ms on the monotonic
//!   clock, subjects interleaved round by round, medians.
//! * [`clock`] measures the core clock in-process, to turn ns into cycles.
//! * [`report`] is the results type: a table, or the JSON schema.

pub(crate) mod clock;
pub(crate) mod measure;
mod nettle;
mod read_limit;
mod report;
pub(crate) mod subjects;

use std::time::Duration;

use clap::Args;

use crate::input::CliError;
pub use report::{Machine, Report};
pub use subjects::Subject;

/// Default message sizes: packets, a page, and bulk.
const DEFAULT_SIZES: [usize; 7] = [32, 512, 1024, 1500, 4096, 65_536, 1_048_576];

/// Arguments of `fastmac bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Algorithms to run, comma-separated (default: all). Names: umac-32,
    /// umac-64, umac-96, umac-128, hmac-sha256, poly1305, read-limit.
    #[arg(long, value_delimiter = ',')]
    algs: Vec<String>,
    /// Message sizes in bytes, comma-separated; suffixes K and M (x1024).
    #[arg(long, value_delimiter = ',', value_parser = parse_size)]
    sizes: Vec<usize>,
    /// Measuring time per algorithm and size, in seconds [default: 0.2].
    #[arg(long)]
    seconds: Option<f64>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// With none of the options above: the papers' tables in about 15 s
    /// instead of 90.
    #[arg(long, conflicts_with_all = ["algs", "sizes", "seconds", "json"])]
    quick: bool,
    /// With none of the options above: where to write the report folder
    /// (index.html, one .svg per chart, results.json).
    #[arg(long, value_name = "DIR", default_value = "fastmac-report", conflicts_with_all = ["algs", "sizes", "seconds", "json"])]
    out: std::path::PathBuf,
}

impl BenchArgs {
    /// No algorithm, size, time or JSON asked for: the papers' report
    /// (issue 7) rather than the comparison table.
    fn wants_report(&self) -> bool {
        self.algs.is_empty() && self.sizes.is_empty() && self.seconds.is_none() && !self.json
    }
}

fn parse_size(text: &str) -> Result<usize, String> {
    let (digits, scale) = match text.as_bytes().last() {
        Some(b'K' | b'k') => (&text[..text.len() - 1], 1 << 10),
        Some(b'M' | b'm') => (&text[..text.len() - 1], 1 << 20),
        _ => (text, 1),
    };
    let n: usize = digits.parse().map_err(|_| format!("not a size: {text:?}"))?;
    n.checked_mul(scale).filter(|&s| s > 0).ok_or_else(|| format!("size out of range: {text:?}"))
}

/// Runs the benchmark and prints the report.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    if args.wants_report() {
        return crate::report::run(args.quick, &args.out);
    }
    let seconds = args.seconds.unwrap_or(0.2);
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 600.0) {
        return Err(CliError::Usage(format!("--seconds must be in (0, 600], got {seconds}")));
    }
    let sizes = if args.sizes.is_empty() { DEFAULT_SIZES.to_vec() } else { args.sizes.clone() };
    let registry = subjects::registry();
    for alg in &args.algs {
        if !registry.iter().any(|entry| entry.alg == alg) {
            let known: Vec<&str> = subjects::alg_names(&registry);
            return Err(CliError::Usage(format!("unknown benchmark algorithm {alg:?} (known: {})", known.join(", "))));
        }
    }
    let wanted = |alg: &str| args.algs.is_empty() || args.algs.iter().any(|a| a == alg);
    let (mut subjects, notes) = subjects::instantiate(&registry, wanted);
    let budget = Duration::from_secs_f64(seconds);
    let mut machine = Machine::describe(notes);
    let mut rows = Vec::new();
    // Everything is measured on the one thread of a one-thread rayon pool:
    // there the library's large-input path is sequential (the single-core
    // figure), with no thread hand-off per loop; the parallel subjects
    // install their loops into a pool of their own.
    let single = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| CliError::Usage(format!("cannot start the benchmark thread: {e}")))?;
    single.install(|| {
        for &size in &sizes {
            let ghz = clock::core_ghz();
            machine.record_clock(ghz);
            rows.extend(measure::measure_size(&mut subjects, size, budget, ghz));
        }
    });
    let report = Report { machine, results: rows };
    if args.json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.to_table());
    }
    Ok(())
}
