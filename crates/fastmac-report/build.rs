//! Records the versions of the `blake3` and `aegis` crates Cargo.lock
//! pins, so that `fastmac bench` can print which BLAKE3 and AEGIS it
//! measured.

use std::path::Path;

fn main() {
    let lock = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../Cargo.lock");
    println!("cargo:rerun-if-changed={}", lock.display());
    let text = std::fs::read_to_string(&lock).unwrap_or_default();
    println!("cargo:rustc-env=FASTMAC_BLAKE3_VERSION={}", locked_version(&text, "blake3").unwrap_or("unknown"));
    println!("cargo:rustc-env=FASTMAC_AEGIS_VERSION={}", locked_version(&text, "aegis").unwrap_or("unknown"));
}

/// The `version` line after `name = "<name>"` in a Cargo.lock.
fn locked_version<'a>(lock: &'a str, name: &str) -> Option<&'a str> {
    let mut lines = lock.lines().skip_while(|l| *l != format!("name = \"{name}\""));
    lines.next()?;
    lines.next()?.strip_prefix("version = \"")?.strip_suffix('"')
}
