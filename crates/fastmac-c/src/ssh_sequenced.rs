//! The SSH MACs that own the packet sequence number
//! (`fastmac::ssh::OutboundMac` / `InboundMac`) for C: one handle per
//! direction of a connection. The sender's handle numbers its packets and
//! refuses the packet after FASTMAC_SSH_REKEY_AFTER_PACKETS under one key
//! (FASTMAC_ERR_NONCE_EXHAUSTED: rekey); the receiver's checks each packet
//! under the next number, moves on only when the tag verifies, and refuses
//! after FASTMAC_SSH_INBOUND_PACKET_LIMIT packets under one key. A key
//! exchange hands the new keys to `*_rekey`: the numbers continue (RFC 4253
//! section 6.4).
#![allow(unsafe_code)] // the C boundary

use core::ffi::{c_char, c_int};

use fastmac::ssh::{InboundMac, OutboundMac, SshMac};

use crate::boundary::{guard, guard_or};
use crate::ffi;
use crate::status::fastmac_status::{self, FASTMAC_ERR_TAG_LENGTH};

/// Packets an outbound handle tags under one key (OpenSSH's MAX_PACKETS,
/// 2^31; RFC 4344 section 3.1).
pub const FASTMAC_SSH_REKEY_AFTER_PACKETS: u64 = 2147483648;
/// Packets an inbound handle verifies under one key (2^32: one more and a
/// sequence number would repeat).
pub const FASTMAC_SSH_INBOUND_PACKET_LIMIT: u64 = 4294967296;

/// The sending direction. Opaque to C.
pub struct SshOutboundHandle(OutboundMac);
/// The receiving direction. Opaque to C.
pub struct SshInboundHandle(InboundMac);

/// # Safety
/// `name` NULL or NUL-terminated; `key` valid for `key_len` bytes.
unsafe fn keyed(name: *const c_char, key: *const u8, key_len: usize) -> Result<SshMac, fastmac_status> {
    // SAFETY: forwarded caller guarantees.
    let (name, key) = unsafe { (ffi::name(name)?, ffi::input(key, key_len)?) };
    Ok(SshMac::new(name, key)?)
}

/// Keys the SSH MAC `name` (see `fastmac_ssh_mac_lookup` for its key
/// length) for sending; the first packet gets number `next_seq` (the
/// packets sent on the connection so far). The handle goes to `*out` (NULL
/// on any error).
///
/// # Safety
/// `name` NULL or NUL-terminated; `key` valid for `key_len` bytes; `out`
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_outbound_new(
    name: *const c_char,
    key: *const u8,
    key_len: usize,
    next_seq: u32,
    out: *mut *mut SshOutboundHandle,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let slot = unsafe { ffi::out_slot(out)? };
        // SAFETY: the caller's guarantees.
        let mac = unsafe { keyed(name, key, key_len)? };
        ffi::publish(slot, SshOutboundHandle(OutboundMac::new(mac, next_seq)));
        Ok(())
    })
}

/// MACs the next packet: its sequence number to `*seq`, its tag (exactly
/// the algorithm's tag length) to `tag`. FASTMAC_ERR_NONCE_EXHAUSTED after
/// FASTMAC_SSH_REKEY_AFTER_PACKETS packets under this key (the number does
/// not move).
///
/// # Safety
/// `mac` a live handle; `packet` valid for `len` bytes (NULL if 0); `seq`
/// writable; `tag` valid for `tag_len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_outbound_compute(
    mac: *mut SshOutboundHandle,
    packet: *const u8,
    len: usize,
    seq: *mut u32,
    tag: *mut u8,
    tag_len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, packet, seq, tag) =
            unsafe { (ffi::handle(mac)?, ffi::input(packet, len)?, ffi::handle(seq)?, ffi::output(tag, tag_len)?) };
        // Checked first: a wrong buffer must not use up a sequence number.
        if tag.len() != mac.0.mac().tag_len() {
            return Err(FASTMAC_ERR_TAG_LENGTH);
        }
        let (number, computed) = mac.0.compute(packet)?;
        *seq = number;
        tag.copy_from_slice(&computed);
        Ok(())
    })
}

/// Stores the number the next packet gets in `*next_seq` and how many
/// packets are left under this key in `*packets_left`.
///
/// # Safety
/// `mac` a live handle; the out pointers writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_outbound_position(
    mac: *const SshOutboundHandle,
    next_seq: *mut u32,
    packets_left: *mut u64,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, next_seq, packets_left) =
            unsafe { (ffi::handle_ref(mac)?, ffi::handle(next_seq)?, ffi::handle(packets_left)?) };
        (*next_seq, *packets_left) = (mac.0.next_seq(), mac.0.packets_left());
        Ok(())
    })
}

/// Takes the keys of a new key exchange (`name` may differ from before):
/// the sequence numbers continue, the count under the key starts again. On
/// an error the handle keeps its old key.
///
/// # Safety
/// `mac` a live handle; `name` NULL or NUL-terminated; `key` valid for
/// `key_len` bytes.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_outbound_rekey(
    mac: *mut SshOutboundHandle,
    name: *const c_char,
    key: *const u8,
    key_len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, new_mac) = unsafe { (ffi::handle(mac)?, keyed(name, key, key_len)?) };
        mac.0.rekey(new_mac);
        Ok(())
    })
}

/// Frees a handle, wiping its key material. NULL is a no-op.
///
/// # Safety
/// `mac` NULL or a live handle, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_outbound_free(mac: *mut SshOutboundHandle) {
    // SAFETY: the caller's guarantee.
    guard_or((), || unsafe { ffi::free(mac) });
}

/// Keys the SSH MAC `name` for receiving; the first packet must carry
/// number `next_seq`. The handle goes to `*out` (NULL on any error).
///
/// # Safety
/// As `fastmac_ssh_outbound_new`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_inbound_new(
    name: *const c_char,
    key: *const u8,
    key_len: usize,
    next_seq: u32,
    out: *mut *mut SshInboundHandle,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let slot = unsafe { ffi::out_slot(out)? };
        // SAFETY: the caller's guarantees.
        let mac = unsafe { keyed(name, key, key_len)? };
        ffi::publish(slot, SshInboundHandle(InboundMac::new(mac, next_seq)));
        Ok(())
    })
}

/// Checks `tag` for the next packet in constant time: FASTMAC_OK with its
/// sequence number in `*seq`, FASTMAC_ERR_INVALID_TAG (the number stays:
/// SSH ends the connection), FASTMAC_ERR_TAG_LENGTH, or
/// FASTMAC_ERR_NONCE_EXHAUSTED after FASTMAC_SSH_INBOUND_PACKET_LIMIT
/// packets under this key.
///
/// # Safety
/// `mac` a live handle; `packet` and `tag` valid for their lengths; `seq`
/// writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_inbound_verify(
    mac: *mut SshInboundHandle,
    packet: *const u8,
    len: usize,
    tag: *const u8,
    tag_len: usize,
    seq: *mut u32,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, packet, tag, seq) =
            unsafe { (ffi::handle(mac)?, ffi::input(packet, len)?, ffi::input(tag, tag_len)?, ffi::handle(seq)?) };
        *seq = mac.0.verify(packet, tag)?;
        Ok(())
    })
}

/// Stores the number the next packet must carry in `*next_seq`, and in
/// `*needs_rekey` 1 once FASTMAC_SSH_REKEY_AFTER_PACKETS packets arrived
/// under this key (time to start a key exchange from this side, as OpenSSH
/// does), else 0.
///
/// # Safety
/// `mac` a live handle; the out pointers writable.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_inbound_position(
    mac: *const SshInboundHandle,
    next_seq: *mut u32,
    needs_rekey: *mut c_int,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, next_seq, needs_rekey) =
            unsafe { (ffi::handle_ref(mac)?, ffi::handle(next_seq)?, ffi::handle(needs_rekey)?) };
        (*next_seq, *needs_rekey) = (mac.0.next_seq(), c_int::from(mac.0.needs_rekey()));
        Ok(())
    })
}

/// As `fastmac_ssh_outbound_rekey`, for the receiving direction.
///
/// # Safety
/// As `fastmac_ssh_outbound_rekey`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_inbound_rekey(
    mac: *mut SshInboundHandle,
    name: *const c_char,
    key: *const u8,
    key_len: usize,
) -> fastmac_status {
    guard(|| {
        // SAFETY: the caller's guarantees.
        let (mac, new_mac) = unsafe { (ffi::handle(mac)?, keyed(name, key, key_len)?) };
        mac.0.rekey(new_mac);
        Ok(())
    })
}

/// Frees a handle, wiping its key material. NULL is a no-op.
///
/// # Safety
/// `mac` NULL or a live handle, not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn fastmac_ssh_inbound_free(mac: *mut SshInboundHandle) {
    // SAFETY: the caller's guarantee.
    guard_or((), || unsafe { ffi::free(mac) });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_the_rust_crates() {
        assert_eq!(FASTMAC_SSH_REKEY_AFTER_PACKETS, fastmac::ssh::REKEY_AFTER_PACKETS);
        assert_eq!(FASTMAC_SSH_INBOUND_PACKET_LIMIT, fastmac::ssh::INBOUND_PACKET_LIMIT);
    }
}
