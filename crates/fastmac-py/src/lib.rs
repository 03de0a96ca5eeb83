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
mod streaming;
mod umac;

use pyo3::prelude::*;

/// `bytes` messages of at least this many bytes are MACed with the GIL
/// released (CPython's `HASHLIB_GIL_MINSIZE`, Modules/hashlib.h); other
/// buffers are read with the GIL held (src/buffer.rs).
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

// A Python object's memory is aligned to 16 bytes (CPython's allocators),
// and PyO3 places the Rust value of a #[pyclass] in it: a value that needs
// more (the keyed UMAC state is 64-byte aligned, for the NH key of
// crates/fastmac/src/umac/nh/mod.rs) would be misaligned, undefined
// behaviour that a debug build reports as "misaligned pointer dereference".
// Such state is boxed; these assertions keep it so.
const PYOBJECT_ALIGN: usize = 16;
const _: () = {
    use std::mem::align_of;
    assert!(align_of::<umac::Umac>() <= PYOBJECT_ALIGN);
    assert!(align_of::<umac::UmacState>() <= PYOBJECT_ALIGN);
    assert!(align_of::<ssh::SshMac>() <= PYOBJECT_ALIGN);
    assert!(align_of::<ssh_sequenced::Outbound>() <= PYOBJECT_ALIGN);
    assert!(align_of::<ssh_sequenced::Inbound>() <= PYOBJECT_ALIGN);
    assert!(align_of::<sequenced::Sequenced>() <= PYOBJECT_ALIGN);
    assert!(align_of::<badger::Badger>() <= PYOBJECT_ALIGN);
    assert!(align_of::<badger::BadgerState>() <= PYOBJECT_ALIGN);
    assert!(align_of::<badger::Sender>() <= PYOBJECT_ALIGN);
    assert!(align_of::<badger::Receiver>() <= PYOBJECT_ALIGN);
};
