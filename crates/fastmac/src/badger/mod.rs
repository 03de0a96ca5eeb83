//! Badger (Boesgaard, Christensen, Zenner, ACNS 2005): a Wegman-Carter MAC
//! whose hash is a binary tree of ENH, finished by an MMH-style F function
//! mod 2^32 - 5 and a Rabbit pad, with 32 to 160-bit tags.
//!
//! The spec resolved from the paper is `docs/badger.md` (project design notes):
//! byte order, padding, key drawing, the 27-bit split and both pad modes
//! follow it. No reference test vectors are public; the tests check this
//! code against an independent level-by-level form (figure 3) and against
//! structural identities, and pin the result in `tests/vectors/badger.txt`.
//!
//! ```
//! use fastmac::badger::Badger64;
//!
//! let key = [7u8; 16];
//! let nonce = 1u64.to_le_bytes();
//! let mac = Badger64::new(&key);
//! let tag = mac.mac(&nonce, b"message")?;
//! mac.verify(&nonce, b"message", &tag)?;
//! // Verifier-selectable assurance: check only tree 1 (bytes 0..4).
//! mac.verify_prefix(&nonce, b"message", &tag, 1)?;
//! # Ok::<(), fastmac::Error>(())
//! ```
//!
//! **Two modes, one per key.** [`Badger`] is nonce mode: every message has an
//! 8-byte nonce that must never repeat under the key, and the pad is the
//! Rabbit keystream after IV setup with that nonce. Nonce 0 is rejected: its
//! pad would equal key material (docs/badger.md section 5). [`BadgerSender`] and
//! [`BadgerReceiver`] are sequential mode: no nonce, the pads continue the
//! key-setup keystream, so both sides must process the same messages in the
//! same order. Never use one key in both modes.
//!
//! **Assurance.** Each 32-bit tag chunk comes from its own tree and bounds
//! forgery by 2^-31 (short messages) to 2^-26.12 (the longest); `u` trees give
//! that to the power `u` ([`forgery_bound_log2`]). A verifier may check only
//! the first `w` chunks ([`Badger::verify_prefix`]), doing `w` trees of work.
//! The key layout depends on `u`: a 32-bit tag is not a prefix of a 64-bit
//! tag under the same key.

mod backend;
mod bound;
mod enh;
mod finalize;
mod keys;
mod sequential;
mod state;
mod tree;

use rabbit::cipher::{KeyInit, KeyIvInit, StreamCipher};
use rabbit::{Rabbit, RabbitKeyOnly};
use zeroize::{Zeroize, Zeroizing};

use crate::Error;
use crate::tag::verify_tag;
pub use bound::forgery_bound_log2;
use keys::Keys;
pub use sequential::{BadgerReceiver, BadgerSender};
use state::{Streaming, hash_once, write_tag};

/// Badger key length in bytes (a Rabbit key).
pub const KEY_LEN: usize = 16;
/// Nonce length in bytes (a Rabbit IV), in Rabbit's reference byte order.
pub const NONCE_LEN: usize = 8;
/// Most parallel trees (`u`): 5 trees, 160-bit tags.
pub const MAX_TREES: usize = 5;
/// Most tree levels (`v`), the default: covers messages up to 2^61 - 1 bytes.
pub const MAX_LEVELS: usize = 58;

/// The prime of the F function, 2^32 - 5.
const P: u32 = 0xFFFF_FFFB;

/// Badger in nonce mode with a `TAG_LEN`-byte tag (4, 8, 12, 16 or 20: one
/// tree per 4 bytes). Use the aliases [`Badger32`] to [`Badger160`].
///
/// Holds the hash keys (about 2.5 KiB, drawn once), the Rabbit key for the
/// per-message pads, and a streaming state.
#[derive(Clone)]
pub struct Badger<const TAG_LEN: usize> {
    keys: Keys,
    key: Zeroizing<[u8; KEY_LEN]>,
    stream: Streaming,
}

/// Badger-32: 4-byte tags, forgery bound 2^-31 to 2^-26.1 per attempt.
pub type Badger32 = Badger<4>;
/// Badger-64: 8-byte tags (the paper's measured configuration), 2^-62 to 2^-52.2.
pub type Badger64 = Badger<8>;
/// Badger-96: 12-byte tags, 2^-93 to 2^-78.4.
pub type Badger96 = Badger<12>;
/// Badger-128: 16-byte tags, 2^-124 to 2^-104.5.
pub type Badger128 = Badger<16>;
/// Badger-160: 20-byte tags, 2^-155 to 2^-130.6 (the paper's 128-bit-security setting).
pub type Badger160 = Badger<20>;

/// `u` for a tag length; evaluating it rejects other lengths at compile time.
const fn trees_for(tag_len: usize) -> usize {
    assert!(tag_len.is_multiple_of(4) && tag_len >= 4 && tag_len <= 4 * MAX_TREES);
    tag_len / 4
}

/// The key-only Rabbit stream and the hash keys drawn from it (figure 2).
/// The stream is left at `P0`, where sequential-mode pads start.
fn key_setup(key: &[u8; KEY_LEN], trees: usize, levels: usize) -> Result<(Keys, RabbitKeyOnly), Error> {
    if !(1..=MAX_LEVELS).contains(&levels) {
        return Err(Error::OutOfRange { what: "Badger tree levels", min: 1, max: MAX_LEVELS, got: levels });
    }
    let mut key_array = (*key).into();
    let mut stream = RabbitKeyOnly::new(&key_array);
    key_array.zeroize();
    let keys = Keys::setup(&mut stream, trees, levels);
    Ok((keys, stream))
}

fn key_from_slice(key: &[u8]) -> Result<&[u8; KEY_LEN], Error> {
    key.try_into().map_err(|_| Error::KeyLength { expected: KEY_LEN, got: key.len() })
}

/// Checks a verifier's tree count `w` (1..=u) and that `tag` is the full
/// tag or its first `4w` bytes.
fn check_prefix(tag: &[u8], trees: usize, w: usize) -> Result<(), Error> {
    if !(1..=trees).contains(&w) {
        return Err(Error::OutOfRange { what: "trees to verify", min: 1, max: trees, got: w });
    }
    if tag.len() != 4 * trees && tag.len() != 4 * w {
        return Err(Error::TagLength { expected: 4 * trees, got: tag.len() });
    }
    Ok(())
}

impl<const TAG_LEN: usize> Badger<TAG_LEN> {
    const TREES: usize = trees_for(TAG_LEN);

    /// Draws the hash keys for the default (and largest) `v` = 58 levels:
    /// messages up to 2^61 - 1 bytes.
    pub fn new(key: &[u8; KEY_LEN]) -> Self {
        Self::with_levels(key, MAX_LEVELS).expect("58 levels are valid")
    }

    /// Like [`Badger::new`], for a key of unchecked length.
    pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
        Ok(Self::new(key_from_slice(key)?))
    }

    /// Draws keys for `levels` tree levels (`v`, 1..=58): messages up to
    /// `8 * 2^levels` bytes. Nonce-mode tags do not depend on `v`.
    pub fn with_levels(key: &[u8; KEY_LEN], levels: usize) -> Result<Self, Error> {
        let (keys, _) = key_setup(key, Self::TREES, levels)?;
        Ok(Badger { keys, key: Zeroizing::new(*key), stream: Streaming::default() })
    }

    /// Longest message this object accepts, in bytes.
    pub fn max_message_len(&self) -> u64 {
        state::max_message_len(self.keys.levels)
    }

    /// The tag of `msg` under `nonce` (8 bytes, not all zero), in one call.
    /// Leaves any streamed input untouched.
    pub fn mac(&self, nonce: &[u8], msg: &[u8]) -> Result<[u8; TAG_LEN], Error> {
        let pad = self.pad(nonce)?;
        let s = hash_once(&self.keys, Self::TREES, msg)?;
        let mut tag = [0u8; TAG_LEN];
        write_tag(&s, &pad[..], &mut tag);
        Ok(tag)
    }

    /// Checks `tag` against `msg` and `nonce` in constant time.
    pub fn verify(&self, nonce: &[u8], msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        self.verify_prefix(nonce, msg, tag, Self::TREES)
    }

    /// Verifier-selectable assurance: checks only tag chunks `1..=w` (trees
    /// 1 to `w`, computing only those), for a forgery bound of about
    /// `2^(w * bound per tree)`. `tag` is the full tag or its first `4w`
    /// bytes.
    pub fn verify_prefix(&self, nonce: &[u8], msg: &[u8], tag: &[u8], w: usize) -> Result<(), Error> {
        check_prefix(tag, Self::TREES, w)?;
        let pad = self.pad(nonce)?;
        let s = hash_once(&self.keys, w, msg)?;
        let mut expected = [0u8; TAG_LEN];
        write_tag(&s, &pad[..], &mut expected[..4 * w]);
        verify_tag(&mut expected[..4 * w], &tag[..4 * w])
    }

    /// `LE32(S^1) || ... || LE32(S^u)`: the tag before the pad. Not a MAC on
    /// its own; exposed for constructions that pad it themselves.
    pub fn hash(&self, msg: &[u8]) -> Result<[u8; TAG_LEN], Error> {
        let s = hash_once(&self.keys, Self::TREES, msg)?;
        let mut out = [0u8; TAG_LEN];
        write_tag(&s, &[0u8; TAG_LEN], &mut out);
        Ok(out)
    }

    /// Streams more of the message. A message beyond
    /// [`Badger::max_message_len`] is reported at finalization.
    pub fn update(&mut self, data: &[u8]) {
        self.stream.update(&self.keys, Self::TREES, data);
    }

    /// Tags the streamed message and resets for the next one. On a bad
    /// nonce the streamed input is kept.
    pub fn finalize_reset(&mut self, nonce: &[u8]) -> Result<[u8; TAG_LEN], Error> {
        let pad = self.pad(nonce)?;
        let s = self.stream.finalize_reset(&self.keys, Self::TREES)?;
        let mut tag = [0u8; TAG_LEN];
        write_tag(&s, &pad[..], &mut tag);
        Ok(tag)
    }

    /// Tags the streamed message, consuming the object.
    pub fn finalize(mut self, nonce: &[u8]) -> Result<[u8; TAG_LEN], Error> {
        self.finalize_reset(nonce)
    }

    /// Verifies the streamed message in constant time and resets.
    pub fn verify_reset(&mut self, nonce: &[u8], tag: &[u8]) -> Result<(), Error> {
        self.verify_prefix_reset(nonce, tag, Self::TREES)
    }

    /// [`Badger::verify_prefix`] for the streamed message; resets. (All `u`
    /// trees were streamed; only `w` are finalized and compared.)
    pub fn verify_prefix_reset(&mut self, nonce: &[u8], tag: &[u8], w: usize) -> Result<(), Error> {
        check_prefix(tag, Self::TREES, w)?;
        let pad = self.pad(nonce)?;
        let s = self.stream.finalize_reset(&self.keys, w)?;
        let mut expected = [0u8; TAG_LEN];
        write_tag(&s, &pad[..], &mut expected[..4 * w]);
        verify_tag(&mut expected[..4 * w], &tag[..4 * w])
    }

    /// Discards streamed input, keeping the key.
    pub fn reset(&mut self) {
        self.stream.reset();
    }

    /// The nonce-mode pad: Rabbit keystream after key setup and IV setup
    /// with `nonce` (figure 4; docs/badger.md section 3.7). The crate's state
    /// cannot be cloned, so the key setup is repeated for every message.
    fn pad(&self, nonce: &[u8]) -> Result<Zeroizing<[u8; TAG_LEN]>, Error> {
        let nonce: &[u8; NONCE_LEN] =
            nonce.try_into().map_err(|_| Error::NonceLength { min: NONCE_LEN, max: NONCE_LEN, got: nonce.len() })?;
        if *nonce == [0; NONCE_LEN] {
            return Err(Error::ZeroNonce);
        }
        let mut key = (*self.key).into();
        let mut rabbit = Rabbit::new(&key, &(*nonce).into());
        key.zeroize();
        let mut pad = Zeroizing::new([0u8; TAG_LEN]);
        rabbit.write_keystream(&mut pad[..]);
        Ok(pad)
    }
}

impl<const TAG_LEN: usize> core::fmt::Debug for Badger<TAG_LEN> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Badger{} {{ .. }}", TAG_LEN * 8)
    }
}
