#![doc = include_str!("../README.md")]
#![cfg_attr(not(feature = "std"), no_std)]

#[cfg(feature = "alloc")]
extern crate alloc;

pub mod algorithm;
pub mod badger;
mod dyn_mac;
mod error;
#[cfg(feature = "std")]
mod file;
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
