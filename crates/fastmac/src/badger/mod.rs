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

mod any;
pub(crate) mod backend;
mod bound;
mod enh;
mod finalize;
mod keying;
mod keys;
mod nonce_mode;
mod sequential;
mod sizes;
mod state;
mod tree;

pub use any::{AnyBadger, AnyBadgerReceiver, AnyBadgerSender, BadgerTag, TAG_LENS};
pub use bound::forgery_bound_log2;
pub use nonce_mode::{Badger, Badger32, Badger64, Badger96, Badger128, Badger160};
pub use sequential::{BadgerReceiver, BadgerSender};
pub use sizes::{KEY_LEN, MAX_LEVELS, MAX_TREES, NONCE_LEN};
