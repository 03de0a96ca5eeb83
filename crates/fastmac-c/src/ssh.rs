//! SSH MACs by their SSH names (`umac-64@openssh.com`, `hmac-sha2-256`,
//! `umac-128-etm@openssh.com`, ...), computed exactly as OpenSSH's `mac.c`
//! does, through `fastmac::ssh`: UMAC takes the 64-bit big-endian sequence
//! number as its nonce; HMAC hashes `uint32 seq || packet` (RFC 4253
//! section 6.4). For `-etm@openssh.com` names the caller passes
//! `uint32 length || ciphertext` as the packet.
#![allow(unsafe_code)] // the C boundary

use core::ffi::{c_char, c_int};

use fastmac::ssh::{SshAlgorithm, SshMac};

use crate::boundary::{guard, guard_or};
use crate::ffi;
use crate::status::fastmac_status::{self, FASTMAC_ERR_TAG_LENGTH};

/// A keyed SSH MAC for one direction of a connection. Opaque to C.
pub struct SshMacHandle(SshMac);

/// Looks up the SSH MAC named `name` (exact, case-sensitive SSH name) and
/// stores its key length, tag length and whether it is an encrypt-then-MAC
/// form (1) or not (0). FASTMAC_ERR_UNKNOWN_ALGORITHM if fastmac has no MAC
/// of that name. Lets a key exchange know how many key bytes to derive.
///
/// # Safety
/// `name` must be NULL or NUL-terminated; the out pointers writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_mac_lookup(
    name: *const c_char,
    key_len: *mut usize,
    tag_len: *mut usize,
    is_etm: *mut c_int,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (name, key_len, tag_len, is_etm) =
            unsafe { (ffi::name(name)?, ffi::handle(key_len)?, ffi::handle(tag_len)?, ffi::handle(is_etm)?) };
        let algorithm = SshAlgorithm::from_name(name)?;
        *key_len = algorithm.key_len;
        *tag_len = algorithm.tag_len;
        *is_etm = c_int::from(algorithm.etm);
        Ok(())
    })
}

/// Keys the SSH MAC named `name` with `key` (exactly its key length, see
/// `fastmac_ssh_mac_lookup`) and stores the handle in `*out` (NULL on any
/// error). All key setup happens here, once per direction and key.
///
/// # Safety
/// `name` must be NULL or NUL-terminated; `key` valid for `key_len` bytes;
/// `out` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_mac_new(
    name: *const c_char,
    key: *const u8,
    key_len: usize,
    out: *mut *mut SshMacHandle,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (slot, name, key) = unsafe { (ffi::out_slot(out)?, ffi::name(name)?, ffi::input(key, key_len)?) };
        ffi::publish(slot, SshMacHandle(SshMac::new(name, key)?));
        Ok(())
    })
}

/// Stores the handle's tag length in bytes in `*tag_len`.
///
/// # Safety
/// `mac` must be a live handle; `tag_len` writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_mac_tag_len(mac: *const SshMacHandle, tag_len: *mut usize) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, slot) = unsafe { (ffi::handle_ref(mac)?, ffi::handle(tag_len)?) };
        *slot = mac.0.tag_len();
        Ok(())
    })
}

/// Writes the MAC of packet number `seq` into `tag` (`tag_len` must be the
/// algorithm's tag length), as OpenSSH's `mac_compute(mac, seq, packet, len,
/// tag, tag_len)`.
///
/// # Safety
/// `mac` must be a live handle; `packet` valid for `len` bytes (NULL if 0);
/// `tag` valid for `tag_len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_mac_compute(
    mac: *mut SshMacHandle,
    seq: u32,
    packet: *const u8,
    len: usize,
    tag: *mut u8,
    tag_len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, packet, tag) = unsafe { (ffi::handle(mac)?, ffi::input(packet, len)?, ffi::output(tag, tag_len)?) };
        // Checked first, so that a wrong buffer costs nothing.
        if tag.len() != mac.0.tag_len() {
            return Err(FASTMAC_ERR_TAG_LENGTH);
        }
        tag.copy_from_slice(&mac.0.compute(seq, packet));
        Ok(())
    })
}

/// Checks `tag` for packet number `seq` in constant time: FASTMAC_OK, or
/// FASTMAC_ERR_INVALID_TAG (FASTMAC_ERR_TAG_LENGTH if `tag_len` is not the
/// algorithm's), as OpenSSH's `mac_check`.
///
/// # Safety
/// `mac` must be a live handle; `packet` and `tag` valid for their lengths.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_mac_verify(
    mac: *mut SshMacHandle,
    seq: u32,
    packet: *const u8,
    len: usize,
    tag: *const u8,
    tag_len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, packet, tag) = unsafe { (ffi::handle(mac)?, ffi::input(packet, len)?, ffi::input(tag, tag_len)?) };
        mac.0.verify(seq, packet, tag)?;
        Ok(())
    })
}

/// Frees a handle, wiping its key material. NULL is a no-op.
///
/// # Safety
/// `mac` must be NULL or a live handle, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_mac_free(mac: *mut SshMacHandle) {
    // SAFETY: the caller's guarantee.
    guard_or((), || unsafe { ffi::free(mac) });
}
