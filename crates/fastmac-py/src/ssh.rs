//! `fastmac.ssh.MAC`: an SSH MAC by its OpenSSH name, one object per
//! direction of a connection.

use std::sync::{Mutex, PoisonError};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt};

use crate::buffer::{stable_bytes, with_bytes, with_message};
use crate::errors::{SequenceNumberError, to_py};

/// An SSH MAC keyed once, for one direction of one connection.
///
/// ``MAC(name, key)``: ``name`` is an OpenSSH MAC name such as
/// ``"umac-64@openssh.com"`` or ``"hmac-sha2-256-etm@openssh.com"`` (see
/// ``fastmac.ssh.algorithms()``); ``key`` is exactly ``key_size`` bytes.
///
/// ``compute(seq, packet)`` gives the tag of packet number ``seq`` exactly
/// as OpenSSH does: UMAC uses ``seq`` as its 8-byte big-endian nonce, HMAC
/// hashes ``uint32 seq || packet``. For the ``-etm`` forms ``packet`` is
/// ``uint32 length || ciphertext``. Thread-safe; ``bytes`` packets of 2 KiB
/// and more are processed with the GIL released.
#[pyclass(module = "fastmac.ssh", name = "MAC", frozen)]
pub struct SshMac {
    // Boxed: the keyed state is 64-byte aligned, a Python object's memory
    // only 16 (src/lib.rs).
    inner: Box<Mutex<fastmac::ssh::SshMac>>,
    algorithm: &'static fastmac::ssh::SshAlgorithm,
}

/// The sequence number as a u32, or a typed error naming the range.
fn sequence_number(seq: &Bound<'_, PyAny>) -> PyResult<u32> {
    let int = seq
        .cast::<PyInt>()
        .map_err(|_| PyTypeError::new_err(format!("sequence number must be an int, not {}", type_name(seq))))?;
    int.extract::<u32>().map_err(|_| SequenceNumberError::new_err("sequence number must be in 0 .. 2**32 - 1"))
}

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type().name().map(|n| n.to_string()).unwrap_or_else(|_| "?".to_owned())
}

#[pymethods]
impl SshMac {
    #[new]
    fn py_new(name: &str, key: &Bound<'_, PyAny>) -> PyResult<SshMac> {
        let mac = with_bytes(key, |key| fastmac::ssh::SshMac::new(name, key).map_err(to_py))?;
        Ok(SshMac { algorithm: mac.algorithm(), inner: Box::new(Mutex::new(mac)) })
    }

    /// compute(seq, packet) -> bytes
    ///
    /// The tag of packet number ``seq`` (0 .. 2**32 - 1); ``packet`` is any
    /// buffer.
    fn compute<'py>(
        &self,
        py: Python<'py>,
        seq: &Bound<'py, PyAny>,
        packet: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let seq = sequence_number(seq)?;
        let tag = with_message(py, packet, |packet| {
            self.inner.lock().unwrap_or_else(PoisonError::into_inner).compute(seq, packet)
        })?;
        Ok(PyBytes::new(py, &tag))
    }

    /// verify(seq, packet, tag) -> None
    ///
    /// Checks ``tag`` in constant time; raises ``fastmac.InvalidTag`` if it
    /// does not authenticate packet number ``seq``.
    fn verify(
        &self,
        py: Python<'_>,
        seq: &Bound<'_, PyAny>,
        packet: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let seq = sequence_number(seq)?;
        let tag = stable_bytes(tag)?;
        let verdict = with_message(py, packet, |packet| {
            self.inner.lock().unwrap_or_else(PoisonError::into_inner).verify(seq, packet, &tag)
        })?;
        verdict.map_err(to_py)
    }

    /// The OpenSSH name.
    #[getter]
    fn name(&self) -> &'static str {
        self.algorithm.name
    }

    /// Key length in bytes.
    #[getter]
    fn key_size(&self) -> usize {
        self.algorithm.key_len
    }

    /// Tag length in bytes.
    #[getter]
    fn digest_size(&self) -> usize {
        self.algorithm.tag_len
    }

    /// True for the encrypt-then-MAC forms (``-etm@openssh.com``).
    #[getter]
    fn etm(&self) -> bool {
        self.algorithm.etm
    }

    fn __repr__(&self) -> String {
        format!("<fastmac.ssh.MAC {}>", self.algorithm.name)
    }
}

/// algorithms() -> list[tuple[str, int, int, bool]]
///
/// Every supported SSH MAC as ``(name, key_size, digest_size, etm)``.
#[pyfunction]
pub fn algorithms() -> Vec<(&'static str, usize, usize, bool)> {
    fastmac::ssh::ALGORITHMS.iter().map(|a| (a.name, a.key_len, a.tag_len, a.etm)).collect()
}
