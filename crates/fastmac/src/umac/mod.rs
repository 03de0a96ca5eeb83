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
// L3-HASH (5.4); UMAC itself (section 4) is mac.rs. Above the chunk
// engine (uhash.rs): the multi-core drivers, then the MAC and the types
// built on it.
mod any;
pub(crate) mod backend;
mod ceiling;
mod iters;
mod kdf;
mod l1;
mod l2;
mod l3;
mod mac;
mod nested;
mod nh;
mod parallel;
#[cfg(feature = "parallel")]
mod parallel_file;
mod pdf;
mod sequenced;
mod uhash;

pub use any::{AnySequencedUmac, AnyUmac, TAG_LENS, UmacTag};
pub use backend::Backend;
pub use kdf::KEY_LEN;
pub use mac::{TagLen, Umac, Umac32, Umac64, Umac96, Umac128, UmacTagLen};
pub use nested::{FIELD_LEN, NestedPads, NestedUmac};
pub use parallel::PARALLEL_MIN;
#[cfg(feature = "parallel")]
pub use parallel::calibrate_parallel;
pub use pdf::{MAX_NONCE_LEN, MIN_NONCE_LEN};
pub use sequenced::{SequencedUmac, counter_nonce};

/// For `fastmac bench` only (the NH ceiling of each tag length); not part
/// of the API, may change in any release.
#[doc(hidden)]
pub mod __bench {
    pub use super::ceiling::NhCeiling;
}
