//! Gives the shared library the SONAME it is installed under
//! (`make install` copies `libfastmac_c.so` to `libfastmac.so.<major>`), so
//! programs linked with `-lfastmac` record `libfastmac.so.0` as their
//! dependency rather than the build-tree file name.

fn main() {
    let os = std::env::var("CARGO_CFG_TARGET_OS").unwrap_or_default();
    if os == "linux" {
        let major = std::env::var("CARGO_PKG_VERSION_MAJOR").unwrap_or_else(|_| "0".into());
        // The `openssh` build is installed as libfastmac-openssh.
        let name = if std::env::var_os("CARGO_FEATURE_OPENSSH").is_some() { "fastmac-openssh" } else { "fastmac" };
        println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,lib{name}.so.{major}");
        // Without std, rustc links the shared library with -nodefaultlibs:
        // name libc, whose malloc and free the lean library calls
        // (src/runtime.rs), so that it is recorded as NEEDED.
        if std::env::var_os("CARGO_FEATURE_STD").is_none() {
            println!("cargo:rustc-cdylib-link-arg=-lc");
        }
    }
    println!("cargo:rerun-if-changed=build.rs");
}
