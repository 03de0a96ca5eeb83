//! `fastmac.badger`: Badger (Boesgaard, Christensen, Zenner, "Badger - A
//! Fast and Provably Secure MAC", ACNS 2005), thin over
//! `fastmac::badger`: nonce mode (`Badger`, with a streaming state) and
//! sequential mode (`BadgerSender`, `BadgerReceiver`), each able to verify
//! only the first trees of a tag.

use std::sync::{Mutex, MutexGuard, PoisonError};

use fastmac::badger::{AnyBadger, AnyBadgerReceiver, AnyBadgerSender, KEY_LEN, MAX_LEVELS, MAX_TREES, NONCE_LEN};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::args::usize_in_range;
use crate::buffer::{stable_bytes, with_bytes, with_message};
use crate::errors::{digest_size_error, to_py};
use crate::streaming::Streaming;

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // No code path panics while holding the lock; recover anyway.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn levels_arg(levels: Option<&Bound<'_, PyAny>>) -> PyResult<usize> {
    levels.map_or(Ok(MAX_LEVELS), |levels| usize_in_range(levels, "levels", 1, MAX_LEVELS))
}

fn trees_arg(trees: &Bound<'_, PyAny>, digest_size: usize) -> PyResult<usize> {
    usize_in_range(trees, "trees", 1, digest_size / 4)
}

fn name_of(digest_size: usize) -> String {
    format!("badger-{}", digest_size * 8)
}

/// Badger in nonce mode: each message has an 8-byte nonce, never repeated
/// under the key and never all zero (that one raises
/// ``fastmac.ZeroNonceError``: its pad would be key material).
///
/// ``Badger(key, digest_size=8, *, levels=58)``: ``key`` is any 16-byte
/// buffer; ``digest_size`` 4, 8, 12, 16 or 20 (one hash tree per 4 bytes);
/// ``levels`` (1 to 58) bounds messages to ``8 * 2**levels`` bytes.
/// ``verify_prefix`` checks only the first trees of a tag, for less work
/// and a weaker forgery bound (``forgery_bound_log2``). Never use one key in
/// both nonce and sequential mode. Thread-safe.
#[pyclass(module = "fastmac.badger", name = "Badger", frozen)]
pub struct Badger {
    inner: Mutex<AnyBadger>,
    digest_size: usize,
}

#[pymethods]
impl Badger {
    #[new]
    #[pyo3(signature = (key, digest_size = 8, *, levels = None))]
    fn py_new(key: &Bound<'_, PyAny>, digest_size: usize, levels: Option<&Bound<'_, PyAny>>) -> PyResult<Badger> {
        let levels = levels_arg(levels)?;
        let inner = with_bytes(key, |key| AnyBadger::new(key, digest_size, levels).map_err(digest_size_error))?;
        Ok(Badger { inner: Mutex::new(inner), digest_size })
    }

    /// mac(nonce, data) -> bytes
    ///
    /// The tag of ``data`` under ``nonce`` (8 bytes, not all zero).
    fn mac<'py>(
        &self,
        py: Python<'py>,
        nonce: &Bound<'py, PyAny>,
        data: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyBytes>> {
        let nonce = stable_bytes(nonce)?;
        let work = |data: &[u8]| lock(&self.inner).mac(&nonce, data).map(|t| t.as_slice().to_vec());
        let tag = with_message(py, data, work)?.map_err(to_py)?;
        Ok(PyBytes::new(py, &tag))
    }

    /// verify(nonce, data, tag) -> None
    ///
    /// Checks the whole ``tag`` in constant time; raises
    /// ``fastmac.InvalidTag`` if it does not authenticate ``data``.
    fn verify(
        &self,
        py: Python<'_>,
        nonce: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        self.check(py, nonce, data, tag, self.digest_size / 4)
    }

    /// verify_prefix(nonce, data, tag, trees) -> None
    ///
    /// Checks only the first ``trees`` 4-byte chunks of the tag (computing
    /// only those trees); ``tag`` is the full tag or its first
    /// ``4 * trees`` bytes.
    fn verify_prefix(
        &self,
        py: Python<'_>,
        nonce: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
        trees: &Bound<'_, PyAny>,
    ) -> PyResult<()> {
        let trees = trees_arg(trees, self.digest_size)?;
        self.check(py, nonce, data, tag, trees)
    }

    /// new(data=None) -> BadgerState
    ///
    /// A streaming state under this key, optionally fed ``data`` first.
    #[pyo3(name = "new", signature = (data = None))]
    fn new_state(&self, py: Python<'_>, data: Option<&Bound<'_, PyAny>>) -> PyResult<BadgerState> {
        let mut badger = lock(&self.inner).clone();
        badger.reset();
        let state = BadgerState { inner: Mutex::new(Streaming::new(badger)), digest_size: self.digest_size };
        if let Some(data) = data {
            state.update(py, data)?;
        }
        Ok(state)
    }

    /// Tag length in bytes.
    #[getter]
    fn digest_size(&self) -> usize {
        self.digest_size
    }

    /// Longest message accepted, in bytes.
    #[getter]
    fn max_message_len(&self) -> u64 {
        lock(&self.inner).max_message_len()
    }

    /// ``"badger-64"`` etc.
    #[getter]
    fn name(&self) -> String {
        name_of(self.digest_size)
    }

    fn __repr__(&self) -> String {
        format!("<fastmac.badger.Badger {}>", name_of(self.digest_size))
    }
}

impl Badger {
    fn check(
        &self,
        py: Python<'_>,
        nonce: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
        trees: usize,
    ) -> PyResult<()> {
        let (nonce, tag) = (stable_bytes(nonce)?, stable_bytes(tag)?);
        let work = |data: &[u8]| lock(&self.inner).verify_prefix(&nonce, data, &tag, trees);
        with_message(py, data, work)?.map_err(to_py)
    }
}

/// A message being streamed into a nonce-mode Badger (from
/// ``Badger.new()``): ``update``, then ``digest(nonce)`` or
/// ``verify(nonce, tag)``; both leave the state as it was. The nonce of the
/// last ``digest`` raises ``fastmac.NonceReuseError`` once the message has
/// grown.
#[pyclass(module = "fastmac.badger", name = "BadgerState", frozen)]
pub struct BadgerState {
    inner: Mutex<Streaming<AnyBadger>>,
    digest_size: usize,
}

#[pymethods]
impl BadgerState {
    /// update(data) -> None
    ///
    /// Appends ``data`` (any buffer) to the message.
    #[pyo3(signature = (data, /))]
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        with_message(py, data, |data| lock(&self.inner).update(data, AnyBadger::update))
    }

    /// digest(nonce) -> bytes
    ///
    /// The tag of the message so far under ``nonce``; the state goes on.
    /// ``fastmac.NonceReuseError`` if the last digest took ``nonce`` and
    /// the message has grown since.
    fn digest<'py>(&self, py: Python<'py>, nonce: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let finalize = |mut copy: AnyBadger, nonce: &[u8]| {
            copy.finalize_reset(nonce).map(|t| t.as_slice().to_vec()).map_err(to_py)
        };
        let tag = with_bytes(nonce, |nonce| lock(&self.inner).digest(nonce, finalize))?;
        Ok(PyBytes::new(py, &tag))
    }

    /// verify(nonce, tag, trees=None) -> None
    ///
    /// Checks ``tag`` against the message so far in constant time (only
    /// its first ``trees`` chunks if given); the state goes on.
    #[pyo3(signature = (nonce, tag, trees = None))]
    fn verify(
        &self,
        nonce: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
        trees: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let trees = trees.map_or(Ok(self.digest_size / 4), |t| trees_arg(t, self.digest_size))?;
        with_bytes(nonce, |nonce| {
            with_bytes(tag, |tag| {
                let mut copy = lock(&self.inner).mac().clone();
                copy.verify_prefix_reset(nonce, tag, trees).map_err(to_py)
            })
        })
    }

    /// copy() -> BadgerState
    ///
    /// An independent copy (same key, same message so far).
    fn copy(&self) -> BadgerState {
        BadgerState { inner: Mutex::new(lock(&self.inner).clone()), digest_size: self.digest_size }
    }

    /// Tag length in bytes.
    #[getter]
    fn digest_size(&self) -> usize {
        self.digest_size
    }

    fn __repr__(&self) -> String {
        format!("<fastmac.badger.BadgerState {}>", name_of(self.digest_size))
    }
}

/// The sending side of sequential-mode Badger: no nonce; message number
/// ``position`` takes the next pad of the key's keystream, so the receiver
/// must check the same messages in the same order (a reliable, ordered
/// channel). Cannot be copied (a copy would reuse pads).
///
/// ``BadgerSender(key, digest_size=8, *, levels=58)``; the receiver must use
/// the same ``levels`` (sequential tags depend on it). Thread-safe.
#[pyclass(module = "fastmac.badger", name = "BadgerSender", frozen)]
pub struct Sender {
    inner: Mutex<AnyBadgerSender>,
    digest_size: usize,
}

#[pymethods]
impl Sender {
    #[new]
    #[pyo3(signature = (key, digest_size = 8, *, levels = None))]
    fn py_new(key: &Bound<'_, PyAny>, digest_size: usize, levels: Option<&Bound<'_, PyAny>>) -> PyResult<Sender> {
        let levels = levels_arg(levels)?;
        let inner = with_bytes(key, |key| AnyBadgerSender::new(key, digest_size, levels).map_err(digest_size_error))?;
        Ok(Sender { inner: Mutex::new(inner), digest_size })
    }

    /// tag(data) -> bytes
    ///
    /// Tags ``data`` as the next message.
    #[pyo3(signature = (data, /))]
    fn tag<'py>(&self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyBytes>> {
        let work = |data: &[u8]| lock(&self.inner).tag(data).map(|t| t.as_slice().to_vec());
        let tag = with_message(py, data, work)?.map_err(to_py)?;
        Ok(PyBytes::new(py, &tag))
    }

    /// update(data) -> None
    ///
    /// Streams more of the next message.
    #[pyo3(signature = (data, /))]
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        with_message(py, data, |data| lock(&self.inner).update(data))
    }

    /// finalize() -> bytes
    ///
    /// Tags the streamed message as the next message and starts another.
    fn finalize<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        let tag = lock(&self.inner).finalize_reset().map(|t| t.as_slice().to_vec()).map_err(to_py)?;
        Ok(PyBytes::new(py, &tag))
    }

    /// reset() -> None
    ///
    /// Discards streamed input; the position does not change.
    fn reset(&self) {
        lock(&self.inner).reset();
    }

    /// Number of the next message (how many were tagged).
    #[getter]
    fn position(&self) -> u64 {
        lock(&self.inner).position()
    }

    /// Tag length in bytes.
    #[getter]
    fn digest_size(&self) -> usize {
        self.digest_size
    }

    fn __repr__(&self) -> String {
        format!("<fastmac.badger.BadgerSender {} position={}>", name_of(self.digest_size), self.position())
    }
}

/// The receiving side of sequential-mode Badger: checks messages 0, 1, 2,
/// ... in order; the position moves on only when a tag verifies, so a
/// forgery does not desynchronise it. Cannot be copied.
///
/// ``BadgerReceiver(key, digest_size=8, *, levels=58)``. Thread-safe.
#[pyclass(module = "fastmac.badger", name = "BadgerReceiver", frozen)]
pub struct Receiver {
    inner: Mutex<AnyBadgerReceiver>,
    digest_size: usize,
}

#[pymethods]
impl Receiver {
    #[new]
    #[pyo3(signature = (key, digest_size = 8, *, levels = None))]
    fn py_new(key: &Bound<'_, PyAny>, digest_size: usize, levels: Option<&Bound<'_, PyAny>>) -> PyResult<Receiver> {
        let levels = levels_arg(levels)?;
        let inner = with_bytes(key, |key| AnyBadgerReceiver::new(key, digest_size, levels).map_err(digest_size_error))?;
        Ok(Receiver { inner: Mutex::new(inner), digest_size })
    }

    /// verify(data, tag, trees=None) -> None
    ///
    /// Checks ``tag`` for ``data`` as the next message, in constant time
    /// (only its first ``trees`` chunks if given); raises
    /// ``fastmac.InvalidTag`` and stays in place if it does not verify.
    #[pyo3(signature = (data, tag, trees = None))]
    fn verify(
        &self,
        py: Python<'_>,
        data: &Bound<'_, PyAny>,
        tag: &Bound<'_, PyAny>,
        trees: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let trees = trees.map_or(Ok(self.digest_size / 4), |t| trees_arg(t, self.digest_size))?;
        let tag = stable_bytes(tag)?;
        let work = |data: &[u8]| lock(&self.inner).verify_prefix(data, &tag, trees);
        with_message(py, data, work)?.map_err(to_py)
    }

    /// update(data) -> None
    ///
    /// Streams more of the next message.
    #[pyo3(signature = (data, /))]
    fn update(&self, py: Python<'_>, data: &Bound<'_, PyAny>) -> PyResult<()> {
        with_message(py, data, |data| lock(&self.inner).update(data))
    }

    /// verify_streamed(tag, trees=None) -> None
    ///
    /// ``verify`` for the streamed message; the stream restarts either way.
    #[pyo3(signature = (tag, trees = None))]
    fn verify_streamed(&self, tag: &Bound<'_, PyAny>, trees: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let trees = trees.map_or(Ok(self.digest_size / 4), |t| trees_arg(t, self.digest_size))?;
        with_bytes(tag, |tag| lock(&self.inner).verify_prefix_reset(tag, trees).map_err(to_py))
    }

    /// reset() -> None
    ///
    /// Discards streamed input; the position does not change.
    fn reset(&self) {
        lock(&self.inner).reset();
    }

    /// Number of the next message expected (how many verified).
    #[getter]
    fn position(&self) -> u64 {
        lock(&self.inner).position()
    }

    /// Tag length in bytes.
    #[getter]
    fn digest_size(&self) -> usize {
        self.digest_size
    }

    fn __repr__(&self) -> String {
        format!("<fastmac.badger.BadgerReceiver {} position={}>", name_of(self.digest_size), self.position())
    }
}

/// forgery_bound_log2(trees, max_len) -> float
///
/// log2 of the forgery probability per attempt when ``trees`` trees are
/// checked on messages of at most ``max_len`` bytes (paper section 6).
#[pyfunction]
fn forgery_bound_log2(trees: &Bound<'_, PyAny>, max_len: &Bound<'_, PyAny>) -> PyResult<f64> {
    let trees = usize_in_range(trees, "trees", 1, MAX_TREES)?;
    let max_len = crate::args::int_in_range(max_len, "max_len", 0, u64::MAX)?;
    Ok(fastmac::badger::forgery_bound_log2(trees, max_len))
}

/// Registers the classes, `forgery_bound_log2` and the constants.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Badger>()?;
    m.add_class::<BadgerState>()?;
    m.add_class::<Sender>()?;
    m.add_class::<Receiver>()?;
    m.add_function(wrap_pyfunction!(forgery_bound_log2, m)?)?;
    m.add("BADGER_KEY_SIZE", KEY_LEN)?;
    m.add("BADGER_NONCE_SIZE", NONCE_LEN)?;
    m.add("BADGER_MAX_TREES", MAX_TREES)?;
    m.add("BADGER_MAX_LEVELS", MAX_LEVELS)?;
    Ok(())
}
