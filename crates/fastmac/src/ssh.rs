//! MACs by their SSH names, computed exactly as OpenSSH's `mac.c` does.
//!
//! * UMAC (`umac-64@openssh.com`, `umac-128@openssh.com`): the packet
//!   sequence number is the nonce, as 8 big-endian bytes, and is *not*
//!   hashed (`mac_compute`: `POKE_U64(nonce, seqno)`, `umac_final(ctx, tag,
//!   nonce)`).
//! * HMAC (`hmac-sha2-256`, `hmac-sha1`, ...): the tag of
//!   `uint32 seq || packet` (RFC 4253 section 6.4), truncated for the `-96`
//!   forms.
//! * `-etm@openssh.com` forms compute the same function; only the input
//!   differs: the caller passes `uint32 packet_length || ciphertext`
//!   (encrypt-then-MAC, OpenSSH's PROTOCOL section 1.5) instead of the
//!   plaintext packet. [`SshMac::is_etm`] tells which.
//!
//! One [`SshMac`] per direction, built once when the keys are derived; it
//! tags every packet of that direction without any key setup. It takes the
//! sequence number from the caller (as OpenSSH, which counts packets
//! itself, drives it); [`OutboundMac`] and [`InboundMac`] own the number
//! instead, so that it never repeats under a key and the rekey point of
//! RFC 4344 section 3.1 is a typed error.
//!
//! ```
//! use fastmac::ssh::SshMac;
//!
//! let mut outbound = SshMac::new("umac-64-etm@openssh.com", &[7u8; 16])?;
//! let tag = outbound.compute(3, b"\x00\x00\x00\x10ciphertext......");
//! assert_eq!(tag.len(), 8);
//!
//! let mut inbound = SshMac::new("umac-64-etm@openssh.com", &[7u8; 16])?;
//! inbound.verify(3, b"\x00\x00\x00\x10ciphertext......", &tag)?; // constant time
//! assert!(inbound.verify(4, b"\x00\x00\x00\x10ciphertext......", &tag).is_err());
//! # Ok::<(), fastmac::Error>(())
//! ```

mod mac;
mod sequenced;

pub use mac::{ALGORITHMS, SshAlgorithm, SshMac, SshStream, SshTag};
pub use sequenced::{INBOUND_PACKET_LIMIT, InboundMac, OutboundMac, REKEY_AFTER_PACKETS};
