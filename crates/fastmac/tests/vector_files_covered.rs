//! Every known-answer file under `tests/vectors/` is named by a test of this
//! crate that the cross suites of `make test` (s390x, aarch64 under
//! qemu-user) run, so each file is checked on a big-endian and an AArch64
//! machine too. `make test` passes the cross suites' test binaries in
//! `FASTMAC_CROSS_TESTS` (the root Makefile's `CROSS_TESTS`, names without
//! `.rs`: a binary's root file and the module files it declares); without it,
//! any test file of this crate counts. A vector file
//! that only the Python or C tests read fails here: give it a Rust test as
//! well, in a file the cross suites run.

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

/// The text of the cross suites' test binaries: for each name in `list`, the
/// file of that name in `tests` (every one must exist), with the files of
/// the modules it declares where they are files of `tests` too (`umac.rs` is
/// one binary of several files; `common` is a folder and holds helpers).
fn cross_sources(tests: &Path, list: &str, out: &mut String) {
    for name in list.split_whitespace() {
        let path = tests.join(format!("{name}.rs"));
        let text = fs::read_to_string(&path)
            .unwrap_or_else(|err| panic!("FASTMAC_CROSS_TESTS names {name}: {}: {err}", path.display()));
        for module in common::declared_modules(&text) {
            let module_path = tests.join(format!("{module}.rs"));
            if module_path.is_file() {
                out.push_str(&fs::read_to_string(&module_path).expect("readable module source"));
            }
        }
        out.push_str(&text);
    }
}

#[test]
fn every_vector_file_is_read_by_a_library_test() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut sources = String::new();
    match std::env::var("FASTMAC_CROSS_TESTS") {
        Ok(list) => cross_sources(&tests, &list, &mut sources),
        Err(_) => rust_sources(&tests, &mut sources),
    }
    let mut files = Vec::new();
    vector_files(&common::vectors_dir(), &mut files);
    assert!(files.iter().any(|f| f == "rfc4418.txt"), "tests/vectors/ not found or empty");
    let unread: Vec<&String> = files.iter().filter(|f| !sources.contains(f.as_str())).collect();
    assert!(unread.is_empty(), "tests/vectors files no cross-suite test of fastmac reads: {unread:?}");
    println!("vector files named by fastmac tests: {files:?}");
}
