//! Input from any object with the buffer protocol: `bytes`, `bytearray`,
//! `memoryview`, `array.array`, numpy arrays, `mmap`.
//!
//! Through PyO3's `PyUntypedBuffer`, which the limited API offers from
//! CPython 3.11 (`Py_buffer` joined the stable ABI there): hence the
//! package's `abi3-py311` floor.
//!
//! Only a `bytes` object's contents never change. Any other exporter (a
//! `bytearray`, a writable `memoryview`, a numpy array, an `mmap`, even a
//! read-only view of one of them) may be written by Python code in another
//! thread as soon as the GIL is released, and a Rust `&[u8]` over memory
//! that another thread writes is undefined behaviour. So the bytes of an
//! exporter are read with the GIL held ([`with_bytes`]), and the GIL is
//! released for a long message ([`with_message`]) only over a `bytes`
//! object, whose small companions (nonce, tag) are then `bytes` or copies
//! ([`stable_bytes`]). `Python::detach` is called here and nowhere else.
#![allow(unsafe_code)] // the C boundary: reading an exported Python buffer

use std::borrow::Cow;

use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::PyBufferError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::GIL_MINSIZE;

/// Runs `f` on the bytes of `obj` without copying them, with the GIL held
/// throughout: `f` must not release it (nor run Python code that could
/// write the buffer). The buffer stays exported (so a `bytearray` cannot be
/// resized) until `f` returns. A buffer that is not one C-contiguous run of
/// bytes (a strided memoryview, a transposed array) raises `BufferError`.
pub fn with_bytes<R>(obj: &Bound<'_, PyAny>, f: impl FnOnce(&[u8]) -> PyResult<R>) -> PyResult<R> {
    // Fast path: an immutable bytes object needs no export.
    if let Ok(bytes) = obj.cast::<PyBytes>() {
        return f(bytes.as_bytes());
    }
    let buffer = PyUntypedBuffer::get(obj)?;
    if !buffer.is_c_contiguous() {
        return Err(PyBufferError::new_err("the buffer must be C-contiguous"));
    }
    let len = buffer.len_bytes();
    let data = if len == 0 {
        &[][..]
    } else {
        // SAFETY: the export succeeded and is C-contiguous, so `buf_ptr`
        // points to `len_bytes` readable bytes, valid until `buffer` is
        // released when this function returns (after `f`). The exporter
        // cannot resize or free them while exported, and no other thread
        // writes them while this one holds the GIL (`f` keeps it).
        unsafe { std::slice::from_raw_parts(buffer.buf_ptr().cast::<u8>(), len) }
    };
    let result = f(data);
    buffer.release(obj.py());
    result
}

/// The bytes of `obj` in a form that stays unchanged while the GIL is
/// released: a `bytes` object's own, or a copy of any other buffer's. For
/// the short arguments (nonce, tag) that accompany a message.
pub fn stable_bytes<'a>(obj: &'a Bound<'_, PyAny>) -> PyResult<Cow<'a, [u8]>> {
    if let Ok(bytes) = obj.cast::<PyBytes>() {
        return Ok(Cow::Borrowed(bytes.as_bytes()));
    }
    with_bytes(obj, |bytes| Ok(Cow::Owned(bytes.to_vec())))
}

/// Runs `work` on the message `obj`, with the GIL released when that is
/// sound and pays: the message is a `bytes` object (immutable) of at least
/// [`GIL_MINSIZE`] bytes. Any other exporter is hashed in place with the
/// GIL held, whatever its length: holding the GIL costs less than a copy
/// would (docs/python.md section 1).
pub fn with_message<R: Send>(
    py: Python<'_>,
    obj: &Bound<'_, PyAny>,
    work: impl FnOnce(&[u8]) -> R + Send,
) -> PyResult<R> {
    if let Ok(bytes) = obj.cast::<PyBytes>() {
        let data = bytes.as_bytes();
        return Ok(if data.len() >= GIL_MINSIZE { py.detach(|| work(data)) } else { work(data) });
    }
    with_bytes(obj, |data| Ok(work(data)))
}
