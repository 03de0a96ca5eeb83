//! [`SshMac`]: a MAC by its SSH name for one direction of a connection, as
//! OpenSSH's `mac.c` computes it (see the module docs in `ssh.rs`), the
//! table of SSH names, and the tag type.

use core::ops::Deref;

use zeroize::Zeroize;

use crate::dyn_mac::{DynMac, check_no_nonce};
use crate::error::{Error, UnknownName};
#[cfg(feature = "hmac")]
use crate::hmac::{HashFunction, Hmac};
use crate::tag::verify_tag;
use crate::umac::AnyUmac;

/// One MAC algorithm as SSH names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SshAlgorithm {
    /// The SSH name, e.g. `umac-64@openssh.com`.
    pub name: &'static str,
    /// Key length in bytes (OpenSSH's `key_len`; the KEX derives this many).
    pub key_len: usize,
    /// Tag length in bytes.
    pub tag_len: usize,
    /// Encrypt-then-MAC: the MAC covers `uint32 length || ciphertext`.
    pub etm: bool,
    engine: EngineKind,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum EngineKind {
    /// UMAC at the algorithm's tag length ([`AnyUmac`] makes it a type).
    Umac,
    #[cfg(feature = "hmac")]
    Hmac(HashFunction),
}

const fn umac(name: &'static str, tag_len: usize, etm: bool) -> SshAlgorithm {
    SshAlgorithm { name, key_len: 16, tag_len, etm, engine: EngineKind::Umac }
}

#[cfg(feature = "hmac")]
/// OpenSSH's HMACs use a key as long as the hash output (mac.c, `key_len`).
const fn hmac(name: &'static str, hash: HashFunction, tag_len: usize, etm: bool) -> SshAlgorithm {
    SshAlgorithm { name, key_len: hash.output_len(), tag_len, etm, engine: EngineKind::Hmac(hash) }
}

/// Every supported SSH MAC, in OpenSSH's `mac.c` order of kinds; the HMACs
/// with the feature `hmac` (a default feature) only.
pub const ALGORITHMS: &[SshAlgorithm] = &[
    #[cfg(feature = "hmac")]
    hmac("hmac-sha1", HashFunction::Sha1, 20, false),
    #[cfg(feature = "hmac")]
    hmac("hmac-sha1-96", HashFunction::Sha1, 12, false),
    #[cfg(feature = "hmac")]
    hmac("hmac-sha2-256", HashFunction::Sha256, 32, false),
    #[cfg(feature = "hmac")]
    hmac("hmac-sha2-512", HashFunction::Sha512, 64, false),
    #[cfg(feature = "hmac")]
    hmac("hmac-md5", HashFunction::Md5, 16, false),
    #[cfg(feature = "hmac")]
    hmac("hmac-md5-96", HashFunction::Md5, 12, false),
    #[cfg(feature = "hmac")]
    hmac("hmac-ripemd160", HashFunction::Ripemd160, 20, false),
    #[cfg(feature = "hmac")]
    hmac("hmac-ripemd160@openssh.com", HashFunction::Ripemd160, 20, false),
    umac("umac-64@openssh.com", 8, false),
    umac("umac-128@openssh.com", 16, false),
    #[cfg(feature = "hmac")]
    hmac("hmac-sha1-etm@openssh.com", HashFunction::Sha1, 20, true),
    #[cfg(feature = "hmac")]
    hmac("hmac-sha1-96-etm@openssh.com", HashFunction::Sha1, 12, true),
    #[cfg(feature = "hmac")]
    hmac("hmac-sha2-256-etm@openssh.com", HashFunction::Sha256, 32, true),
    #[cfg(feature = "hmac")]
    hmac("hmac-sha2-512-etm@openssh.com", HashFunction::Sha512, 64, true),
    #[cfg(feature = "hmac")]
    hmac("hmac-md5-etm@openssh.com", HashFunction::Md5, 16, true),
    #[cfg(feature = "hmac")]
    hmac("hmac-md5-96-etm@openssh.com", HashFunction::Md5, 12, true),
    #[cfg(feature = "hmac")]
    hmac("hmac-ripemd160-etm@openssh.com", HashFunction::Ripemd160, 20, true),
    umac("umac-64-etm@openssh.com", 8, true),
    umac("umac-128-etm@openssh.com", 16, true),
];

impl SshAlgorithm {
    /// Looks a MAC up by its exact SSH name (SSH names are case-sensitive,
    /// RFC 4251 section 6).
    pub fn from_name(name: &str) -> Result<&'static SshAlgorithm, Error> {
        ALGORITHMS.iter().find(|alg| alg.name == name).ok_or_else(|| Error::UnknownAlgorithm(UnknownName::new(name)))
    }
}

/// The longest tag of [`ALGORITHMS`]: HMAC-SHA512's 64 bytes, or UMAC-128's
/// 16 without the feature `hmac`.
const TAG_CAPACITY: usize = {
    let (mut longest, mut i) = (0, 0);
    while i < ALGORITHMS.len() {
        if ALGORITHMS[i].tag_len > longest {
            longest = ALGORITHMS[i].tag_len;
        }
        i += 1;
    }
    longest
};

/// A tag: at most 64 bytes (16 without the feature `hmac`), held inline (no
/// allocation); derefs to `&[u8]`.
#[derive(Clone, Copy)]
pub struct SshTag {
    bytes: [u8; TAG_CAPACITY],
    len: usize,
}

impl Deref for SshTag {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        &self.bytes[..self.len]
    }
}

impl AsRef<[u8]> for SshTag {
    fn as_ref(&self) -> &[u8] {
        self
    }
}

impl core::fmt::Debug for SshTag {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "SshTag({} bytes)", self.len)
    }
}

/// A keyed SSH MAC for one direction of one connection.
#[derive(Clone)]
pub struct SshMac {
    algorithm: &'static SshAlgorithm,
    engine: Engine,
}

/// Held inline, so that the SSH MACs need no allocator (`no_std`): the
/// variants differ by a few hundred bytes of expanded key, and the bindings
/// keep an `SshMac` behind their own heap handle.
#[derive(Clone)]
#[allow(clippy::large_enum_variant)]
enum Engine {
    Umac(AnyUmac),
    #[cfg(feature = "hmac")]
    Hmac(Hmac),
}

impl SshMac {
    /// Keys the MAC named `name` (see [`ALGORITHMS`]) with exactly
    /// `key_len` bytes. All key setup happens here, once.
    pub fn new(name: &str, key: &[u8]) -> Result<SshMac, Error> {
        let algorithm = SshAlgorithm::from_name(name)?;
        if key.len() != algorithm.key_len {
            return Err(Error::KeyLength { expected: algorithm.key_len, got: key.len() });
        }
        let engine = match algorithm.engine {
            EngineKind::Umac => Engine::Umac(AnyUmac::new_from_slice(key, algorithm.tag_len)?),
            #[cfg(feature = "hmac")]
            EngineKind::Hmac(hash) => Engine::Hmac(Hmac::new_truncated(hash, key, algorithm.tag_len)?),
        };
        Ok(SshMac { algorithm, engine })
    }

    /// The algorithm's SSH name.
    pub fn name(&self) -> &'static str {
        self.algorithm.name
    }

    /// Key length in bytes.
    pub fn key_len(&self) -> usize {
        self.algorithm.key_len
    }

    /// Tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.algorithm.tag_len
    }

    /// Whether this is an encrypt-then-MAC form (the caller MACs
    /// `uint32 length || ciphertext`).
    pub fn is_etm(&self) -> bool {
        self.algorithm.etm
    }

    /// The algorithm's description.
    pub fn algorithm(&self) -> &'static SshAlgorithm {
        self.algorithm
    }

    /// The tag of packet number `seq`.
    ///
    /// The sequence number is the caller's responsibility (kept for
    /// interop: OpenSSH counts its packets itself): it must never repeat
    /// under this key, so rekey within 2^32 packets (for UMAC it is the
    /// nonce). [`OutboundMac`](crate::ssh::OutboundMac) counts and stops at the rekey point.
    ///
    /// UMAC takes the packet in one call, which reads only the key lines
    /// the packet's length needs and none of the streaming state (a
    /// server's many keys: `docs/performance.md`, "Many live keys"); a
    /// packet streamed with [`SshMac::start`] and left unfinished is
    /// discarded by the next `start`, as before.
    pub fn compute(&mut self, seq: u32, packet: &[u8]) -> SshTag {
        let nonce = umac_nonce(seq);
        let mut tag = SshTag { bytes: [0; TAG_CAPACITY], len: self.algorithm.tag_len };
        let out = &mut tag.bytes[..tag.len];
        match &mut self.engine {
            Engine::Umac(m) => m.mac_into(&nonce, packet, out).expect(NONCE_OK),
            #[cfg(feature = "hmac")]
            Engine::Hmac(_) => {
                let mut stream = self.start(seq);
                stream.update(packet);
                return stream.finish();
            }
        }
        tag
    }

    /// Checks `tag` for packet number `seq` in constant time. Which number
    /// to expect is the caller's responsibility; [`InboundMac`](crate::ssh::InboundMac) counts.
    pub fn verify(&mut self, seq: u32, packet: &[u8], tag: &[u8]) -> Result<(), Error> {
        let expected = self.compute(seq, packet);
        check_tag(expected, tag)
    }

    /// Starts a packet to be streamed in pieces (for input that is not in
    /// one buffer); [`SshMac::compute`] is `start`, `update`, `finish`, and
    /// `seq` is the caller's responsibility as there.
    pub fn start(&mut self, seq: u32) -> SshStream<'_> {
        match &mut self.engine {
            Engine::Umac(m) => m.reset(),
            #[cfg(feature = "hmac")]
            Engine::Hmac(m) => {
                m.reset();
                m.update(&seq.to_be_bytes());
            }
        }
        SshStream { mac: self, seq }
    }
}

impl core::fmt::Debug for SshMac {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SshMac").field("name", &self.algorithm.name).finish_non_exhaustive()
    }
}

/// One packet being MACed; see [`SshMac::start`].
#[derive(Debug)]
pub struct SshStream<'a> {
    mac: &'a mut SshMac,
    seq: u32,
}

impl SshStream<'_> {
    /// Tag length in bytes.
    pub fn tag_len(&self) -> usize {
        self.mac.algorithm.tag_len
    }

    /// Streams more of the packet.
    pub fn update(&mut self, data: &[u8]) {
        match &mut self.mac.engine {
            Engine::Umac(m) => m.update(data),
            #[cfg(feature = "hmac")]
            Engine::Hmac(m) => m.update(data),
        }
    }

    /// The packet's tag; the [`SshMac`] is ready for the next packet.
    pub fn finish(mut self) -> SshTag {
        self.tag()
    }

    /// Checks `tag` for the streamed packet in constant time.
    pub fn verify(mut self, tag: &[u8]) -> Result<(), Error> {
        self.check(tag)
    }

    /// Finishes the tag, leaving the keyed state reset (no packet started).
    fn tag(&mut self) -> SshTag {
        let nonce = umac_nonce(self.seq);
        let mut tag = SshTag { bytes: [0; TAG_CAPACITY], len: self.mac.algorithm.tag_len };
        let out = &mut tag.bytes[..tag.len];
        match &mut self.mac.engine {
            Engine::Umac(m) => out.copy_from_slice(m.finalize_reset(&nonce).expect(NONCE_OK).as_slice()),
            #[cfg(feature = "hmac")]
            Engine::Hmac(m) => m.finalize_reset_into(out).expect("the buffer has the tag length"),
        }
        tag
    }

    fn check(&mut self, tag: &[u8]) -> Result<(), Error> {
        let expected = self.tag();
        check_tag(expected, tag)
    }

    /// Starts the same packet number again (after a tag, for [`DynMac`]).
    fn restart(&mut self) {
        let seq = self.seq;
        let _ = self.mac.start(seq);
    }
}

/// A packet stream behind the run-time interface of [`crate::Algorithm`]'s
/// MACs (used by the CLI). The sequence number was given to
/// [`SshMac::start`], so the nonce must be empty; after each tag the stream
/// starts the same packet number again.
impl DynMac for SshStream<'_> {
    fn tag_len(&self) -> usize {
        SshStream::tag_len(self)
    }

    fn update(&mut self, data: &[u8]) {
        SshStream::update(self, data);
    }

    fn finalize_reset_into(&mut self, nonce: &[u8], tag: &mut [u8]) -> Result<(), Error> {
        check_no_nonce(nonce)?;
        if tag.len() != self.tag_len() {
            return Err(Error::TagLength { expected: self.tag_len(), got: tag.len() });
        }
        tag.copy_from_slice(&self.tag());
        self.restart();
        Ok(())
    }

    fn verify_reset(&mut self, nonce: &[u8], tag: &[u8]) -> Result<(), Error> {
        check_no_nonce(nonce)?;
        let verdict = self.check(tag);
        self.restart();
        verdict
    }

    fn reset(&mut self) {
        self.restart();
    }
}

/// The UMAC nonce of packet number `seq`: the sequence number as 8
/// big-endian bytes (OpenSSH's mac.c).
fn umac_nonce(seq: u32) -> [u8; 8] {
    u64::from(seq).to_be_bytes()
}

/// Compares the packet's `expected` tag with the received `tag` in
/// constant time, after their lengths; the expected tag is wiped either way.
fn check_tag(mut expected: SshTag, tag: &[u8]) -> Result<(), Error> {
    let expected_len = expected.len;
    if tag.len() != expected_len {
        expected.bytes.zeroize();
        return Err(Error::TagLength { expected: expected_len, got: tag.len() });
    }
    verify_tag(&mut expected.bytes[..expected_len], tag)
}

const NONCE_OK: &str = "an 8-byte nonce is within UMAC's 1 to 16 bytes";
