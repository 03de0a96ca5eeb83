//! Turning C arguments into Rust references, checking each: NULL pointers
//! give `FASTMAC_ERR_NULL_POINTER`, impossible lengths
//! `FASTMAC_ERR_LENGTH_OVERFLOW`. The only raw-pointer reads of the crate
//! happen here and in the handle constructors/destructors.
#![allow(unsafe_code)] // the C boundary
// The OpenSSH drop-in alone (without the feature `api`) uses a few of these.
#![cfg_attr(not(feature = "api"), allow(dead_code))]

use alloc::boxed::Box;
use core::ffi::{CStr, c_char};

use crate::status::fastmac_status::{
    self, FASTMAC_ERR_LENGTH_OVERFLOW, FASTMAC_ERR_NULL_POINTER, FASTMAC_ERR_UNKNOWN_ALGORITHM,
};

/// Rust slices may not exceed `isize::MAX` bytes (`slice::from_raw_parts`).
fn check_len(len: usize) -> Result<(), fastmac_status> {
    if isize::try_from(len).is_ok() { Ok(()) } else { Err(FASTMAC_ERR_LENGTH_OVERFLOW) }
}

/// An input buffer (message, key, nonce, tag to check): `ptr` may be NULL
/// when `len` is 0 (a common C idiom; HMAC's empty nonce, say), and the
/// length is then checked by the algorithm like any other.
///
/// # Safety
/// Unless NULL, `ptr` must point to `len` readable bytes that stay valid and
/// unmodified for `'a`.
pub(crate) unsafe fn input<'a>(ptr: *const u8, len: usize) -> Result<&'a [u8], fastmac_status> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(FASTMAC_ERR_NULL_POINTER);
    }
    check_len(len)?;
    // SAFETY: non-NULL, len fits isize, and the caller guarantees len readable bytes.
    Ok(unsafe { core::slice::from_raw_parts(ptr, len) })
}

/// An output buffer (a tag to write): as [`input`], NULL only with `len` 0.
///
/// # Safety
/// `ptr` must point to `len` writable bytes, not aliased by any other
/// argument, valid for `'a`.
pub(crate) unsafe fn output<'a>(ptr: *mut u8, len: usize) -> Result<&'a mut [u8], fastmac_status> {
    if len == 0 {
        return Ok(&mut []);
    }
    if ptr.is_null() {
        return Err(FASTMAC_ERR_NULL_POINTER);
    }
    check_len(len)?;
    // SAFETY: non-NULL, len fits isize, and the caller guarantees len writable,
    // unaliased bytes.
    Ok(unsafe { core::slice::from_raw_parts_mut(ptr, len) })
}

/// A handle made by this library's `*_new`.
///
/// # Safety
/// Unless NULL, `ptr` must come from `Box::into_raw` in this crate, not be
/// freed, and not be in use by another thread during `'a`.
pub(crate) unsafe fn handle<'a, T>(ptr: *mut T) -> Result<&'a mut T, fastmac_status> {
    // SAFETY: the caller guarantees a live, exclusively used Box allocation.
    unsafe { ptr.as_mut() }.ok_or(FASTMAC_ERR_NULL_POINTER)
}

/// Like [`handle`], for read-only use.
///
/// # Safety
/// As [`handle`].
pub(crate) unsafe fn handle_ref<'a, T>(ptr: *const T) -> Result<&'a T, fastmac_status> {
    // SAFETY: the caller guarantees a live Box allocation.
    unsafe { ptr.as_ref() }.ok_or(FASTMAC_ERR_NULL_POINTER)
}

/// Stores a new handle in `*out`. `out` was checked by [`out_slot`].
pub(crate) fn publish<T>(out: &mut *mut T, value: T) {
    *out = Box::into_raw(Box::new(value));
}

/// The `T **out` argument of a constructor; sets `*out` to NULL at once so
/// that it is NULL on every error.
///
/// # Safety
/// Unless NULL, `out` must point to a writable `T *`.
pub(crate) unsafe fn out_slot<'a, T>(out: *mut *mut T) -> Result<&'a mut *mut T, fastmac_status> {
    // SAFETY: the caller guarantees a writable pointer slot.
    let slot = unsafe { out.as_mut() }.ok_or(FASTMAC_ERR_NULL_POINTER)?;
    *slot = core::ptr::null_mut();
    Ok(slot)
}

/// Frees a handle made by [`publish`]; NULL is a no-op. The value's `Drop`
/// zeroizes key material.
///
/// # Safety
/// Unless NULL, `ptr` must come from [`publish`] for the same `T` and not be
/// used afterwards.
pub(crate) unsafe fn free<T>(ptr: *mut T) {
    if !ptr.is_null() {
        // SAFETY: the caller guarantees ownership of a Box allocation of T.
        drop(unsafe { Box::from_raw(ptr) });
    }
}

/// An algorithm name: a NUL-terminated string.
///
/// # Safety
/// Unless NULL, `ptr` must point to a NUL-terminated string valid for `'a`.
pub(crate) unsafe fn name<'a>(ptr: *const c_char) -> Result<&'a str, fastmac_status> {
    if ptr.is_null() {
        return Err(FASTMAC_ERR_NULL_POINTER);
    }
    // SAFETY: non-NULL and NUL-terminated by the caller's guarantee.
    let name = unsafe { CStr::from_ptr(ptr) };
    name.to_str().map_err(|_| FASTMAC_ERR_UNKNOWN_ALGORITHM)
}
