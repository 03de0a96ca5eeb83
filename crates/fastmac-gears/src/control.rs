//! Sender-side gear lowering (docs/gears.md section 6.4, ACSA's "sender gear switch"):
//! a unicast receiver that never verifies beyond depth `j` says so in an
//! authenticated control message, and the sender then computes only `j`
//! UHASH iterations and sends `4j`-byte tags (profiles U96, U64, U32). A
//! later message raises the gear again.
//!
//! Control messages travel on a channel of their own: ordinary v1
//! datagrams of profile U128 under keys derived from the session secret
//! with a separate label ([`SessionSecret::control_channel`]), so no data
//! packet is ever a valid control message. The data sender checks them at
//! full depth (6.6 step 3: control packets get `d = full`) with their own
//! replay window, and ignores a message older than the last one it
//! applied, so an attacker who holds back a "lower" cannot deliver it
//! after a later "raise".

use std::time::Duration;

use crate::Error;
use crate::keys::SessionSecret;
use crate::policy::PolicyConfig;
use crate::receiver::{Receiver, ReceiverConfig, Verdict};
use crate::sender::{Sender, SenderConfig};
use crate::{Check, Profile};

/// The only control message of v1: "I verify at most this deep".
const MAX_DEPTH: u8 = 0x01;

/// The control payload: `MAX_DEPTH || profile code of the deepest check`.
fn encode_max_depth(check: Check) -> Result<[u8; 2], Error> {
    let profile =
        Profile::of_prefix(check).ok_or(Error::Control("a receiver can ask for U32, U64, U96 or U128 tags only"))?;
    Ok([MAX_DEPTH, profile.code()])
}

fn decode_max_depth(payload: &[u8]) -> Result<Check, Error> {
    match payload {
        [MAX_DEPTH, code] => match Profile::from_code(*code) {
            Some(profile @ (Profile::U32 | Profile::U64 | Profile::U96 | Profile::U128)) => Ok(profile.full_check()),
            _ => Err(Error::Control("unknown depth in a control message")),
        },
        _ => Err(Error::Control("unknown control message")),
    }
}

/// The receiver's end: seals control messages for its peer's sender.
#[derive(Debug)]
pub struct ControlSender {
    sender: Sender,
}

impl ControlSender {
    /// A control channel under `secret` (the data session's secret).
    pub fn new(secret: &SessionSecret, now: Duration) -> Result<Self, Error> {
        Ok(ControlSender { sender: Sender::new(secret.control_channel(), SenderConfig::new(Profile::U128), now)? })
    }

    /// The datagram asking the peer to tag at most as deep as `check`
    /// (U32 to U128; U128 restores full tags).
    pub fn max_depth(&mut self, now: Duration, check: Check) -> Result<Vec<u8>, Error> {
        self.sender.seal(now, &encode_max_depth(check)?)
    }
}

/// The sender's end: verifies control messages and applies them to the
/// data [`Sender`].
#[derive(Debug)]
pub struct ControlReceiver {
    receiver: Receiver,
    /// (epoch, seq) of the last message applied.
    last_applied: Option<(u16, u64)>,
}

impl ControlReceiver {
    /// A control channel under `secret` (the data session's secret).
    pub fn new(secret: &SessionSecret, now: Duration) -> Self {
        // Full depth always, and no cost model, so nothing is ever shed:
        // control messages are rare and must never be checked weakly.
        let policy = PolicyConfig::new(Check::U128, Check::U128, Vec::new());
        ControlReceiver {
            receiver: Receiver::new(secret.control_channel(), ReceiverConfig::new(policy, 1e9), now),
            last_applied: None,
        }
    }

    /// Verifies `datagram` at full depth and applies it to `sender`:
    /// returns the sender's profile from now on. A forged, replayed,
    /// stale or malformed message is a typed error and changes nothing.
    pub fn apply(&mut self, sender: &mut Sender, now: Duration, datagram: &[u8]) -> Result<Profile, Error> {
        let (check, position) = match self.receiver.receive(now, datagram) {
            Verdict::Delivered(d) => (decode_max_depth(d.payload)?, (d.epoch, d.seq)),
            Verdict::RejectedReplay(_) => return Err(Error::Control("replayed control message")),
            Verdict::RejectedFormat(_) => return Err(Error::Control("malformed control datagram")),
            Verdict::RejectedAuth | Verdict::DroppedOverload => return Err(Error::Mac(fastmac::Error::InvalidTag)),
        };
        if self.last_applied.is_some_and(|last| position <= last) {
            return Err(Error::Control("control message older than the last one applied"));
        }
        let profile = sender.lower_to(check)?;
        self.last_applied = Some(position);
        Ok(profile)
    }
}
