//! Sequential mode (paper section 7, "On IV-setup"; docs/badger.md section 3.7):
//! no nonce and no IV setup; message number `s` takes pad bytes
//! `KS[P0 + 4u*s ..][..4u]` of the key-setup keystream. The sender and the
//! receiver each own their position in the stream, so a message cannot be
//! tagged or checked out of order by mistake.
//!
//! Neither type is `Clone`: a copy would reuse pads.

use rabbit::RabbitKeyOnly;
use rabbit::cipher::StreamCipher;
use zeroize::Zeroizing;

use super::keying::{badger_constructors, check_prefix};
use super::keys::Keys;
use super::sizes::{KEY_LEN, MAX_TREES, trees_for};
use super::state::{self, Streaming, hash_once, write_tag};
use crate::error::Error;
use crate::tag::verify_tag;
use crate::umac::Backend;

/// The keystream after key setup, handing out one pad per message.
struct Pads<const TAG_LEN: usize> {
    prg: RabbitKeyOnly,
    /// Number of the message the next pad belongs to.
    position: u64,
}

impl<const TAG_LEN: usize> Pads<TAG_LEN> {
    fn next(&mut self) -> Zeroizing<[u8; TAG_LEN]> {
        let mut pad = Zeroizing::new([0u8; TAG_LEN]);
        self.prg.write_keystream(&mut pad[..]);
        self.position += 1;
        pad
    }
}

/// The sending side of sequential-mode Badger with `TAG_LEN`-byte tags:
/// tags messages 0, 1, 2, ... in the order it is given them.
pub struct BadgerSender<const TAG_LEN: usize> {
    keys: Keys,
    pads: Pads<TAG_LEN>,
    stream: Streaming,
}

badger_constructors!(
    BadgerSender,
    "Keys a sender with `levels` tree levels (1..=58). In this mode the tags depend on `levels` (the pads start \
     after the level keys), so the receiver must use the same value."
);

impl<const TAG_LEN: usize> BadgerSender<TAG_LEN> {
    const TREES: usize = trees_for(TAG_LEN);

    fn from_key_setup(_: &[u8; KEY_LEN], keys: Keys, prg: RabbitKeyOnly) -> Self {
        BadgerSender { keys, pads: Pads { prg, position: 0 }, stream: Streaming::default() }
    }

    /// Number of the next message to be tagged (how many were tagged).
    pub fn position(&self) -> u64 {
        self.pads.position
    }

    /// Tags `msg` as the next message. Leaves streamed input untouched. A
    /// message that is too long is rejected without using a pad.
    pub fn tag(&mut self, msg: &[u8]) -> Result<[u8; TAG_LEN], Error> {
        let s = hash_once(&self.keys, Self::TREES, msg)?;
        let mut tag = [0u8; TAG_LEN];
        write_tag(&s, &self.pads.next()[..], &mut tag);
        Ok(tag)
    }

    /// Streams more of the next message.
    pub fn update(&mut self, data: &[u8]) {
        self.stream.update(&self.keys, Self::TREES, data);
    }

    /// Tags the streamed message as the next message and resets.
    pub fn finalize_reset(&mut self) -> Result<[u8; TAG_LEN], Error> {
        let s = self.stream.finalize_reset(&self.keys, Self::TREES)?;
        let mut tag = [0u8; TAG_LEN];
        write_tag(&s, &self.pads.next()[..], &mut tag);
        Ok(tag)
    }

    /// Discards streamed input; the position does not change.
    pub fn reset(&mut self) {
        self.stream.reset();
    }

    /// The backend whose tree code hashes this key's messages: the
    /// [`Backend::badger_trees`] of the default backend when the key was
    /// made ([`Backend::detect`]).
    pub fn backend(&self) -> Backend {
        self.keys.trees.backend()
    }

    /// Longest message accepted, in bytes.
    pub fn max_message_len(&self) -> u64 {
        state::max_message_len(self.keys.levels)
    }
}

/// The receiving side of sequential-mode Badger: checks messages 0, 1, 2,
/// ... in order. The position advances only when a tag verifies, so an
/// injected forgery does not desynchronise the receiver; a lost or corrupted
/// genuine message does (sequential mode needs a reliable, ordered channel).
pub struct BadgerReceiver<const TAG_LEN: usize> {
    keys: Keys,
    pads: Pads<TAG_LEN>,
    /// The pad of message `pads.position - 1`, the one expected next.
    current: Zeroizing<[u8; TAG_LEN]>,
    stream: Streaming,
}

badger_constructors!(BadgerReceiver, "Keys a receiver with `levels` tree levels (1..=58), as the sender.");

impl<const TAG_LEN: usize> BadgerReceiver<TAG_LEN> {
    const TREES: usize = trees_for(TAG_LEN);

    fn from_key_setup(_: &[u8; KEY_LEN], keys: Keys, prg: RabbitKeyOnly) -> Self {
        let mut pads = Pads { prg, position: 0 };
        let current = pads.next();
        BadgerReceiver { keys, pads, current, stream: Streaming::default() }
    }

    /// Number of the next message expected (how many verified).
    pub fn position(&self) -> u64 {
        self.pads.position - 1
    }

    /// Checks `tag` for `msg` as the next message, in constant time;
    /// advances on success only.
    pub fn verify(&mut self, msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        self.verify_prefix(msg, tag, Self::TREES)
    }

    /// Verifier-selectable assurance: checks only chunks `1..=w`, computing
    /// only trees 1 to `w`. On success the stream still advances by the
    /// full `4u` bytes, as the sender's does.
    pub fn verify_prefix(&mut self, msg: &[u8], tag: &[u8], w: usize) -> Result<(), Error> {
        check_prefix(tag, Self::TREES, w)?;
        let s = hash_once(&self.keys, w, msg)?;
        self.check(&s, tag, w)
    }

    /// Streams more of the next message.
    pub fn update(&mut self, data: &[u8]) {
        self.stream.update(&self.keys, Self::TREES, data);
    }

    /// Verifies the streamed message and resets; advances on success only.
    pub fn verify_reset(&mut self, tag: &[u8]) -> Result<(), Error> {
        self.verify_prefix_reset(tag, Self::TREES)
    }

    /// [`BadgerReceiver::verify_prefix`] for the streamed message; resets.
    pub fn verify_prefix_reset(&mut self, tag: &[u8], w: usize) -> Result<(), Error> {
        check_prefix(tag, Self::TREES, w)?;
        let s = self.stream.finalize_reset(&self.keys, w)?;
        self.check(&s, tag, w)
    }

    /// Discards streamed input; the position does not change.
    pub fn reset(&mut self) {
        self.stream.reset();
    }

    /// The backend whose tree code hashes this key's messages: the
    /// [`Backend::badger_trees`] of the default backend when the key was
    /// made ([`Backend::detect`]).
    pub fn backend(&self) -> Backend {
        self.keys.trees.backend()
    }

    /// Longest message accepted, in bytes.
    pub fn max_message_len(&self) -> u64 {
        state::max_message_len(self.keys.levels)
    }

    fn check(&mut self, s: &[u32; MAX_TREES], tag: &[u8], w: usize) -> Result<(), Error> {
        let mut expected = [0u8; TAG_LEN];
        write_tag(s, &self.current[..], &mut expected[..4 * w]);
        verify_tag(&mut expected[..4 * w], &tag[..4 * w])?;
        self.current = self.pads.next();
        Ok(())
    }
}

impl<const TAG_LEN: usize> core::fmt::Debug for BadgerSender<TAG_LEN> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "BadgerSender{} {{ position: {} }}", TAG_LEN * 8, self.position())
    }
}

impl<const TAG_LEN: usize> core::fmt::Debug for BadgerReceiver<TAG_LEN> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "BadgerReceiver{} {{ position: {} }}", TAG_LEN * 8, self.position())
    }
}
