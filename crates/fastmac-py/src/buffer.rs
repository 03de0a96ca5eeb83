//! Zero-copy input from any object with the buffer protocol: `bytes`,
//! `bytearray`, `memoryview`, `array.array`, numpy arrays, `mmap`.
//!
//! Through PyO3's `PyUntypedBuffer`, which the limited API offers from
//! CPython 3.11 (`Py_buffer` joined the stable ABI there): hence the
//! package's `abi3-py311` floor.
#![allow(unsafe_code)] // the C boundary: reading an exported Python buffer

use pyo3::buffer::PyUntypedBuffer;
use pyo3::exceptions::PyBufferError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// Runs `f` on the bytes of `obj` without copying them. The buffer stays
/// exported (so a `bytearray` cannot be resized) until `f` returns; `f` may
/// release the GIL. A buffer that is not one C-contiguous run of bytes (a
/// strided memoryview, a transposed array) raises `BufferError`.
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
        // cannot resize or free them while exported.
        unsafe { std::slice::from_raw_parts(buffer.buf_ptr().cast::<u8>(), len) }
    };
    let result = f(data);
    buffer.release(obj.py());
    result
}
