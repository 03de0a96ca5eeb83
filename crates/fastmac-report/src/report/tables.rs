//! The nine tables and four charts of the report, built from one run's
//! results, with the papers' printed figures beside this machine's.

use fastmac::Algorithm;
use serde::Serialize;

use super::model::{NOT_MEASURED, NOT_PRINTED, Results, Row, RowKind, Table, opt, sig3, times};
use super::paper;
use super::plan::{self, Imp};
use crate::chart::{Axis, Chart, Panel, Scale, Series, Style};
use crate::measure::{self, gears, many_keys};

/// How an algorithm is printed: `UMAC-64`, `HMAC-SHA1-96`, `Badger-64`,
/// `UMAC-64 (Nettle)`.
pub fn display(alg: &str, imp: Imp) -> String {
    let base = if let Some(gear) = gears::display(alg) {
        gear
    } else if alg == plan::BADGER_SEQUENTIAL {
        "Badger-64 sequential (no IV)".to_owned()
    } else if alg == plan::BADGER_KEY_SETUP {
        "Badger-64 key setup".to_owned()
    } else if let Some(rest) = alg.strip_prefix("badger") {
        format!("Badger{rest}")
    } else if alg == plan::POLY1305 {
        "Poly1305".to_owned()
    } else if alg == plan::POLY1305_GIVEN_KEY {
        "Poly1305, key given".to_owned()
    } else if alg == plan::GMAC {
        "AES-128-GMAC".to_owned()
    } else if alg == plan::GMAC_GCM128 {
        "AES-128-GMAC, CRYPTO_gcm128".to_owned()
    } else if let Some(keyed) = alg.strip_suffix(crate::measure::aegis::NONCE_SUFFIX) {
        format!("{}, nonce per message", keyed.to_ascii_uppercase())
    } else if alg.starts_with("aegismac") {
        format!("{} keyed", alg.to_ascii_uppercase())
    } else if alg == plan::BLAKE3_KEYED {
        "BLAKE3 keyed".to_owned()
    } else if alg == plan::READ_LIMIT {
        "pure read pass".to_owned()
    } else if alg.starts_with("hmac") || alg.starts_with("umac") {
        alg.to_ascii_uppercase()
    } else {
        alg.to_owned()
    };
    match imp {
        Imp::Fastmac | Imp::ReadLimit => base,
        Imp::NhCeiling => format!("{base} (NH ceiling)"),
        Imp::FastmacParallel => format!("{base} (all cores)"),
        Imp::Nettle => format!("{base} (Nettle)"),
        Imp::OpenSsl => format!("{base} (OpenSSL)"),
        Imp::Blake3 => format!("{base} (blake3 crate)"),
        Imp::Aegis => format!("{base} (aegis crate)"),
        Imp::RustCrypto => format!("{base} (RustCrypto)"),
    }
}

fn kind(imp: Imp) -> RowKind {
    if imp == Imp::Fastmac { RowKind::Fastmac } else { RowKind::Comparator }
}

/// "how cycles are obtained", printed under every table with a cycles column.
pub fn cycles_note(results: &Results) -> String {
    match results.machine.core_clock_ghz {
        Some(ghz) => format!("cycles = time x {ghz:.2} GHz: {}", results.machine.clock_method),
        None => format!("cycles unavailable: {}", results.machine.clock_method),
    }
}

fn missing_note(results: &Results, algs: &[(&str, Imp)]) -> Option<String> {
    let mut lines: Vec<String> = Vec::new();
    for &(alg, imp) in algs {
        if let Some(reason) = results.why_missing(alg, imp) {
            let line = format!("{}: {reason}", display(alg, imp));
            if !lines.contains(&line) {
                lines.push(line);
            }
        }
    }
    (!lines.is_empty()).then(|| format!("missing rows (not measured, not estimated): {}", lines.join("; ")))
}

/// Milliseconds per 1000 messages: the OpenSSH paper's unit.
fn ms_per_1000(row: Option<&Row>) -> Option<f64> {
    row.map(|r| r.ns_per_msg / 1000.0)
}

/// Table 1: the OpenSSH paper's table (section 4.4).
pub fn openssh(results: &Results) -> Table {
    let [small, large] = [plan::OPENSSH_SIZES[0], plan::OPENSSH_SIZES[1]];
    let sha1 = |size| results.get("hmac-sha1", Imp::Fastmac, size);
    let mut rows = Vec::new();
    let mut listed: Vec<(&str, Imp)> = plan::OPENSSH_ALGS.iter().map(|&a| (a, Imp::Fastmac)).collect();
    listed.extend(plan::COMPARATORS.iter().copied());
    for &(alg, imp) in &listed {
        let row = |size| results.get(alg, imp, size);
        let speedup = |size| Some(measure::ratio(sha1(size)?, row(size)?));
        let printed = paper::lookup(paper::OPENSSH_PENTIUM4_MS, alg, |r| r.0).filter(|_| imp == Imp::Fastmac);
        let paper_sha1 = paper::lookup(paper::OPENSSH_PENTIUM4_MS, "hmac-sha1", |r| r.0).unwrap();
        rows.push((
            kind(imp),
            vec![
                display(alg, imp),
                opt(ms_per_1000(row(small))),
                times(speedup(small)),
                opt(ms_per_1000(row(large))),
                times(speedup(large)),
                printed.map_or(NOT_PRINTED.into(), |p| format!("{} / {}", sig3(p.1), sig3(p.2))),
                printed.map_or(NOT_PRINTED.into(), |p| {
                    format!("{}x / {}x", sig3(paper_sha1.1 / p.1), sig3(paper_sha1.2 / p.2))
                }),
            ],
        ));
    }
    let mut notes = vec![
        "ms for 1000 MACs = microseconds per MAC; each message gets the next counter nonce, like an SSH sequence number".to_owned(),
        format!("speed-up = time of HMAC-SHA1 / time of the row, at the same size; paper columns: {}", paper::OPENSSH_MACHINE),
    ];
    notes.extend(missing_note(results, &listed));
    Table {
        id: "openssh",
        title: "1. MAC algorithms in OpenSSH: time for 1000 MACs".into(),
        source: format!("{}, section 4.4", paper::OPENSSH.cite()),
        header: vec![
            "algorithm".into(),
            format!("{small} B: ms/1000"),
            format!("{small} B: vs SHA1"),
            format!("{large} B: ms/1000"),
            format!("{large} B: vs SHA1"),
            format!("paper P4: ms {small}/{large} B"),
            "paper: vs SHA1".into(),
        ],
        rows,
        notes,
    }
}

fn sweep_algs() -> Vec<(&'static str, Imp)> {
    let mut algs: Vec<(&str, Imp)> = plan::OPENSSH_ALGS.iter().map(|&a| (a, Imp::Fastmac)).collect();
    algs.extend(plan::SWEEP_COMPARATORS.iter().copied());
    algs
}

/// Figure 1 as a table: ms per 1000 MACs at every swept packet size.
pub fn sweep(results: &Results) -> Table {
    let algs = sweep_algs();
    let mut header = vec!["algorithm".to_owned()];
    header.extend(plan::SWEEP_SIZES.iter().map(|s| format!("{s} B")));
    let rows = algs
        .iter()
        .map(|&(alg, imp)| {
            let mut cells = vec![display(alg, imp)];
            cells.extend(plan::SWEEP_SIZES.iter().map(|&s| opt(ms_per_1000(results.get(alg, imp, s)))));
            (kind(imp), cells)
        })
        .collect();
    let mut notes = vec![
        "ms for 1000 MACs (= microseconds per MAC); the paper's figure 1 shows the same sweep on a Pentium 4"
            .to_owned(),
        PAST_ONE_CHUNK.to_owned(),
    ];
    notes.extend(missing_note(results, &algs));
    Table {
        id: "sweep",
        title: "2. Figure 1: time for 1000 MACs by packet size".into(),
        source: format!("{}, figure 1 (packet sizes up to 4 KiB)", paper::OPENSSH.cite()),
        header,
        rows,
        notes,
    }
}

/// A line per (algorithm, implementation) over `sizes`, valued by `value`.
fn lines(
    results: &Results,
    algs: &[(&str, Imp, String)],
    sizes: &[usize],
    value: impl Fn(&Row) -> Option<f64>,
) -> Vec<Series> {
    algs.iter()
        .filter_map(|(alg, imp, name)| {
            let points: Vec<_> =
                sizes.iter().filter_map(|&s| Some((s as f64, value(results.get(alg, *imp, s)?)?, None))).collect();
            let style = if *imp == Imp::Fastmac { Style::Line } else { Style::Dashed };
            (!points.is_empty()).then(|| Series { name: name.clone(), style, points })
        })
        .collect()
}

/// The x axis of the size sweeps: a tick at every swept size, so 1500 B
/// (an Ethernet frame's payload) is marked between 1024 and 2048, where
/// UMAC's time steps up ([`PAST_ONE_CHUNK`]).
fn sweep_axis(what: &str) -> Axis {
    Axis {
        label: format!("{what} size (bytes)"),
        scale: Scale::Log,
        ticks: plan::SWEEP_SIZES.iter().map(|&s| s as f64).collect(),
    }
}

/// Why UMAC's time steps up past 1024 bytes, in the notes of the sweep.
pub const PAST_ONE_CHUNK: &str = "UMAC's time steps up past 1024 bytes: a longer message is more than one 1024-byte L1 chunk, so it pays NH over a second chunk and L2-HASH's polynomial over the chunks' outputs, which a message of one chunk skips (RFC 4418 section 5.3)";

/// Figure 1 as a chart, in three panels so no line hides another: the
/// HMACs, the universal-hash MACs, and fastmac against the comparators.
pub fn sweep_chart(results: &Results) -> Chart {
    let named = |algs: &[(&'static str, Imp)]| -> Vec<(&'static str, Imp, String)> {
        algs.iter().map(|&(a, i)| (a, i, display(a, i))).collect()
    };
    let ours: Vec<(&str, Imp)> = plan::OPENSSH_ALGS.iter().map(|&a| (a, Imp::Fastmac)).collect();
    let (hmacs, hashes): (Vec<_>, Vec<_>) = ours.into_iter().partition(|(a, _)| a.starts_with("hmac"));
    let mut versus: Vec<(&str, Imp)> = vec![("umac-64", Imp::Fastmac), ("umac-128", Imp::Fastmac)];
    versus.extend(plan::SWEEP_COMPARATORS.iter().copied());
    let ms = |r: &Row| Some(r.ns_per_msg / 1000.0);
    let panel = |title: &str, algs: &[(&'static str, Imp)]| Panel {
        title: title.to_owned(),
        x: sweep_axis("packet"),
        y: Axis { label: "ms per 1000 MACs".into(), scale: Scale::Log, ticks: vec![] },
        series: lines(results, &named(algs), plan::SWEEP_SIZES, ms),
        markers: vec![],
    };
    Chart {
        id: "figure1",
        title: "Time for 1000 MACs by packet size, this machine".into(),
        panels: vec![
            panel("(a) the HMACs (fastmac)", &hmacs),
            panel("(b) UMAC and Badger (fastmac)", &hashes),
            panel("(c) fastmac against other implementations (dashed) and the pure read pass", &versus),
        ],
    }
}

fn acsa_algs(results: &Results) -> Vec<(String, Imp)> {
    let gears = gears::GEAR_NAMES.iter().filter(|g| results.rows.iter().any(|r| r.alg == **g));
    plan::ACSA_ALGS.iter().chain(gears).map(|&a| (a.to_owned(), Imp::Fastmac)).collect()
}

/// Table 3: the ACSA slides' cycles per byte at 4096 and 65536 bytes.
pub fn acsa(results: &Results) -> Table {
    let [small, large] = [plan::ACSA_SIZES[0], plan::ACSA_SIZES[1]];
    let mut listed = acsa_algs(results);
    listed.extend(plan::COMPARATORS.iter().copied().map(|(a, i)| (a.to_owned(), i)));
    let mut rows = Vec::new();
    for (alg, imp) in &listed {
        let cpb = |size| results.get(alg, *imp, size).and_then(|r| r.cycles_per_byte);
        let printed = paper::lookup(paper::ACSA_CYCLES_PER_BYTE, alg, |r| r.0).filter(|_| *imp == Imp::Fastmac);
        rows.push((
            kind(*imp),
            vec![
                display(alg, *imp),
                opt(cpb(small)),
                opt(cpb(large)),
                opt(results.get(alg, *imp, large).map(|r| r.gb_per_s)),
                printed.map_or(NOT_PRINTED.into(), |p| p.1.to_owned()),
                printed.map_or(NOT_PRINTED.into(), |p| sig3(p.2)),
                printed.map_or(NOT_PRINTED.into(), |p| sig3(p.3)),
            ],
        ));
    }
    for &(name, c_small, c_large) in paper::ACSA_UNPAIRED {
        rows.push((
            RowKind::PaperOnly,
            vec![
                "(paper only)".into(),
                NOT_PRINTED.into(),
                NOT_PRINTED.into(),
                NOT_PRINTED.into(),
                name.into(),
                sig3(c_small),
                sig3(c_large),
            ],
        ));
    }
    let refs: Vec<(&str, Imp)> = listed.iter().map(|(a, i)| (a.as_str(), *i)).collect();
    let mut notes = vec![
        cycles_note(results),
        format!(
            "paper columns: {}; its UMAC-MMX-60/30 rows are the 1999 drafts of the same collision bound as UMAC-64/32",
            paper::ACSA_MACHINE
        ),
    ];
    notes.extend(missing_note(results, &refs));
    Table {
        id: "acsa",
        title: "3. ACSA: cycles per byte at 4096 and 65536 bytes".into(),
        source: format!("{}, \"Performance Measurements\"", paper::ACSA.cite()),
        header: vec![
            "algorithm".into(),
            format!("c/B {small} B"),
            format!("c/B {large} B"),
            format!("GB/s {large} B"),
            "paper row".into(),
            format!("paper c/B {small}"),
            format!("paper c/B {large}"),
        ],
        rows,
        notes,
    }
}

/// What Badger's table 1 needs from a run: the four figures in cycles (or
/// cycles per byte), when Badger exists.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct BadgerCosts {
    /// Key setup, cycles.
    #[serde(rename = "key_setup_cycles")]
    pub key_setup: f64,
    /// The universal hash, cycles per byte.
    #[serde(rename = "hash_cycles_per_byte")]
    pub hash_per_byte: f64,
    /// Finalization without IV setup (sequential mode), cycles.
    #[serde(rename = "finalize_no_iv_cycles")]
    pub finalize_no_iv: f64,
    /// Finalization with IV setup (nonce mode), cycles.
    #[serde(rename = "finalize_iv_cycles")]
    pub finalize_iv: f64,
}

/// Badger's table 1 from the run's rows, or why it cannot be built.
pub fn badger_costs(results: &Results) -> Result<BadgerCosts, String> {
    let ghz = results.machine.core_clock_ghz.ok_or("the core clock was not measured")?;
    let ns = |alg: &str, size| {
        results
            .get(alg, Imp::Fastmac, size)
            .map(|r| r.ns_per_msg)
            .ok_or_else(|| results.why_missing(alg, Imp::Fastmac).unwrap_or("not measured").to_owned())
    };
    let empty = ns(plan::BADGER_TABLE_ALG, 0)?;
    let long = ns(plan::BADGER_TABLE_ALG, plan::BADGER_HASH_SIZE)?;
    Ok(BadgerCosts {
        key_setup: ns(plan::BADGER_KEY_SETUP, 0)? * ghz,
        hash_per_byte: (long - empty) * ghz / plan::BADGER_HASH_SIZE as f64,
        finalize_no_iv: ns(plan::BADGER_SEQUENTIAL, 0)? * ghz,
        finalize_iv: empty * ghz,
    })
}

/// Table 4: Badger's table 1.
pub fn badger(results: &Results) -> Table {
    let measured = badger_costs(results);
    let (costs, missing_reason) = match &measured {
        Ok(costs) => (Some(*costs), None),
        Err(reason) => (None, Some(reason.as_str())),
    };
    let ours = |f: fn(&BadgerCosts) -> f64| costs.as_ref().map(f);
    let values =
        [ours(|c| c.key_setup), ours(|c| c.hash_per_byte), ours(|c| c.finalize_no_iv), ours(|c| c.finalize_iv)];
    let rows = paper::BADGER_TABLE1
        .iter()
        .zip(values)
        .map(|(&(name, p3, p4, unit), ours)| {
            (RowKind::Fastmac, vec![name.to_owned(), unit.to_owned(), opt(ours), sig3(p3), sig3(p4)])
        })
        .collect();
    let mut notes = vec![
        cycles_note(results),
        format!(
            "Badger-64 (2 x 32-bit tags, like the paper); universal hash = cost per byte at {} B minus the empty message; finalization = a whole empty message; paper columns: {}",
            plan::BADGER_HASH_SIZE,
            paper::BADGER_MACHINES
        ),
    ];
    if let Some(reason) = missing_reason {
        notes.push(format!("missing rows (not measured, not estimated): Badger: {reason}"));
    }
    Table {
        id: "badger",
        title: "4. Badger: key setup, hashing and finalization".into(),
        source: format!("{}, table 1; the chart is the measurement of its appendix C, figure 6", paper::BADGER.cite()),
        header: vec!["function".into(), "unit".into(), "this machine".into(), "paper P-III".into(), "paper P4".into()],
        rows,
        notes,
    }
}

/// The measurement of the Badger paper's appendix C, figure 6: cycles per
/// byte by message size for Badger without IV setup (I) and with it (II),
/// UMAC-64 and Poly1305. The paper halved Poly1305's cycles to compare
/// 64-bit tags; here every line is the measured figure, unscaled.
pub fn badger_chart(results: &Results) -> Chart {
    let algs = [
        (plan::BADGER_SEQUENTIAL, Imp::Fastmac, "Badger-64 I (no IV setup)".to_owned()),
        (plan::BADGER_TABLE_ALG, Imp::Fastmac, "Badger-64 II (IV setup)".to_owned()),
        ("umac-64", Imp::Fastmac, "UMAC-64".to_owned()),
        (plan::POLY1305, Imp::RustCrypto, display(plan::POLY1305, Imp::RustCrypto)),
        (plan::POLY1305, Imp::OpenSsl, display(plan::POLY1305, Imp::OpenSsl)),
    ];
    let cycles = |r: &Row| r.cycles_per_byte;
    Chart {
        id: "figure6",
        title: "Badger, UMAC-64 and Poly1305 by message size, this machine".into(),
        panels: vec![Panel {
            title: "cycles per byte as measured (Poly1305's tag is 128 bits, not scaled)".into(),
            x: sweep_axis("message"),
            y: Axis { label: "cycles per byte".into(), scale: Scale::Log, ticks: vec![] },
            series: lines(results, &algs, plan::SWEEP_SIZES, cycles),
            markers: vec![],
        }],
    }
}

/// Table 5: the Go package's benchmark (its README).
pub fn go(results: &Results) -> Table {
    let [small, large] = [plan::GO_SIZES[0], plan::GO_SIZES[1]];
    let mut listed: Vec<(&str, Imp)> = plan::GO_ALGS.iter().map(|&a| (a, Imp::Fastmac)).collect();
    listed.extend(plan::COMPARATORS.iter().copied());
    let mb_per_s = |row: Option<&Row>| row.map(|r| r.size as f64 / r.ns_per_msg * 1000.0);
    let rows = listed
        .iter()
        .map(|&(alg, imp)| {
            let row = |size| results.get(alg, imp, size);
            let printed = paper::lookup(paper::GO_NS_PER_OP, alg, |r| r.0).filter(|_| imp == Imp::Fastmac);
            (
                kind(imp),
                vec![
                    display(alg, imp),
                    opt(row(small).map(|r| r.ns_per_msg)),
                    opt(mb_per_s(row(small))),
                    opt(row(large).map(|r| r.ns_per_msg)),
                    opt(mb_per_s(row(large))),
                    printed.map_or(NOT_PRINTED.into(), |p| format!("{} / {}", sig3(p.1), sig3(p.2))),
                    printed.map_or(NOT_PRINTED.into(), |p| {
                        format!("{} / {}", sig3(small as f64 / p.1 * 1000.0), sig3(large as f64 / p.2 * 1000.0))
                    }),
                ],
            )
        })
        .collect();
    let mut notes =
        vec![format!("MB/s = 10^6 bytes per second, as Go prints it; paper columns: {}", paper::GO_MACHINE)];
    notes.extend(missing_note(results, &listed));
    Table {
        id: "go",
        title: "5. The Go UMAC package's benchmark: ns/op and MB/s".into(),
        source: format!("{}, its BenchmarkXxx_32 and _1K", paper::GO.cite()),
        header: vec![
            "algorithm".into(),
            format!("{small} B: ns/op"),
            format!("{small} B: MB/s"),
            "1 KiB: ns/op".into(),
            "1 KiB: MB/s".into(),
            "paper ns/op 32 B / 1 KiB".into(),
            "paper MB/s".into(),
        ],
        rows,
        notes,
    }
}

/// -log2 of the forgery bound per attempt, from the library's own
/// [`Algorithm::info`] for its MACs; Nettle's UMAC is the same function;
/// Poly1305's is Bernstein's 8 * ceil(L/16) / 2^106 at L bytes; GMAC's is
/// (ceil(L/16) + 1) / 2^128 (McGrew and Viega, "The Security and
/// Performance of the Galois/Counter Mode of Operation": GHASH is a
/// polynomial of that degree in the hash key); keyed BLAKE3 truncated to
/// 128 bits is a PRF, 2^-128; AEGIS, as its specification states it
/// (draft-irtf-cfrg-aegis-aead, section 10.3: every variant offers "at
/// least 128-bit security against forgery attacks"), 128 bits, a claim
/// resting on the analysis of its round function, not a proof.
pub fn strength_bits(alg: &str, imp: Imp, size: usize) -> Option<f64> {
    match (alg, imp) {
        (plan::POLY1305 | plan::POLY1305_GIVEN_KEY, _) => Some(106.0 - (8.0 * size.div_ceil(16) as f64).log2()),
        (plan::GMAC | plan::GMAC_GCM128, _) => Some(128.0 - ((size.div_ceil(16) + 1) as f64).log2()),
        (plan::BLAKE3_KEYED, _) => Some(128.0),
        (_, Imp::Aegis) => Some(AEGIS_STRENGTH_BITS),
        (gear, Imp::Fastmac) if gear.starts_with("gear") => gears::strength_bits(gear),
        (plan::BADGER_SEQUENTIAL, Imp::Fastmac) => strength_bits(plan::BADGER_TABLE_ALG, Imp::Fastmac, size),
        (_, Imp::Fastmac | Imp::Nettle) => Algorithm::from_name(alg).ok().map(|a| -a.info().forgery_bound_log2),
        (_, Imp::RustCrypto) => strength_bits(alg, Imp::Fastmac, size),
        _ => None,
    }
}

/// AEGIS's forgery security in bits, as its specification states it.
const AEGIS_STRENGTH_BITS: f64 = 128.0;

fn strength_algs(results: &Results) -> Vec<(String, Imp)> {
    let mut algs: Vec<(String, Imp)> = plan::OPENSSH_ALGS.iter().map(|&a| (a.to_owned(), Imp::Fastmac)).collect();
    for (alg, imp) in acsa_algs(results) {
        if !algs.contains(&(alg.clone(), imp)) {
            algs.push((alg, imp));
        }
    }
    algs.push((plan::BADGER_SEQUENTIAL.to_owned(), Imp::Fastmac));
    algs.extend(plan::COMPARATORS.iter().filter(|c| c.1.is_mac()).map(|&(a, i)| (a.to_owned(), i)));
    algs
}

/// Table 6: strength against cost, every algorithm at 1500 bytes.
pub fn strength(results: &Results) -> Table {
    let size = plan::STRENGTH_SIZE;
    let listed = strength_algs(results);
    let rows = listed
        .iter()
        .map(|(alg, imp)| {
            let row = results.get(alg, *imp, size);
            (
                kind(*imp),
                vec![
                    display(alg, *imp),
                    match gears::no_strength(alg) {
                        Some(why) => why.to_owned(),
                        None => opt(strength_bits(alg, *imp, size)),
                    },
                    opt(row.and_then(|r| r.cycles_per_byte)),
                    opt(row.map(|r| r.gb_per_s)),
                ],
            )
        })
        .collect();
    let refs: Vec<(&str, Imp)> = listed.iter().map(|(a, i)| (a.as_str(), *i)).collect();
    let mut notes = vec![
        cycles_note(results),
        "strength = -log2 of the forgery probability per attempt (UMAC: RFC 4418 section 1; Badger: its paper's bound for any length; HMAC: the tag length; Poly1305: 8*ceil(L/16)/2^106; GMAC: (ceil(L/16)+1)/2^128; keyed BLAKE3: its 128-bit tag; AEGISMAC: 128, as the AEGIS specification states it (section 10.3), from the analysis of its round function rather than a reduction to a cipher as PRF plus a universal-hash bound; gears: their level's UMAC bound)".to_owned(),
        "the chart plots every row with a strength; the partial MACs S-L guarantee a detection rate, not a forgery bound, and the gears field's strength is what the receiver checks".to_owned(),
    ];
    if let Some(limit) = results.get(plan::READ_LIMIT, Imp::ReadLimit, size).and_then(|r| r.cycles_per_byte) {
        notes.push(format!("the pure read pass costs {} c/B at {size} B: no MAC can go below it", sig3(limit)));
    }
    notes.extend(missing_note(results, &refs));
    Table {
        id: "strength",
        title: format!("6. Strength vs. performance at {size} bytes"),
        source: format!(
            "{}, \"Strength vs. Performance\" chart; UMAC bounds from {}",
            paper::ACSA.cite(),
            paper::RFC4418.cite()
        ),
        header: vec!["algorithm".into(), "strength (bits)".into(), format!("c/B {size} B"), format!("GB/s {size} B")],
        rows,
        notes,
    }
}

/// The panel of the strength chart a point belongs to.
fn strength_panel(alg: &str) -> usize {
    match alg {
        a if a.starts_with("hmac") => 2,
        a if a.starts_with("gear") => 1,
        _ => 0,
    }
}

/// Family of an algorithm, one series each (one series per algorithm would
/// need a legend longer than the chart; every point is labelled).
fn family(alg: &str, imp: Imp) -> String {
    let base = match alg {
        a if a.starts_with("umac") => "UMAC",
        a if a.starts_with("hmac") => "HMAC",
        a if a.starts_with("badger") => "Badger",
        plan::POLY1305 => "Poly1305",
        plan::GMAC | plan::GMAC_GCM128 => "GMAC",
        plan::POLY1305_GIVEN_KEY => "Poly1305",
        a if a.starts_with("aegismac") => "AEGIS",
        plan::BLAKE3_KEYED => "BLAKE3",
        _ => "gears",
    };
    match imp {
        Imp::Fastmac | Imp::FastmacParallel | Imp::ReadLimit | Imp::NhCeiling => format!("{base} (fastmac)"),
        Imp::Nettle => format!("{base} (Nettle)"),
        Imp::OpenSsl => format!("{base} (OpenSSL)"),
        Imp::Blake3 => format!("{base} (blake3 crate)"),
        Imp::Aegis => format!("{base} (aegis crate)"),
        Imp::RustCrypto => format!("{base} (RustCrypto)"),
    }
}

/// Chart 6: every MAC as a labelled point, x = cycles per byte at 1500 B
/// (log), y = strength in bits, in three panels: the universal-hash MACs,
/// the gears' receiver checks, and the HMACs.
pub fn strength_chart(results: &Results) -> Chart {
    let size = plan::STRENGTH_SIZE;
    let unit = if results.machine.core_clock_ghz.is_some() { "cycles per byte" } else { "ns per byte" };
    let read_limit = results.get(plan::READ_LIMIT, Imp::ReadLimit, size).and_then(|r| r.cycles_per_byte);
    let titles = [
        "(a) UMAC, Badger and the fast MACs: Poly1305, GMAC, AEGIS, keyed BLAKE3",
        "(b) the gears' receiver check at each level",
        "(c) the HMACs",
    ];
    let mut panels: Vec<Panel> = titles
        .iter()
        .map(|title| Panel {
            title: (*title).to_owned(),
            x: Axis { label: format!("{unit} at {size} B"), scale: Scale::Log, ticks: vec![] },
            y: Axis { label: "strength: -log2 forgery bound (bits)".into(), scale: Scale::Linear, ticks: vec![] },
            series: vec![],
            markers: read_limit.map(|c| vec![(c, "read limit".to_owned())]).unwrap_or_default(),
        })
        .collect();
    for (alg, imp) in strength_algs(results) {
        let (Some(row), Some(bits)) = (results.get(&alg, imp, size), strength_bits(&alg, imp, size)) else {
            continue;
        };
        let cost = row.cycles_per_byte.unwrap_or(row.ns_per_msg / size as f64);
        let label = display(&alg, imp);
        let style = if imp == Imp::Fastmac { Style::Points } else { Style::Rings };
        let series = &mut panels[strength_panel(&alg)].series;
        let name = family(&alg, imp);
        let point = (cost, bits, Some(label));
        match series.iter_mut().find(|s| s.name == name) {
            Some(s) => s.points.push(point),
            None => series.push(Series { name, style, points: vec![point] }),
        }
    }
    Chart { id: "strength", title: format!("Strength vs. performance at {size} bytes, this machine"), panels }
}

/// Table 7: fastmac against the comparators of the same run, at every size.
pub fn comparators(results: &Results) -> Table {
    let ratio = |a: Option<&Row>, b: Option<&Row>| Some(measure::ratio(a?, b?));
    let ns = |row: Option<&Row>| row.map(|r| r.ns_per_msg);
    let rows = plan::COMPARATOR_SIZES
        .iter()
        .map(|&size| {
            let row = |alg: &str, imp| results.get(alg, imp, size);
            let f64_ = row("umac-64", Imp::Fastmac);
            let n64 = row("umac-64", Imp::Nettle);
            let f128 = row("umac-128", Imp::Fastmac);
            let n128 = row("umac-128", Imp::Nettle);
            let poly = row(plan::POLY1305, Imp::RustCrypto);
            let read = row(plan::READ_LIMIT, Imp::ReadLimit);
            let f32_ = row("umac-32", Imp::Fastmac);
            let ceiling64 = row("umac-64", Imp::NhCeiling);
            let x4 = row(plan::AEGIS_128X4, Imp::Aegis);
            (
                RowKind::Fastmac,
                vec![
                    format!("{size} B"),
                    opt(ns(f64_)),
                    opt(ns(n64)),
                    times(ratio(n64, f64_)),
                    opt(ns(f128)),
                    opt(ns(n128)),
                    times(ratio(n128, f128)),
                    opt(ns(poly)),
                    times(ratio(poly, f64_)),
                    opt(ns(row(plan::AEGIS_128L, Imp::Aegis))),
                    opt(ns(row(plan::AEGIS_128X2, Imp::Aegis))),
                    opt(ns(x4)),
                    times(ratio(x4, f64_)),
                    times(ratio(x4, f128)),
                    opt(ns(row("hmac-sha2-256", Imp::RustCrypto))),
                    opt(ns(read)),
                    ratio(read, f32_).map_or(NOT_MEASURED.into(), |r| format!("{:.0}%", r * 100.0)),
                    ratio(ceiling64, f64_).map_or(NOT_MEASURED.into(), |r| format!("{:.0}%", r * 100.0)),
                ],
            )
        })
        .collect();
    let mut notes = vec![
        "ns per message; x = how many times faster fastmac is (below 1: slower); the AEGISMAC columns are keyed (a keyed state cloned per message, 128-bit tags), X4 x = AEGISMAC-128X4's time over UMAC-64's and UMAC-128's; UMAC-32 vs read = share of the pure-read throughput UMAC-32 reaches; UMAC-64 vs NH = share of its NH ceiling (a bare NH pass of the same backend with UMAC-64's two iterations) UMAC-64 reaches".to_owned(),
        format!("GNU Nettle: {}", results.machine.nettle),
    ];
    notes.extend(missing_note(results, plan::COMPARATORS));
    Table {
        id: "comparators",
        title: "7. fastmac against other implementations and the read limit, same run".into(),
        source: "this run only: GNU Nettle's UMAC (hand-written SSE2 NH), RustCrypto Poly1305 and HMAC-SHA2-256, AEGIS used as a MAC (aegis crate), a pure read pass; OpenSSL, BLAKE3 and AEGIS's nonce rows are in table 8".into(),
        header: vec![
            "size".into(),
            "UMAC-64".into(),
            "Nettle".into(),
            "x".into(),
            "UMAC-128".into(),
            "Nettle".into(),
            "x".into(),
            "Poly1305 RustCrypto".into(),
            "UMAC-64 x".into(),
            "AEGISMAC-128L".into(),
            "AEGISMAC-128X2".into(),
            "AEGISMAC-128X4".into(),
            "UMAC-64 x X4".into(),
            "UMAC-128 x X4".into(),
            "HMAC-SHA2-256".into(),
            "read pass".into(),
            "UMAC-32 vs read".into(),
            "UMAC-64 vs NH".into(),
        ],
        rows,
        notes,
    }
}

/// Table 8: fastmac's UMAC beside the MACs a user would pick instead, at
/// every comparator size, with how each is keyed per message.
pub fn picked(results: &Results) -> Table {
    let picked = plan::picked();
    let rows = picked
        .iter()
        .map(|&(alg, imp)| {
            // Nettle's UMAC against fastmac's of the same tag length; the
            // 128-bit-tag MACs (and HMAC) against UMAC-128.
            let ours = if imp == Imp::Nettle { alg } else { "umac-128" };
            let mut cells = vec![display(alg, imp)];
            cells.extend(plan::COMPARATOR_SIZES.iter().map(|&size| {
                let row = results.get(alg, imp, size);
                match (row, results.get(ours, Imp::Fastmac, size)) {
                    (Some(row), Some(ours)) if imp != Imp::Fastmac => {
                        format!("{} ({})", sig3(row.ns_per_msg), times(Some(measure::ratio(row, ours))))
                    }
                    _ => opt(row.map(|r| r.ns_per_msg)),
                }
            }));
            (kind(imp), cells)
        })
        .collect();
    let mut notes = vec![
        "ns per message; (x) = how many times faster fastmac is at the same size (below 1: slower): Nettle's rows against fastmac's UMAC of the same tag length, the others against fastmac's UMAC-128 (Poly1305, GMAC, AEGISMAC and the BLAKE3 row have 128-bit tags too)".to_owned(),
        format!(
            "OpenSSL: {}; AEGIS: {}; BLAKE3: {}; GNU Nettle: {}",
            results.machine.openssl, results.machine.aegis, results.machine.blake3, results.machine.nettle
        ),
        "each OpenSSL MAC twice, so that its layers read apart: Poly1305 with its key derived (ChaCha20) less Poly1305 with the key given = the derivation; AES-128-GMAC through EVP_MAC less through CRYPTO_gcm128 = EVP_MAC's layers".to_owned(),
        "fastmac's UMAC: one key; the next 8-byte counter nonce per message".to_owned(),
    ];
    // One note per way of keying, naming every row keyed that way.
    let mut keyed: Vec<(&str, Vec<String>)> = Vec::new();
    for &(alg, imp) in &picked {
        let Some(how) = crate::measure::subjects::keying(alg, imp) else { continue };
        match keyed.iter_mut().find(|k| k.0 == how) {
            Some(k) => k.1.push(display(alg, imp)),
            None => keyed.push((how, vec![display(alg, imp)])),
        }
    }
    notes.extend(keyed.into_iter().map(|(how, rows)| format!("{}: {how}", rows.join(", "))));
    notes.push(crossover_note(results));
    notes.extend(missing_note(results, &picked));
    let mut header = vec!["algorithm".to_owned()];
    header.extend(plan::COMPARATOR_SIZES.iter().map(|s| format!("{s} B")));
    Table {
        id: "picked",
        title: "8. fastmac against the MACs users would pick instead, same run".into(),
        source: "this run only: OpenSSL's Poly1305 and AES-128-GMAC (libcrypto: EVP_MAC, and CRYPTO_gcm128), AEGIS used as a MAC (aegis crate), BLAKE3's keyed hash (blake3 crate), GNU Nettle's UMAC, RustCrypto".into(),
        header,
        rows,
        notes,
    }
}

/// The least measured size from which `other` takes at most the time of
/// fastmac's `umac` at that size and every larger measured size (`None`:
/// at no size, or not measured).
pub fn crossover(results: &Results, other: (&str, Imp), umac: &str) -> Option<usize> {
    let mut sizes: Vec<usize> =
        results.rows.iter().filter(|r| r.alg == other.0 && r.imp == other.1).map(|r| r.size).collect();
    sizes.sort_unstable();
    let faster = |size| match (results.get(other.0, other.1, size), results.get(umac, Imp::Fastmac, size)) {
        (Some(o), Some(u)) => Some(measure::ratio(o, u) <= 1.0),
        _ => None,
    };
    let mut from = None;
    for size in sizes {
        match faster(size) {
            Some(true) => from = from.or(Some(size)),
            Some(false) => from = None,
            None => {}
        }
    }
    from
}

/// Where AEGISMAC-128X4 (keyed) overtakes UMAC-64 and UMAC-128 in this
/// run, and where the guide to choosing a MAC is.
fn crossover_note(results: &Results) -> String {
    let x4 = (plan::AEGIS_128X4, Imp::Aegis);
    let from = |umac| match crossover(results, x4, umac) {
        Some(size) => format!("from {size} B"),
        None => "at no measured size".to_owned(),
    };
    format!(
        "in this run AEGISMAC-128X4 keyed takes at most UMAC-64's time {} and at most UMAC-128's {} (among the sizes measured); which MAC for which job, from such a run: docs/choosing.md in the fastmac repository",
        from("umac-64"),
        from("umac-128")
    )
}

/// Who implements a MAC of the many-keys run: the aegis crate for AEGIS's
/// rows, fastmac for the others.
fn keys_imp(alg: &str) -> Imp {
    if alg.starts_with("aegismac") { Imp::Aegis } else { Imp::Fastmac }
}

/// The counts of live keys the many-keys run measured, ascending.
fn key_counts(results: &Results) -> Vec<usize> {
    let mut counts: Vec<usize> = results.keys.results.iter().map(|r| r.keys).collect();
    counts.sort_unstable();
    counts.dedup();
    counts
}

/// Table 9: the cost of a packet when many keys are live, at a few points
/// of `fastmac bench --keys`: a row per MAC and count of live keys, a
/// column per packet size, each cell's multiple of the MAC's own one-key
/// figure beside it (the cells are [`many_keys::cell`]'s, as `--keys`
/// prints them).
pub fn many_keys(results: &Results) -> Table {
    let run = &results.keys;
    let counts = key_counts(results);
    let mut rows = Vec::new();
    for &alg in plan::KEYS_ALGS {
        let imp = keys_imp(alg);
        let state_bytes = run.results.iter().find(|r| r.alg == alg).map(|r| r.state_bytes);
        for &keys in &counts {
            let huge_pages = run.results.iter().find(|r| r.alg == alg && r.keys == keys).map(|r| r.huge_page_share);
            let mut cells = vec![
                display(alg, imp),
                keys.to_string(),
                state_bytes.map_or(NOT_MEASURED.into(), |b| b.to_string()),
                huge_pages.map_or(NOT_MEASURED.into(), many_keys::huge_page_cell),
            ];
            cells.extend(plan::KEYS_SIZES.iter().map(|&size| many_keys::cell(run, alg, keys, size)));
            rows.push((kind(imp), cells));
        }
    }
    let mut paths: Vec<String> = Vec::new();
    for r in &run.results {
        let path = format!("{}: {}", display(r.alg, keys_imp(r.alg)), r.path);
        if !paths.contains(&path) {
            paths.push(path);
        }
    }
    let notes = vec![
        format!(
            "ns per packet, the median of {} rounds; (x) = the time over the same MAC's with one live key at the same size: what states that no longer stay in the caches add",
            run.rounds
        ),
        format!(
            "one keyed state per connection in one array, visited in a scattered order (each connection's next packet comes after every other's), each connection's sequence number its nonce, {} distinct packets; state B/key = bytes of the state a packet starts from",
            run.distinct_packets
        ),
        many_keys::memory_line(&run.memory),
        many_keys::pages_line(run),
        format!("how a packet reaches each MAC: {}", paths.join("; ")),
        "more MACs, counts and sizes: fastmac bench --keys 1,256,4096,16384,65536 (docs/usage.md section 8)".to_owned(),
    ];
    let mut header =
        vec!["algorithm".to_owned(), "live keys".to_owned(), "state B/key".to_owned(), "2 MiB pages".to_owned()];
    header.extend(plan::KEYS_SIZES.iter().map(|s| format!("{s} B")));
    Table {
        id: "keys",
        title: "9. Many live keys: ns per packet against the number of keys".into(),
        source: "this run only: fastmac bench --keys at a few points, a server holding one keyed MAC per connection"
            .into(),
        header,
        rows,
        notes,
    }
}

/// Chart 9: ns per packet against live keys (log scale), a line per MAC
/// and packet size, AEGIS dashed as the comparator.
pub fn many_keys_chart(results: &Results) -> Chart {
    let run = &results.keys;
    let pairs = plan::KEYS_ALGS.iter().flat_map(|&alg| plan::KEYS_SIZES.iter().map(move |&size| (alg, size)));
    let series = pairs
        .filter_map(|(alg, size)| {
            let mut points: Vec<_> = run
                .results
                .iter()
                .filter(|r| r.alg == alg && r.size == size)
                .map(|r| (r.keys as f64, r.ns_per_packet, None))
                .collect();
            points.sort_by(|a, b| a.0.total_cmp(&b.0));
            let style = if keys_imp(alg) == Imp::Fastmac { Style::Line } else { Style::Dashed };
            // The implementation is left out of the name: a line's name must
            // fit the right margin, and the dashes say "comparator".
            let name = format!("{}, {size} B", display(alg, Imp::Fastmac));
            (!points.is_empty()).then_some(Series { name, style, points })
        })
        .collect();
    // A tick every factor of 16, so that the counts between the measured
    // ones read off the axis too; at least two, so that the axis has a
    // width even if one count was measured.
    let most = key_counts(results).last().map_or(16, |&k| k.max(16));
    let ticks = std::iter::successors(Some(1usize), |k| k.checked_mul(16)).take_while(|&k| k <= most);
    Chart {
        id: "keys",
        title: "Per-packet cost against live keys, this machine".into(),
        panels: vec![Panel {
            title: "one keyed state per connection, visited in a scattered order (AEGIS dashed)".into(),
            x: Axis { label: "live keys".into(), scale: Scale::Log, ticks: ticks.map(|k| k as f64).collect() },
            y: Axis { label: "ns per packet".into(), scale: Scale::Log, ticks: vec![] },
            series,
            markers: vec![],
        }],
    }
}
