//! The steps of the receiver pipeline (docs/gears.md section 6.6), each a
//! function of (configuration, state, observation) with no clock and no
//! I/O, so that each is tested alone. [`super::Receiver::receive`] runs
//! them in order.

use fastmac::badger::forgery_bound_log2;
use fastmac::umac::NestedPads;

use super::config::ReceiverConfig;
use super::outcome::{FormatReject, Verdict};
use crate::cost::CostModel;
use crate::keys::EpochKeys;
use crate::replay::ReplayWindow;
use crate::wire::{HEADER_LEN, Header, Packet};
use crate::{Check, Profile};

/// Step 1: whether this receiver takes the packet's profile at all: a
/// partial MAC only if enabled, Badger-160 only with a sender id and
/// sequence number its nonce can carry, a UMAC prefix only if its full
/// check reaches the policy's floor.
pub(super) fn accept_profile(config: &ReceiverConfig, header: &Header) -> Result<(), FormatReject> {
    let accepted = match header.profile {
        Profile::Sample(_) => config.accept_sample,
        Profile::Badger160 => header.badger_nonce().is_some(),
        profile => profile.full_check() >= config.policy.floor,
    };
    if accepted { Ok(()) } else { Err(FormatReject::ProfileNotAccepted(header.profile)) }
}

/// Step 2, the replay pre-check before any MAC work: how far `seq` would
/// move the right edge of its sender's `window` (for a sender without one
/// yet, `seq` itself), or why the packet is refused: a replay, or a new
/// sender beyond `max_senders` when `senders` are tracked already.
pub(super) fn replay_precheck(
    window: Option<&ReplayWindow>,
    senders: usize,
    max_senders: usize,
    seq: u64,
) -> Result<u64, Verdict<'static>> {
    match window {
        Some(window) => window.check(seq).map(|()| window.jump(seq)).map_err(Verdict::RejectedReplay),
        None if senders >= max_senders => Err(Verdict::RejectedFormat(FormatReject::TooManySenders)),
        None => Ok(seq),
    }
}

/// The check chosen for a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Choice {
    /// What is verified.
    pub(super) check: Check,
    /// Whether the jump rule or a new epoch raised it to the full check.
    pub(super) forced: bool,
}

/// Step 3: the policy's `depth` as the profile allows it; the full check
/// for a packet that would move the window's right edge by more than
/// `jump_limit` (else one lucky weak forgery could wedge the window) and
/// for a packet of a new epoch.
pub(super) fn choose_check(profile: Profile, depth: Check, jump: u64, jump_limit: u64, new_epoch: bool) -> Choice {
    let (check, full) = (profile.check_at(depth), profile.full_check());
    if (jump > jump_limit || new_epoch) && check < full {
        Choice { check: full, forced: true }
    } else {
        Choice { check, forced: false }
    }
}

/// Step 3, secret audits: the full check, when the packet's UMAC prefix is
/// checked less than fully and the receiver's audit PRF (`selects`, asked
/// only then) picks it.
pub(super) fn audit_check(profile: Profile, check: Check, selects: impl FnOnce() -> bool) -> Option<Check> {
    let full = profile.full_check();
    (profile.is_umac_prefix() && check < full && selects()).then_some(full)
}

/// Step 4: the estimated cost, in ns, of `check` on a `len`-byte datagram
/// of `profile`, from the configured cost models (none: free).
pub(super) fn cost_ns(config: &ReceiverConfig, profile: Profile, check: Check, len: usize) -> f64 {
    fn find<K: PartialEq>(models: &[(K, CostModel)], key: K) -> Option<CostModel> {
        models.iter().find(|(k, _)| *k == key).map(|(_, model)| *model)
    }
    let model = match profile {
        Profile::Sample(rate) => find(&config.sample_costs, rate),
        Profile::Badger160 => find(&config.badger_costs, check),
        _ => find(&config.policy.costs, check),
    };
    model.unwrap_or(CostModel::ZERO).ns(len)
}

/// Step 4: the emulated CPU budget. Each verification is charged its
/// estimated cost; the credit refills at the budget's rate and never piles
/// up beyond two ticks, so an idle receiver gets no licence for a long
/// burst.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Budget {
    credit_ns: f64,
}

impl Budget {
    /// One tick's worth of credit.
    pub(super) fn new(budget_ns_per_s: f64, tick: std::time::Duration) -> Self {
        Budget { credit_ns: budget_ns_per_s * tick.as_secs_f64() }
    }

    /// Refills for `elapsed` at `budget_ns_per_s`, up to two ticks' worth.
    pub(super) fn refill(&mut self, budget_ns_per_s: f64, tick: std::time::Duration, elapsed: std::time::Duration) {
        let cap = 2.0 * budget_ns_per_s * tick.as_secs_f64();
        self.credit_ns = (self.credit_ns + budget_ns_per_s * elapsed.as_secs_f64()).min(cap);
    }

    /// Takes `cost_ns` from the credit, or refuses (the packet is shed).
    pub(super) fn charge(&mut self, cost_ns: f64) -> bool {
        if cost_ns > self.credit_ns {
            return false;
        }
        self.credit_ns -= cost_ns;
        true
    }
}

/// What verification found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verified {
    /// The tag verified at `check` (the audit's full check if it ran).
    Passed { check: Check, audited: bool },
    /// The tag did not verify.
    Failed,
    /// The checked prefix matched but the audit's full tag did not: proof
    /// of an attack.
    AuditAlarm,
}

/// Step 5: verifies `packet` at `check` in constant time under `keys`,
/// with `pads` for the UMAC prefix; then, if it passed and `audit` asks
/// for one, at the audit's full check.
pub(super) fn verify(
    keys: &EpochKeys,
    pads: &mut NestedPads,
    nonce: &[u8],
    packet: &Packet<'_>,
    check: Check,
    audit: Option<Check>,
) -> Verified {
    let umac = |pads: &mut NestedPads, check| {
        keys.verify_umac(pads, check, nonce, packet.authenticated, packet.umac_tag, packet.hmac_tag)
    };
    let header = &packet.authenticated[..HEADER_LEN];
    let passed = match packet.header.profile {
        Profile::Badger160 => match packet.header.badger_nonce() {
            Some(nonce) => keys.verify_badger(check.badger_trees(), &nonce, packet.authenticated, packet.umac_tag),
            None => Err(fastmac::Error::InvalidTag),
        },
        Profile::Sample(rate) => keys.verify_sample(rate, nonce, header, packet.payload, packet.umac_tag),
        _ => umac(pads, check),
    }
    .is_ok();
    match (passed, audit) {
        (false, _) => Verified::Failed,
        (true, None) => Verified::Passed { check, audited: false },
        (true, Some(full)) if umac(pads, full).is_ok() => Verified::Passed { check: full, audited: true },
        (true, Some(_)) => Verified::AuditAlarm,
    }
}

/// Step 6: log2 of the forgery bound of a failed `check` on a packet of
/// `profile` whose MAC input is `authenticated_len` bytes, what the failure
/// costs the epoch's forgery budget (docs/gears.md section 6.8).
pub(super) fn failure_bound_log2(profile: Profile, check: Check, authenticated_len: usize) -> f64 {
    match profile {
        Profile::Badger160 => forgery_bound_log2(check.badger_trees(), authenticated_len as u64),
        // A partial MAC's tag is checked as U64: a UMAC-64-strength check.
        _ => f64::from(check.bound_log2()),
    }
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::time::Duration;

    use super::*;
    use crate::policy::PolicyConfig;
    use crate::replay::ReplayError;
    use crate::wire::{NonceMode, parse};
    use crate::{SampleRate, Sender, SenderConfig, SessionSecret};

    fn config(floor: Check) -> ReceiverConfig {
        let costs = Check::all()
            .into_iter()
            .map(|c| (c, CostModel { a_ns: c.umac_bytes() as f64, b_ns_per_byte: 1.0 }))
            .collect();
        ReceiverConfig::new(PolicyConfig::new(floor, Check::U128H128, costs), 1e9)
    }

    fn header(profile: Profile, sender_id: u32, seq: u64) -> Header {
        Header { profile, epoch: 0, sender_id, seq, payload_len: 0 }
    }

    #[test]
    fn profiles_are_accepted_by_kind_and_floor() {
        let mut c = config(Check::U64);
        let refused = |p| Err(FormatReject::ProfileNotAccepted(p));
        assert_eq!(accept_profile(&c, &header(Profile::U64, 0, 0)), Ok(()));
        assert_eq!(accept_profile(&c, &header(Profile::U128H128, 0, 0)), Ok(()));
        assert_eq!(accept_profile(&c, &header(Profile::U32, 0, 0)), refused(Profile::U32));
        let sample = Profile::Sample(SampleRate::L8);
        assert_eq!(accept_profile(&c, &header(sample, 0, 0)), refused(sample));
        c.accept_sample = true;
        assert_eq!(accept_profile(&c, &header(sample, 0, 0)), Ok(()));
        assert_eq!(accept_profile(&c, &header(Profile::Badger160, 0xffff, 5)), Ok(()));
        assert_eq!(accept_profile(&c, &header(Profile::Badger160, 0x1_0000, 5)), refused(Profile::Badger160));
    }

    #[test]
    fn the_replay_precheck_refuses_before_any_mac_work() {
        let mut w = ReplayWindow::new(64);
        w.accept(100).unwrap();
        assert_eq!(replay_precheck(Some(&w), 5, 5, 130), Ok(30));
        assert_eq!(replay_precheck(Some(&w), 5, 5, 90), Ok(0));
        assert_eq!(replay_precheck(Some(&w), 5, 5, 100), Err(Verdict::RejectedReplay(ReplayError::Duplicate)));
        assert_eq!(replay_precheck(Some(&w), 5, 5, 10), Err(Verdict::RejectedReplay(ReplayError::TooOld)));
        assert_eq!(replay_precheck(None, 4, 5, 7), Ok(7));
        assert_eq!(replay_precheck(None, 5, 5, 7), Err(Verdict::RejectedFormat(FormatReject::TooManySenders)));
    }

    #[test]
    fn jumps_and_new_epochs_force_the_full_check() {
        let at = |profile, depth, jump, new_epoch| choose_check(profile, depth, jump, 2048, new_epoch);
        let weak = |check| Choice { check, forced: false };
        let forced = |check| Choice { check, forced: true };
        assert_eq!(at(Profile::U128, Check::U32, 2048, false), weak(Check::U32));
        assert_eq!(at(Profile::U128, Check::U32, 2049, false), forced(Check::U128));
        assert_eq!(at(Profile::U128, Check::U32, 0, true), forced(Check::U128));
        assert_eq!(at(Profile::U64, Check::U128, 0, true), weak(Check::U64), "already full");
        assert_eq!(at(Profile::Badger160, Check::U64, 0, false), weak(Check::U64));
        assert_eq!(at(Profile::Badger160, Check::U128, 5000, false), forced(Check::U128H128));
        let sample = Profile::Sample(SampleRate::L512);
        assert_eq!(at(sample, Check::U32, 5000, true), weak(Check::U64), "a sample tag is always checked whole");
    }

    #[test]
    fn audits_ask_the_prf_only_for_weakly_checked_prefixes() {
        let asked = Cell::new(0);
        let asked = &asked;
        let prf = |answer| {
            move || {
                asked.set(asked.get() + 1);
                answer
            }
        };
        assert_eq!(audit_check(Profile::U128, Check::U32, prf(true)), Some(Check::U128));
        assert_eq!(audit_check(Profile::U128H128, Check::U64, prf(true)), Some(Check::U128H128));
        assert_eq!(audit_check(Profile::U128, Check::U32, prf(false)), None);
        assert_eq!(asked.get(), 3);
        assert_eq!(audit_check(Profile::U128, Check::U128, prf(true)), None);
        assert_eq!(audit_check(Profile::Badger160, Check::U32, prf(true)), None);
        assert_eq!(audit_check(Profile::Sample(SampleRate::L8), Check::U64, prf(true)), None);
        assert_eq!(asked.get(), 3, "the PRF runs only when an audit could happen");
    }

    #[test]
    fn costs_come_from_the_model_of_the_profiles_kind() {
        let mut c = config(Check::U32);
        c.badger_costs = vec![(Check::U64, CostModel { a_ns: 1000.0, b_ns_per_byte: 0.0 })];
        c.sample_costs = vec![(SampleRate::L8, CostModel { a_ns: 7.0, b_ns_per_byte: 0.5 })];
        assert_eq!(cost_ns(&c, Profile::U128, Check::U96, 100), 112.0);
        assert_eq!(cost_ns(&c, Profile::Badger160, Check::U64, 100), 1000.0);
        assert_eq!(cost_ns(&c, Profile::Badger160, Check::U96, 100), 0.0, "no model: free");
        assert_eq!(cost_ns(&c, Profile::Sample(SampleRate::L8), Check::U64, 100), 57.0);
        assert_eq!(cost_ns(&c, Profile::Sample(SampleRate::L64), Check::U64, 100), 0.0);
    }

    #[test]
    fn the_budget_sheds_what_it_cannot_pay_and_caps_its_credit() {
        let tick = Duration::from_millis(50);
        let mut b = Budget::new(1000.0, tick); // 50 ns per tick
        assert!(b.charge(30.0));
        assert!(!b.charge(30.0), "20 ns left");
        assert!(b.charge(20.0));
        b.refill(1000.0, tick, Duration::from_secs(10));
        assert_eq!(b, Budget { credit_ns: 100.0 }, "at most two ticks of credit");
    }

    /// A sealed datagram of `profile`, and the keys and pads to check it.
    fn sealed(profile: Profile) -> (Vec<u8>, EpochKeys, NestedPads) {
        let secret = SessionSecret::new(&[9u8; 32]).unwrap();
        let datagram = Sender::new(secret.clone(), SenderConfig::new(profile), Duration::ZERO)
            .unwrap()
            .seal(Duration::ZERO, b"payload")
            .unwrap();
        let keys = EpochKeys::derive(&secret, 0);
        let pads = keys.pads(NonceMode::Group);
        (datagram, keys, pads)
    }

    fn verify_datagram(
        datagram: &[u8],
        keys: &EpochKeys,
        pads: &mut NestedPads,
        check: Check,
        audit: Option<Check>,
    ) -> Verified {
        let packet = parse(datagram).unwrap();
        let nonce = packet.header.nonce(NonceMode::Group);
        verify(keys, pads, nonce.as_bytes(), &packet, check, audit)
    }

    #[test]
    fn verification_checks_the_chosen_part_and_audits_the_rest() {
        let (mut d, keys, mut pads) = sealed(Profile::U128);
        let passed = |check, audited| Verified::Passed { check, audited };
        assert_eq!(verify_datagram(&d, &keys, &mut pads, Check::U32, None), passed(Check::U32, false));
        assert_eq!(verify_datagram(&d, &keys, &mut pads, Check::U32, Some(Check::U128)), passed(Check::U128, true));
        // The last tag byte is beyond a U32 check: only the audit sees it.
        let last = d.len() - 1;
        d[last] ^= 1;
        assert_eq!(verify_datagram(&d, &keys, &mut pads, Check::U32, None), passed(Check::U32, false));
        assert_eq!(verify_datagram(&d, &keys, &mut pads, Check::U32, Some(Check::U128)), Verified::AuditAlarm);
        assert_eq!(verify_datagram(&d, &keys, &mut pads, Check::U128, None), Verified::Failed);

        let (mut d, keys, mut pads) = sealed(Profile::Badger160);
        assert_eq!(verify_datagram(&d, &keys, &mut pads, Check::U128H128, None), passed(Check::U128H128, false));
        let last = d.len() - 1;
        d[last] ^= 1; // the fifth tree
        assert_eq!(verify_datagram(&d, &keys, &mut pads, Check::U128, None), passed(Check::U128, false));
        assert_eq!(verify_datagram(&d, &keys, &mut pads, Check::U128H128, None), Verified::Failed);

        let (mut d, keys, mut pads) = sealed(Profile::Sample(SampleRate::L8));
        assert_eq!(verify_datagram(&d, &keys, &mut pads, Check::U64, None), passed(Check::U64, false));
        d[1] = Profile::Sample(SampleRate::L64).code();
        assert_eq!(verify_datagram(&d, &keys, &mut pads, Check::U64, None), Verified::Failed);
    }

    #[test]
    fn failures_cost_their_checks_bound() {
        assert_eq!(failure_bound_log2(Profile::U128, Check::U32, 100), -30.0);
        assert_eq!(failure_bound_log2(Profile::U128H128, Check::U128H128, 100), -128.0);
        assert_eq!(failure_bound_log2(Profile::Sample(SampleRate::L8), Check::U64, 100), -60.0);
        assert_eq!(failure_bound_log2(Profile::Badger160, Check::U64, 100), forgery_bound_log2(2, 100));
    }
}
