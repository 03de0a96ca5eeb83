//! What becomes of a datagram: its [`Verdict`], and the [`Counters`] in
//! which every datagram ends exactly once.

use crate::replay::ReplayError;
use crate::wire::WireError;
use crate::{Check, Profile};

/// A delivered packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Delivery<'a> {
    /// The payload.
    pub payload: &'a [u8],
    /// Key epoch.
    pub epoch: u16,
    /// Sender.
    pub sender_id: u32,
    /// Sequence number.
    pub seq: u64,
    /// The packet's profile: what its tag block carries.
    pub profile: Profile,
    /// What was actually verified of it ([`Profile::check_at`]): a UMAC
    /// prefix (and HMAC), `check.badger_trees()` Badger trees, or the whole
    /// sample tag of a partial MAC (a detection probability only).
    pub check: Check,
}

/// Why a datagram was refused before MAC verification for format reasons.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormatReject {
    /// The parser's error.
    Wire(WireError),
    /// Neither the current, the previous (in grace) nor the next epoch.
    UnknownEpoch(u16),
    /// The epoch passed its usage limits or its forgery budget.
    EpochRetired(u16),
    /// A profile this receiver does not accept (partial MAC not enabled,
    /// or weaker than the floor).
    ProfileNotAccepted(Profile),
    /// A new sender beyond `max_senders`.
    TooManySenders,
}

/// The outcome of one datagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict<'a> {
    /// Authentic and fresh.
    Delivered(Delivery<'a>),
    /// Not verified: the CPU budget is spent (load shedding at the floor).
    DroppedOverload,
    /// The MAC did not verify.
    RejectedAuth,
    /// A duplicate or a packet left of the window.
    RejectedReplay(ReplayError),
    /// Malformed or not acceptable.
    RejectedFormat(FormatReject),
}

/// The counters printed at the end of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Counters {
    /// Datagrams received.
    pub received: u64,
    /// Delivered to the application.
    pub delivered: u64,
    /// Shed for lack of CPU budget.
    pub dropped_overload: u64,
    /// MAC failures.
    pub rejected_auth: u64,
    /// Replays and too-old packets.
    pub rejected_replay: u64,
    /// Malformed or unacceptable.
    pub rejected_format: u64,
    /// Deliveries per check, by name (U32..U128+H128, B32..B160 for Badger
    /// trees, the profile's name for a partial MAC).
    pub delivered_by_check: Vec<(String, u64)>,
    /// Packets forced to full depth by the jump rule or a new epoch.
    pub forced_full: u64,
    /// Epoch changes adopted.
    pub epoch_changes: u64,
    /// Epochs retired because their forgery budget ran out.
    pub epochs_retired: u64,
    /// Packets also checked at full depth by a secret audit.
    pub audited: u64,
    /// Audits whose prefix matched but whose full tag did not (attacks).
    pub audit_alarms: u64,
}

impl Counters {
    /// Whether every received datagram is in exactly one outcome.
    pub fn conserved(&self) -> bool {
        self.received
            == self.delivered + self.dropped_overload + self.rejected_auth + self.rejected_replay + self.rejected_format
    }

    /// The last step of the pipeline: counts a datagram in its one outcome.
    pub(super) fn record(&mut self, verdict: &Verdict<'_>) {
        self.received += 1;
        match verdict {
            Verdict::Delivered(d) => {
                self.delivered += 1;
                let name = delivered_as(d.profile, d.check);
                match self.delivered_by_check.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, count)) => *count += 1,
                    None => self.delivered_by_check.push((name, 1)),
                }
            }
            Verdict::DroppedOverload => self.dropped_overload += 1,
            Verdict::RejectedAuth => self.rejected_auth += 1,
            Verdict::RejectedReplay(_) => self.rejected_replay += 1,
            Verdict::RejectedFormat(_) => self.rejected_format += 1,
        }
    }
}

/// The name a delivery is counted under.
fn delivered_as(profile: Profile, check: Check) -> String {
    match profile {
        Profile::Badger160 => format!("B{}", 32 * check.badger_trees()),
        Profile::Sample(_) => profile.name().to_owned(),
        _ => check.name().to_owned(),
    }
}

impl core::fmt::Display for Counters {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "received={} delivered={} dropped_overload={} rejected_auth={} rejected_replay={} rejected_format={} \
             forced_full={} epoch_changes={} epochs_retired={} audited={} audit_alarms={} by_check=[",
            self.received,
            self.delivered,
            self.dropped_overload,
            self.rejected_auth,
            self.rejected_replay,
            self.rejected_format,
            self.forced_full,
            self.epoch_changes,
            self.epochs_retired,
            self.audited,
            self.audit_alarms
        )?;
        for (i, (name, count)) in self.delivered_by_check.iter().enumerate() {
            write!(f, "{}{name}:{count}", if i > 0 { " " } else { "" })?;
        }
        f.write_str("]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::SampleRate;

    fn delivered(profile: Profile, check: Check) -> Verdict<'static> {
        Verdict::Delivered(Delivery { payload: b"", epoch: 0, sender_id: 0, seq: 0, profile, check })
    }

    #[test]
    fn every_verdict_lands_in_exactly_one_outcome_and_deliveries_by_name() {
        let mut c = Counters::default();
        let verdicts = [
            delivered(Profile::U128, Check::U64),
            delivered(Profile::U128, Check::U64),
            delivered(Profile::Badger160, Check::U128H128),
            delivered(Profile::Sample(SampleRate::L64), Check::U64),
            Verdict::DroppedOverload,
            Verdict::RejectedAuth,
            Verdict::RejectedReplay(ReplayError::Duplicate),
            Verdict::RejectedFormat(FormatReject::TooManySenders),
        ];
        for (i, v) in verdicts.iter().enumerate() {
            c.record(v);
            assert_eq!(c.received, i as u64 + 1);
            assert!(c.conserved(), "{c}");
        }
        assert_eq!(
            (c.delivered, c.dropped_overload, c.rejected_auth, c.rejected_replay, c.rejected_format),
            (4, 1, 1, 1, 1)
        );
        let by: Vec<(&str, u64)> = c.delivered_by_check.iter().map(|(n, k)| (n.as_str(), *k)).collect();
        assert_eq!(by, [("U64", 2), ("B160", 1), ("s-64", 1)]);
        assert!(c.to_string().ends_with("by_check=[U64:2 B160:1 s-64:1]"), "{c}");
    }
}
