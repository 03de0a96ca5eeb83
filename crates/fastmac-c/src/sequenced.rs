//! The sequenced UMAC (`fastmac::umac::SequencedUmac`) for C: a UMAC that
//! owns its nonces. Each tag is made under the next value of a counter (0,
//! 1, 2, ..., as 8 big-endian bytes: `fastmac_umac_counter_nonce`), which is
//! returned with the tag; the counter never repeats or wraps, and at its
//! limit every call fails with FASTMAC_ERR_NONCE_EXHAUSTED: rekey then.
//! A receiver verifies with any UMAC handle of the same key and tag length
//! (e.g. `fastmac_umac64_verify`) and the counter nonce.
#![allow(unsafe_code)] // the C boundary

use fastmac::nonce::NonceCounter;
use fastmac::umac::{AnySequencedUmac, UmacTag, counter_nonce};

use crate::boundary::{guard, guard_or};
use crate::ffi;
use crate::status::fastmac_status::{self, FASTMAC_ERR_TAG_LENGTH};

/// Bytes of a counter nonce.
const COUNTER_NONCE_LEN: usize = 8;

/// A keyed UMAC and its nonce counter. Opaque to C.
pub struct SequencedUmacHandle(AnySequencedUmac);

impl SequencedUmacHandle {
    /// Checked before a nonce is drawn, so that a wrong buffer costs none.
    fn check_tag_len(&self, tag: &[u8]) -> Result<(), fastmac_status> {
        if tag.len() == self.0.tag_len() { Ok(()) } else { Err(FASTMAC_ERR_TAG_LENGTH) }
    }
}

/// Copies a `(nonce, tag)` result out.
fn deliver(
    result: Result<(u64, UmacTag), fastmac::Error>,
    nonce: &mut u64,
    tag: &mut [u8],
) -> Result<(), fastmac_status> {
    let (n, t) = result?;
    *nonce = n;
    tag.copy_from_slice(t.as_slice());
    Ok(())
}

/// Keys a sequenced UMAC with `key` (16 bytes); `tag_len` (4, 8, 12 or 16)
/// selects UMAC-32/64/96/128. Nonces count from 0 to 2^64 - 2. The handle
/// goes to `*out` (NULL on any error).
///
/// # Safety
/// `key` valid for `key_len` bytes; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_sequenced_umac_new(
    key: *const u8,
    key_len: usize,
    tag_len: usize,
    out: *mut *mut SequencedUmacHandle,
) -> fastmac_status {
    // SAFETY: the caller's guarantees.
    unsafe { fastmac_sequenced_umac_new_at(key, key_len, tag_len, 0, u64::MAX, out) }
}

/// As `fastmac_sequenced_umac_new`, with nonces from `first_nonce` to
/// `limit - 1`: a lower limit (a rekey policy), or a counter continued from
/// one persisted before its values were used. FASTMAC_ERR_NONCE_EXHAUSTED if
/// `first_nonce` is not below `limit`.
///
/// # Safety
/// `key` valid for `key_len` bytes; `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_sequenced_umac_new_at(
    key: *const u8,
    key_len: usize,
    tag_len: usize,
    first_nonce: u64,
    limit: u64,
    out: *mut *mut SequencedUmacHandle,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (slot, key) = unsafe { (ffi::out_slot(out)?, ffi::input(key, key_len)?) };
        let counter = NonceCounter::starting_at(first_nonce, limit)?;
        ffi::publish(slot, SequencedUmacHandle(AnySequencedUmac::with_counter(key, tag_len, counter)?));
        Ok(())
    })
}

/// Tags `msg` under the next nonce: the nonce's counter value goes to
/// `*nonce`, the tag (exactly the handle's tag length) to `tag`. At the
/// limit FASTMAC_ERR_NONCE_EXHAUSTED, and nothing moves.
///
/// # Safety
/// `mac` a live handle; `msg` valid for `msg_len` bytes (NULL if 0); `nonce`
/// writable; `tag` valid for `tag_len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_sequenced_umac_tag(
    mac: *mut SequencedUmacHandle,
    msg: *const u8,
    msg_len: usize,
    nonce: *mut u64,
    tag: *mut u8,
    tag_len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, msg, nonce, tag) =
            unsafe { (ffi::handle(mac)?, ffi::input(msg, msg_len)?, ffi::handle(nonce)?, ffi::output(tag, tag_len)?) };
        mac.check_tag_len(tag)?;
        deliver(mac.0.tag(msg), nonce, tag)
    })
}

/// Appends `len` bytes of the current message.
///
/// # Safety
/// `mac` a live handle; `data` valid for `len` bytes (NULL if 0).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_sequenced_umac_update(
    mac: *mut SequencedUmacHandle,
    data: *const u8,
    len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, data) = unsafe { (ffi::handle(mac)?, ffi::input(data, len)?) };
        mac.0.update(data);
        Ok(())
    })
}

/// Tags the streamed message under the next nonce (see
/// `fastmac_sequenced_umac_tag`) and resets for the next message. At the
/// limit FASTMAC_ERR_NONCE_EXHAUSTED, and the streamed input is kept.
///
/// # Safety
/// `mac` a live handle; `nonce` writable; `tag` valid for `tag_len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_sequenced_umac_finalize(
    mac: *mut SequencedUmacHandle,
    nonce: *mut u64,
    tag: *mut u8,
    tag_len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, nonce, tag) = unsafe { (ffi::handle(mac)?, ffi::handle(nonce)?, ffi::output(tag, tag_len)?) };
        mac.check_tag_len(tag)?;
        deliver(mac.0.finalize_reset(), nonce, tag)
    })
}

/// Stores the counter value the next message gets in `*nonce`, and how many
/// messages are left before the limit in `*remaining`.
///
/// # Safety
/// `mac` a live handle; `nonce` and `remaining` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_sequenced_umac_position(
    mac: *const SequencedUmacHandle,
    nonce: *mut u64,
    remaining: *mut u64,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, nonce, remaining) = unsafe { (ffi::handle_ref(mac)?, ffi::handle(nonce)?, ffi::handle(remaining)?) };
        (*nonce, *remaining) = (mac.0.next_nonce(), mac.0.remaining());
        Ok(())
    })
}

/// Writes the nonce bytes of counter value `n` (8 bytes, big-endian), as a
/// receiver passes them to a UMAC handle's verify.
///
/// # Safety
/// `nonce` valid for `nonce_len` bytes, which must be 8.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_umac_counter_nonce(n: u64, nonce: *mut u8, nonce_len: usize) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantee.
        let out = unsafe { ffi::output(nonce, nonce_len)? };
        if out.len() != COUNTER_NONCE_LEN {
            return Err(fastmac_status::FASTMAC_ERR_NONCE_LENGTH);
        }
        out.copy_from_slice(&counter_nonce(n));
        Ok(())
    })
}

/// Frees a handle, wiping its key material. NULL is a no-op.
///
/// # Safety
/// `mac` NULL or a live handle, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_sequenced_umac_free(mac: *mut SequencedUmacHandle) {
    // SAFETY: the caller's guarantee.
    guard_or((), || unsafe { ffi::free(mac) });
}
