//! Zero-copy input from any object with the buffer protocol: `bytes`,
//! `bytearray`, `memoryview`, `array.array`, numpy arrays, `mmap`.
//!
//! PyO3's `PyBuffer` is unavailable in an abi3 build for CPython 3.10
//! (`Py_buffer` joined the limited API in 3.11), so this module declares
//! `PyObject_GetBuffer`/`PyBuffer_Release` itself. Both have been exported
//! by every CPython 3 and the `Py_buffer` layout is unchanged since 3.3,
//! which is why 3.11 could add it to the stable ABI as is.
#![allow(unsafe_code)] // the C boundary to CPython's buffer protocol

use std::os::raw::{c_char, c_int, c_void};

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// CPython's `Py_buffer` (Include/pybuffer.h).
#[repr(C)]
struct RawBuffer {
    buf: *mut c_void,
    obj: *mut ffi::PyObject,
    len: ffi::Py_ssize_t,
    itemsize: ffi::Py_ssize_t,
    readonly: c_int,
    ndim: c_int,
    format: *mut c_char,
    shape: *mut ffi::Py_ssize_t,
    strides: *mut ffi::Py_ssize_t,
    suboffsets: *mut ffi::Py_ssize_t,
    internal: *mut c_void,
}

/// `PyBUF_SIMPLE`: a C-contiguous run of bytes; exporters that cannot
/// provide one (a strided memoryview, a transposed array) raise BufferError.
const PYBUF_SIMPLE: c_int = 0;

unsafe extern "C" {
    fn PyObject_GetBuffer(obj: *mut ffi::PyObject, view: *mut RawBuffer, flags: c_int) -> c_int;
    fn PyBuffer_Release(view: *mut RawBuffer);
}

/// Runs `f` on the bytes of `obj` without copying them. The buffer stays
/// exported (so a `bytearray` cannot be resized) until `f` returns; `f` may
/// release the GIL.
pub fn with_bytes<R>(obj: &Bound<'_, PyAny>, f: impl FnOnce(&[u8]) -> PyResult<R>) -> PyResult<R> {
    // Fast path: an immutable bytes object needs no export.
    if let Ok(bytes) = obj.cast::<PyBytes>() {
        return f(bytes.as_bytes());
    }
    let mut view = std::mem::MaybeUninit::<RawBuffer>::uninit();
    // SAFETY: obj is a live object (we hold a reference and the GIL); view
    // is writable memory of Py_buffer's layout.
    if unsafe { PyObject_GetBuffer(obj.as_ptr(), view.as_mut_ptr(), PYBUF_SIMPLE) } != 0 {
        return Err(PyErr::fetch(obj.py()));
    }
    let view = Released(view);
    // SAFETY: PyObject_GetBuffer succeeded, so the view is initialised and
    // `buf` points to `len` readable bytes that stay valid until release.
    let data = unsafe {
        let raw = view.0.assume_init_ref();
        if raw.len == 0 { &[][..] } else { std::slice::from_raw_parts(raw.buf as *const u8, raw.len as usize) }
    };
    f(data)
}

/// Releases the exported buffer on every path, panics included.
struct Released(std::mem::MaybeUninit<RawBuffer>);

impl Drop for Released {
    fn drop(&mut self) {
        // SAFETY: constructed only after a successful PyObject_GetBuffer;
        // the GIL is held (with_bytes runs with it and `f` re-acquires it
        // before returning).
        unsafe { PyBuffer_Release(self.0.as_mut_ptr()) };
    }
}
