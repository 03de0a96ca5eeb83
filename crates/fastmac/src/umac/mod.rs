//! UMAC (RFC 4418) at its four tag lengths: 32, 64, 96 and 128 bits.
//!
//! `Tag = UHASH_K(M) xor PDF_K(Nonce)` (section 4). A [`Umac`] holds the
//! expanded key (about 1.2 KiB, derived once), the PDF's AES key and pad
//! cache, and a streaming state. Hashing a message allocates nothing.
//!
//! ```
//! use fastmac::umac::Umac64;
//!
//! let mut mac = Umac64::new(b"abcdefghijklmnop");
//! let tag = mac.mac(b"bcdefghi", b"abc")?;
//! assert_eq!(tag, [0xd4, 0xd7, 0xb9, 0xf6, 0xbd, 0x4f, 0xbf, 0xcf]);
//! mac.verify(b"bcdefghi", b"abc", &tag)?;
//!
//! // Streaming, in any chunking; the nonce comes at the end.
//! mac.update(b"a");
//! mac.update(b"bc");
//! assert_eq!(mac.finalize_reset(b"bcdefghi")?, tag);
//! # Ok::<(), fastmac::Error>(())
//! ```
//!
//! **Nonces.** A nonce must never repeat under one key: two tags under the
//! same key and nonce reveal the XOR of two hashes, the first step of known
//! key-recovery attacks. Counter nonces (as SSH's sequence numbers) are the
//! intended use and the fastest, thanks to the pad cache. [`SequencedUmac`]
//! owns such a counter and refuses to repeat or wrap it; with [`Umac::mac`]
//! and [`Umac::finalize_reset`] the nonce is the caller's responsibility.
//!
//! **Mixing tag lengths.** UMAC-32 and UMAC-64 slice one AES block into 4
//! and 2 pads, so the same key used at two tag lengths reuses pad bytes.
//! Use one tag length per key.

// RFC 4418 in its order: KDF (section 3.2), PDF (3.3), UHASH (5.1) with its
// layers L1-HASH (5.2.1) over NH (5.2.2), L2-HASH with POLY (5.3) and
// L3-HASH (5.4); UMAC itself (section 4) is this file.
mod any;
mod ceiling;
mod kdf;
mod l1;
mod l2;
mod l3;
mod nested;
mod nh;
#[cfg(feature = "parallel")]
mod parallel;
mod pdf;
mod sequenced;
mod uhash;

use aes::Aes128;
use aes::cipher::{Array, KeyInit};
use zeroize::Zeroize;

use crate::Error;
use crate::tag::verify_tag;
pub use any::{AnyUmac, TAG_LENS, UmacTag};
pub use nh::Backend;
pub use pdf::{MAX_NONCE_LEN, MIN_NONCE_LEN};
/// For `fastmac bench` only (the NH ceiling of each tag length); not part
/// of the API, may change in any release.
#[doc(hidden)]
pub mod __bench {
    pub use super::ceiling::NhCeiling;
}
pub use nested::{FIELD_LEN, NestedPads, NestedUmac};
use pdf::{Pdf, check_nonce};
pub use sequenced::{SequencedUmac, counter_nonce};
use uhash::{UhashKey, UhashState, output_bytes};

/// UMAC key length in bytes (an AES-128 key).
pub const KEY_LEN: usize = 16;

/// With the `parallel` feature, one-call inputs and streamed updates of at
/// least this many bytes hash their L1 chunks on all cores of the current
/// rayon pool; shorter ones, and every input without the feature, on one.
pub const PARALLEL_MIN: usize = 1 << 20;

/// UMAC with a `TAG_LEN`-byte tag: 4, 8, 12 or 16. Use the aliases
/// [`Umac32`], [`Umac64`], [`Umac96`] and [`Umac128`].
///
/// Methods take `&mut self` because the object keeps the PDF pad cache and
/// the streaming state; clone it (one copy of the expanded key) to tag from
/// several threads.
#[derive(Clone)]
pub struct Umac<const TAG_LEN: usize> {
    key: UhashKey,
    pdf: Pdf,
    stream: UhashState,
}

/// UMAC-32: 4-byte tags, forgery probability about 2^-30 per attempt.
pub type Umac32 = Umac<4>;
/// UMAC-64: 8-byte tags, about 2^-60 (OpenSSH's `umac-64@openssh.com`).
pub type Umac64 = Umac<8>;
/// UMAC-96: 12-byte tags, about 2^-90.
pub type Umac96 = Umac<12>;
/// UMAC-128: 16-byte tags, about 2^-120 (OpenSSH's `umac-128@openssh.com`).
pub type Umac128 = Umac<16>;

impl<const TAG_LEN: usize> Umac<TAG_LEN> {
    /// UHASH iterations: one per 32 bits of tag. Evaluating it rejects any
    /// other tag length at compile time.
    const ITERS: usize = {
        assert!(TAG_LEN == 4 || TAG_LEN == 8 || TAG_LEN == 12 || TAG_LEN == 16);
        TAG_LEN / 4
    };

    /// Expands a 16-byte key (all key derivation happens here, once), for
    /// the NH backend [`Backend::detect`] picks.
    pub fn new(key: &[u8; KEY_LEN]) -> Self {
        Self::expand(key, Backend::detect())
    }

    /// Like [`Umac::new`] with a chosen NH backend, for tests and
    /// benchmarks; an error if this CPU cannot run it.
    pub fn with_backend(key: &[u8; KEY_LEN], backend: Backend) -> Result<Self, Error> {
        if !backend.is_supported() {
            return Err(Error::Backend(crate::BackendError::Unsupported(backend)));
        }
        Ok(Self::expand(key, backend))
    }

    /// The NH backend this object hashes with.
    pub fn backend(&self) -> Backend {
        self.key.l1.backend()
    }

    fn expand(key: &[u8; KEY_LEN], backend: Backend) -> Self {
        let mut key_bytes = Array::from(*key);
        let cipher = Aes128::new(&key_bytes);
        key_bytes.zeroize();
        Umac {
            key: UhashKey::derive(&cipher, Self::ITERS, backend),
            pdf: Pdf::new(&cipher),
            stream: UhashState::default(),
        }
    }

    /// Like [`Umac::new`], for a key of unchecked length.
    pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
        let key: &[u8; KEY_LEN] = key.try_into().map_err(|_| Error::KeyLength { expected: KEY_LEN, got: key.len() })?;
        Ok(Self::new(key))
    }

    /// The tag of `msg` under `nonce` (1 to 16 bytes), in one call.
    ///
    /// The nonce is the caller's responsibility: it must never repeat under
    /// this key (kept for interop, e.g. OpenSSH drives its own sequence
    /// numbers); [`SequencedUmac`] owns a counter instead.
    ///
    /// Leaves any streamed input (see [`Umac::update`]) untouched.
    #[inline]
    pub fn mac(&mut self, nonce: &[u8], msg: &[u8]) -> Result<[u8; TAG_LEN], Error> {
        check_nonce(nonce)?;
        let hash = uhash::uhash(&self.key, Self::ITERS, msg);
        Ok(output_bytes(hash ^ self.pdf.pad(nonce, TAG_LEN)))
    }

    /// Checks `tag` against `msg` and `nonce` in constant time.
    pub fn verify(&mut self, nonce: &[u8], msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        check_tag_len(tag, TAG_LEN)?;
        let mut expected = self.mac(nonce, msg)?;
        verify_tag(&mut expected[..], tag)
    }

    /// UHASH alone (RFC 4418 section 5.1): the tag before the pad is XORed
    /// in. It is not a MAC; it is exposed for constructions such as the
    /// one in crates/fastmac-gears that pad it themselves.
    #[inline]
    pub fn uhash(&self, msg: &[u8]) -> [u8; TAG_LEN] {
        output_bytes(uhash::uhash(&self.key, Self::ITERS, msg))
    }

    /// Streams more of the message.
    pub fn update(&mut self, data: &[u8]) {
        self.stream.update(&self.key, Self::ITERS, data);
    }

    /// Tags the streamed message and resets for the next one, keeping the key
    /// (OpenSSH's `umac_final`). On a bad nonce the streamed input is kept.
    /// As with [`Umac::mac`], a nonce that never repeats under this key is
    /// the caller's responsibility.
    pub fn finalize_reset(&mut self, nonce: &[u8]) -> Result<[u8; TAG_LEN], Error> {
        check_nonce(nonce)?;
        let hash = self.stream.finalize(&self.key, Self::ITERS);
        Ok(output_bytes(hash ^ self.pdf.pad(nonce, TAG_LEN)))
    }

    /// Tags the streamed message, consuming the object.
    pub fn finalize(mut self, nonce: &[u8]) -> Result<[u8; TAG_LEN], Error> {
        self.finalize_reset(nonce)
    }

    /// Verifies the streamed message in constant time and resets for the next.
    pub fn verify_reset(&mut self, nonce: &[u8], tag: &[u8]) -> Result<(), Error> {
        check_tag_len(tag, TAG_LEN)?;
        let mut expected = self.finalize_reset(nonce)?;
        verify_tag(&mut expected[..], tag)
    }

    /// Discards streamed input, keeping the key.
    pub fn reset(&mut self) {
        self.stream = UhashState::default();
    }
}

impl<const TAG_LEN: usize> core::fmt::Debug for Umac<TAG_LEN> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Umac{} {{ .. }}", TAG_LEN * 8)
    }
}

fn check_tag_len(tag: &[u8], expected: usize) -> Result<(), Error> {
    if tag.len() == expected { Ok(()) } else { Err(Error::TagLength { expected, got: tag.len() }) }
}
