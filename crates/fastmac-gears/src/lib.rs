//! Adaptive gears: datagram authentication whose receivers choose how much
//! to verify (docs/gears.md section 6, after DARPA's ACSA, section 2).
//!
//! * One pass, every strength: the sender computes the 16-byte UMAC-128
//!   field once ([`fastmac::umac::NestedUmac`]); a receiver at depth `j`
//!   checks its first `4j` bytes with `j` UHASH iterations.
//! * Two types say how much is checked: a packet's [`Profile`] (what its
//!   tag block carries, on the wire) and the receiver's [`Check`] (what it
//!   verifies of it: the depth its policy chooses, capped by the profile,
//!   [`Profile::check_at`]). A [`Delivery`] names both.
//! * [`wire`]: the v1 datagram format and its typed-error parser.
//! * [`Receiver`]: replay pre-check (RFC 6479 window per epoch and
//!   sender), the check from the [`policy`] engine, CPU-budget shedding,
//!   constant-time verification, rekey with a grace period; each step of
//!   its pipeline a function of its own.
//! * [`control`]: sender-side gear lowering on an authenticated request
//!   from a unicast receiver.
//! * [`table`]: the gears with their tag lengths and bounds; their costs
//!   are [`CostModel`]s the application supplies (the `fastmac` CLI
//!   calibrates them), since this library never measures time.
//! * [`Error`]: this crate's errors; a MAC error passes through as
//!   [`Error::Mac`].
//!
//! **Group keys authenticate the group, not the source**: any holder of
//! the session secret can forge to the other receivers. Multicast source
//! authentication needs signatures or TESLA (docs/gears.md section 6.1). The receiver's
//! depth is never on the wire, so an attacker cannot tell how much a
//! receiver checks.
//!
//! ```
//! use std::time::Duration;
//! use fastmac_gears::{Check, Profile, Receiver, ReceiverConfig, Sender, SenderConfig,
//!     SessionSecret, Verdict, PolicyConfig};
//!
//! let secret = SessionSecret::new(&[42u8; 32])?;
//! let t = Duration::ZERO;
//! let mut sender = Sender::new(secret.clone(), SenderConfig::new(Profile::U128), t)?;
//! let policy = PolicyConfig::new(Check::U64, Check::U128, Vec::new());
//! let mut receiver = Receiver::new(secret, ReceiverConfig::new(policy, 1e9), t);
//! let datagram = sender.seal(t, b"hello")?;
//! let Verdict::Delivered(d) = receiver.receive(t, &datagram) else { panic!() };
//! assert_eq!(d.payload, b"hello");
//! assert!(matches!(receiver.receive(t, &datagram), Verdict::RejectedReplay(_)));
//! # Ok::<(), fastmac_gears::Error>(())
//! ```

mod check;
pub mod control;
mod cost;
mod error;
mod keys;
pub mod policy;
mod profile;
mod receiver;
mod rekey;
mod replay;
mod sample;
mod sender;
pub mod table;
pub mod wire;

// The T8 forgery-rate test: T8 exists only in this unit-test build, so its
// test lives here, with the UDP helpers of tests/gears_net, which name the
// crate as a dependent does.
#[cfg(test)]
extern crate self as fastmac_gears;
#[cfg(test)]
mod t8_forgery_rate;

pub use check::Check;
pub use control::{ControlReceiver, ControlSender};
pub use cost::CostModel;
pub use error::Error;
pub use keys::{EpochKeys, SessionSecret};
pub use policy::{Observation, PolicyConfig, PolicyState};
pub use profile::{Profile, SampleRate};
pub use receiver::{AuditConfig, Counters, Delivery, FormatReject, Receiver, ReceiverConfig, Verdict};
pub use rekey::RekeyLimits;
pub use replay::{DEFAULT_WINDOW, ReplayError, ReplayWindow};
pub use sender::{SEQ_HARD_STOP, SEQ_HARD_STOP_RFC_PREFIX, Sender, SenderConfig};
pub use wire::{NonceMode, WireError};

/// Bytes of the HMAC-SHA-256-128 tag of profile U128+H128.
pub const HMAC_TAG_LEN: usize = 16;
