//! MACs chosen by name at run time (`"umac-64"`, ...), through the
//! library's algorithm registry (`fastmac::Algorithm`): every algorithm the
//! Rust library lists is reachable from C without a new C function.
#![allow(unsafe_code)] // the C boundary

use alloc::boxed::Box;
use core::ffi::c_char;

use fastmac::{Algorithm, DynMac};

use crate::boundary::{guard, guard_or};
use crate::ffi;
use crate::status::fastmac_status;

/// A keyed MAC of an algorithm chosen by name. Opaque to C.
pub struct MacHandle(Box<dyn DynMac>);

/// Creates a handle for the algorithm named `algorithm` (a NUL-terminated
/// name as `fastmac list` prints it, case-insensitive, e.g. "umac-64") keyed
/// with `key`, and stores it in `*out` (NULL on any error).
/// FASTMAC_ERR_UNKNOWN_ALGORITHM if no algorithm has that name.
///
/// # Safety
/// `algorithm` must be NULL or NUL-terminated; `key` valid for `key_len`
/// bytes; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_mac_new(
    algorithm: *const c_char,
    key: *const u8,
    key_len: usize,
    out: *mut *mut MacHandle,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (slot, name, key) = unsafe { (ffi::out_slot(out)?, ffi::name(algorithm)?, ffi::input(key, key_len)?) };
        let mac = Algorithm::from_name(name)?.new_mac(key)?;
        ffi::publish(slot, MacHandle(mac));
        Ok(())
    })
}

/// Stores the handle's tag length in bytes in `*tag_len`.
///
/// # Safety
/// `mac` must be a live handle; `tag_len` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_mac_tag_len(mac: *const MacHandle, tag_len: *mut usize) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, slot) = unsafe { (ffi::handle_ref(mac)?, ffi::handle(tag_len)?) };
        *slot = mac.0.tag_len();
        Ok(())
    })
}

/// Appends `len` bytes of the current message (`data` may be NULL if `len`
/// is 0).
///
/// # Safety
/// `mac` must be a live handle; `data` valid for `len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_mac_update(mac: *mut MacHandle, data: *const u8, len: usize) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, data) = unsafe { (ffi::handle(mac)?, ffi::input(data, len)?) };
        mac.0.update(data);
        Ok(())
    })
}

/// Writes the tag of the message fed so far under `nonce` into `tag`
/// (exactly the algorithm's tag length) and resets for the next message. On
/// an error nothing is consumed.
///
/// # Safety
/// `mac` must be a live handle; `nonce` and `tag` valid for their lengths.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_mac_finalize(
    mac: *mut MacHandle,
    nonce: *const u8,
    nonce_len: usize,
    tag: *mut u8,
    tag_len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, nonce, tag) =
            unsafe { (ffi::handle(mac)?, ffi::input(nonce, nonce_len)?, ffi::output(tag, tag_len)?) };
        mac.0.finalize_reset_into(nonce, tag)?;
        Ok(())
    })
}

/// Checks `tag` against the message fed so far and `nonce` in constant time
/// (FASTMAC_OK or FASTMAC_ERR_INVALID_TAG) and resets for the next message.
/// On a length or NULL error nothing is consumed.
///
/// # Safety
/// `mac` must be a live handle; `nonce` and `tag` valid for their lengths.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_mac_verify(
    mac: *mut MacHandle,
    nonce: *const u8,
    nonce_len: usize,
    tag: *const u8,
    tag_len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, nonce, tag) =
            unsafe { (ffi::handle(mac)?, ffi::input(nonce, nonce_len)?, ffi::input(tag, tag_len)?) };
        mac.0.verify_reset(nonce, tag)?;
        Ok(())
    })
}

/// Discards the message fed so far, keeping the key.
///
/// # Safety
/// `mac` must be a live handle.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_mac_reset(mac: *mut MacHandle) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantee.
        unsafe { ffi::handle(mac)? }.0.reset();
        Ok(())
    })
}

/// Frees a handle, wiping its key material. NULL is a no-op.
///
/// # Safety
/// `mac` must be NULL or a live handle, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_mac_free(mac: *mut MacHandle) {
    // SAFETY: the caller's guarantee.
    guard_or((), || unsafe { ffi::free(mac) });
}
