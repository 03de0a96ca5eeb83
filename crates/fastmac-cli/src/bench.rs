//! `fastmac bench` with an algorithm list, sizes, a time or `--json`:
//! fastmac against other MACs and the memory read limit, in one process,
//! so that the ratios hold even on a noisy machine. The measuring is the
//! measurement core's ([`crate::measure`]); this module picks the subjects
//! and prints the run.

use std::fmt::Write as _;
use std::time::Duration;

use clap::Args;

use crate::input::CliError;
use crate::measure::{self, Imp, Row, Run, ratio};
use crate::{names, numbers};

/// The subjects measured when no `--algs` is given: UMAC at each tag
/// length (fastmac on one and all cores, Nettle) and the comparators.
const DEFAULT_ALGS: &[&str] = &[
    "umac-32",
    "umac-64",
    "umac-96",
    "umac-128",
    "hmac-sha2-256",
    "poly1305",
    "poly1305/given-key",
    "aes-128-gmac",
    "aes-128-gmac/gcm128",
    "aegismac-128l",
    "aegismac-128x2",
    "aegismac-128x4",
    "aegismac-256",
    "aegismac-128l/nonce",
    "aegismac-128x2/nonce",
    "aegismac-128x4/nonce",
    "aegismac-256/nonce",
    "blake3-keyed",
    "read-limit",
];

/// The fastmac row the 128-bit-tag comparators are set against.
const UMAC_128: &str = "umac-128";
/// The UMAC tag lengths in the order of the machine's `parallel_from`.
const PARALLEL_FROM_ALGS: [&str; 4] = ["umac-32", "umac-64", "umac-96", UMAC_128];

/// The largest message `--sizes` takes: 1 GiB (the benchmark holds one
/// message of each size in memory).
const MAX_SIZE: usize = 1 << 30;

/// Default message sizes: packets, a page, and bulk.
const DEFAULT_SIZES: [usize; 7] = [32, 512, 1024, 1500, 4096, 65_536, 1_048_576];

/// Arguments of `fastmac bench`.
#[derive(Args)]
pub struct BenchArgs {
    /// Algorithms to run, comma-separated, in any case: any name `fastmac
    /// list` prints (the SSH names too), poly1305, poly1305/given-key,
    /// aes-128-gmac, aes-128-gmac/gcm128, aegismac-128l, aegismac-128x2,
    /// aegismac-128x4, aegismac-256 (each also with /nonce), blake3-keyed
    /// or read-limit (default: umac-32, umac-64, umac-96, umac-128,
    /// hmac-sha2-256 and all of those). Each is measured in every
    /// implementation there is (fastmac, Nettle, OpenSSL, the aegis and
    /// blake3 crates, RustCrypto).
    #[arg(long, value_delimiter = ',')]
    algs: Vec<String>,
    /// Message sizes in bytes, comma-separated; suffixes K and M (x1024);
    /// 1 byte to 1024M.
    #[arg(long, value_delimiter = ',', value_parser = numbers::size(1, MAX_SIZE))]
    sizes: Vec<usize>,
    /// Measuring time per algorithm and size, in seconds, at most 600
    /// [default: 0.2].
    #[arg(long, value_parser = numbers::decimal(0.0, 600.0))]
    seconds: Option<f64>,
    /// Print one JSON object instead of a table.
    #[arg(long)]
    json: bool,
    /// With none of the options above: the papers' tables in about 15 s
    /// instead of 90.
    #[arg(long, conflicts_with_all = ["algs", "sizes", "seconds", "json"])]
    pub quick: bool,
    /// With none of the options above: where to write the report folder
    /// (index.html, one .svg per chart, results.json).
    #[arg(long, value_name = "DIR", default_value = "fastmac-report", conflicts_with_all = ["algs", "sizes", "seconds", "json"])]
    pub out: std::path::PathBuf,
    /// Per-packet cost against the number of live keys (one keyed state per
    /// connection, visited in a scattered order): the key counts,
    /// comma-separated, e.g. 1,256,4096,16384,65536; with --sizes (default
    /// 64,1500,32768), --algs (of the MACs this mode measures) and --json.
    #[arg(long, value_delimiter = ',', value_parser = numbers::size(1, MAX_KEYS), conflicts_with = "seconds")]
    keys: Vec<usize>,
}

/// The most live keys `--keys` takes: 2^20 (about 2.5 GB of UMAC-128
/// states).
const MAX_KEYS: usize = 1 << 20;

impl BenchArgs {
    /// No algorithm, size, time or JSON asked for: the papers' report
    /// rather than the comparison table.
    pub fn wants_report(&self) -> bool {
        self.algs.is_empty() && self.sizes.is_empty() && self.seconds.is_none() && !self.json && self.keys.is_empty()
    }
}

/// Measures the chosen subjects and prints a table or the JSON run.
pub fn run(args: &BenchArgs) -> Result<(), CliError> {
    if !args.keys.is_empty() {
        return many_keys(args);
    }
    let seconds = args.seconds.unwrap_or(0.2);
    let sizes = if args.sizes.is_empty() { DEFAULT_SIZES.to_vec() } else { args.sizes.clone() };
    let registry = measure::registry();
    let known = measure::subjects::names(&registry);
    let chosen = chosen_names(&args.algs, &known, "benchmark algorithm")?;
    let wanted = |alg: &str| if chosen.is_empty() { DEFAULT_ALGS.contains(&alg) } else { chosen.contains(&alg) };
    let mut subjects = Vec::new();
    let mut notes = Vec::new();
    for entry in registry.iter().filter(|e| wanted(e.alg)) {
        match entry.make() {
            Ok(subject) => subjects.push(subject),
            Err(why) => {
                let note = format!("{} ({}) not measured: {why}", entry.alg, entry.imp.name());
                crate::out::warn(&format!("fastmac bench: {note}"));
                notes.push(note);
            }
        }
    }
    let run = measure::run(&mut subjects, &sizes, Duration::from_secs_f64(seconds), notes, |_, _| {})
        .map_err(CliError::Usage)?;
    if args.json {
        let mut text = serde_json::to_string_pretty(&run).map_err(|e| CliError::Usage(e.to_string()))?;
        text.push('\n');
        crate::out::print(&text)
    } else {
        crate::out::print(&table(&run))
    }
}

/// The `--algs` names as `known` spells them (any case), or the error that
/// names the first unknown one (a `what`) and suggests the nearest.
fn chosen_names<'a>(algs: &[String], known: &[&'a str], what: &str) -> Result<Vec<&'a str>, CliError> {
    algs.iter()
        .map(|alg| {
            known
                .iter()
                .copied()
                .find(|k| k.eq_ignore_ascii_case(alg))
                .ok_or_else(|| names::unknown(what, alg, known.iter().copied()))
        })
        .collect()
}

/// `fastmac bench --keys`: [`measure::many_keys`].
fn many_keys(args: &BenchArgs) -> Result<(), CliError> {
    let sizes = if args.sizes.is_empty() { measure::many_keys::DEFAULT_SIZES.to_vec() } else { args.sizes.clone() };
    let algs = chosen_names(&args.algs, &measure::many_keys::SUBJECTS, "benchmark algorithm with --keys")?;
    let run = measure::many_keys::run(&algs, &args.keys, &sizes, |alg| {
        crate::out::warn(&format!("fastmac bench --keys: measuring {alg}"))
    });
    if args.json {
        let mut text = serde_json::to_string_pretty(&run).map_err(|e| CliError::Usage(e.to_string()))?;
        text.push('\n');
        crate::out::print(&text)
    } else {
        crate::out::print(&measure::many_keys::table(&run))
    }
}

/// The row of `alg` by `imp` at `size`, if measured.
fn row<'r>(run: &'r Run, alg: &str, imp: Imp, size: usize) -> Option<&'r Row> {
    run.results.iter().find(|r| r.alg == alg && r.imp == imp && r.size == size)
}

/// Why a parallel row at `size` timed the one-core path, if the
/// calibration sent `alg`'s inputs of that size to one core: such a row's
/// ratio to the one-core row is the same path timed twice.
fn one_core_path_here(parallel_from: Option<[Option<usize>; 4]>, alg: &str, size: usize) -> Option<String> {
    let index = PARALLEL_FROM_ALGS.iter().position(|&a| a == alg)?;
    match parallel_from?[index] {
        Some(from) if size >= from => None,
        Some(from) => Some(format!("one-core path: multi-core from {}", crate::numbers::human(from))),
        None => Some("one-core path: multi-core never".to_owned()),
    }
}

/// A text table; fastmac rows also show how many times faster than Nettle
/// (UMAC) or than one core (the parallel rows) they are, and UMAC's share
/// of its NH ceiling (the bare NH pass's time over UMAC's).
fn table(run: &Run) -> String {
    let m = &run.machine;
    let mut out = String::new();
    let clock = m.core_clock_ghz.map_or("not measured".to_owned(), |g| format!("{g:.2} GHz"));
    let _ = writeln!(
        out,
        "{} ({} logical CPUs), core clock {clock}, NH backend {}",
        m.cpu, m.logical_cpus, m.fastmac_backend
    );
    let _ = writeln!(out, "nettle: {}", m.nettle);
    let _ = writeln!(out, "openssl: {}", m.openssl);
    let _ = writeln!(out, "blake3: {}", m.blake3);
    let _ = writeln!(out, "aegis: {}", m.aegis);
    if let Some(from) = m.parallel_from {
        let sizes: Vec<String> = PARALLEL_FROM_ALGS
            .iter()
            .zip(from)
            .map(|(alg, min)| match min {
                Some(bytes) => format!("{alg} from {}", crate::numbers::human(bytes)),
                None => format!("{alg} never"),
            })
            .collect();
        let _ = writeln!(out, "multi-core path (calibrated in the parallel rows' pool): {}", sizes.join(", "));
    }
    let _ = writeln!(
        out,
        "{:>9} {:<14} {:<17} {:>12} {:>9} {:>8} {:>9}  ratio",
        "size", "alg", "impl", "ns/msg", "GB/s", "c/B", "c/msg"
    );
    for r in &run.results {
        let versus = match r.imp {
            Imp::Fastmac => {
                let nettle = row(run, &r.alg, Imp::Nettle, r.size).map(|n| format!("{:.2}x nettle", ratio(n, r)));
                let ceiling = row(run, &r.alg, Imp::NhCeiling, r.size)
                    .map(|n| format!("{:.0}% of nh-ceiling", 100.0 * ratio(n, r)));
                Some([nettle, ceiling].into_iter().flatten().collect::<Vec<_>>().join(", ")).filter(|s| !s.is_empty())
            }
            Imp::FastmacParallel => row(run, &r.alg, Imp::Fastmac, r.size).map(|n| {
                let times = format!("{:.2}x 1 core", ratio(n, r));
                match one_core_path_here(m.parallel_from, &r.alg, r.size) {
                    Some(why) => format!("{times} ({why})"),
                    None => times,
                }
            }),
            Imp::OpenSsl | Imp::Blake3 | Imp::Aegis | Imp::RustCrypto => row(run, UMAC_128, Imp::Fastmac, r.size)
                .map(|n| format!("fastmac {UMAC_128} {:.2}x faster", ratio(r, n))),
            Imp::Nettle | Imp::ReadLimit | Imp::NhCeiling => None,
        };
        let _ = writeln!(
            out,
            "{:>9} {:<14} {:<17} {:>12.1} {:>9.2} {:>8} {:>9}  {}",
            r.size,
            r.alg,
            r.imp.name(),
            r.ns_per_msg,
            r.gb_per_s,
            r.cycles_per_byte.map_or("-".to_owned(), |c| format!("{c:.3}")),
            r.cycles_per_msg.map_or("-".to_owned(), |c| format!("{c:.0}")),
            versus.unwrap_or_default()
        );
    }
    let mut keyed: Vec<(&str, Imp)> = Vec::new();
    for r in &run.results {
        if !keyed.contains(&(r.alg.as_str(), r.imp)) {
            keyed.push((&r.alg, r.imp));
        }
    }
    for (alg, imp) in keyed {
        if let Some(how) = measure::subjects::keying(alg, imp) {
            let _ = writeln!(out, "{alg} ({}) keyed per message: {how}", imp.name());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parallel_rows_below_the_calibrated_size_say_they_timed_one_core() {
        let from = Some([Some(2 << 20), Some(1 << 20), None, Some(1 << 20)]);
        let why = |alg, size| one_core_path_here(from, alg, size);
        assert_eq!(why("umac-32", 1 << 20).as_deref(), Some("one-core path: multi-core from 2M"));
        assert_eq!(why("umac-32", 2 << 20), None);
        assert_eq!(why("umac-64", 1 << 20), None);
        assert_eq!(why("umac-96", 16 << 20).as_deref(), Some("one-core path: multi-core never"));
        assert_eq!(why("hmac-sha256", 1), None, "not a UMAC row");
        assert_eq!(one_core_path_here(None, "umac-32", 1), None, "no calibration");
    }
}
