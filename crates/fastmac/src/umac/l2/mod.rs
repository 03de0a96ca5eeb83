//! L2-HASH (RFC 4418 section 5.3): the L1-HASH outputs of a message longer
//! than one chunk (one 64-bit word per chunk and iteration), compressed to
//! 16 bytes by POLY, a polynomial evaluated at a key.
//!
//! As section 5.3.2 states POLY, for words of `wordbits` bits:
//!
//! ```text
//! p = prime(wordbits)            2^64 - 59, or 2^128 - 159
//! offset = 2^wordbits - p        59, or 159
//! marker = p - 1
//! y = 1
//! for each word m of M:
//!     if m >= maxwordrange:      2^64 - 2^32, or 2^128 - 2^96
//!         y = (k * y + marker) mod p
//!         y = (k * y + (m - offset)) mod p
//!     else:
//!         y = (k * y + m) mod p
//! ```
//!
//! and section 5.3.1 builds L2-HASH from it: POLY with 64-bit words
//! (POLY64) over the first 2^17 bytes of L1 output (2^14 words: 16 MiB of
//! message); past them, POLY with 128-bit words (POLY128) over
//! `uint2str(y64, 16) || the rest || 0x80 || zeros to a 16-byte multiple`.
//! `reference.rs` is that text as code, branches and all, and is the
//! oracle every fast function here is tested against.
//!
//! The fast forms, in reading order:
//!
//! * `arith.rs`: arithmetic mod p64 and p128, lazily reduced (an
//!   accumulator kept below 2^64 or 2^128 and congruent, made canonical
//!   once per message);
//! * `poly64.rs`: one POLY64 step as one multiply-add, the marked word
//!   included (`k^2 * y + (m - 59 - k)`), and the first, last and two-word
//!   steps;
//! * `poly128.rs`: the same for POLY128, and its word pairs in registers;
//! * `key.rs`: L2Key and the values derived from it once;
//! * `map.rs` (feature `parallel`): POLY64 and POLY128 over a run of words
//!   as the map it applies, so that a run hashed on another core is
//!   absorbed in one multiply-add;
//! * `state.rs`: [`L2Hash`], the L2-HASH of a message in progress, its
//!   variant the phase of section 5.3.1 it is in, which absorbs runs of
//!   words (given, hashed from chunks as they are taken, or as their maps)
//!   and cuts them where the phase changes.
//!
//! Arithmetic on key-dependent values is branch-free: every select is a
//! mask, every carry a number (`make test-ct` checks the compiled code).

mod arith;
mod key;
#[cfg(feature = "parallel")]
mod map;
mod poly128;
mod poly64;
#[cfg(test)]
mod reference;
mod state;

pub(crate) use key::L2Key;
#[cfg(feature = "parallel")]
pub(crate) use map::{Poly64Map, Poly128Map};
#[cfg(feature = "parallel")]
pub(crate) use map::{Poly64Run, Poly128Run, PolyRun};
#[cfg(feature = "parallel")]
pub(crate) use state::MappedOutputs;
pub(crate) use state::{L2Hash, L2Output, Outputs};
