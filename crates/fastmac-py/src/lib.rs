//! `fastmac._fastmac`: the compiled core of the Python package `fastmac`.
//!
//! The Python side (`python/fastmac/`) re-exports these classes and adds the
//! pure-Python layers (`compat`, `ssh`, `badger`, `paramiko`, `asyncssh`).

mod args;
mod badger;
mod buffer;
mod errors;
mod sequenced;
mod ssh;
mod ssh_sequenced;
mod umac;

use pyo3::prelude::*;

/// Inputs of at least this many bytes are MACed with the GIL released
/// (CPython's `HASHLIB_GIL_MINSIZE`, Modules/hashlib.h).
const GIL_MINSIZE: usize = 2048;

#[pymodule]
fn _fastmac(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("GIL_MINSIZE", GIL_MINSIZE)?;
    errors::register(m)?;
    m.add_class::<umac::Umac>()?;
    m.add_class::<umac::UmacState>()?;
    m.add_class::<ssh::SshMac>()?;
    m.add_function(wrap_pyfunction!(ssh::algorithms, m)?)?;
    m.add_class::<sequenced::Sequenced>()?;
    ssh_sequenced::register(m)?;
    badger::register(m)?;
    Ok(())
}
