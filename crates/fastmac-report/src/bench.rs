//! `fastmac bench` with an algorithm list, sizes, a time or `--json`:
//! fastmac against other MACs and the memory read limit, in one process,
//! so that the ratios hold even on a noisy machine. The measuring is the
//! measurement core's ([`crate::measure`]); this module picks the subjects
//! and writes the run as a table or JSON.

use std::fmt::Write as _;
use std::time::Duration;

use crate::Error;
use crate::measure::{self, Imp, Row, Run, ratio};

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

/// Default message sizes: packets, a page, and bulk.
const DEFAULT_SIZES: [usize; 7] = [32, 512, 1024, 1500, 4096, 65_536, 1_048_576];

/// Default measuring time per algorithm and size.
pub const DEFAULT_SECONDS: f64 = 0.2;

/// Every name the comparison takes (`--algs`), in the registry's order:
/// the library's names, the SSH names, and the comparators'.
pub fn algorithms() -> Vec<&'static str> {
    measure::subjects::names(&measure::registry())
}

/// The names the many-keys run takes (`--algs` with `--keys`).
pub const KEYS_ALGORITHMS: &[&str] = &measure::many_keys::SUBJECTS;

/// What the comparison measures.
pub struct Comparison<'a> {
    /// Algorithms, as [`algorithms`] spells them; empty: the defaults
    /// (UMAC at each tag length, HMAC-SHA2-256 and every comparator).
    pub algs: &'a [&'a str],
    /// Message sizes in bytes; empty: the defaults.
    pub sizes: &'a [usize],
    /// Measuring time per algorithm and size ([`DEFAULT_SECONDS`] when
    /// `None`).
    pub seconds: Option<f64>,
    /// One JSON object instead of a table.
    pub json: bool,
}

/// Measures the chosen subjects, in every implementation there is, and
/// returns the table or the JSON run. A subject that cannot be measured
/// here (Nettle or OpenSSL absent) is told on stderr and in the run's
/// notes.
pub fn compare(what: &Comparison) -> Result<String, Error> {
    let seconds = what.seconds.unwrap_or(DEFAULT_SECONDS);
    let sizes = if what.sizes.is_empty() { DEFAULT_SIZES.to_vec() } else { what.sizes.to_vec() };
    let registry = measure::registry();
    let wanted = |alg: &str| if what.algs.is_empty() { DEFAULT_ALGS.contains(&alg) } else { what.algs.contains(&alg) };
    let mut subjects = Vec::new();
    let mut notes = Vec::new();
    for entry in registry.iter().filter(|e| wanted(e.alg)) {
        match entry.make() {
            Ok(subject) => subjects.push(subject),
            Err(why) => {
                let note = format!("{} ({}) not measured: {why}", entry.alg, entry.imp.name());
                crate::warn(&format!("fastmac bench: {note}"));
                notes.push(note);
            }
        }
    }
    let run = measure::run(&mut subjects, &sizes, Duration::from_secs_f64(seconds), notes, |_, _| {})
        .map_err(Error::Measure)?;
    if what.json { to_json(&run) } else { Ok(table(&run)) }
}

/// `fastmac bench --keys`: [`measure::many_keys`] for `algs` (of
/// [`KEYS_ALGORITHMS`]; empty: all) at each count of live `keys` and each
/// of `sizes` (empty: the defaults), as a table or the JSON run.
pub fn many_keys(algs: &[&str], keys: &[usize], sizes: &[usize], json: bool) -> Result<String, Error> {
    let sizes = if sizes.is_empty() { measure::many_keys::DEFAULT_SIZES.to_vec() } else { sizes.to_vec() };
    let run = measure::many_keys::run(algs, keys, &sizes, |alg| {
        crate::warn(&format!("fastmac bench --keys: measuring {alg}"))
    });
    if json { to_json(&run) } else { Ok(measure::many_keys::table(&run)) }
}

/// A run as pretty JSON, with a final newline.
fn to_json(run: &impl serde::Serialize) -> Result<String, Error> {
    let mut text = serde_json::to_string_pretty(run).map_err(|e| Error::Measure(e.to_string()))?;
    text.push('\n');
    Ok(text)
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
        Some(from) => Some(format!("one-core path: multi-core from {}", crate::human(from))),
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
                Some(bytes) => format!("{alg} from {}", crate::human(bytes)),
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
