//! Helpers shared by the integration tests: the known-answer file reader.
#![allow(dead_code)] // each test binary uses a different subset

pub mod badger_ref;
// libnettle (Debian's nettle-dev) is linked only under `--cfg fastmac_nettle`,
// which the root Makefile sets for its x86_64 test runs: plain `cargo test`
// needs no nettle-dev, and the cross suites (s390x, aarch64 under qemu-user)
// build without it.
#[cfg(all(fastmac_nettle, target_arch = "x86_64"))]
pub mod nettle;
pub mod umac_ref;

use std::path::PathBuf;

/// The known-answer files: the repository's `tests/vectors` folder, shared
/// with the C and Python tests, which `tests/vectors` here links to (`cargo
/// package` archives the files themselves, so the packaged crate's tests
/// read the same ones).
pub fn vectors_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/vectors")
}

/// True under `make test-cross`, which runs the suites under qemu-user, about
/// ten times slower than native: there the costliest repetitions are bounded
/// (the Makefile lists which), never the known-answer checks themselves.
pub fn emulated() -> bool {
    std::env::var_os("FASTMAC_TEST_EMULATED").is_some()
}

/// The modules a test binary's root file declares in files of their own
/// (its `mod NAME;` lines): `tests/umac.rs` is one binary of several files.
pub fn declared_modules(root: &str) -> impl Iterator<Item = &str> {
    root.lines().filter_map(|line| line.strip_prefix("mod ")?.strip_suffix(';'))
}

/// One row of `rfc4418.txt`.
pub struct RfcVector {
    pub message: Vec<u8>,
    /// Tags for UMAC-32, -64, -96, -128, in that order.
    pub tags: [Vec<u8>; 4],
}

/// Reads `tests/vectors/rfc4418.txt`: returns the key, the nonce and the rows.
pub fn rfc4418_vectors() -> (Vec<u8>, Vec<u8>, Vec<RfcVector>) {
    let text = std::fs::read_to_string(vectors_dir().join("rfc4418.txt")).expect("vector file");
    let (mut key, mut nonce, mut rows) = (None, None, Vec::new());
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            ["key", k] => key = Some(k.as_bytes().to_vec()),
            ["nonce", n] => nonce = Some(n.as_bytes().to_vec()),
            [pattern, repeat, t32, t64, t96, t128] => {
                let pattern = if *pattern == "-" { "" } else { pattern };
                let repeat: usize = repeat.parse().expect("repeat count");
                rows.push(RfcVector {
                    message: pattern.as_bytes().repeat(repeat),
                    tags: [t32, t64, t96, t128].map(|t| unhex(t)),
                });
            }
            _ => panic!("malformed vector line: {line}"),
        }
    }
    (key.expect("key line"), nonce.expect("nonce line"), rows)
}

pub fn unhex(s: &str) -> Vec<u8> {
    assert!(s.len().is_multiple_of(2), "odd hex length: {s}");
    (0..s.len()).step_by(2).map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex")).collect()
}

/// The NH backend the harness forced through `FASTMAC_BACKEND` (the root
/// Makefile runs the suites once per backend), or `None` when unset. The
/// library applies the variable only when built with
/// `--cfg fastmac_backend_env`, which those runs set; a value without it, or
/// one that names no backend this CPU runs, fails the test rather than
/// letting it pass on another backend.
pub fn forced_backend() -> Option<fastmac::umac::Backend> {
    let value = std::env::var("FASTMAC_BACKEND").ok()?;
    let value = value.trim();
    if value.is_empty() {
        return None;
    }
    if !cfg!(fastmac_backend_env) {
        panic!("FASTMAC_BACKEND={value} is read only under RUSTFLAGS=--cfg fastmac_backend_env");
    }
    let backend = fastmac::umac::Backend::from_name(value).unwrap_or_else(|e| panic!("FASTMAC_BACKEND: {e}"));
    assert!(backend.is_supported(), "FASTMAC_BACKEND={value}: this CPU or target cannot run it");
    Some(backend)
}
