//! Every known-answer file under `tests/vectors/` is named by a test of this
//! crate, so the cross suites of `make test` (s390x, aarch64 under qemu-user),
//! which run exactly this crate's tests, check each file on a big-endian and
//! an AArch64 machine too. A vector file that only the Python or C tests read
//! fails here: give it a Rust test as well.

mod common;

use std::fs;
use std::path::Path;

/// The text of every `.rs` file under `dir`, concatenated.
fn rust_sources(dir: &Path, out: &mut String) {
    for entry in fs::read_dir(dir).expect("readable test folder") {
        let path = entry.expect("folder entry").path();
        if path.is_dir() {
            rust_sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push_str(&fs::read_to_string(&path).expect("readable source"));
        }
    }
}

/// Names of the data files under `dir` (README files and the scripts that
/// generated some of them excepted).
fn vector_files(dir: &Path, out: &mut Vec<String>) {
    for entry in fs::read_dir(dir).expect("readable vectors folder") {
        let path = entry.expect("folder entry").path();
        let name = path.file_name().expect("file name").to_string_lossy().into_owned();
        if path.is_dir() {
            vector_files(&path, out);
        } else if !name.to_ascii_lowercase().starts_with("readme") && !name.ends_with(".py") {
            out.push(name);
        }
    }
}

#[test]
fn every_vector_file_is_read_by_a_library_test() {
    let mut sources = String::new();
    rust_sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests"), &mut sources);
    let mut files = Vec::new();
    vector_files(&common::vectors_dir(), &mut files);
    assert!(files.iter().any(|f| f == "rfc4418.txt"), "tests/vectors/ not found or empty");
    let unread: Vec<&String> = files.iter().filter(|f| !sources.contains(f.as_str())).collect();
    assert!(unread.is_empty(), "tests/vectors files no fastmac test reads (so not checked cross-target): {unread:?}");
    println!("vector files named by fastmac tests: {files:?}");
}
