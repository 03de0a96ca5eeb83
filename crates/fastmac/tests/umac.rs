//! UMAC's integration tests, in one test binary: each module is one
//! property of the public API (known answers, the reference model, GNU
//! Nettle, streaming, alignment, sharing, backends, the multi-core path).
//! One binary rather than one per file: each test binary instantiates the
//! generic UMAC code for all four tag lengths again, which made these files
//! the costliest part of `make test`'s build (docs/testing.md section 1).

mod common;

mod backends;
mod backends_agree;
mod nettle_differential;
mod parallel;
mod rfc4418;
mod shared;
mod streaming;
mod umac_reference;
mod unaligned;

/// With `autotests = false` (Cargo.toml), a test file is built only when the
/// manifest names it as a `[[test]]` or a binary declares it as a module: a
/// file that is neither would pass unseen, running nothing.
#[test]
fn every_test_file_is_built() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(dir.join("Cargo.toml")).expect("readable manifest");
    let mut built: Vec<String> = manifest
        .split("[[test]]")
        .skip(1)
        .filter_map(|entry| {
            let name = entry.lines().find_map(|line| line.trim().strip_prefix("name = "))?;
            Some(name.trim_matches('"').to_owned())
        })
        .collect();
    assert!(built.iter().any(|name| name == "umac"), "Cargo.toml names no [[test]] umac");
    built.extend(common::declared_modules(include_str!("umac.rs")).map(str::to_owned));
    let tests = dir.join("tests");
    let mut unbuilt = Vec::new();
    for entry in std::fs::read_dir(&tests).expect("readable tests folder") {
        let path = entry.expect("folder entry").path();
        let stem = path.file_stem().expect("file name").to_string_lossy().into_owned();
        if path.extension().is_some_and(|e| e == "rs") && !built.contains(&stem) {
            unbuilt.push(stem);
        }
    }
    assert!(
        unbuilt.is_empty(),
        "test files that no [[test]] of Cargo.toml and no module of tests/umac.rs builds: {unbuilt:?}"
    );
}
