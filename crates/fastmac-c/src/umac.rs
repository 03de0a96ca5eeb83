//! The general UMAC API: one opaque handle type per tag length
//! (`fastmac_umac32`, `fastmac_umac64`, `fastmac_umac96`, `fastmac_umac128`),
//! and one-shot calls.
//!
//! A handle holds the expanded key (derived once by `*_new`), the PDF pad
//! cache and the streaming state: `update` any number of times, then
//! `finalize` (or `verify`) with the nonce, which resets the handle for the
//! next message, like OpenSSH's `umac_final` (RFC 4418 section 4: the nonce
//! only enters through the pad, so it can come last).
//!
//! The handle type and the exported functions of each tag length come from
//! one macro, `umac_api!`, whose functions are one-line calls into the
//! generic functions below. cbindgen reads the crate with its macros
//! expanded (`tests/header.rs`), so `include/fastmac.h` declares them all.
#![allow(unsafe_code)] // the C boundary

use fastmac::umac::{AnyUmac, Umac};
use fastmac::{DynMac, Error};

use crate::boundary::{guard, guard_or};
use crate::ffi;
use crate::status::fastmac_status;

/// What the generic functions need from a handle type.
trait UmacHandle: Sized {
    /// The keyed Rust object inside.
    type Mac: DynMac;
    fn keyed(key: &[u8]) -> Result<Self, Error>;
    fn mac(&mut self) -> &mut Self::Mac;
    fn reset(&mut self);
    /// Asks for the key state's lines a message of `len` bytes reads
    /// (Rust's `Umac::prefetch`).
    fn prefetch(&self, len: usize);
    /// The tag of `msg` under `nonce` into `tag`, leaving streamed input
    /// untouched (Rust's `Umac::mac`).
    fn one_shot(&mut self, nonce: &[u8], msg: &[u8], tag: &mut [u8]) -> Result<(), Error>;
}

/// # Safety
/// `key`: `key_len` readable bytes; `out`: a writable pointer slot.
unsafe fn new<H: UmacHandle>(key: *const u8, key_len: usize, out: *mut *mut H) -> fastmac_status {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        let slot = unsafe { ffi::out_slot(out)? };
        // SAFETY: forwarded caller guarantees.
        let key = unsafe { ffi::input(key, key_len)? };
        ffi::publish(slot, H::keyed(key)?);
        Ok(())
    })
}

/// # Safety
/// `mac`: a live handle of type `H`; `data`: `len` readable bytes.
unsafe fn update<H: UmacHandle>(mac: *mut H, data: *const u8, len: usize) -> fastmac_status {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        let (mac, data) = unsafe { (ffi::handle(mac)?, ffi::input(data, len)?) };
        mac.mac().update(data);
        Ok(())
    })
}

/// # Safety
/// `mac`: a live handle; `nonce`: `nonce_len` readable bytes; `tag`:
/// `tag_len` writable bytes.
unsafe fn finalize<H: UmacHandle>(
    mac: *mut H,
    nonce: *const u8,
    nonce_len: usize,
    tag: *mut u8,
    tag_len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        let (mac, nonce, tag) =
            unsafe { (ffi::handle(mac)?, ffi::input(nonce, nonce_len)?, ffi::output(tag, tag_len)?) };
        mac.mac().finalize_reset_into(nonce, tag)?;
        Ok(())
    })
}

/// # Safety
/// `mac`: a live handle; `nonce`, `msg`: readable for their lengths; `tag`:
/// `tag_len` writable bytes.
unsafe fn one_shot<H: UmacHandle>(
    mac: *mut H,
    nonce: *const u8,
    nonce_len: usize,
    msg: *const u8,
    msg_len: usize,
    tag: *mut u8,
    tag_len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        let (mac, nonce, msg, tag) = unsafe {
            (ffi::handle(mac)?, ffi::input(nonce, nonce_len)?, ffi::input(msg, msg_len)?, ffi::output(tag, tag_len)?)
        };
        mac.one_shot(nonce, msg, tag)?;
        Ok(())
    })
}

/// # Safety
/// `mac`: a live handle; `nonce`, `tag`: readable for their lengths.
unsafe fn verify<H: UmacHandle>(
    mac: *mut H,
    nonce: *const u8,
    nonce_len: usize,
    tag: *const u8,
    tag_len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: forwarded caller guarantees.
        let (mac, nonce, tag) =
            unsafe { (ffi::handle(mac)?, ffi::input(nonce, nonce_len)?, ffi::input(tag, tag_len)?) };
        mac.mac().verify_reset(nonce, tag)?;
        Ok(())
    })
}

/// # Safety
/// `mac`: a live handle.
unsafe fn reset<H: UmacHandle>(mac: *mut H) -> fastmac_status {
    guard(|| {
        // SAFETY: forwarded caller guarantee.
        unsafe { ffi::handle(mac)? }.reset();
        Ok(())
    })
}

/// # Safety
/// `mac`: a live handle.
unsafe fn prefetch<H: UmacHandle>(mac: *const H, msg_len: usize) -> fastmac_status {
    guard(|| {
        // SAFETY: forwarded caller guarantee.
        unsafe { ffi::handle_ref(mac)? }.prefetch(msg_len);
        Ok(())
    })
}

/// # Safety
/// `mac`: NULL or a live handle, not used afterwards.
unsafe fn free<H: UmacHandle>(mac: *mut H) {
    // SAFETY: forwarded caller guarantee.
    guard_or((), || unsafe { ffi::free(mac) });
}

/// Keys the UMAC of `tag_len`-byte tags and runs `body` on it: the one-shot
/// calls, where the tag length alone tells the four UMACs apart.
///
/// # Safety
/// `key`: `key_len` readable bytes.
unsafe fn one_shot_by_tag_len(
    key: *const u8,
    key_len: usize,
    tag_len: usize,
    body: impl FnOnce(&mut AnyUmac) -> Result<(), Error>,
) -> Result<(), fastmac_status> {
    // SAFETY: forwarded caller guarantee.
    let key = unsafe { ffi::input(key, key_len)? };
    body(&mut AnyUmac::new_from_slice(key, tag_len)?)?;
    Ok(())
}

/// One-shot UMAC: writes the tag of `msg` under `key` (16 bytes) and `nonce`
/// (1 to 16 bytes) into `tag`. `tag_len` selects the algorithm: 4 (UMAC-32),
/// 8 (UMAC-64), 12 (UMAC-96) or 16 (UMAC-128); any other value is
/// FASTMAC_ERR_TAG_LENGTH. Derives the whole UMAC key (KDF, RFC 4418
/// section 3.2) on every call: keep a handle to tag many messages under one key.
///
/// # Safety
/// Each pointer must be valid for its length; `msg` may be NULL if
/// `msg_len` is 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_umac_compute(
    key: *const u8,
    key_len: usize,
    nonce: *const u8,
    nonce_len: usize,
    msg: *const u8,
    msg_len: usize,
    tag: *mut u8,
    tag_len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (nonce, msg, tag) =
            unsafe { (ffi::input(nonce, nonce_len)?, ffi::input(msg, msg_len)?, ffi::output(tag, tag_len)?) };
        // SAFETY: the caller's guarantee on key.
        unsafe {
            one_shot_by_tag_len(key, key_len, tag.len(), |mac| {
                mac.update(msg);
                mac.finalize_reset_into(nonce, tag)
            })
        }
    })
}

/// One-shot verification, in constant time: FASTMAC_OK if `tag` (4, 8, 12
/// or 16 bytes, selecting the UMAC) authenticates `msg` under `key` and
/// `nonce`, FASTMAC_ERR_INVALID_TAG if not.
///
/// # Safety
/// Each pointer must be valid for its length; `msg` may be NULL if
/// `msg_len` is 0.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_umac_verify(
    key: *const u8,
    key_len: usize,
    nonce: *const u8,
    nonce_len: usize,
    msg: *const u8,
    msg_len: usize,
    tag: *const u8,
    tag_len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (nonce, msg, tag) =
            unsafe { (ffi::input(nonce, nonce_len)?, ffi::input(msg, msg_len)?, ffi::input(tag, tag_len)?) };
        // SAFETY: the caller's guarantee on key.
        unsafe {
            one_shot_by_tag_len(key, key_len, tag.len(), |mac| {
                mac.update(msg);
                mac.verify_reset(nonce, tag)
            })
        }
    })
}

/// The handle type of UMAC with `$tag_len`-byte tags and its exported
/// functions, written once: `$new`, `$update`, `$finalize` (the streamed
/// message), `$mac` (one call), `$verify`, `$reset`, `$prefetch` and
/// `$free`.
macro_rules! umac_api {
    (
        $tag_len:literal, $handle:ident, $what:literal, $note:literal,
        $new:ident, $update:ident, $finalize:ident, $mac:ident, $verify:ident, $reset:ident, $prefetch:ident,
        $free:ident $(,)?
    ) => {
        #[doc = concat!(" A keyed ", $what, " object (", $tag_len, "-byte tags", $note, "). Opaque to C.")]
        pub struct $handle(Umac<$tag_len>);

        impl UmacHandle for $handle {
            type Mac = Umac<$tag_len>;
            fn keyed(key: &[u8]) -> Result<Self, Error> {
                Umac::new_from_slice(key).map($handle)
            }
            fn mac(&mut self) -> &mut Umac<$tag_len> {
                &mut self.0
            }
            fn reset(&mut self) {
                self.0.reset();
            }
            fn prefetch(&self, len: usize) {
                self.0.prefetch(len);
            }
            fn one_shot(&mut self, nonce: &[u8], msg: &[u8], tag: &mut [u8]) -> Result<(), Error> {
                let computed = self.0.mac(nonce, msg)?;
                if tag.len() != computed.len() {
                    return Err(Error::TagLength { expected: computed.len(), got: tag.len() });
                }
                tag.copy_from_slice(&computed);
                Ok(())
            }
        }

        #[doc = concat!(" Creates a ", $what, " handle (", $tag_len, "-byte tags) from a 16-byte key and stores it")]
        #[doc = concat!(" in `*out` (set to NULL on any error). Free it with `", stringify!($free), "`.")]
        ///
        /// # Safety
        /// `key` must be valid for `key_len` bytes; `out` must be writable.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $new(key: *const u8, key_len: usize, out: *mut *mut $handle) -> fastmac_status {
            // SAFETY: the caller's guarantees.
            unsafe { new(key, key_len, out) }
        }

        /// Appends `len` bytes of the current message (`data` may be NULL if `len`
        /// is 0). Messages may be fed in any chunking.
        ///
        /// # Safety
        /// `mac` must be a live handle; `data` must be valid for `len` bytes.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $update(mac: *mut $handle, data: *const u8, len: usize) -> fastmac_status {
            // SAFETY: the caller's guarantees.
            unsafe { update(mac, data, len) }
        }

        #[doc = concat!(" Writes the tag of the message fed so far into `tag` (`tag_len` must be ", $tag_len, ")")]
        /// under `nonce` (1 to 16 bytes; never repeat one under a key), and
        /// resets the handle for the next message. On an error nothing is consumed:
        /// the fed message is kept.
        ///
        /// # Safety
        /// `mac` must be a live handle; `nonce` and `tag` must be valid for their lengths.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $finalize(
            mac: *mut $handle,
            nonce: *const u8,
            nonce_len: usize,
            tag: *mut u8,
            tag_len: usize,
        ) -> fastmac_status {
            // SAFETY: the caller's guarantees.
            unsafe { finalize(mac, nonce, nonce_len, tag, tag_len) }
        }

        /// The tag of `msg` alone (`msg` may be NULL if `msg_len` is 0) under
        #[doc = concat!(" `nonce` into `tag` (`tag_len` must be ", $tag_len, "), in one call: the message fed")]
        /// with update is left as it is. The fastest way to tag a message that is
        /// whole in memory.
        ///
        /// # Safety
        /// `mac` must be a live handle; `nonce`, `msg` and `tag` must be valid for their lengths.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $mac(
            mac: *mut $handle,
            nonce: *const u8,
            nonce_len: usize,
            msg: *const u8,
            msg_len: usize,
            tag: *mut u8,
            tag_len: usize,
        ) -> fastmac_status {
            // SAFETY: the caller's guarantees.
            unsafe { one_shot(mac, nonce, nonce_len, msg, msg_len, tag, tag_len) }
        }

        #[doc = concat!(" Checks `tag` (", $tag_len, " bytes) against the message fed so far and `nonce`, in")]
        /// constant time: FASTMAC_OK or FASTMAC_ERR_INVALID_TAG; either way the
        /// handle is reset for the next message. On a length or NULL error nothing is
        /// consumed.
        ///
        /// # Safety
        /// `mac` must be a live handle; `nonce` and `tag` must be valid for their lengths.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $verify(
            mac: *mut $handle,
            nonce: *const u8,
            nonce_len: usize,
            tag: *const u8,
            tag_len: usize,
        ) -> fastmac_status {
            // SAFETY: the caller's guarantees.
            unsafe { verify(mac, nonce, nonce_len, tag, tag_len) }
        }

        /// Discards the message fed so far, keeping the key.
        ///
        /// # Safety
        /// `mac` must be a live handle.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $reset(mac: *mut $handle) -> fastmac_status {
            // SAFETY: the caller's guarantee.
            unsafe { reset(mac) }
        }

        /// Asks the memory system for the lines of the handle's key state that a
        /// message of `msg_len` bytes reads, and returns at once. A server holding
        /// more connections than its caches do calls it for the next packet's handle
        /// before tagging or checking the current packet, so that the two packets'
        /// cache misses overlap. It reads none of the state and changes nothing.
        ///
        /// # Safety
        /// `mac` must be a live handle.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $prefetch(mac: *const $handle, msg_len: usize) -> fastmac_status {
            // SAFETY: the caller's guarantee.
            unsafe { prefetch(mac, msg_len) }
        }

        /// Frees a handle, wiping its key material. NULL is a no-op.
        ///
        /// # Safety
        /// `mac` must be NULL or a live handle, not used afterwards.
        #[unsafe(no_mangle)]
        pub unsafe extern "C" fn $free(mac: *mut $handle) {
            // SAFETY: the caller's guarantee.
            unsafe { free(mac) }
        }
    };
}

umac_api!(
    4,
    Umac32Handle,
    "UMAC-32",
    "",
    fastmac_umac32_new,
    fastmac_umac32_update,
    fastmac_umac32_finalize,
    fastmac_umac32_mac,
    fastmac_umac32_verify,
    fastmac_umac32_reset,
    fastmac_umac32_prefetch,
    fastmac_umac32_free,
);
umac_api!(
    8,
    Umac64Handle,
    "UMAC-64",
    "; OpenSSH's `umac-64@openssh.com`",
    fastmac_umac64_new,
    fastmac_umac64_update,
    fastmac_umac64_finalize,
    fastmac_umac64_mac,
    fastmac_umac64_verify,
    fastmac_umac64_reset,
    fastmac_umac64_prefetch,
    fastmac_umac64_free,
);
umac_api!(
    12,
    Umac96Handle,
    "UMAC-96",
    "",
    fastmac_umac96_new,
    fastmac_umac96_update,
    fastmac_umac96_finalize,
    fastmac_umac96_mac,
    fastmac_umac96_verify,
    fastmac_umac96_reset,
    fastmac_umac96_prefetch,
    fastmac_umac96_free,
);
umac_api!(
    16,
    Umac128Handle,
    "UMAC-128",
    "; OpenSSH's `umac-128@openssh.com`",
    fastmac_umac128_new,
    fastmac_umac128_update,
    fastmac_umac128_finalize,
    fastmac_umac128_mac,
    fastmac_umac128_verify,
    fastmac_umac128_reset,
    fastmac_umac128_prefetch,
    fastmac_umac128_free,
);
