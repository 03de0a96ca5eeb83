//! The measurement core of the benchmark: what can be timed, how, and the typed
//! results. `fastmac bench` (tables, `--json`) and the report (HTML, SVG,
//! JSON) both consume this module; it imports neither.
//!
//! * [`subjects`]: one registry of subjects, keyed by the library's
//!   algorithm names (`fastmac list`) plus the comparators (Nettle's UMAC,
//!   OpenSSL's Poly1305 and AES-128-GMAC, AEGIS used as a MAC, keyed
//!   BLAKE3, RustCrypto Poly1305 and HMAC-SHA2-256, the pure read pass).
//! * [`timing`]: the one timing loop (loops of at least 0.5 ms on the
//!   monotonic clock, subjects of one size interleaved, medians).
//! * [`clock`]: the one core clock, measured in-process.
//! * [`Row`] and [`Machine`]: what a run produced, serialized as they are.

pub mod aegis;
pub mod clock;
pub mod gears;
mod keyed_blake3;
pub mod many_keys;
mod nettle;
pub(crate) mod openssl;
mod read_limit;
pub mod subjects;
pub mod timing;

use serde::{Serialize, Serializer};

pub use clock::Clock;
pub use gears::GEAR_NAMES;
pub use subjects::{Subject, registry};

/// Who implements a measured algorithm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Imp {
    /// fastmac on one core.
    Fastmac,
    /// fastmac with the library's multi-core path (inputs of 1 MiB and more).
    FastmacParallel,
    /// GNU Nettle's UMAC, loaded at run time.
    Nettle,
    /// OpenSSL's libcrypto (Poly1305, AES-GMAC), loaded at run time.
    OpenSsl,
    /// The `blake3` crate (BLAKE3's keyed hash).
    Blake3,
    /// The `aegis` crate (AEGIS used as a MAC, libaegis's C code).
    Aegis,
    /// RustCrypto's crates (Poly1305, HMAC-SHA2-256).
    RustCrypto,
    /// The vectorized pure read pass: the floor no MAC can beat.
    ReadLimit,
    /// A bare NH pass of fastmac's backend at a UMAC tag length's
    /// iterations: the most that UMAC can reach.
    NhCeiling,
}

impl Serialize for Imp {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.name())
    }
}

impl Imp {
    /// Whether its rows are MACs: all but the read pass and the NH ceiling
    /// (a bare pass of UMAC's first layer, which authenticates nothing).
    pub fn is_mac(self) -> bool {
        !matches!(self, Imp::ReadLimit | Imp::NhCeiling)
    }

    /// The `impl` field of the JSON rows.
    pub fn name(self) -> &'static str {
        match self {
            Imp::Fastmac => "fastmac",
            Imp::FastmacParallel => "fastmac-parallel",
            Imp::Nettle => "nettle",
            Imp::OpenSsl => "openssl",
            Imp::Blake3 => "blake3",
            Imp::Aegis => "aegis",
            Imp::RustCrypto => "rustcrypto",
            Imp::ReadLimit => "read-limit",
            Imp::NhCeiling => "nh-ceiling",
        }
    }
}

/// One measured cell: an algorithm of one implementation at one size.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Row {
    /// Algorithm name: the library's (`umac-64`, `hmac-sha2-256`), or a
    /// comparator's (`poly1305`, `read-limit`), or a part of one
    /// (`badger-64/key-setup`, `gear-u64`).
    pub alg: String,
    /// Who implements it.
    #[serde(rename = "impl")]
    pub imp: Imp,
    /// Message size in bytes.
    pub size: usize,
    /// Median time per message, ns.
    pub ns_per_msg: f64,
    /// Fastest loop, ns per message: on a shared machine the least
    /// disturbed run, for reference next to the median.
    pub ns_min: f64,
    /// 10^9 bytes per second.
    pub gb_per_s: f64,
    /// Core cycles per byte (`null` where the clock is not measured or the
    /// message is empty).
    pub cycles_per_byte: Option<f64>,
    /// Core cycles per message (`null` where the clock is not measured).
    pub cycles_per_msg: Option<f64>,
    /// Threads the subject uses.
    pub threads: usize,
    /// fastmac's NH backend, or the read pass's kernel.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub backend: Option<&'static str>,
    /// Bytes of the state kept per live key (`size_of` of the keyed
    /// object a message starts from), where the subject knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub state_bytes: Option<usize>,
    /// Timed loops behind the median.
    pub samples: usize,
    /// The loops themselves, for [`ratio`]; not serialized.
    #[serde(skip)]
    pub loops: timing::Loops,
}

impl Row {
    /// Sets the cycle figures from one clock for the whole run: a clock
    /// reading taken while this process was descheduled is low, and would
    /// skew the cycles of one size only.
    pub fn use_clock(&mut self, ghz: Option<f64>) {
        self.cycles_per_msg = ghz.map(|g| self.ns_per_msg * g);
        self.cycles_per_byte = self.cycles_per_msg.filter(|_| self.size > 0).map(|c| c / self.size as f64);
    }
}

/// How many times `numerator`'s time per message is `denominator`'s. Rows
/// timed side by side (the subjects of one size, one loop each per round:
/// [`timing::Loops`]) give the median of their per-round ratios: a slow
/// spell that falls on a round slows both of its loops, and cancels in
/// their ratio, where it would move the two medians apart whenever it
/// covers a different share of each row's loops. Other rows give the
/// ratio of their medians.
pub fn ratio(numerator: &Row, denominator: &Row) -> f64 {
    timing::Loops::paired_ratio(&numerator.loops, &denominator.loops)
        .unwrap_or(numerator.ns_per_msg / denominator.ns_per_msg)
}

/// What the numbers were measured on, and how.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Machine {
    /// CPU model name.
    pub cpu: String,
    /// Logical CPUs.
    pub logical_cpus: usize,
    /// Operating system.
    pub os: &'static str,
    /// Architecture.
    pub arch: &'static str,
    /// fastmac's NH backend (detected, or forced by FASTMAC_BACKEND).
    pub fastmac_backend: &'static str,
    /// The core clock every cycle figure uses, GHz.
    pub core_clock_ghz: Option<f64>,
    /// Lowest and highest clock reading of the run, GHz.
    pub core_clock_range_ghz: Option<[f64; 2]>,
    /// How cycles are derived from time.
    pub clock_method: String,
    /// How time is measured.
    pub timer: String,
    /// Nettle's version, or why it was not measured.
    pub nettle: String,
    /// OpenSSL's libcrypto and version, or why it was not measured.
    pub openssl: String,
    /// The `blake3` crate's version.
    pub blake3: String,
    /// The `aegis` crate's version.
    pub aegis: String,
    /// The smallest message each UMAC tag length (32, 64, 96, 128 bits)
    /// hashed on all cores in the parallel rows, as the library's
    /// calibration chose it in their pool (`null` inside: one core at every
    /// size); absent without parallel rows.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parallel_from: Option<[Option<usize>; 4]>,
    /// Subjects that could not be measured, and why.
    pub notes: Vec<String>,
    /// When the run ended (UTC, ISO 8601).
    pub date: String,
}

impl Machine {
    /// Describes this machine, with the run's clock and the subjects left
    /// out (`notes`).
    pub fn describe(clock: &Clock, notes: Vec<String>) -> Machine {
        let cpu = std::fs::read_to_string("/proc/cpuinfo")
            .ok()
            .and_then(|text| {
                text.lines()
                    .find(|l| l.starts_with("model name"))
                    .and_then(|l| l.split(':').nth(1))
                    .map(|s| s.trim().to_owned())
            })
            .unwrap_or_else(|| "unknown".to_owned());
        let nettle = match nettle::Nettle::get() {
            Ok(lib) => format!("libnettle.so.8, version {}", lib.version),
            Err(why) => format!("absent: {why}"),
        };
        let openssl = match openssl::OpenSsl::get() {
            Ok(lib) => format!("{}, {}", openssl::SONAME, lib.version),
            Err(why) => format!("absent: {why}"),
        };
        Machine {
            cpu,
            logical_cpus: std::thread::available_parallelism().map_or(1, |n| n.get()),
            os: std::env::consts::OS,
            arch: std::env::consts::ARCH,
            fastmac_backend: fastmac::umac::Backend::detect().name(),
            core_clock_ghz: clock.ghz(),
            core_clock_range_ghz: clock.range(),
            clock_method: clock.method(),
            timer: timing::method(),
            nettle,
            openssl,
            blake3: format!("blake3 crate {}", keyed_blake3::VERSION),
            aegis: format!("aegis crate {}, C backend (libaegis)", aegis::VERSION),
            parallel_from: subjects::parallel_from(),
            notes,
            date: utc_now(),
        }
    }
}

/// A whole run: the machine and every row (`fastmac bench --json`).
#[derive(Serialize, Clone, Debug)]
pub struct Run {
    /// What it ran on.
    pub machine: Machine,
    /// One row per (algorithm, implementation, size).
    pub results: Vec<Row>,
}

/// Measures `subjects` at each of `sizes`, about `per_subject` each per
/// size, and returns the run: [`timing::PASSES`] passes over the sizes,
/// each with its share of the time. `progress` is told each size of each
/// pass before it is measured. Subjects that do not apply to a size are
/// skipped there.
///
/// Everything runs on the one thread of a one-thread rayon pool: there the
/// library's large-input path is sequential (the single-core figure), with
/// no thread hand-off per loop; the parallel subjects time their loops
/// inside a pool of their own.
pub fn run(
    subjects: &mut [Subject],
    sizes: &[usize],
    per_subject: std::time::Duration,
    notes: Vec<String>,
    mut progress: impl FnMut(usize, usize) + Send,
) -> Result<Run, String> {
    let single = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| format!("cannot start the benchmark thread: {e}"))?;
    let mut clock = Clock::default();
    let mut sampled: Vec<timing::Sampled> = sizes.iter().map(|_| timing::Sampled::default()).collect();
    let per_pass = per_subject / timing::PASSES as u32;
    let min_samples = timing::MIN_SAMPLES.div_ceil(timing::PASSES);
    single.install(|| {
        for _ in 0..timing::PASSES {
            for (&size, sampled) in sizes.iter().zip(&mut sampled) {
                let mut batch = measured_at(subjects, size);
                progress(size, batch.len());
                clock.read();
                timing::sample_size(&mut batch, size, per_pass, min_samples, sampled)?;
            }
        }
        Ok::<(), String>(())
    })?;
    let mut rows = Vec::new();
    for (&size, sampled) in sizes.iter().zip(sampled) {
        rows.extend(timing::rows(&measured_at(subjects, size), size, sampled));
    }
    for row in &mut rows {
        row.use_clock(clock.ghz());
    }
    Ok(Run { machine: Machine::describe(&clock, notes), results: rows })
}

/// The subjects measured at `size`, in their order.
fn measured_at(subjects: &mut [Subject], size: usize) -> Vec<&mut Subject> {
    subjects.iter_mut().filter(|s| s.applies_to(size)).collect()
}

/// Now in UTC, ISO 8601, from the system clock.
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

    #[test]
    fn calendar_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_778), (2026, 11, 21));
    }

    /// A UMAC-64 row of 100-byte messages at `ns` per message, built by
    /// hand (its loops not timed here).
    fn hand_made(ns: f64) -> Row {
        Row {
            alg: "umac-64".into(),
            imp: Imp::Fastmac,
            size: 100,
            ns_per_msg: ns,
            ns_min: ns,
            gb_per_s: 100.0 / ns,
            cycles_per_byte: None,
            cycles_per_msg: None,
            threads: 1,
            backend: None,
            state_bytes: None,
            samples: 5,
            loops: timing::Loops::default(),
        }
    }

    #[test]
    fn cycles_come_from_the_one_clock() {
        let mut row = hand_made(50.0);
        row.use_clock(Some(3.0));
        assert_eq!((row.cycles_per_msg, row.cycles_per_byte), (Some(150.0), Some(1.5)));
        row.size = 0;
        row.use_clock(Some(2.0));
        assert_eq!((row.cycles_per_msg, row.cycles_per_byte), (Some(100.0), None));
        let json = serde_json::to_value(&row).unwrap();
        assert_eq!(json["impl"], "fastmac");
        assert!(json.get("backend").is_none());
    }

    /// Rows not timed side by side (here, built by hand) compare by their
    /// medians; rows of one run's size, loop for loop (the pairing itself
    /// is tested in `timing`).
    #[test]
    fn ratios_pair_loops_where_they_can() {
        assert_eq!(ratio(&hand_made(50.0), &hand_made(25.0)), 2.0);
        let mut subjects = vec![
            Subject::per_message("a", Imp::Fastmac, |msg: &[u8]| msg[0]),
            Subject::per_message("b", Imp::Nettle, |msg: &[u8]| msg[1]),
        ];
        let run = run(&mut subjects, &[64], std::time::Duration::ZERO, Vec::new(), |_, _| {}).unwrap();
        let (a, b) = (&run.results[0], &run.results[1]);
        let paired = timing::Loops::paired_ratio(&a.loops, &b.loops).expect("one size's rows pair");
        assert_eq!(ratio(a, b), paired);
    }

    /// A run goes over all its sizes once per pass, in order, and every
    /// row holds the loops of all passes: at least the fewest samples, one
    /// row per subject and size, in the order of the sizes.
    #[test]
    fn a_run_measures_every_size_in_every_pass() {
        let mut subjects = vec![
            Subject::per_message("a", Imp::Fastmac, |msg: &[u8]| msg[0]),
            Subject::per_message("b", Imp::RustCrypto, |msg: &[u8]| msg[msg.len() - 1]),
        ];
        let mut told = Vec::new();
        let run = run(&mut subjects, &[64, 2048], std::time::Duration::ZERO, Vec::new(), |size, count| {
            told.push((size, count))
        })
        .unwrap();
        let pass = [(64, 2), (2048, 2)];
        assert_eq!(told, pass.repeat(timing::PASSES));
        let cells: Vec<(usize, &str)> = run.results.iter().map(|r| (r.size, r.alg.as_str())).collect();
        assert_eq!(cells, [(64, "a"), (64, "b"), (2048, "a"), (2048, "b")]);
        assert!(run.results.iter().all(|r| r.samples >= timing::MIN_SAMPLES.max(timing::PASSES)), "{:?}", run.results);
    }
}
