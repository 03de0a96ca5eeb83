//! `fastmac.SequencedUMAC`: UMAC that owns its counter nonce
//! (`fastmac::umac::SequencedUmac`), so Python code cannot repeat or wrap a
//! nonce under one key.

use std::sync::{Mutex, MutexGuard, PoisonError};

use fastmac::nonce::NonceCounter;
use fastmac::umac::{AnySequencedUmac, counter_nonce};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::args::int_in_range;
use crate::buffer::{with_bytes, with_message};
use crate::errors::{digest_size_error, to_py};

/// A sender's UMAC (RFC 4418) that owns its nonces: message after message
/// it takes the next counter value (``start``, ``start + 1``, ...) as the
/// nonce and returns it with the tag, so no nonce can repeat under the key.
///
/// ``SequencedUMAC(key, digest_size=8, *, start=0, limit=2**64 - 1)``:
/// ``key`` is any 16-byte buffer; ``digest_size`` 4, 8, 12 or 16. ``limit``
/// is the first counter value refused (a rekey policy); ``start`` continues
/// a counter persisted elsewhere. At the limit ``tag`` raises
/// ``fastmac.NonceExhaustedError`` and keeps raising: rekey. The counter
/// never wraps.
///
/// The nonce bytes are ``SequencedUMAC.nonce_bytes(nonce)`` (8 bytes, big
/// endian): a receiver checks with ``UMAC(key, digest_size).verify(
/// SequencedUMAC.nonce_bytes(nonce), message, tag)``. The object cannot be
/// copied (a copy would hand out the same nonces). Thread-safe.
#[pyclass(module = "fastmac", name = "SequencedUMAC", frozen)]
pub struct Sequenced {
    // Boxed: the keyed state is 64-byte aligned, a Python object's memory
    // only 16 (src/lib.rs).
    inner: Box<Mutex<AnySequencedUmac>>,
    digest_size: usize,
}

fn lock(mutex: &Mutex<AnySequencedUmac>) -> MutexGuard<'_, AnySequencedUmac> {
    // No code path panics while holding the lock; recover anyway.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

#[pymethods]
impl Sequenced {
    #[new]
    #[pyo3(signature = (key, digest_size = 8, *, start = None, limit = None))]
    fn py_new(
        key: &Bound<'_, PyAny>,
        digest_size: usize,
        start: Option<&Bound<'_, PyAny>>,
        limit: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Sequenced> {
        let limit = match limit {
            Some(limit) => int_in_range(limit, "limit", 1, u64::MAX)?,
            None => u64::MAX,
        };
        let start = match start {
            Some(start) => int_in_range(start, "start", 0, limit - 1)?,
            None => 0,
        };
        let counter = NonceCounter::starting_at(start, limit).map_err(to_py)?;
        let inner = with_bytes(key, |key| {
            AnySequencedUmac::with_counter(key, digest_size, counter).map_err(digest_size_error)
        })?;
        Ok(Sequenced { inner: Box::new(Mutex::new(inner)), digest_size })
    }

    /// tag(data) -> tuple[int, bytes]
    ///
    /// Tags ``data`` (any buffer) under the next nonce: ``(nonce, tag)``.
    /// Raises ``fastmac.NonceExhaustedError`` at the limit (nothing is
    /// tagged then).
    #[pyo3(signature = (data, /))]
    fn tag<'py>(&self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<(u64, Bound<'py, PyBytes>)> {
        let (nonce, tag) = with_message(py, data, |data| lock(&self.inner).tag(data))?.map_err(to_py)?;
        Ok((nonce, PyBytes::new(py, tag.as_slice())))
    }

    /// update(data) -> None
    ///
    /// Streams more of the next message (any buffer); ``finalize()`` tags it.
    #[pyo3(signature = (data, /))]
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        with_message(py, data, |data| lock(&self.inner).update(data))
    }

    /// finalize() -> tuple[int, bytes]
    ///
    /// Tags the streamed message under the next nonce, ``(nonce, tag)``, and
    /// starts the next message. At the limit it raises
    /// ``fastmac.NonceExhaustedError`` and keeps the streamed input.
    fn finalize<'py>(&self, py: Python<'py>) -> PyResult<(u64, Bound<'py, PyBytes>)> {
        let (nonce, tag) = lock(&self.inner).finalize_reset().map_err(to_py)?;
        Ok((nonce, PyBytes::new(py, tag.as_slice())))
    }

    /// The nonce the next message gets.
    #[getter]
    fn next_nonce(&self) -> u64 {
        lock(&self.inner).next_nonce()
    }

    /// Messages left before the limit.
    #[getter]
    fn remaining(&self) -> u64 {
        lock(&self.inner).remaining()
    }

    /// Tag length in bytes: 4, 8, 12 or 16.
    #[getter]
    fn digest_size(&self) -> usize {
        self.digest_size
    }

    /// ``"umac-64"`` etc.
    #[getter]
    fn name(&self) -> String {
        crate::umac::name_of(self.digest_size)
    }

    /// nonce_bytes(nonce) -> bytes
    ///
    /// The 8 nonce bytes of counter value ``nonce`` (big endian, as SSH forms
    /// its UMAC nonce), for a receiver's ``UMAC.verify``.
    #[staticmethod]
    fn nonce_bytes<'py>(py: Python<'py>, nonce: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let nonce = int_in_range(nonce, "nonce", 0, u64::MAX)?;
        Ok(PyBytes::new(py, &counter_nonce(nonce)))
    }

    fn __repr__(&self) -> String {
        format!("<fastmac.SequencedUMAC {} next_nonce={}>", crate::umac::name_of(self.digest_size), self.next_nonce())
    }
}
