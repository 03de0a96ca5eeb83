//! `fastmac.SequencedUMAC`: UMAC that owns its counter nonce
//! (`fastmac::umac::SequencedUmac`), so Python code cannot repeat or wrap a
//! nonce under one key.

use std::sync::{Mutex, MutexGuard, PoisonError};

use fastmac::nonce::NonceCounter;
use fastmac::umac::{KEY_LEN, SequencedUmac, counter_nonce};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::args::int_in_range;
use crate::buffer::{with_bytes, with_message};
use crate::errors::{TagLengthError, to_py};

/// The four tag lengths of `SequencedUmac`.
enum AnySequenced {
    U32(Box<SequencedUmac<4>>),
    U64(Box<SequencedUmac<8>>),
    U96(Box<SequencedUmac<12>>),
    U128(Box<SequencedUmac<16>>),
}

/// Runs `$body` with `$m` bound to the concrete sender; `$body` gives
/// `Result<(u64, [u8; N]), _>`, turned into `(u64, Vec<u8>)`.
macro_rules! each {
    ($sender:expr, $m:ident => $body:expr) => {
        match $sender {
            AnySequenced::U32($m) => $body.map(|(n, t)| (n, t.to_vec())),
            AnySequenced::U64($m) => $body.map(|(n, t)| (n, t.to_vec())),
            AnySequenced::U96($m) => $body.map(|(n, t)| (n, t.to_vec())),
            AnySequenced::U128($m) => $body.map(|(n, t)| (n, t.to_vec())),
        }
    };
}

impl AnySequenced {
    fn new(key: &[u8], digest_size: usize, counter: NonceCounter) -> PyResult<AnySequenced> {
        let key: &[u8; KEY_LEN] =
            key.try_into().map_err(|_| to_py(fastmac::Error::KeyLength { expected: KEY_LEN, got: key.len() }))?;
        Ok(match digest_size {
            4 => AnySequenced::U32(Box::new(SequencedUmac::with_counter(key, counter))),
            8 => AnySequenced::U64(Box::new(SequencedUmac::with_counter(key, counter))),
            12 => AnySequenced::U96(Box::new(SequencedUmac::with_counter(key, counter))),
            16 => AnySequenced::U128(Box::new(SequencedUmac::with_counter(key, counter))),
            other => {
                return Err(TagLengthError::new_err(format!("digest_size must be 4, 8, 12 or 16, got {other}")));
            }
        })
    }

    fn tag(&mut self, data: &[u8]) -> Result<(u64, Vec<u8>), fastmac::Error> {
        each!(self, m => m.tag(data))
    }

    fn finalize_reset(&mut self) -> Result<(u64, Vec<u8>), fastmac::Error> {
        each!(self, m => m.finalize_reset())
    }

    fn update(&mut self, data: &[u8]) {
        match self {
            AnySequenced::U32(m) => m.update(data),
            AnySequenced::U64(m) => m.update(data),
            AnySequenced::U96(m) => m.update(data),
            AnySequenced::U128(m) => m.update(data),
        }
    }

    fn next_nonce(&self) -> u64 {
        match self {
            AnySequenced::U32(m) => m.next_nonce(),
            AnySequenced::U64(m) => m.next_nonce(),
            AnySequenced::U96(m) => m.next_nonce(),
            AnySequenced::U128(m) => m.next_nonce(),
        }
    }

    fn remaining(&self) -> u64 {
        match self {
            AnySequenced::U32(m) => m.remaining(),
            AnySequenced::U64(m) => m.remaining(),
            AnySequenced::U96(m) => m.remaining(),
            AnySequenced::U128(m) => m.remaining(),
        }
    }
}

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
    inner: Mutex<AnySequenced>,
    digest_size: usize,
}

fn lock(mutex: &Mutex<AnySequenced>) -> MutexGuard<'_, AnySequenced> {
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
        let inner = with_bytes(key, |key| AnySequenced::new(key, digest_size, counter))?;
        Ok(Sequenced { inner: Mutex::new(inner), digest_size })
    }

    /// tag(data) -> tuple[int, bytes]
    ///
    /// Tags ``data`` (any buffer) under the next nonce: ``(nonce, tag)``.
    /// Raises ``fastmac.NonceExhaustedError`` at the limit (nothing is
    /// tagged then).
    #[pyo3(signature = (data, /))]
    fn tag<'py>(&self, py: Python<'py>, data: &Bound<'py, PyAny>) -> PyResult<(u64, Bound<'py, PyBytes>)> {
        let (nonce, tag) = with_message(py, data, |data| lock(&self.inner).tag(data))?.map_err(to_py)?;
        Ok((nonce, PyBytes::new(py, &tag)))
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
        Ok((nonce, PyBytes::new(py, &tag)))
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
    fn name(&self) -> &'static str {
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
