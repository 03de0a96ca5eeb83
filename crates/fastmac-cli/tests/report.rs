//! `fastmac bench --quick --out DIR`: the report folder holds a
//! results.json with a row for every algorithm and size of the first eight
//! tables and the many-keys run of the ninth, SVG charts that parse with the
//! expected series, and an index.html that a real browser (Debian's
//! chromium, headless) renders into a non-blank page whose DOM holds every
//! chart.
//!
//! The lists below are the report's tables, written out again here (not
//! imported from the code under test).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::sync::OnceLock;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::Value;

const OPENSSH: &[&str] = &[
    "hmac-md5",
    "hmac-sha1",
    "hmac-ripemd160",
    "umac-64",
    "umac-128",
    "hmac-sha2-256",
    "hmac-sha2-512",
    "umac-32",
    "umac-96",
    "badger-64",
];
const SWEEP: &[usize] = &[32, 64, 128, 256, 512, 1024, 1500, 2048, 4096];
const ACSA: &[&str] = &[
    "hmac-sha1-96",
    "hmac-md5-96",
    "umac-128",
    "umac-96",
    "umac-64",
    "umac-32",
    "badger-32",
    "badger-64",
    "badger-96",
    "badger-128",
    "badger-160",
];
const GO: &[&str] = &["hmac-sha2-256", "hmac-md5", "umac-64", "umac-128"];
const COMPARATORS: &[(&str, &str)] = &[
    ("umac-32", "nettle"),
    ("umac-64", "nettle"),
    ("umac-96", "nettle"),
    ("umac-128", "nettle"),
    ("poly1305", "openssl"),
    ("poly1305/given-key", "openssl"),
    ("aes-128-gmac", "openssl"),
    ("aes-128-gmac/gcm128", "openssl"),
    ("aegismac-128l", "aegis"),
    ("aegismac-128x2", "aegis"),
    ("aegismac-128x4", "aegis"),
    ("aegismac-256", "aegis"),
    ("aegismac-128l/nonce", "aegis"),
    ("aegismac-128x2/nonce", "aegis"),
    ("aegismac-128x4/nonce", "aegis"),
    ("aegismac-256/nonce", "aegis"),
    ("blake3-keyed", "blake3"),
    ("poly1305", "rustcrypto"),
    ("hmac-sha2-256", "rustcrypto"),
    ("read-limit", "read-limit"),
    ("umac-64", "nh-ceiling"),
];
const COMPARATOR_SIZES: &[usize] = &[32, 512, 1024, 1500, 4096, 65536];
/// Table 9 under `--quick`: the MACs, live keys and packet sizes.
const KEYS_ALGS: &[&str] = &["umac-64", "umac-128", "aegismac-128l"];
const KEYS_QUICK: &[u64] = &[1, 65536];
const KEYS_SIZES: &[u64] = &[64, 1500];

struct Run {
    dir: PathBuf,
    stdout: String,
    json: Value,
}

/// One quick run shared by every test of this file.
fn run() -> &'static Run {
    static RUN: OnceLock<Run> = OnceLock::new();
    RUN.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("fastmac-report-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let started = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_fastmac"))
            .args(["bench", "--quick", "--out"])
            .arg(&dir)
            .output()
            .expect("spawn fastmac");
        eprintln!("fastmac bench --quick took {:.1} s", started.elapsed().as_secs_f64());
        assert!(out.status.success(), "bench failed: {}", String::from_utf8_lossy(&out.stderr));
        let json = serde_json::from_str(&std::fs::read_to_string(dir.join("results.json")).unwrap())
            .expect("results.json parses");
        Run { dir, stdout: String::from_utf8(out.stdout).unwrap(), json }
    })
}

fn rows(json: &Value) -> BTreeSet<(String, String, u64)> {
    json["results"]
        .as_array()
        .expect("results array")
        .iter()
        .map(|r| {
            let size = r["size"].as_u64().unwrap();
            assert!(r["ns_per_msg"].as_f64().is_some_and(|v| v > 0.0 && v.is_finite()), "ns_per_msg of {r}");
            if size > 0 {
                assert!(r["gb_per_s"].as_f64().is_some_and(|v| v > 0.0 && v.is_finite()), "gb_per_s of {r}");
            }
            let alg = r["alg"].as_str().unwrap().to_owned();
            // The read pass's impl is its kernel (avx512, avx2, ...).
            let imp =
                if alg == "read-limit" { "read-limit".to_owned() } else { r["impl"].as_str().unwrap().to_owned() };
            (alg, imp, size)
        })
        .collect()
}

/// The (alg, impl, size) cells of the report's tables.
fn expected_cells() -> BTreeSet<(String, String, u64)> {
    let mut cells = BTreeSet::new();
    let mut add = |alg: &str, imp: &str, sizes: &[usize]| {
        for &s in sizes {
            cells.insert((alg.to_owned(), imp.to_owned(), s as u64));
        }
    };
    for alg in OPENSSH {
        add(alg, "fastmac", SWEEP);
    }
    for alg in ACSA {
        add(alg, "fastmac", &[1500, 4096, 65536]);
    }
    for alg in GO {
        add(alg, "fastmac", &[32, 1024]);
    }
    for (alg, imp) in COMPARATORS {
        add(alg, imp, COMPARATOR_SIZES);
    }
    cells
}

#[test]
fn results_have_a_row_for_every_cell_or_say_why_not() {
    let run = run();
    let rows = rows(&run.json);
    let missing: Vec<&Value> = run.json["missing"].as_array().expect("missing array").iter().collect();
    for (alg, imp, size) in expected_cells() {
        if rows.contains(&(alg.clone(), imp.clone(), size)) {
            continue;
        }
        // Only an algorithm this build of the library does not have may be
        // missing; its reason must be printed.
        assert_eq!(imp, "fastmac", "comparator {alg} ({imp}) at {size} B not measured");
        assert!(fastmac::Algorithm::from_name(&alg).is_err(), "{alg} exists but has no row at {size} B");
        assert!(
            missing.iter().any(|m| m["alg"] == alg.as_str() && m["size"] == size && m["reason"].as_str().is_some()),
            "{alg} at {size} B is neither measured nor listed as missing"
        );
        assert!(run.stdout.contains("missing"), "the terminal output does not say rows are missing");
    }
    let machine = &run.json["machine"];
    for field in ["cpu", "fastmac_backend", "clock_method", "date"] {
        assert!(machine[field].as_str().is_some_and(|s| !s.is_empty()), "machine.{field}");
    }
}

#[test]
fn every_table_is_printed() {
    let run = run();
    for title in [
        "1. MAC algorithms in OpenSSH",
        "2. Figure 1",
        "3. ACSA",
        "4. Badger",
        "5. The Go UMAC package",
        "6. Strength vs. performance",
        "7. fastmac against other implementations",
        "8. fastmac against the MACs users would pick instead",
        "9. Many live keys",
    ] {
        assert!(run.stdout.contains(title), "{title} not printed");
    }
    // The comparators' libraries, and how each is keyed per message.
    assert!(run.stdout.contains("OpenSSL:    libcrypto.so.3, OpenSSL 3"), "OpenSSL's version not printed");
    assert!(run.stdout.contains("BLAKE3:     blake3 crate 1."), "BLAKE3's version not printed");
    assert!(run.stdout.contains("AEGIS:      aegis crate 0."), "AEGIS's version not printed");
    for keyed in [
        "Poly1305 (OpenSSL): a fresh one-time key per message",
        "Poly1305, key given (OpenSSL): a one-time key per message given to EVP_MAC_init",
        "AES-128-GMAC (OpenSSL): one AES-128 key; a fresh 96-bit IV per message",
        "AES-128-GMAC, CRYPTO_gcm128 (OpenSSL): one AES-128 key; per message CRYPTO_gcm128_setiv",
        "AEGISMAC-128L keyed (aegis crate), AEGISMAC-128X2 keyed (aegis crate), AEGISMAC-128X4 keyed (aegis crate), AEGISMAC-256 keyed (aegis crate): one key; a state initialized once",
        "AEGISMAC-128L, nonce per message (aegis crate), AEGISMAC-128X2, nonce per message (aegis crate), AEGISMAC-128X4, nonce per message (aegis crate), AEGISMAC-256, nonce per message (aegis crate): one key; a fresh state per message",
        "BLAKE3 keyed (blake3 crate): one 256-bit key",
        "Poly1305 (RustCrypto): one key for every message",
    ] {
        assert!(run.stdout.contains(keyed), "keying not printed: {keyed}");
    }
    assert!(run.stdout.contains("cycles = time x"), "the cycles method is not printed");
    assert!(run.stdout.contains("in this run AEGISMAC-128X4 keyed takes at most UMAC-64's time "), "no crossover");
    assert!(run.stdout.contains("docs/choosing.md"), "the guide to choosing a MAC is not named");
}

#[test]
fn table_9_its_chart_and_results_json_hold_the_many_keys_run() {
    let run = run();
    let rows = run.json["many_keys"]["results"].as_array().expect("many_keys.results");
    for alg in KEYS_ALGS {
        for keys in KEYS_QUICK {
            for size in KEYS_SIZES {
                let cell = rows.iter().find(|r| r["alg"] == *alg && r["keys"] == *keys && r["size"] == *size);
                let ns = cell.and_then(|r| r["ns_per_packet"].as_f64());
                assert!(ns.is_some_and(|ns| ns > 0.0 && ns.is_finite()), "{alg} at {keys} keys, {size} B: {cell:?}");
            }
        }
    }
    assert_eq!(rows.len(), KEYS_ALGS.len() * KEYS_QUICK.len() * KEYS_SIZES.len());
    let memory = &run.json["many_keys"]["memory"];
    assert!(memory["latency_ns"].as_f64().is_some_and(|ns| ns > 0.0), "{memory}");
    let table = &run.stdout[run.stdout.find("9. Many live keys").expect("table 9")..];
    assert!(table.contains("memory past the caches: "), "{table}");
    // A row per MAC and count of keys; past one key, each cell its multiple
    // of the one-key figure.
    let many = table.lines().filter(|l| l.split_whitespace().any(|w| w == "65536")).count();
    assert_eq!(many, KEYS_ALGS.len(), "{table}");
    assert!(table.lines().filter(|l| l.contains("x)")).count() >= KEYS_ALGS.len(), "{table}");
    let series = svg_series(&std::fs::read_to_string(run.dir.join("keys.svg")).unwrap());
    assert_eq!(series.len(), KEYS_ALGS.len() * KEYS_SIZES.len(), "{series:?}");
    for (name, points) in &series {
        assert_eq!(*points, KEYS_QUICK.len(), "series {name}");
    }
}

fn svg_series(svg: &str) -> Vec<(String, usize)> {
    let doc = roxmltree::Document::parse(svg).expect("SVG parses as XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    doc.descendants()
        .filter(|n| n.attribute("class") == Some("series"))
        .map(|n| {
            let points = n.children().filter(|c| c.tag_name().name() == "circle").count();
            (n.attribute("data-series").unwrap_or_default().to_owned(), points)
        })
        .collect()
}

#[test]
fn figure_1_has_one_series_per_measured_algorithm() {
    let run = run();
    let rows = rows(&run.json);
    let series = svg_series(&std::fs::read_to_string(run.dir.join("figure1.svg")).unwrap());
    let sweep: Vec<(&str, &str)> = OPENSSH
        .iter()
        .map(|a| (*a, "fastmac"))
        .chain([
            ("umac-64", "nettle"),
            ("umac-128", "nettle"),
            ("poly1305", "openssl"),
            ("aes-128-gmac", "openssl"),
            ("aegismac-128l", "aegis"),
            ("aegismac-128x4", "aegis"),
            ("blake3-keyed", "blake3"),
            ("poly1305", "rustcrypto"),
            ("read-limit", "read-limit"),
        ])
        .collect();
    let measured = sweep.iter().filter(|(a, i)| rows.contains(&(a.to_string(), i.to_string(), 32))).count();
    assert!(measured >= 8, "too few algorithms measured: {measured}");
    for aegis in ["AEGISMAC-128L keyed (aegis crate)", "AEGISMAC-128X4 keyed (aegis crate)"] {
        assert!(series.iter().any(|s| s.0 == aegis), "{aegis} not in figure 1: {series:?}");
    }
    // Panels: fastmac's UMAC-64 and UMAC-128 are drawn again beside the
    // comparators, so the count is of distinct series.
    let distinct: BTreeSet<&str> = series.iter().map(|s| s.0.as_str()).collect();
    assert_eq!(distinct.len(), measured, "{series:?}");
    for (name, points) in &series {
        assert_eq!(*points, SWEEP.len(), "series {name}");
    }
}

#[test]
fn badger_figure_6_has_both_modes_umac_and_poly1305_at_every_size() {
    let run = run();
    let series = svg_series(&std::fs::read_to_string(run.dir.join("figure6.svg")).unwrap());
    let names: Vec<&str> = series.iter().map(|s| s.0.as_str()).collect();
    // Poly1305 as measured: no series is scaled.
    assert_eq!(
        names,
        [
            "Badger-64 I (no IV setup)",
            "Badger-64 II (IV setup)",
            "UMAC-64",
            "Poly1305 (RustCrypto)",
            "Poly1305 (OpenSSL)"
        ]
    );
    for (name, points) in &series {
        assert_eq!(*points, SWEEP.len(), "series {name}");
    }
}

#[test]
fn strength_chart_has_a_point_per_mac_measured_at_1500() {
    let run = run();
    // Not points: the read pass and the NH ceiling (not MACs), the gears'
    // sender field (its strength is the receiver's choice) and the partial
    // MACs S-L (a detection rate, not a forgery bound).
    let unbounded =
        |a: &str, i: &str| a == "read-limit" || i == "nh-ceiling" || a == "gears-field" || a.starts_with("gear-s-");
    let macs_at_1500 = rows(&run.json).iter().filter(|(a, i, s)| *s == 1500 && !unbounded(a, i)).count();
    let series = svg_series(&std::fs::read_to_string(run.dir.join("strength.svg")).unwrap());
    let points: usize = series.iter().map(|s| s.1).sum();
    assert_eq!(points, macs_at_1500, "{series:?}");
    // Every AEGIS row, keyed and with a nonce per message, at the 128 bits
    // its specification states.
    let aegis = series.iter().find(|s| s.0 == "AEGIS (aegis crate)").expect("an AEGIS series");
    assert_eq!(aegis.1, 8, "AEGIS points");
}

/// Runs `cmd` to its end, killed if it outlives `limit`. The watchdog stops
/// at the child's end, so that it cannot signal the child's process id
/// after the limit, when another process may hold it.
fn wait_bounded(mut cmd: Command, limit: Duration) -> Output {
    let child = cmd.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("start chromium");
    let id = child.id();
    let (ended, end) = mpsc::channel::<()>();
    let watchdog = std::thread::spawn(move || {
        if end.recv_timeout(limit) == Err(RecvTimeoutError::Timeout) {
            // Only this test's own chromium, by its process id.
            let _ = Command::new("kill").arg(id.to_string()).status();
        }
    });
    let out = child.wait_with_output().unwrap();
    drop(ended);
    watchdog.join().expect("the watchdog");
    out
}

fn chromium(page: &Path, profile: &Path, extra: &[&str]) -> Output {
    let mut cmd = Command::new("chromium");
    cmd.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--window-size=1100,2400",
    ])
    .arg(format!("--user-data-dir={}", profile.display()))
    .args(extra)
    .arg(format!("file://{}", page.display()));
    wait_bounded(cmd, Duration::from_secs(120))
}

#[test]
fn a_real_browser_renders_the_page_with_every_chart() {
    let run = run();
    let page = run.dir.join("index.html");
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(!html.contains("http://") || !html.contains("src=\"http"), "external resource in index.html");
    assert!(!html.contains("<script") && !html.contains("<link"), "index.html is not self-contained");

    let dom = chromium(&page, &run.dir.join("profile-dom"), &["--dump-dom"]);
    let dom = String::from_utf8_lossy(&dom.stdout);
    for id in ["chart-figure1", "chart-figure6", "chart-strength", "chart-keys"] {
        assert!(dom.contains(&format!("id=\"{id}\"")), "{id} not in the browser's DOM");
    }
    for aegis in ["data-series=\"AEGIS (aegis crate)\"", "data-series=\"AEGISMAC-128X4 keyed (aegis crate)\""] {
        assert!(dom.contains(aegis), "{aegis} not in the browser's DOM");
    }
    assert_eq!(dom.matches("<table>").count(), 9, "tables in the DOM");
    let in_files: usize = ["figure1.svg", "figure6.svg", "strength.svg", "keys.svg"]
        .iter()
        .map(|f| svg_series(&std::fs::read_to_string(run.dir.join(f)).unwrap()).len())
        .sum();
    assert_eq!(dom.matches("class=\"series\"").count(), in_files, "series in the DOM");

    let shot = run.dir.join("screenshot.png");
    let out = chromium(&page, &run.dir.join("profile-shot"), &[&format!("--screenshot={}", shot.display())]);
    assert!(shot.exists(), "no screenshot: {}", String::from_utf8_lossy(&out.stderr));
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let pixels = &buf[..info.buffer_size()];
    let total = pixels.len() / channels;
    let non_white = pixels.chunks(channels).filter(|p| p[..3].iter().any(|&c| c < 200)).count();
    let colours: BTreeSet<&[u8]> = pixels.chunks(channels).map(|p| &p[..3]).collect();
    assert!(non_white * 50 > total, "screenshot nearly blank: {non_white} of {total} pixels drawn");
    assert!(colours.len() > 16, "screenshot has only {} colours", colours.len());
}
