//! Gives the shared library the SONAME it is installed under
//! (`make install` copies `libfastmac_c.so` to `libfastmac.so.<major>`), so
//! programs linked with `-lfastmac` record `libfastmac.so.0` as their
//! dependency rather than the build-tree file name.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" {
        let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_else(|_| "0".into());
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libfastmac.so.{major}");
    }
    println!("cargo:rerun-if-changed=build.rs");
}
