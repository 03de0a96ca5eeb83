//! fastmac: fast, provably secure message authentication for network
//! protocols.
//!
//! * [`umac`]: UMAC (RFC 4418) with 32, 64, 96 and 128-bit tags,
//!   byte-identical to OpenSSH's `umac-64/128@openssh.com`.
//! * [`hmac`]: HMAC-MD5, -SHA1, -RIPEMD160, -SHA256 and -SHA512 (RustCrypto),
//!   the baselines, with the `-96` truncations.
//! * [`ssh`]: MACs by their SSH names, exactly as OpenSSH computes them.
//! * [`badger`]: Badger (Boesgaard, Christensen, Zenner 2005), the tree-hash
//!   MAC on Rabbit, with 32 to 160-bit tags, nonce and sequential modes and
//!   verifier-selectable assurance.
//! * [`gears`]: adaptive datagram authentication whose receivers choose
//!   how much to verify.
//! * [`nonce`]: a nonce counter that never repeats or wraps under a key,
//!   behind [`umac::SequencedUmac`], [`ssh::OutboundMac`] and the gears
//!   sender.
//! * [`Algorithm`]: every MAC by name, behind one object-safe trait, for
//!   tools and bindings that choose at run time.

pub mod algorithm;
pub mod badger;
mod error;
pub mod hmac;
pub mod nonce;
pub mod ssh;
pub mod gears;
pub mod umac;
mod tag;

pub use algorithm::{Algorithm, DynMac};
pub use error::Error;

// The README's examples are compiled and run as doc tests.
#[doc = include_str!("../../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
