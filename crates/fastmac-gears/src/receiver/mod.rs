//! The receiver pipeline of docs/gears.md section 6.6, for each datagram:
//!
//! 1. parse the fixed header (typed errors, [`crate::wire`]); pick the
//!    epoch ([`epochs`]): the current one, the previous one within its
//!    grace period, or the next one (keys derived on demand, adopted only
//!    once a packet of it verifies at full depth); refuse a retired epoch
//!    and a profile this receiver does not take;
//! 2. pre-check anti-replay in the window of `(epoch, sender_id)`, before
//!    any MAC work;
//! 3. choose the check: the policy engine's depth, capped by the profile;
//!    the full check for a packet that would move the window's right edge
//!    by more than `jump_limit` and for the first packet of a new epoch;
//!    optionally a secret audit also checks a PRF-chosen fraction of
//!    packets fully;
//! 4. charge its estimated cost to the CPU budget, or shed the packet;
//! 5. verify in constant time;
//! 6. on failure, count it against the epoch's forgery budget and escalate
//!    the policy;
//! 7. on success, update the window, 8. adopt a next epoch, and deliver
//!    with the check actually made;
//! 9. count the datagram in its one outcome.
//!
//! Each step is a function of its own ([`steps`], [`epochs`],
//! [`outcome`]), tested alone. Every datagram ends in exactly one counter,
//! so
//! `received = delivered + dropped_overload + rejected_auth +
//! rejected_replay + rejected_format` always holds.
//!
//! Time is passed in (`now`, any fixed origin): the CLI uses the wall
//! clock, tests a virtual one. The CPU budget is emulated: each
//! verification is charged the cost model's estimate, and the budget
//! refills at `budget_ns_per_s` (docs/gears.md section 6.9 allows scaling
//! the cost model to emulate a slow CPU).

use std::time::Duration;

use crate::keys::{EpochKeys, SessionSecret};
use crate::policy::{Observation, PolicyState, step};
use crate::wire::parse;

mod audit;
mod config;
mod epochs;
mod outcome;
mod steps;

use audit::Auditor;
pub use config::{AuditConfig, ReceiverConfig};
use epochs::{Epochs, Slot};
pub use outcome::{Counters, Delivery, FormatReject, Verdict};
use steps::{Budget, Verified};

/// A gears receiver.
pub struct Receiver {
    secret: SessionSecret,
    config: ReceiverConfig,
    epochs: Epochs,
    policy: PolicyState,
    auditor: Option<Auditor>,
    budget: Budget,
    last_tick: Option<Duration>,
    tick_packets: u64,
    tick_bytes: u64,
    counters: Counters,
}

impl Receiver {
    /// A receiver expecting `config.first_epoch`, starting at `now`.
    pub fn new(secret: SessionSecret, config: ReceiverConfig, now: Duration) -> Self {
        let keys = EpochKeys::derive(&secret, config.first_epoch);
        Receiver {
            epochs: Epochs::new(keys, now),
            policy: PolicyState::new(&config.policy),
            auditor: config.audit.as_ref().filter(|a| a.fraction > 0.0).map(Auditor::new),
            budget: Budget::new(config.budget_ns_per_s, config.tick),
            last_tick: None,
            tick_packets: 0,
            tick_bytes: 0,
            counters: Counters::default(),
            secret,
            config,
        }
    }

    /// The counters so far.
    pub fn counters(&self) -> &Counters {
        &self.counters
    }

    /// The policy engine's state (its `depth` is the current check).
    pub fn policy(&self) -> &PolicyState {
        &self.policy
    }

    /// The current epoch.
    pub fn epoch(&self) -> u16 {
        self.epochs.current()
    }

    /// Changes the CPU budget (takes effect at the next tick).
    pub fn set_budget(&mut self, budget_ns_per_s: f64) {
        self.config.budget_ns_per_s = budget_ns_per_s;
    }

    /// Runs the policy tick if one is due at `now`.
    pub fn maybe_tick(&mut self, now: Duration) {
        match self.last_tick {
            Some(t) if now.saturating_sub(t) < self.config.tick => {}
            _ => self.tick(now),
        }
    }

    /// One policy tick: feeds the engine, refills the budget, and erases
    /// the previous epoch once its grace period is over.
    pub fn tick(&mut self, now: Duration) {
        let (budget, tick) = (self.config.budget_ns_per_s, self.config.tick);
        let obs =
            Observation::Tick { now, packets: self.tick_packets, bytes: self.tick_bytes, budget_ns_per_s: budget };
        self.policy = step(&self.config.policy, &self.policy, &obs);
        let elapsed = self.last_tick.map_or(tick, |t| now.saturating_sub(t));
        self.budget.refill(budget, tick, elapsed);
        self.last_tick = Some(now);
        self.tick_packets = 0;
        self.tick_bytes = 0;
        self.epochs.expire_previous(now, self.config.limits.grace);
    }

    /// Processes one datagram received at `now`.
    pub fn receive<'a>(&mut self, now: Duration, datagram: &'a [u8]) -> Verdict<'a> {
        self.maybe_tick(now);
        self.tick_packets += 1;
        self.tick_bytes += datagram.len() as u64;
        let verdict = self.process(now, datagram);
        // 9. Every datagram ends in exactly one outcome counter.
        self.counters.record(&verdict);
        verdict
    }

    /// Steps 1 to 8 of the pipeline.
    fn process<'a>(&mut self, now: Duration, datagram: &'a [u8]) -> Verdict<'a> {
        // 1. Parse, pick the epoch, take the profile.
        let packet = match parse(datagram) {
            Ok(packet) => packet,
            Err(e) => return Verdict::RejectedFormat(FormatReject::Wire(e)),
        };
        let h = packet.header;
        let limits = self.config.limits;
        let Some(slot) = self.epochs.choose(&self.secret, h.epoch, now, limits.grace) else {
            return Verdict::RejectedFormat(FormatReject::UnknownEpoch(h.epoch));
        };
        if self.epochs.get_mut(slot).refuses(slot, &limits, now) {
            return Verdict::RejectedFormat(FormatReject::EpochRetired(h.epoch));
        }
        if let Err(why) = steps::accept_profile(&self.config, &h) {
            return Verdict::RejectedFormat(why);
        }

        // 2. Replay pre-check, before any MAC work.
        let epoch = self.epochs.get_mut(slot);
        let window = epoch.senders.get(&h.sender_id).map(|stream| &stream.window);
        let jump = match steps::replay_precheck(window, epoch.senders.len(), self.config.max_senders, h.seq) {
            Ok(jump) => jump,
            Err(refused) => return refused,
        };

        // 3. Choose the check, and whether a secret audit adds the full one.
        let choice =
            steps::choose_check(h.profile, self.policy.depth, jump, self.config.jump_limit, slot == Slot::Next);
        self.counters.forced_full += u64::from(choice.forced);
        let auditor = self.auditor.as_ref();
        let audit = steps::audit_check(h.profile, choice.check, || {
            auditor.is_some_and(|a| a.selects(h.epoch, h.sender_id, h.seq))
        });

        // 4. Charge the CPU budget, or shed.
        let cost = steps::cost_ns(&self.config, h.profile, audit.unwrap_or(choice.check), datagram.len());
        if !self.budget.charge(cost) {
            return Verdict::DroppedOverload;
        }

        // 5. Verify. A first packet from this sender gets a fresh pad
        // cache, kept if the packet verifies.
        let nonce = h.nonce(self.config.nonce_mode);
        let epoch = self.epochs.get_mut(slot);
        let mut new_pads = None;
        let pads = match epoch.senders.get_mut(&h.sender_id) {
            Some(stream) => &mut stream.pads,
            None => new_pads.insert(epoch.keys.pads(self.config.nonce_mode)),
        };
        let check = match steps::verify(&epoch.keys, pads, nonce.as_bytes(), &packet, choice.check, audit) {
            Verified::Passed { check, audited } => {
                self.counters.audited += u64::from(audited);
                check
            }
            Verified::AuditAlarm => {
                self.counters.audited += 1;
                self.counters.audit_alarms += 1;
                self.policy = step(&self.config.policy, &self.policy, &Observation::AuditAlarm { now });
                return Verdict::RejectedAuth;
            }
            // 6. Forgery accounting and escalation.
            Verified::Failed => {
                let bound = steps::failure_bound_log2(h.profile, choice.check, packet.authenticated.len());
                if epoch.charge_forgery(bound, limits.forgery_budget) {
                    self.counters.epochs_retired += 1;
                }
                self.policy = step(&self.config.policy, &self.policy, &Observation::Failure { now });
                return Verdict::RejectedAuth;
            }
        };

        // 7. The window moves only now, after the MAC verified.
        epoch.accept(h.sender_id, h.seq, self.config.window, new_pads);
        // 8. A packet of the next epoch verified at full depth: adopt it.
        if slot == Slot::Next {
            self.epochs.adopt_next(now);
            self.counters.epoch_changes += 1;
        }
        Verdict::Delivered(Delivery {
            payload: packet.payload,
            epoch: h.epoch,
            sender_id: h.sender_id,
            seq: h.seq,
            profile: h.profile,
            check,
        })
    }
}

impl core::fmt::Debug for Receiver {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Receiver {{ epoch: {}, depth: {}, .. }}", self.epoch(), self.policy.depth)
    }
}
