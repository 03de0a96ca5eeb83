//! Nonce mode ([`Badger`]): every message has an 8-byte nonce that must
//! never repeat under the key, and the pad is the Rabbit keystream after IV
//! setup with that nonce (figure 4; docs/badger.md section 3.7).

use rabbit::cipher::{KeyIvInit, StreamCipher};
use rabbit::{Rabbit, RabbitKeyOnly};
use zeroize::{Zeroize, Zeroizing};

use super::keying::{badger_constructors, check_prefix};
use super::keys::Keys;
use super::sizes::{KEY_LEN, NONCE_LEN, trees_for};
use super::state::{self, Streaming, hash_once, write_tag};
use crate::error::Error;
use crate::tag::verify_tag;
use crate::umac::Backend;

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

badger_constructors!(
    Badger,
    "Draws keys for `levels` tree levels (`v`, 1..=58): messages up to `8 * 2^levels` bytes. Nonce-mode tags \
     do not depend on `v`."
);

impl<const TAG_LEN: usize> Badger<TAG_LEN> {
    const TREES: usize = trees_for(TAG_LEN);

    fn from_key_setup(key: &[u8; KEY_LEN], keys: Keys, _: RabbitKeyOnly) -> Self {
        Badger { keys, key: Zeroizing::new(*key), stream: Streaming::default() }
    }

    /// The backend whose tree code hashes this key's messages: the
    /// [`Backend::badger_trees`] of the default backend when the key was
    /// made ([`Backend::detect`]).
    pub fn backend(&self) -> Backend {
        self.keys.trees.backend()
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
