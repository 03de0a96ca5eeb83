//! `fastmac.ssh.OutboundMAC` and `fastmac.ssh.InboundMAC`: one direction of
//! an SSH connection that owns its packet sequence numbers
//! (`fastmac::ssh::{OutboundMac, InboundMac}`): they continue across
//! rekeys and cannot repeat under one key.

use std::sync::{Mutex, MutexGuard, PoisonError};

use fastmac::ssh::{InboundMac, OutboundMac, SshMac};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::args::int_in_range;
use crate::buffer::{stable_bytes, with_bytes, with_message};
use crate::errors::to_py;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // No code path panics while holding the lock; recover anyway.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn keyed(name: &str, key: &Bound<'_, PyAny>) -> PyResult<SshMac> {
    with_bytes(key, |key| SshMac::new(name, key).map_err(to_py))
}

fn first_seq(next_seq: Option<&Bound<'_, PyAny>>) -> PyResult<u32> {
    match next_seq {
        // u32::MAX fits in u64; the range check makes the cast exact.
        Some(seq) => Ok(int_in_range(seq, "next_seq", 0, u64::from(u32::MAX))? as u32),
        None => Ok(0),
    }
}

/// The sending side of one SSH direction: tags each packet with the next
/// sequence number.
///
/// ``OutboundMAC(name, key, next_seq=0)``: ``name`` an OpenSSH MAC name
/// (``fastmac.ssh.names()``), ``key`` exactly its key length, ``next_seq``
/// the connection's count of packets sent so far. After
/// ``REKEY_AFTER_PACKETS`` (2**31, OpenSSH's limit) packets under one key,
/// ``compute`` raises ``fastmac.NonceExhaustedError`` until ``rekey``; the
/// sequence numbers continue across ``rekey`` (RFC 4253 section 6.4).
/// Thread-safe; ``bytes`` packets of 2 KiB and more are processed with the
/// GIL released.
#[pyclass(module = "fastmac.ssh", name = "OutboundMAC", frozen)]
pub struct Outbound {
    // Boxed: the keyed state is 64-byte aligned, a Python object's memory
    // only 16 (src/lib.rs).
    inner: Box<Mutex<OutboundMac>>,
}

#[pymethods]
impl Outbound {
    #[new]
    #[pyo3(signature = (name, key, next_seq = None))]
    fn py_new(name: &str, key: &Bound<'_, PyAny>, next_seq: Option<&Bound<'_, PyAny>>) -> PyResult<Outbound> {
        let next_seq = first_seq(next_seq)?;
        Ok(Outbound { inner: Box::new(Mutex::new(OutboundMac::new(keyed(name, key)?, next_seq))) })
    }

    /// compute(packet) -> tuple[int, bytes]
    ///
    /// ``(seq, tag)`` of the next packet (any buffer; for the ``-etm`` forms
    /// ``uint32 length || ciphertext``).
    #[pyo3(signature = (packet, /))]
    fn compute<'py>(&self, py: Python<'py>, packet: &Bound<'py, PyAny>) -> PyResult<(u32, Bound<'py, PyBytes>)> {
        let (seq, tag) = with_message(py, packet, |packet| lock(&self.inner).compute(packet))?.map_err(to_py)?;
        Ok((seq, PyBytes::new(py, &tag)))
    }

    /// rekey(name, key) -> None
    ///
    /// Takes the keys of a new key exchange (``name`` may change): the
    /// sequence numbers continue, the packet count under the key restarts.
    fn rekey(&self, name: &str, key: &Bound<'_, PyAny>) -> PyResult<()> {
        let mac = keyed(name, key)?;
        lock(&self.inner).rekey(mac);
        Ok(())
    }

    /// The sequence number the next packet gets.
    #[getter]
    fn next_seq(&self) -> u32 {
        lock(&self.inner).next_seq()
    }

    /// Packets left under this key.
    #[getter]
    fn packets_left(&self) -> u64 {
        lock(&self.inner).packets_left()
    }

    /// The OpenSSH name of the current MAC.
    #[getter]
    fn name(&self) -> &'static str {
        lock(&self.inner).mac().name()
    }

    /// Tag length in bytes.
    #[getter]
    fn digest_size(&self) -> usize {
        lock(&self.inner).mac().tag_len()
    }

    fn __repr__(&self) -> String {
        let inner = lock(&self.inner);
        format!("<fastmac.ssh.OutboundMAC {} next_seq={}>", inner.mac().name(), inner.next_seq())
    }
}

/// The receiving side of one SSH direction: verifies each packet under the
/// next sequence number, which moves on only when a tag verifies.
///
/// ``InboundMAC(name, key, next_seq=0)`` as ``OutboundMAC``. ``verify``
/// raises ``fastmac.InvalidTag`` on a bad tag (SSH then ends the
/// connection), and ``fastmac.NonceExhaustedError`` after
/// ``INBOUND_PACKET_LIMIT`` (2**32) packets under one key, when the uint32
/// number would repeat; ``needs_rekey`` turns true after 2**31, when
/// OpenSSH starts a key exchange. Thread-safe.
#[pyclass(module = "fastmac.ssh", name = "InboundMAC", frozen)]
pub struct Inbound {
    // Boxed: the keyed state is 64-byte aligned, a Python object's memory
    // only 16 (src/lib.rs).
    inner: Box<Mutex<InboundMac>>,
}

#[pymethods]
impl Inbound {
    #[new]
    #[pyo3(signature = (name, key, next_seq = None))]
    fn py_new(name: &str, key: &Bound<'_, PyAny>, next_seq: Option<&Bound<'_, PyAny>>) -> PyResult<Inbound> {
        let next_seq = first_seq(next_seq)?;
        Ok(Inbound { inner: Box::new(Mutex::new(InboundMac::new(keyed(name, key)?, next_seq))) })
    }

    /// verify(packet, tag) -> int
    ///
    /// Checks ``tag`` for the next packet in constant time; returns its
    /// sequence number.
    fn verify(&self, py: Python<'_>, packet: &Bound<'_, PyAny>, tag: &Bound<'_, PyAny>) -> PyResult<u32> {
        let tag = stable_bytes(tag)?;
        with_message(py, packet, |packet| lock(&self.inner).verify(packet, &tag))?.map_err(to_py)
    }

    /// rekey(name, key) -> None
    ///
    /// Takes the keys of a new key exchange; see ``OutboundMAC.rekey``.
    fn rekey(&self, name: &str, key: &Bound<'_, PyAny>) -> PyResult<()> {
        let mac = keyed(name, key)?;
        lock(&self.inner).rekey(mac);
        Ok(())
    }

    /// The sequence number the next packet must carry.
    #[getter]
    fn next_seq(&self) -> u32 {
        lock(&self.inner).next_seq()
    }

    /// True once 2**31 packets arrived under this key: start a key exchange.
    #[getter]
    fn needs_rekey(&self) -> bool {
        lock(&self.inner).needs_rekey()
    }

    /// The OpenSSH name of the current MAC.
    #[getter]
    fn name(&self) -> &'static str {
        lock(&self.inner).mac().name()
    }

    /// Tag length in bytes.
    #[getter]
    fn digest_size(&self) -> usize {
        lock(&self.inner).mac().tag_len()
    }

    fn __repr__(&self) -> String {
        let inner = lock(&self.inner);
        format!("<fastmac.ssh.InboundMAC {} next_seq={}>", inner.mac().name(), inner.next_seq())
    }
}

/// Registers the classes and OpenSSH's per-key packet limits.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Outbound>()?;
    m.add_class::<Inbound>()?;
    m.add("REKEY_AFTER_PACKETS", fastmac::ssh::REKEY_AFTER_PACKETS)?;
    m.add("INBOUND_PACKET_LIMIT", fastmac::ssh::INBOUND_PACKET_LIMIT)?;
    Ok(())
}
