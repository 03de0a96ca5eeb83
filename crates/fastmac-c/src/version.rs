//! The library's version, for the preprocessor (`FASTMAC_VERSION_*`, what a
//! program was compiled against) and at run time (`fastmac_version`, what
//! it is linked with). cbindgen copies only literals into the header, so the
//! numbers are written out; a test ties them to the crate's version.

use core::ffi::c_char;

/// The major version of the header (a change breaks the C API or ABI).
pub const FASTMAC_VERSION_MAJOR: u32 = 0;
/// The minor version of the header (additions).
pub const FASTMAC_VERSION_MINOR: u32 = 1;
/// The patch version of the header (fixes).
pub const FASTMAC_VERSION_PATCH: u32 = 0;

/// The crate version as a C string.
const VERSION: &core::ffi::CStr =
    match core::ffi::CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
        Ok(version) => version,
        Err(_) => panic!("the crate version contains a NUL byte"),
    };

/// The version of the linked library, "MAJOR.MINOR.PATCH": static storage,
/// never NULL, not to be freed. Compare with the FASTMAC_VERSION_* macros to
/// detect a header/library mismatch.
#[unsafe(no_mangle)]
#[allow(unsafe_code)] // `#[unsafe(no_mangle)]`
pub extern "C" fn fastmac_version() -> *const c_char {
    VERSION.as_ptr()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn macros_and_string_are_the_crate_version() {
        let numbers = format!("{FASTMAC_VERSION_MAJOR}.{FASTMAC_VERSION_MINOR}.{FASTMAC_VERSION_PATCH}");
        assert_eq!(numbers, env!("CARGO_PKG_VERSION"));
        assert_eq!(VERSION.to_str(), Ok(env!("CARGO_PKG_VERSION")));
    }
}
