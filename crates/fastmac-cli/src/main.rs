//! The `fastmac` binary: everything is in the library (src/lib.rs), which
//! the fuzz targets reach too.

fn main() -> std::process::ExitCode {
    fastmac_cli::main()
}
