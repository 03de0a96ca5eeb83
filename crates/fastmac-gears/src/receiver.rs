//! The receiver pipeline of docs/gears.md section 6.6, for each datagram:
//!
//! 1. parse the fixed header (typed errors, [`crate::wire`]); pick the
//!    epoch: the current one, the previous one within its grace period, or
//!    the next one (keys derived on demand, adopted only once a packet of
//!    it verifies at full depth);
//! 2. pre-check anti-replay in the window of `(epoch, sender_id)`, before
//!    any MAC work;
//! 3. choose the level: the policy engine's depth, capped by the profile;
//!    full depth for a packet that would move the window's right edge by
//!    more than `jump_limit` (else one lucky weak forgery could wedge the
//!    window) and for the first packet of a new epoch; optionally a secret
//!    audit also checks a PRF-chosen fraction of packets at full depth;
//! 4. charge its estimated cost to the CPU budget, or shed the packet;
//! 5. verify in constant time; on success update the window and deliver
//!    with the level actually checked; on failure count it against the
//!    epoch's forgery budget and escalate the policy.
//!
//! Every datagram ends in exactly one counter, so
//! `received = delivered + dropped_overload + rejected_auth +
//! rejected_replay + rejected_format` always holds.
//!
//! Time is passed in (`now`, any fixed origin): the CLI uses the wall
//! clock, tests a virtual one. The CPU budget is emulated: each verification
//! is charged the cost model's estimate, and the budget refills at
//! `budget_ns_per_s` (docs/gears.md section 6.9 allows scaling the cost model to emulate
//! a slow CPU).

use std::collections::HashMap;
use std::time::Duration;

use aes::Aes128;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};

use crate::cost::CostModel;
use crate::keys::{EpochKeys, SessionSecret};
use crate::level::{Level, Profile, SampleRate};
use crate::policy::{Observation, PolicyConfig, PolicyState, step};
use crate::rekey::RekeyLimits;
use crate::replay::{DEFAULT_WINDOW, ReplayError, ReplayWindow};
use crate::wire::{HEADER_LEN, NonceMode, WireError, parse};
use fastmac::umac::NestedPads;

/// How a receiver works.
#[derive(Clone, Debug)]
pub struct ReceiverConfig {
    /// Floor, ceiling, hysteresis and the cost model of each level.
    pub policy: PolicyConfig,
    /// CPU budget B, ns per s (1e9 = one core).
    pub budget_ns_per_s: f64,
    /// Policy tick (default 50 ms).
    pub tick: Duration,
    /// Replay window per (epoch, sender), in packets.
    pub window: u64,
    /// The jump rule's J: a packet moving the right edge further is
    /// verified at full depth. Default: the window size.
    pub jump_limit: u64,
    /// Must match the senders'.
    pub nonce_mode: NonceMode,
    /// Usage limits and grace period.
    pub limits: RekeyLimits,
    /// Accept the experimental partial-MAC profiles (off by default).
    pub accept_sample: bool,
    /// Cost of checking each partial-MAC profile.
    pub sample_costs: Vec<(SampleRate, CostModel)>,
    /// Cost of checking 1 to 5 Badger trees.
    pub badger_costs: Vec<(usize, CostModel)>,
    /// Epoch expected first.
    pub first_epoch: u16,
    /// Most senders tracked per epoch (windows are created only after a
    /// packet verifies, so forgeries cannot fill this).
    pub max_senders: usize,
    /// Optional secret audits (docs/gears.md section 6.6 step 3).
    pub audit: Option<AuditConfig>,
}

/// Secret audits: a fraction of packets, chosen by a PRF under a key only
/// this receiver knows, is also checked at full depth, so a forger cannot
/// tell which packets a weak receiver checks fully.
#[derive(Clone)]
pub struct AuditConfig {
    /// Receiver-local AES key of the PRF (never shared, never on the wire).
    pub key: [u8; 16],
    /// Fraction q of packets audited, 0 to 1.
    pub fraction: f64,
}

impl core::fmt::Debug for AuditConfig {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "AuditConfig {{ fraction: {}, .. }}", self.fraction)
    }
}

/// The audit PRF: `AES_key(epoch || sender_id || seq)`, its first 32 bits
/// as a fraction of 2^32.
struct Auditor {
    cipher: Aes128,
    threshold: u64,
}

impl Auditor {
    fn new(config: &AuditConfig) -> Self {
        let threshold = (config.fraction.clamp(0.0, 1.0) * 4_294_967_296.0) as u64;
        Auditor { cipher: Aes128::new(&Array::from(config.key)), threshold }
    }

    fn selects(&self, epoch: u16, sender_id: u32, seq: u64) -> bool {
        let mut block = Array::from([0u8; 16]);
        block[..2].copy_from_slice(&epoch.to_be_bytes());
        block[2..6].copy_from_slice(&sender_id.to_be_bytes());
        block[6..14].copy_from_slice(&seq.to_be_bytes());
        self.cipher.encrypt_block(&mut block);
        u64::from(u32::from_be_bytes([block[0], block[1], block[2], block[3]])) < self.threshold
    }
}

impl ReceiverConfig {
    /// Defaults of docs/gears.md sections 6.6 to 6.8 around a policy.
    pub fn new(policy: PolicyConfig, budget_ns_per_s: f64) -> Self {
        ReceiverConfig {
            policy,
            budget_ns_per_s,
            tick: Duration::from_millis(50),
            window: DEFAULT_WINDOW,
            jump_limit: DEFAULT_WINDOW,
            nonce_mode: NonceMode::Group,
            limits: RekeyLimits::default(),
            accept_sample: false,
            sample_costs: Vec::new(),
            badger_costs: Vec::new(),
            first_epoch: 0,
            max_senders: 1024,
            audit: None,
        }
    }
}

/// What a packet was checked with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Assurance {
    /// A UMAC prefix level (and HMAC for U128+H128).
    Level(Level),
    /// A partial MAC: detection probability only.
    Sample(SampleRate),
    /// The first `trees` trees of a Badger-160 tag.
    Badger {
        /// Trees checked (1 to 5).
        trees: usize,
    },
}

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
    /// What was actually verified.
    pub assurance: Assurance,
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
    /// Deliveries per level name.
    pub delivered_by_level: Vec<(String, u64)>,
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

    fn count_level(&mut self, name: &str) {
        match self.delivered_by_level.iter_mut().find(|(n, _)| n == name) {
            Some((_, count)) => *count += 1,
            None => self.delivered_by_level.push((name.to_string(), 1)),
        }
    }
}

impl core::fmt::Display for Counters {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "received={} delivered={} dropped_overload={} rejected_auth={} rejected_replay={} rejected_format={} \
             forced_full={} epoch_changes={} epochs_retired={} audited={} audit_alarms={} by_level=[",
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
        for (i, (name, count)) in self.delivered_by_level.iter().enumerate() {
            write!(f, "{}{name}:{count}", if i > 0 { " " } else { "" })?;
        }
        f.write_str("]")
    }
}

/// The state of one epoch at the receiver.
struct EpochSlot {
    keys: EpochKeys,
    /// When the receiver first verified a packet of it.
    activated: Duration,
    /// When a newer epoch replaced it (its grace period starts).
    superseded: Option<Duration>,
    accepted: u64,
    /// Sum of 2^(bound) over failures (docs/gears.md section 6.8).
    forgery_sum: f64,
    retired: bool,
    senders: HashMap<u32, SenderStream>,
}

/// What the receiver keeps of one sender in one epoch, created when its
/// first packet verifies.
struct SenderStream {
    window: ReplayWindow,
    /// The pads of the epoch's keys for this sender's coming nonces.
    pads: NestedPads,
}

impl EpochSlot {
    fn new(keys: EpochKeys, now: Duration) -> Self {
        EpochSlot { keys, activated: now, superseded: None, accepted: 0, forgery_sum: 0.0, retired: false, senders: HashMap::new() }
    }
}

/// What a profile allows a receiver to check.
#[derive(Clone, Copy)]
enum Check {
    /// A field prefix up to `full`.
    Prefix { full: Level },
    /// The partial MAC.
    Sample(SampleRate),
    /// Badger trees, up to all five.
    Badger,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    Current,
    Previous,
    Next,
}

/// A gears receiver.
pub struct Receiver {
    secret: SessionSecret,
    config: ReceiverConfig,
    current: EpochSlot,
    previous: Option<EpochSlot>,
    /// Keys of the epoch after the current one, derived when a packet of
    /// it first arrives, adopted when one verifies.
    next: Option<EpochSlot>,
    policy: PolicyState,
    auditor: Option<Auditor>,
    credit_ns: f64,
    last_tick: Option<Duration>,
    tick_packets: u64,
    tick_bytes: u64,
    counters: Counters,
}

impl Receiver {
    /// A receiver expecting `config.first_epoch`, starting at `now`.
    pub fn new(secret: SessionSecret, config: ReceiverConfig, now: Duration) -> Self {
        let keys = EpochKeys::derive(&secret, config.first_epoch);
        let policy = PolicyState::new(&config.policy);
        Receiver {
            current: EpochSlot::new(keys, now),
            previous: None,
            next: None,
            policy,
            auditor: config.audit.as_ref().filter(|a| a.fraction > 0.0).map(Auditor::new),
            credit_ns: config.budget_ns_per_s * config.tick.as_secs_f64(),
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

    /// The policy engine's state (its `depth` is the current level).
    pub fn policy(&self) -> &PolicyState {
        &self.policy
    }

    /// The current epoch.
    pub fn epoch(&self) -> u16 {
        self.current.keys.epoch()
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
        let budget = self.config.budget_ns_per_s;
        let obs = Observation::Tick { now, packets: self.tick_packets, bytes: self.tick_bytes, budget_ns_per_s: budget };
        self.policy = step(&self.config.policy, &self.policy, &obs);
        let dt = self.last_tick.map_or(self.config.tick, |t| now.saturating_sub(t));
        // Credit does not pile up beyond two ticks: an idle receiver gets
        // no licence for a long burst.
        let cap = 2.0 * budget * self.config.tick.as_secs_f64();
        self.credit_ns = (self.credit_ns + budget * dt.as_secs_f64()).min(cap);
        self.last_tick = Some(now);
        self.tick_packets = 0;
        self.tick_bytes = 0;
        if let Some(prev) = &self.previous
            && prev.superseded.is_some_and(|t| now >= t + self.config.limits.grace)
        {
            self.previous = None;
        }
    }

    fn slot_mut(&mut self, slot: Slot) -> &mut EpochSlot {
        match slot {
            Slot::Current => &mut self.current,
            Slot::Previous => self.previous.as_mut().expect("chosen only when present"),
            Slot::Next => self.next.as_mut().expect("chosen only when present"),
        }
    }

    fn choose_slot(&mut self, epoch: u16, now: Duration) -> Option<Slot> {
        if epoch == self.epoch() {
            return Some(Slot::Current);
        }
        if let Some(prev) = &self.previous
            && prev.keys.epoch() == epoch
            && prev.superseded.is_some_and(|t| now < t + self.config.limits.grace)
        {
            return Some(Slot::Previous);
        }
        if self.epoch().checked_add(1) == Some(epoch) {
            if self.next.is_none() {
                self.next = Some(EpochSlot::new(EpochKeys::derive(&self.secret, epoch), now));
            }
            return Some(Slot::Next);
        }
        None
    }

    fn reject_format(&mut self, why: FormatReject) -> Verdict<'static> {
        self.counters.rejected_format += 1;
        Verdict::RejectedFormat(why)
    }

    /// Processes one datagram received at `now`.
    pub fn receive<'a>(&mut self, now: Duration, datagram: &'a [u8]) -> Verdict<'a> {
        self.maybe_tick(now);
        self.counters.received += 1;
        self.tick_packets += 1;
        self.tick_bytes += datagram.len() as u64;

        // 1. Parse and pick the epoch.
        let packet = match parse(datagram) {
            Ok(p) => p,
            Err(e) => return self.reject_format(FormatReject::Wire(e)),
        };
        let h = packet.header;
        let Some(slot) = self.choose_slot(h.epoch, now) else {
            return self.reject_format(FormatReject::UnknownEpoch(h.epoch));
        };
        let limits = self.config.limits;
        let epoch_state = self.slot_mut(slot);
        if epoch_state.retired || (slot != Slot::Next && limits.receiver_refuses(epoch_state.accepted, now.saturating_sub(epoch_state.activated))) {
            return self.reject_format(FormatReject::EpochRetired(h.epoch));
        }
        let check = match h.profile {
            Profile::Sample(_) if !self.config.accept_sample => {
                return self.reject_format(FormatReject::ProfileNotAccepted(h.profile));
            }
            Profile::Sample(rate) => Check::Sample(rate),
            Profile::Badger160 if h.badger_nonce().is_none() => {
                return self.reject_format(FormatReject::ProfileNotAccepted(h.profile));
            }
            Profile::Badger160 => Check::Badger,
            profile => match profile.max_level() {
                Some(max) if max >= self.config.policy.floor => Check::Prefix { full: max },
                _ => return self.reject_format(FormatReject::ProfileNotAccepted(profile)),
            },
        };

        // 2. Replay pre-check, before any MAC work.
        let (window_size, jump_limit, max_senders) = (self.config.window, self.config.jump_limit, self.config.max_senders);
        let epoch_state = self.slot_mut(slot);
        let jump = match epoch_state.senders.get(&h.sender_id) {
            Some(stream) => {
                if let Err(e) = stream.window.check(h.seq) {
                    self.counters.rejected_replay += 1;
                    return Verdict::RejectedReplay(e);
                }
                stream.window.jump(h.seq)
            }
            None if epoch_state.senders.len() >= max_senders => {
                return self.reject_format(FormatReject::TooManySenders);
            }
            None => h.seq,
        };

        // 3. Choose the level.
        let assurance = match check {
            Check::Sample(rate) => Assurance::Sample(rate),
            Check::Badger => {
                const ALL_TREES: usize = 5;
                let mut trees = self.policy.depth.badger_trees().min(ALL_TREES);
                if (jump > jump_limit || slot == Slot::Next) && trees < ALL_TREES {
                    trees = ALL_TREES;
                    self.counters.forced_full += 1;
                }
                Assurance::Badger { trees }
            }
            Check::Prefix { full } => {
                let mut level = self.policy.depth.min(full);
                if (jump > jump_limit || slot == Slot::Next) && level < full {
                    level = full;
                    self.counters.forced_full += 1;
                }
                Assurance::Level(level)
            }
        };
        // A secret audit also checks a weakly checked packet at full depth.
        let audit_level = match (check, assurance) {
            (Check::Prefix { full }, Assurance::Level(level))
                if level < full && self.auditor.as_ref().is_some_and(|a| a.selects(h.epoch, h.sender_id, h.seq)) =>
            {
                Some(full)
            }
            _ => None,
        };

        // 4. Charge the CPU budget, or shed.
        let charged = match audit_level {
            Some(full) => Assurance::Level(full),
            None => assurance,
        };
        let cost = match charged {
            Assurance::Level(level) => self.config.policy.costs.iter().find(|(l, _)| *l == level).map(|(_, c)| *c),
            Assurance::Sample(rate) => self.config.sample_costs.iter().find(|(r, _)| *r == rate).map(|(_, c)| *c),
            Assurance::Badger { trees } => self.config.badger_costs.iter().find(|(t, _)| *t == trees).map(|(_, c)| *c),
        }
        .unwrap_or(CostModel::ZERO)
        .ns(datagram.len());
        if cost > self.credit_ns {
            self.counters.dropped_overload += 1;
            return Verdict::DroppedOverload;
        }
        self.credit_ns -= cost;

        // 5. Verify.
        let (nonce_mode, nonce) = (self.config.nonce_mode, h.nonce(self.config.nonce_mode));
        let EpochSlot { keys, senders, .. } = self.slot_mut(slot);
        // A first packet from this sender gets a fresh pad cache, kept if
        // the packet verifies.
        let mut new_pads = None;
        let pads = match senders.get_mut(&h.sender_id) {
            Some(stream) => &mut stream.pads,
            None => new_pads.insert(keys.pads(nonce_mode)),
        };
        let verified = match assurance {
            Assurance::Level(level) => {
                keys.verify_level(pads, level, nonce.as_bytes(), packet.authenticated, packet.umac_tag, packet.hmac_tag)
            }
            Assurance::Badger { trees } => match h.badger_nonce() {
                Some(nonce) => keys.verify_badger(trees, &nonce, packet.authenticated, packet.umac_tag),
                None => Err(fastmac::Error::InvalidTag),
            },
            Assurance::Sample(rate) => keys.verify_sample(
                rate,
                nonce.as_bytes(),
                &datagram[..HEADER_LEN],
                packet.payload,
                packet.umac_tag,
            ),
        };
        // The audit: full depth on a packet whose prefix matched. A mismatch
        // there is proof of an attack.
        let mut assurance = assurance;
        let audited = matches!((&verified, audit_level), (Ok(()), Some(_)));
        if let (Ok(()), Some(full)) = (&verified, audit_level) {
            let audit = keys.verify_level(
                pads,
                full,
                nonce.as_bytes(),
                packet.authenticated,
                packet.umac_tag,
                packet.hmac_tag,
            );
            if audit.is_err() {
                self.counters.audited += 1;
                self.counters.audit_alarms += 1;
                self.counters.rejected_auth += 1;
                self.policy = step(&self.config.policy, &self.policy, &Observation::AuditAlarm { now });
                return Verdict::RejectedAuth;
            }
            assurance = Assurance::Level(full);
        }
        if verified.is_err() {
            let bound = match assurance {
                Assurance::Level(level) => f64::from(level.bound_log2()),
                // A partial MAC's tag is a UMAC-64-strength check.
                Assurance::Sample(_) => -60.0,
                Assurance::Badger { trees } => {
                    fastmac::badger::forgery_bound_log2(trees, packet.authenticated.len() as u64)
                }
            };
            let epoch_state = self.slot_mut(slot);
            epoch_state.forgery_sum += bound.exp2();
            if epoch_state.forgery_sum >= limits.forgery_budget && !epoch_state.retired {
                epoch_state.retired = true;
                self.counters.epochs_retired += 1;
            }
            self.counters.rejected_auth += 1;
            self.policy = step(&self.config.policy, &self.policy, &Observation::Failure { now });
            return Verdict::RejectedAuth;
        }
        let epoch_state = self.slot_mut(slot);
        epoch_state
            .senders
            .entry(h.sender_id)
            .or_insert_with(|| SenderStream {
                window: ReplayWindow::new(window_size),
                pads: new_pads.expect("made above for a sender without a stream"),
            })
            .window
            .accept(h.seq)
            .expect("pre-checked, and nothing ran in between");
        epoch_state.accepted += 1;
        if slot == Slot::Next {
            // A packet of the next epoch verified at full depth: adopt it.
            let mut old = std::mem::replace(&mut self.current, self.next.take().expect("present"));
            old.superseded = Some(now);
            self.previous = Some(old);
            self.counters.epoch_changes += 1;
        }
        self.counters.delivered += 1;
        self.counters.audited += u64::from(audited);
        match assurance {
            Assurance::Level(level) => self.counters.count_level(level.name()),
            Assurance::Sample(rate) => self.counters.count_level(Profile::Sample(rate).name()),
            Assurance::Badger { trees } => self.counters.count_level(&format!("B{}", 32 * trees)),
        }
        Verdict::Delivered(Delivery { payload: packet.payload, epoch: h.epoch, sender_id: h.sender_id, seq: h.seq, assurance })
    }
}

impl core::fmt::Debug for Receiver {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Receiver {{ epoch: {}, depth: {}, .. }}", self.epoch(), self.policy.depth)
    }
}
