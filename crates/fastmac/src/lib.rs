#![doc = include_str!("../README.md")]
// In a build without their features, the README's links to feature-gated
// items lead to its list of features, which says what turns them on. (The
// comment ends the README's last paragraph: a link definition cannot.)
#![cfg_attr(
    not(all(feature = "hmac", feature = "std")),
    doc = "<!-- Links to items of features this build leaves out. -->\n"
)]
#![cfg_attr(not(feature = "hmac"), doc = "[`hmac`]: #features-and-no_std\n[`hmac::Hmac`]: #features-and-no_std")]
#![cfg_attr(not(feature = "std"), doc = "[`DynMac::update_from_file`]: #features-and-no_std")]
#![cfg_attr(not(feature = "alloc"), doc = "[`Algorithm::new_mac`]: #features-and-no_std")]
#![cfg_attr(not(feature = "std"), no_std)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod algorithm;
pub mod badger;
mod by_tag_len;
mod dyn_mac;
mod error;
#[cfg(feature = "std")]
mod file;
#[cfg(feature = "hmac")]
pub mod hmac;
pub mod nonce;
pub mod ssh;
mod tag;
mod traits;
pub mod umac;

pub use algorithm::{Algorithm, DynMac};
/// The RustCrypto key traits fastmac's keyed types implement (the
/// `crypto-common` version of the `aes` crate): see the crate docs.
pub use crypto_common::{self, KeyInit, KeySizeUser};
pub use error::{BackendError, Error, UnknownName};
pub use tag::InlineTag;
