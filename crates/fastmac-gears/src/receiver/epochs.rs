//! The epochs a receiver knows (docs/gears.md section 6.8): the current
//! one, the previous one during its grace period, and the next one, whose
//! keys are derived when a packet of it first arrives and which is adopted
//! once a packet of it verifies (at full depth).

use std::collections::HashMap;
use std::time::Duration;

use fastmac::umac::NestedPads;

use crate::keys::{EpochKeys, SessionSecret};
use crate::rekey::RekeyLimits;
use crate::replay::ReplayWindow;

/// Which of the known epochs a packet belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Slot {
    Current,
    Previous,
    Next,
}

/// The state of one epoch at the receiver.
pub(super) struct EpochSlot {
    pub(super) keys: EpochKeys,
    /// When the receiver first verified a packet of it.
    activated: Duration,
    /// When a newer epoch replaced it (its grace period starts).
    superseded: Option<Duration>,
    accepted: u64,
    /// Sum of 2^(bound) over failures (docs/gears.md section 6.8).
    forgery_sum: f64,
    retired: bool,
    pub(super) senders: HashMap<u32, SenderStream>,
}

/// What the receiver keeps of one sender in one epoch, created when its
/// first packet verifies.
pub(super) struct SenderStream {
    pub(super) window: ReplayWindow,
    /// The pads of the epoch's keys for this sender's coming nonces.
    pub(super) pads: NestedPads,
}

impl EpochSlot {
    pub(super) fn new(keys: EpochKeys, now: Duration) -> Self {
        EpochSlot {
            keys,
            activated: now,
            superseded: None,
            accepted: 0,
            forgery_sum: 0.0,
            retired: false,
            senders: HashMap::new(),
        }
    }

    /// Whether the epoch refuses packets at `now`: retired by its forgery
    /// budget, or past its usage limits. A next epoch's limits start when
    /// it is adopted.
    pub(super) fn refuses(&self, slot: Slot, limits: &RekeyLimits, now: Duration) -> bool {
        self.retired
            || (slot != Slot::Next && limits.receiver_refuses(self.accepted, now.saturating_sub(self.activated)))
    }

    /// Adds a failed verification whose forgery bound is `2^bound_log2` to
    /// the epoch's sum; true when this retires the epoch.
    pub(super) fn charge_forgery(&mut self, bound_log2: f64, forgery_budget: f64) -> bool {
        self.forgery_sum += bound_log2.exp2();
        let retires = self.forgery_sum >= forgery_budget && !self.retired;
        self.retired |= retires;
        retires
    }

    /// Records a verified packet: its sender's window moves (a new sender
    /// gets a window and keeps `new_pads`, the pads its packet was checked
    /// with).
    pub(super) fn accept(&mut self, sender_id: u32, seq: u64, window: u64, new_pads: Option<NestedPads>) {
        self.senders
            .entry(sender_id)
            .or_insert_with(|| SenderStream {
                window: ReplayWindow::new(window),
                pads: new_pads.expect("made for a sender without a stream"),
            })
            .window
            .accept(seq)
            .expect("pre-checked, and nothing ran in between");
        self.accepted += 1;
    }
}

/// The current, previous and next epochs.
pub(super) struct Epochs {
    current: EpochSlot,
    previous: Option<EpochSlot>,
    next: Option<EpochSlot>,
}

impl Epochs {
    pub(super) fn new(keys: EpochKeys, now: Duration) -> Self {
        Epochs { current: EpochSlot::new(keys, now), previous: None, next: None }
    }

    /// The current epoch.
    pub(super) fn current(&self) -> u16 {
        self.current.keys.epoch()
    }

    /// The slot of a packet of `epoch` at `now`: the current epoch, the
    /// previous one within `grace` of being superseded, or the next one
    /// (its keys derived from `secret` if it is new).
    pub(super) fn choose(
        &mut self,
        secret: &SessionSecret,
        epoch: u16,
        now: Duration,
        grace: Duration,
    ) -> Option<Slot> {
        if epoch == self.current() {
            return Some(Slot::Current);
        }
        if let Some(prev) = &self.previous
            && prev.keys.epoch() == epoch
            && prev.superseded.is_some_and(|t| now < t + grace)
        {
            return Some(Slot::Previous);
        }
        if self.current().checked_add(1) == Some(epoch) {
            self.next.get_or_insert_with(|| EpochSlot::new(EpochKeys::derive(secret, epoch), now));
            return Some(Slot::Next);
        }
        None
    }

    pub(super) fn get_mut(&mut self, slot: Slot) -> &mut EpochSlot {
        match slot {
            Slot::Current => &mut self.current,
            Slot::Previous => self.previous.as_mut().expect("chosen only when present"),
            Slot::Next => self.next.as_mut().expect("chosen only when present"),
        }
    }

    /// A packet of the next epoch verified: it becomes current, and the
    /// current one previous, its grace period starting `now`.
    pub(super) fn adopt_next(&mut self, now: Duration) {
        let next = self.next.take().expect("adopted only when present");
        let mut old = std::mem::replace(&mut self.current, next);
        old.superseded = Some(now);
        self.previous = Some(old);
    }

    /// Erases the previous epoch once its grace period is over.
    pub(super) fn expire_previous(&mut self, now: Duration, grace: Duration) {
        if self.previous.as_ref().is_some_and(|prev| prev.superseded.is_some_and(|t| now >= t + grace)) {
            self.previous = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::NonceMode;

    const GRACE: Duration = Duration::from_secs(2);

    fn secret() -> SessionSecret {
        SessionSecret::new(&[3u8; 32]).unwrap()
    }

    #[test]
    fn packets_find_the_current_previous_or_next_epoch() {
        let s = secret();
        let t = Duration::from_secs;
        let mut e = Epochs::new(EpochKeys::derive(&s, 7), t(0));
        assert_eq!(e.choose(&s, 7, t(0), GRACE), Some(Slot::Current));
        assert_eq!(e.choose(&s, 6, t(0), GRACE), None);
        assert_eq!(e.choose(&s, 9, t(0), GRACE), None);
        assert_eq!(e.choose(&s, 8, t(1), GRACE), Some(Slot::Next));
        assert_eq!(e.get_mut(Slot::Next).keys.epoch(), 8);
        e.adopt_next(t(10));
        assert_eq!(e.current(), 8);
        assert_eq!(e.choose(&s, 7, t(11), GRACE), Some(Slot::Previous));
        assert_eq!(e.choose(&s, 7, t(12), GRACE), None, "grace over");
        e.expire_previous(t(11), GRACE);
        assert!(e.previous.is_some());
        e.expire_previous(t(12), GRACE);
        assert!(e.previous.is_none());
        let mut last = Epochs::new(EpochKeys::derive(&s, u16::MAX), t(0));
        assert_eq!(last.choose(&s, 0, t(0), GRACE), None, "epochs never wrap");
    }

    #[test]
    fn the_forgery_budget_retires_once_and_limits_refuse() {
        let s = secret();
        let mut slot = EpochSlot::new(EpochKeys::derive(&s, 0), Duration::ZERO);
        let limits =
            RekeyLimits { forgery_budget: 2f64.powi(-20), time: Duration::from_secs(10), ..RekeyLimits::default() };
        for _ in 0..1023 {
            assert!(!slot.charge_forgery(-30.0, limits.forgery_budget));
        }
        assert!(slot.charge_forgery(-30.0, limits.forgery_budget));
        assert!(!slot.charge_forgery(-30.0, limits.forgery_budget), "retired once");
        assert!(slot.refuses(Slot::Current, &limits, Duration::ZERO));
        let fresh = EpochSlot::new(EpochKeys::derive(&s, 1), Duration::ZERO);
        let old = Duration::from_secs(15);
        assert!(fresh.refuses(Slot::Current, &limits, old));
        assert!(!fresh.refuses(Slot::Next, &limits, old), "a next epoch's clock starts when adopted");
        assert!(!fresh.refuses(Slot::Current, &limits, Duration::from_secs(14)));
    }

    #[test]
    fn accepting_creates_the_stream_and_moves_its_window() {
        let s = secret();
        let mut slot = EpochSlot::new(EpochKeys::derive(&s, 0), Duration::ZERO);
        let pads = slot.keys.pads(NonceMode::Group);
        slot.accept(4, 10, 64, Some(pads));
        slot.accept(4, 12, 64, None);
        let stream = &slot.senders[&4];
        assert_eq!((stream.window.right_edge(), stream.window.size(), slot.accepted), (12, 64, 2));
        assert!(stream.window.check(10).is_err());
    }
}
