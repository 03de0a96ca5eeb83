//! SSH MACs that own the packet sequence number, so that it can neither
//! repeat nor wrap under one key.
//!
//! RFC 4253 section 6.4: the sequence number is an implicit uint32, starts
//! at 0, increments with every packet, is never reset by a key exchange and
//! wraps after 2^32 packets. Under one key it must not come round again:
//! for UMAC it *is* the nonce, for the HMACs a wrapped number lets old
//! packets replay. RFC 4344 section 3.1 asks for a rekey at least every
//! 2^32 packets; OpenSSH rekeys after 2^31 (`MAX_PACKETS` in packet.c), and
//! so does [`OutboundMac`]: it refuses the 2^31 + 1st packet under a key
//! with [`Error::NonceExhausted`].

use super::mac::{SshMac, SshTag};
use crate::error::Error;
use crate::nonce::NonceCounter;

/// Packets an [`OutboundMac`] tags under one key before it refuses:
/// OpenSSH's `MAX_PACKETS`, its reading of RFC 4344 section 3.1.
pub const REKEY_AFTER_PACKETS: u64 = 1 << 31;

/// Packets an [`InboundMac`] verifies under one key before it refuses: one
/// more and the uint32 sequence number would repeat. A peer that follows
/// RFC 4344 section 3.1 rekeys before; [`InboundMac::needs_rekey`] says
/// when to start a rekey from this side (OpenSSH does after 2^31).
pub const INBOUND_PACKET_LIMIT: u64 = 1 << 32;

/// The sender side of one direction: tags each packet with the next
/// sequence number, and refuses after [`REKEY_AFTER_PACKETS`] under a key.
///
/// ```
/// use fastmac::ssh::{InboundMac, OutboundMac, SshMac};
///
/// let name = "umac-64-etm@openssh.com";
/// let mut outbound = OutboundMac::new(SshMac::new(name, &[7u8; 16])?, 3);
/// let mut inbound = InboundMac::new(SshMac::new(name, &[7u8; 16])?, 3);
///
/// let (seq, tag) = outbound.compute(b"\x00\x00\x00\x05first")?;
/// assert_eq!(seq, 3);
/// assert_eq!(inbound.verify(b"\x00\x00\x00\x05first", &tag)?, 3);
///
/// // After a key exchange the sequence numbers continue (RFC 4253 6.4).
/// outbound.rekey(SshMac::new(name, &[8u8; 16])?);
/// inbound.rekey(SshMac::new(name, &[8u8; 16])?);
/// let (seq, tag) = outbound.compute(b"\x00\x00\x00\x06second")?;
/// assert_eq!(inbound.verify(b"\x00\x00\x00\x06second", &tag)?, seq);
/// assert_eq!(seq, 4);
/// # Ok::<(), fastmac::Error>(())
/// ```
#[derive(Debug)]
pub struct OutboundMac {
    mac: SshMac,
    first_seq: u32,
    packets: NonceCounter,
}

impl OutboundMac {
    /// Tags packets under `mac` (freshly keyed), the first one numbered
    /// `next_seq`: the connection's count of packets sent so far (0 for the
    /// first keys; 0 again after each key exchange with OpenSSH's strict
    /// KEX, which resets it).
    pub fn new(mac: SshMac, next_seq: u32) -> Self {
        OutboundMac { mac, first_seq: next_seq, packets: NonceCounter::new(REKEY_AFTER_PACKETS) }
    }

    /// The sequence number and tag of the next packet, or
    /// [`Error::NonceExhausted`] once [`REKEY_AFTER_PACKETS`] packets were
    /// tagged under this key (the sequence number then does not move).
    pub fn compute(&mut self, packet: &[u8]) -> Result<(u32, SshTag), Error> {
        let seq = seq_after(self.first_seq, self.packets.next()?);
        Ok((seq, self.mac.compute(seq, packet)))
    }

    /// The sequence number the next packet gets.
    pub fn next_seq(&self) -> u32 {
        seq_after(self.first_seq, self.packets.peek())
    }

    /// Packets left under this key.
    pub fn packets_left(&self) -> u64 {
        self.packets.remaining()
    }

    /// Takes the keys of a new key exchange: the sequence numbers continue,
    /// the packet count under the key starts again.
    pub fn rekey(&mut self, mac: SshMac) {
        *self = OutboundMac::new(mac, self.next_seq());
    }

    /// The keyed MAC (name, lengths).
    pub fn mac(&self) -> &SshMac {
        &self.mac
    }
}

/// The receiver side of one direction: verifies each packet under the next
/// sequence number. The number moves on only when a tag verifies (SSH ends
/// the connection on a MAC error, `SSH_DISCONNECT_MAC_ERROR` in RFC 4253
/// section 11.1; a caller that went on would fail every later packet); after [`INBOUND_PACKET_LIMIT`]
/// packets under one key it refuses with [`Error::NonceExhausted`].
#[derive(Debug)]
pub struct InboundMac {
    mac: SshMac,
    first_seq: u32,
    packets: NonceCounter,
}

impl InboundMac {
    /// Verifies packets under `mac`, the first one numbered `next_seq` (see
    /// [`OutboundMac::new`]).
    pub fn new(mac: SshMac, next_seq: u32) -> Self {
        InboundMac { mac, first_seq: next_seq, packets: NonceCounter::new(INBOUND_PACKET_LIMIT) }
    }

    /// Checks `tag` for the next packet in constant time; its sequence
    /// number on success.
    pub fn verify(&mut self, packet: &[u8], tag: &[u8]) -> Result<u32, Error> {
        if self.packets.remaining() == 0 {
            return Err(Error::NonceExhausted { limit: self.packets.limit() });
        }
        let seq = self.next_seq();
        self.mac.verify(seq, packet, tag)?;
        self.packets.next()?;
        Ok(seq)
    }

    /// The sequence number the next packet must carry.
    pub fn next_seq(&self) -> u32 {
        seq_after(self.first_seq, self.packets.peek())
    }

    /// Whether [`REKEY_AFTER_PACKETS`] packets arrived under this key: time
    /// to start a key exchange from this side, as OpenSSH does.
    pub fn needs_rekey(&self) -> bool {
        self.packets.peek() >= REKEY_AFTER_PACKETS
    }

    /// Takes the keys of a new key exchange; see [`OutboundMac::rekey`].
    pub fn rekey(&mut self, mac: SshMac) {
        *self = InboundMac::new(mac, self.next_seq());
    }

    /// The keyed MAC (name, lengths).
    pub fn mac(&self) -> &SshMac {
        &self.mac
    }
}

/// The sequence number `packets` after `first`: uint32 arithmetic, which
/// wraps (RFC 4253 section 6.4). Under one key `packets` stays below 2^32,
/// so no number comes round twice.
fn seq_after(first: u32, packets: u64) -> u32 {
    first.wrapping_add(packets as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    const NAMES: [&str; 4] = ["umac-64@openssh.com", "umac-128-etm@openssh.com", "hmac-sha2-256", "hmac-sha1-96"];

    fn keyed(name: &str, byte: u8) -> SshMac {
        let len = crate::ssh::SshAlgorithm::from_name(name).unwrap().key_len;
        SshMac::new(name, &vec![byte; len]).unwrap()
    }

    /// Jumps a direction's packet count to `packets` (no real connection
    /// gets there before rekeying).
    fn at(packets: u64, limit: u64) -> NonceCounter {
        NonceCounter::starting_at(packets, limit).unwrap()
    }

    #[test]
    fn outbound_refuses_the_packet_after_2_pow_31_and_does_not_move() {
        for name in NAMES {
            let mut out = OutboundMac::new(keyed(name, 1), 10);
            out.packets = at(REKEY_AFTER_PACKETS - 1, REKEY_AFTER_PACKETS);
            let last_seq = 10u32.wrapping_add((REKEY_AFTER_PACKETS - 1) as u32);
            assert_eq!(out.next_seq(), last_seq);
            let (seq, tag) = out.compute(b"last packet").unwrap();
            assert_eq!((seq, &tag[..]), (last_seq, &keyed(name, 1).compute(last_seq, b"last packet")[..]), "{name}");
            for _ in 0..2 {
                assert_eq!(out.compute(b"one more").unwrap_err(), Error::NonceExhausted { limit: 1 << 31 }, "{name}");
                assert_eq!((out.next_seq(), out.packets_left()), (last_seq.wrapping_add(1), 0));
            }
            // A new key: the numbers continue, the count restarts.
            out.rekey(keyed(name, 2));
            let (seq, tag) = out.compute(b"after rekey").unwrap();
            assert_eq!((seq, &tag[..]), (last_seq.wrapping_add(1), &keyed(name, 2).compute(seq, b"after rekey")[..]));
            assert_eq!(out.packets_left(), REKEY_AFTER_PACKETS - 1);
        }
    }

    #[test]
    fn sequence_numbers_wrap_as_uint32_within_a_key() {
        let mut out = OutboundMac::new(keyed("umac-64@openssh.com", 1), u32::MAX - 1);
        let seqs: Vec<u32> = (0..4).map(|_| out.compute(b"p").unwrap().0).collect();
        assert_eq!(seqs, [u32::MAX - 1, u32::MAX, 0, 1]);
    }

    #[test]
    fn inbound_checks_packets_in_order() {
        for name in NAMES {
            let mut out = OutboundMac::new(keyed(name, 5), 7);
            let mut inb = InboundMac::new(keyed(name, 5), 7);
            let packets: Vec<(u32, SshTag)> = (0..4u8).map(|i| out.compute(&[i; 50]).unwrap()).collect();
            // Out of order, replayed or altered: refused, and the number stays.
            assert_eq!(inb.verify(&[1; 50], &packets[1].1), Err(Error::InvalidTag), "{name}");
            assert_eq!(inb.verify(&[0; 49], &packets[0].1), Err(Error::InvalidTag));
            assert_eq!(inb.next_seq(), 7);
            assert_eq!(inb.verify(&[0; 50], &packets[0].1), Ok(7));
            assert_eq!(inb.verify(&[0; 50], &packets[0].1), Err(Error::InvalidTag), "replay");
            for (i, (seq, tag)) in packets.iter().enumerate().skip(1) {
                assert_eq!(inb.verify(&[i as u8; 50], tag), Ok(*seq));
            }
            assert_eq!(inb.next_seq(), out.next_seq());
        }
    }

    #[test]
    fn inbound_refuses_after_2_pow_32_packets_and_asks_for_rekey_from_2_pow_31() {
        let name = "umac-128@openssh.com";
        let mut inb = InboundMac::new(keyed(name, 3), 0);
        inb.packets = at(REKEY_AFTER_PACKETS - 1, INBOUND_PACKET_LIMIT);
        assert!(!inb.needs_rekey());
        let seq = (REKEY_AFTER_PACKETS - 1) as u32;
        inb.verify(b"x", &keyed(name, 3).compute(seq, b"x")).unwrap();
        assert!(inb.needs_rekey());

        inb.packets = at(INBOUND_PACKET_LIMIT - 1, INBOUND_PACKET_LIMIT);
        let tag = keyed(name, 3).compute(u32::MAX, b"last");
        assert_eq!(inb.verify(b"last", &tag), Ok(u32::MAX));
        // The next number would be 0 again under the same key.
        let tag = keyed(name, 3).compute(0, b"wrapped");
        assert_eq!(inb.verify(b"wrapped", &tag), Err(Error::NonceExhausted { limit: 1 << 32 }));
        inb.rekey(keyed(name, 4));
        assert!(!inb.needs_rekey());
        assert_eq!(inb.verify(b"wrapped", &keyed(name, 4).compute(0, b"wrapped")), Ok(0));
    }
}
