//! `fastmac.UMAC` (a keyed object, built once) and `fastmac.UMACState`
//! (its streaming state, hashlib style).

use std::sync::{Mutex, MutexGuard, PoisonError};

use fastmac::umac::AnyUmac;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::buffer::{stable_bytes, with_bytes, with_message};
use crate::errors::{digest_size_error, to_py};
use crate::streaming::Streaming;

/// Keys the library's UMAC of run-time tag length, in Python's words: the
/// tag length is the `digest_size` argument.
fn keyed(key: &[u8], digest_size: usize) -> PyResult<AnyUmac> {
    AnyUmac::new_from_slice(key, digest_size).map_err(digest_size_error)
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // No code path panics while holding the lock; recover anyway.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// `umac-64` etc.: UMAC's name for a tag of `digest_size` bytes.
pub(crate) fn name_of(digest_size: usize) -> String {
    format!("umac-{}", 8 * digest_size)
}

/// UMAC (RFC 4418) under one 16-byte key: the key is expanded once, here,
/// and the object tags any number of messages.
///
/// ``UMAC(key, digest_size=8)``: ``key`` is any 16-byte buffer;
/// ``digest_size`` is 4, 8, 12 or 16 (UMAC-32, -64, -96, -128).
///
/// A nonce (1 to 16 bytes) must never repeat under one key for two different
/// messages. Use one digest_size per key. Thread-safe; ``bytes`` inputs of
/// 2 KiB and more are processed with the GIL released.
#[pyclass(module = "fastmac", name = "UMAC", frozen)]
pub struct Umac {
    // Boxed: the keyed state is 64-byte aligned, a Python object's memory
    // only 16 (src/lib.rs).
    inner: Box<Mutex<AnyUmac>>,
    digest_size: usize,
}

#[pymethods]
impl Umac {
    #[new]
    #[pyo3(signature = (key, digest_size = 8))]
    fn py_new(key: &Bound<'_, PyAny>, digest_size: usize) -> PyResult<Umac> {
        let inner = with_bytes(key, |key| keyed(key, digest_size))?;
        Ok(Umac { inner: Box::new(Mutex::new(inner)), digest_size })
    }

    /// mac(nonce, data) -> bytes
    ///
    /// The tag of ``data`` under ``nonce`` (1 to 16 bytes). Both accept any
    /// buffer (bytes, bytearray, memoryview, numpy arrays, ...).
    fn mac<'py>(
        &self,
        py: Python<'py>,
        nonce: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let nonce = stable_bytes(nonce)?;
        let tag = with_message(py, data, |data| lock(&self.inner).mac(&nonce, data))?.map_err(to_py)?;
        Ok(PyBytes::new(py, tag.as_slice()))
    }

    /// verify(nonce, data, tag) -> None
    ///
    /// Checks ``tag`` in constant time; raises ``fastmac.InvalidTag`` if it
    /// does not authenticate ``data`` under ``nonce``, and
    /// ``fastmac.TagLengthError`` if it has the wrong length.
    fn verify(
        &self,
        py: Python<'_>,
        nonce: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let (nonce, tag) = (stable_bytes(nonce)?, stable_bytes(tag)?);
        with_message(py, data, |data| lock(&self.inner).verify(&nonce, data, &tag))?.map_err(to_py)
    }

    /// new(data=None) -> UMACState
    ///
    /// A streaming state under this key, optionally fed ``data`` first.
    #[pyo3(name = "new", signature = (data = None))]
    fn new_state(&self, py: Python<'_>, data: Option<&Bound<'_, PyAny>>) -> PyResult<UmacState> {
        let mut umac = lock(&self.inner).clone();
        umac.reset();
        let state = UmacState { inner: Box::new(Mutex::new(Streaming::new(umac))), digest_size: self.digest_size };
        if let Some(data) = data {
            state.update(py, data)?;
        }
        Ok(state)
    }

    /// Tag length in bytes: 4, 8, 12 or 16.
    #[getter]
    fn digest_size(&self) -> usize {
        self.digest_size
    }

    /// Key length in bytes (16).
    #[getter]
    fn key_size(&self) -> usize {
        fastmac::umac::KEY_LEN
    }

    /// ``"umac-32"``, ``"umac-64"``, ``"umac-96"`` or ``"umac-128"``.
    #[getter]
    fn name(&self) -> String {
        name_of(self.digest_size)
    }

    fn __repr__(&self) -> String {
        format!("<fastmac.UMAC {}>", name_of(self.digest_size))
    }
}

/// A message being streamed into a UMAC (from ``UMAC.new()``).
///
/// ``update(data)`` appends; ``digest(nonce)`` returns the tag of everything
/// so far under ``nonce`` and leaves the state as it was (hashlib style), so
/// one state must not be given the same nonce for two different messages:
/// the nonce of the last ``digest`` raises ``fastmac.NonceReuseError`` once
/// the message has grown.
#[pyclass(module = "fastmac", name = "UMACState", frozen)]
pub struct UmacState {
    // Boxed: the keyed state is 64-byte aligned, a Python object's memory
    // only 16 (src/lib.rs).
    inner: Box<Mutex<Streaming<AnyUmac>>>,
    digest_size: usize,
}

#[pymethods]
impl UmacState {
    /// update(data) -> None
    ///
    /// Appends ``data`` (any buffer) to the message.
    #[pyo3(signature = (data, /))]
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        with_message(py, data, |data| lock(&self.inner).update(data, AnyUmac::update))
    }

    /// digest(nonce) -> bytes
    ///
    /// The tag of the message so far under ``nonce`` (1 to 16 bytes). The
    /// state goes on; ``fastmac.NonceReuseError`` if the last digest took
    /// ``nonce`` and the message has grown since.
    fn digest<'py>(&self, py: Python<'py>, nonce: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let tag = with_bytes(nonce, |nonce| {
            lock(&self.inner).digest(nonce, |mut copy, nonce| copy.finalize_reset(nonce).map_err(to_py))
        })?;
        Ok(PyBytes::new(py, tag.as_slice()))
    }

    /// verify(nonce, tag) -> None
    ///
    /// Checks ``tag`` against the message so far under ``nonce``, in
    /// constant time; raises ``fastmac.InvalidTag`` if it does not
    /// authenticate it, ``fastmac.TagLengthError`` if it has the wrong
    /// length. The state goes on, as after ``digest``.
    fn verify(&self, nonce: &Bound<'_, PyAny>, tag: &Bound<'_, PyAny>) -> PyResult<()> {
        with_bytes(nonce, |nonce| {
            with_bytes(tag, |tag| {
                // Verify on a copy: the state itself goes on (PEP 452).
                let mut copy = lock(&self.inner).mac().clone();
                copy.verify_reset(nonce, tag).map_err(to_py)
            })
        })
    }

    /// hexdigest(nonce) -> str
    ///
    /// ``digest(nonce)`` in lowercase hex.
    fn hexdigest<'py>(&self, py: Python<'py>, nonce: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyString>> {
        let digest = self.digest(py, nonce)?;
        let hex: String = digest.as_bytes().iter().map(|b| format!("{b:02x}")).collect();
        Ok(PyString::new(py, &hex))
    }

    /// copy() -> UMACState
    ///
    /// An independent copy of the state (same key, same message so far).
    fn copy(&self) -> UmacState {
        UmacState { inner: Box::new(Mutex::new(lock(&self.inner).clone())), digest_size: self.digest_size }
    }

    /// Tag length in bytes.
    #[getter]
    fn digest_size(&self) -> usize {
        self.digest_size
    }

    /// ``"umac-64"`` etc.
    #[getter]
    fn name(&self) -> String {
        name_of(self.digest_size)
    }

    fn __repr__(&self) -> String {
        format!("<fastmac.UMACState {}>", name_of(self.digest_size))
    }
}
