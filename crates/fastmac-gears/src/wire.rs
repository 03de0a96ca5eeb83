//! Wire format v1 (docs/gears.md section 6.5), big-endian:
//!
//! ```text
//! offset size field
//!  0      1   version (= 1)
//!  1      1   profile (see Profile::code)
//!  2      2   key_epoch
//!  4      4   sender_id (0 for unicast)
//!  8      8   seq
//! 16      2   payload_len
//! 18      2   reserved (0)
//! 20      n   payload
//! 20+n    t   tag block, t fixed by the profile
//! ```
//!
//! The MAC input is `header || payload`, so the profile byte is
//! authenticated. The tag-block length is never taken from the packet: it
//! must equal the profile's (compare the truncated-tag bugs of EAX and GCM
//! libraries).

use core::fmt;

use crate::Profile;

/// The only version this parser accepts.
pub const VERSION: u8 = 1;
/// Fixed header length.
pub const HEADER_LEN: usize = 20;
/// Longest payload the 16-bit length field can state.
pub const MAX_PAYLOAD: usize = u16::MAX as usize;

/// How the UMAC nonce is formed from the header (docs/gears.md section 6.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum NonceMode {
    /// 12 bytes `seq(8) || sender_id(4)`: unique per sender in a group.
    #[default]
    Group,
    /// 8 bytes `BE64(4 * seq)`, unicast only (sender_id 0): every field
    /// prefix is then also a standard RFC UMAC-32/64/96 tag (docs/umac.md section 3.3).
    RfcPrefix,
}

/// The 12-byte [`NonceMode::Group`] nonce `seq(8) || sender_id(4)`.
pub fn group_nonce(seq: u64, sender_id: u32) -> [u8; 12] {
    let mut bytes = [0u8; 12];
    bytes[..8].copy_from_slice(&seq.to_be_bytes());
    bytes[8..].copy_from_slice(&sender_id.to_be_bytes());
    bytes
}

/// A UMAC nonce of 8 or 12 bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Nonce {
    bytes: [u8; 12],
    len: usize,
}

impl Nonce {
    /// The nonce bytes.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

/// Highest sender id a Badger-160 packet may carry (its nonce has 16 bits
/// for it).
pub const BADGER_MAX_SENDER: u32 = u16::MAX as u32;
/// Sequence numbers of Badger-160 packets stay below this (48 bits of the
/// nonce, and `seq + 1` keeps it non-zero).
pub const BADGER_SEQ_LIMIT: u64 = (1 << 48) - 1;

/// The fixed header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    /// Which tags the tag block carries.
    pub profile: Profile,
    /// Key epoch.
    pub epoch: u16,
    /// Sender in a group, 0 for unicast.
    pub sender_id: u32,
    /// Per-(epoch, sender) packet number, from 0.
    pub seq: u64,
    /// Payload bytes.
    pub payload_len: u16,
}

impl Header {
    /// The 20 header bytes.
    pub fn encode(&self) -> [u8; HEADER_LEN] {
        let mut out = [0u8; HEADER_LEN];
        out[0] = VERSION;
        out[1] = self.profile.code();
        out[2..4].copy_from_slice(&self.epoch.to_be_bytes());
        out[4..8].copy_from_slice(&self.sender_id.to_be_bytes());
        out[8..16].copy_from_slice(&self.seq.to_be_bytes());
        out[16..18].copy_from_slice(&self.payload_len.to_be_bytes());
        out
    }

    /// The UMAC nonce of this packet. In [`NonceMode::RfcPrefix`] the caller
    /// keeps `seq < 2^62` (the sender enforces it).
    pub fn nonce(&self, mode: NonceMode) -> Nonce {
        let mut bytes = [0u8; 12];
        match mode {
            NonceMode::Group => Nonce { bytes: group_nonce(self.seq, self.sender_id), len: 12 },
            NonceMode::RfcPrefix => {
                bytes[..8].copy_from_slice(&self.seq.wrapping_mul(4).to_be_bytes());
                Nonce { bytes, len: 8 }
            }
        }
    }
}

impl Header {
    /// The 8-byte Badger nonce `BE64(sender_id << 48 | (seq + 1))`: unique
    /// per (sender, seq) under one epoch key and never zero (docs/badger.md
    /// section 5). `None` when the sender id or seq is out of its range.
    pub fn badger_nonce(&self) -> Option<[u8; 8]> {
        if self.sender_id > BADGER_MAX_SENDER || self.seq >= BADGER_SEQ_LIMIT {
            return None;
        }
        Some(((u64::from(self.sender_id) << 48) | (self.seq + 1)).to_be_bytes())
    }
}

/// A parsed datagram, borrowing from it.
#[derive(Clone, Copy, Debug)]
pub struct Packet<'a> {
    /// The header fields.
    pub header: Header,
    /// `header || payload`: the MAC input.
    pub authenticated: &'a [u8],
    /// The payload.
    pub payload: &'a [u8],
    /// The UMAC field prefix (or the sample tag).
    pub umac_tag: &'a [u8],
    /// The HMAC tag, for profile U128+H128.
    pub hmac_tag: Option<&'a [u8]>,
}

/// Why a datagram is malformed. Carries lengths and codes only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WireError {
    /// Shorter than the fixed header.
    Short {
        /// Bytes received.
        got: usize,
    },
    /// A version other than 1.
    Version(u8),
    /// A profile byte this build does not know.
    UnknownProfile(u8),
    /// The reserved field is not zero.
    Reserved(u16),
    /// The length field states more payload than the datagram holds.
    LengthLies {
        /// Payload bytes the header states.
        declared: usize,
        /// Bytes after the header.
        available: usize,
    },
    /// The tag block does not have the profile's fixed length.
    TagLength {
        /// The profile's code.
        profile: u8,
        /// Its tag-block length.
        expected: usize,
        /// Bytes left after the payload.
        got: usize,
    },
}

impl fmt::Display for WireError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WireError::Short { got } => {
                write!(f, "datagram of {got} bytes is shorter than the {HEADER_LEN}-byte header")
            }
            WireError::Version(v) => write!(f, "unsupported version {v} (expected {VERSION})"),
            WireError::UnknownProfile(p) => write!(f, "unknown profile 0x{p:02x}"),
            WireError::Reserved(r) => write!(f, "reserved field is 0x{r:04x}, not 0"),
            WireError::LengthLies { declared, available } => {
                write!(f, "length field states {declared} payload bytes, only {available} follow the header")
            }
            WireError::TagLength { profile, expected, got } => {
                write!(f, "profile 0x{profile:02x} needs a {expected}-byte tag block, got {got} bytes")
            }
        }
    }
}

impl std::error::Error for WireError {}

/// Parses a datagram. Every malformed input gives a [`WireError`].
pub fn parse(datagram: &[u8]) -> Result<Packet<'_>, WireError> {
    if datagram.len() < HEADER_LEN {
        return Err(WireError::Short { got: datagram.len() });
    }
    let be16 = |i: usize| u16::from_be_bytes([datagram[i], datagram[i + 1]]);
    if datagram[0] != VERSION {
        return Err(WireError::Version(datagram[0]));
    }
    let profile = Profile::from_code(datagram[1]).ok_or(WireError::UnknownProfile(datagram[1]))?;
    let reserved = be16(18);
    if reserved != 0 {
        return Err(WireError::Reserved(reserved));
    }
    let payload_len = be16(16);
    let declared = usize::from(payload_len);
    let available = datagram.len() - HEADER_LEN;
    if declared > available {
        return Err(WireError::LengthLies { declared, available });
    }
    let tag_block = &datagram[HEADER_LEN + declared..];
    if tag_block.len() != profile.tag_len() {
        return Err(WireError::TagLength {
            profile: profile.code(),
            expected: profile.tag_len(),
            got: tag_block.len(),
        });
    }
    let (umac_tag, rest) = tag_block.split_at(profile.umac_len());
    let header = Header {
        profile,
        epoch: be16(2),
        sender_id: u32::from_be_bytes(datagram[4..8].try_into().expect("4 bytes")),
        seq: u64::from_be_bytes(datagram[8..16].try_into().expect("8 bytes")),
        payload_len,
    };
    Ok(Packet {
        header,
        authenticated: &datagram[..HEADER_LEN + declared],
        payload: &datagram[HEADER_LEN..HEADER_LEN + declared],
        umac_tag,
        hmac_tag: if rest.is_empty() { None } else { Some(rest) },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(profile: Profile, payload: &[u8]) -> Vec<u8> {
        let header = Header { profile, epoch: 3, sender_id: 9, seq: 77, payload_len: payload.len() as u16 };
        let mut out = header.encode().to_vec();
        out.extend_from_slice(payload);
        out.extend(std::iter::repeat_n(0xaa, profile.tag_len()));
        out
    }

    #[test]
    fn well_formed_packets_parse_for_every_profile() {
        for profile in Profile::all() {
            let bytes = packet(profile, b"hello");
            let p = parse(&bytes).unwrap();
            assert_eq!(p.header.profile, profile);
            assert_eq!((p.header.epoch, p.header.sender_id, p.header.seq), (3, 9, 77));
            assert_eq!(p.payload, b"hello");
            assert_eq!(p.umac_tag.len() + p.hmac_tag.map_or(0, <[u8]>::len), profile.tag_len());
            assert_eq!(p.authenticated.len(), HEADER_LEN + 5);
        }
    }

    #[test]
    fn every_malformation_has_its_error() {
        let good = packet(Profile::U64, b"hello");
        assert_eq!(parse(&good[..19]).unwrap_err(), WireError::Short { got: 19 });
        assert_eq!(parse(&[]).unwrap_err(), WireError::Short { got: 0 });
        let mut bad = good.clone();
        bad[0] = 2;
        assert_eq!(parse(&bad).unwrap_err(), WireError::Version(2));
        let mut bad = good.clone();
        bad[1] = 0x77;
        assert_eq!(parse(&bad).unwrap_err(), WireError::UnknownProfile(0x77));
        let mut bad = good.clone();
        bad[19] = 1;
        assert_eq!(parse(&bad).unwrap_err(), WireError::Reserved(1));
        let mut bad = good.clone();
        bad[16..18].copy_from_slice(&100u16.to_be_bytes());
        assert_eq!(parse(&bad).unwrap_err(), WireError::LengthLies { declared: 100, available: 13 });
        // Profile says U128 (16 bytes) but 8 follow: the packet alone never
        // decides the tag length.
        let mut bad = good.clone();
        bad[1] = Profile::U128.code();
        assert_eq!(parse(&bad).unwrap_err(), WireError::TagLength { profile: 0x10, expected: 16, got: 8 });
        let mut bad = good.clone();
        bad.push(0);
        assert_eq!(parse(&bad).unwrap_err(), WireError::TagLength { profile: 0x13, expected: 8, got: 9 });
        let mut bad = good.clone();
        bad[16..18].copy_from_slice(&0u16.to_be_bytes());
        assert!(matches!(parse(&bad).unwrap_err(), WireError::TagLength { .. }));
    }

    #[test]
    fn nonces_follow_the_mode() {
        let h = Header { profile: Profile::U128, epoch: 0, sender_id: 0x0102_0304, seq: 5, payload_len: 0 };
        assert_eq!(h.nonce(NonceMode::Group).as_bytes(), &[0, 0, 0, 0, 0, 0, 0, 5, 1, 2, 3, 4]);
        assert_eq!(h.nonce(NonceMode::RfcPrefix).as_bytes(), &[0, 0, 0, 0, 0, 0, 0, 20]);
        let b = Header { sender_id: 0x0102, ..h };
        assert_eq!(b.badger_nonce(), Some([1, 2, 0, 0, 0, 0, 0, 6]));
        assert_eq!(Header { seq: 0, sender_id: 0, ..h }.badger_nonce(), Some([0, 0, 0, 0, 0, 0, 0, 1]));
        assert_eq!(Header { sender_id: 0x1_0000, ..h }.badger_nonce(), None);
        assert_eq!(Header { seq: BADGER_SEQ_LIMIT, sender_id: 0, ..h }.badger_nonce(), None);
    }

    proptest::proptest! {
        #[test]
        fn parser_never_panics(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..80)) {
            let _ = parse(&bytes);
        }
    }
}
