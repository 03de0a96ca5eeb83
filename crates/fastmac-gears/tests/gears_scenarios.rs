//! The demonstration scenarios of docs/gears.md section 6.9 over UDP on 127.0.0.1, each
//! bounded to 200,000 packets, each asserting the conservation law for
//! every receiver. Time is a virtual clock advanced per packet, so the
//! policy's decisions do not depend on how busy the machine is.

mod gears_net;

use std::collections::BTreeSet;
use std::time::Duration;

use fastmac_gears::{
    AuditConfig, Check, FormatReject, PolicyConfig, Profile, ReceiverConfig, RekeyLimits, ReplayError, SampleRate,
    Sender, SenderConfig, Verdict,
};
use gears_net::*;

fn sender(profile: Profile) -> Sender {
    Sender::new(secret(), SenderConfig::new(profile), Duration::ZERO).unwrap()
}

/// Scenario A: heterogeneous receivers of one stream (20,000 packets/s of
/// 1400 bytes, 3 s). R1 (1 core) stays at U128; R2 (0.05 core, floor U32)
/// settles at U64 or U32; R3 (0.01 core, floor U64) stays at U64 and sheds.
#[test]
fn scenario_a_heterogeneous_receivers() {
    let mut r1 = receiver(Check::U64, Check::U128, 1.0);
    let mut r2 = receiver(Check::U32, Check::U128, 0.05);
    let mut r3 = receiver(Check::U64, Check::U128, 0.01);
    let mut s = sender(Profile::U128);
    let mut link = Link::new(3);
    let step = Duration::from_micros(50);
    let mut delivered_seqs = [BTreeSet::new(), BTreeSet::new(), BTreeSet::new()];
    for i in 0..60_000u64 {
        let now = step * i as u32;
        let datagram = s.seal(now, &payload(i, 1400)).unwrap();
        link.deliver(now, &datagram, &mut [&mut r1, &mut r2, &mut r3], |r, v| {
            if let Verdict::Delivered(d) = v {
                assert!(delivered_seqs[r].insert(d.seq), "delivered twice");
                assert_eq!(d.payload, &payload(d.seq, 1400)[..]);
            }
        });
    }
    for (name, r) in [("R1", &r1), ("R2", &r2), ("R3", &r3)] {
        assert_conserved(name, link.sent, r.counters());
        println!("{name}: final depth {}", r.policy().depth);
    }
    assert_eq!(r1.policy().depth, Check::U128);
    assert_eq!(r1.counters().delivered, link.sent);
    assert!(matches!(r2.policy().depth, Check::U32 | Check::U64), "R2 at {}", r2.policy().depth);
    assert_eq!(r3.policy().depth, Check::U64);
    assert!(r3.counters().dropped_overload > 0);
    // R3 delivers what 0.01 core buys at U64 (450 + 1.6 * 1436 ns each),
    // within 10 %.
    let affordable = 0.01e9 * 3.0 / (450.0 + 1.6 * 1436.0);
    let got = r3.counters().delivered as f64;
    assert!((got - affordable).abs() < 0.1 * affordable, "R3 delivered {got}, budget allows {affordable}");
}

/// Scenario B: the budget halves at t = 3 s and comes back at t = 6 s.
/// The depth drops within 2 ticks, never below the floor, climbs back
/// within t_up + 2 ticks, with few switches.
#[test]
fn scenario_b_load_step() {
    let mut r = receiver(Check::U64, Check::U128, 0.08);
    let mut s = sender(Profile::U128);
    let mut link = Link::new(1);
    let step = Duration::from_micros(100); // 10,000 packets/s
    let tick = Duration::from_millis(50);
    let t_up = Duration::from_millis(500);
    let mut history: Vec<(Duration, Check)> = Vec::new();
    for i in 0..90_000u64 {
        let now = step * i as u32;
        if now == Duration::from_secs(3) {
            r.set_budget(0.04e9);
        }
        if now == Duration::from_secs(6) {
            r.set_budget(0.08e9);
        }
        let datagram = s.seal(now, &payload(i, 1400)).unwrap();
        link.deliver(now, &datagram, &mut [&mut r], |_, _| {});
        let p = r.policy();
        if history.last().map(|(t, _)| Some(*t)) != Some(p.last_tick) {
            history.push((p.last_tick.unwrap(), p.depth));
        }
    }
    assert_conserved("R", link.sent, r.counters());
    let depth_at = |t: Duration| history.iter().rev().find(|(at, _)| *at <= t).unwrap().1;
    assert_eq!(depth_at(Duration::from_millis(2990)), Check::U128);
    assert!(depth_at(Duration::from_secs(3) + 2 * tick) < Check::U128, "no downshift within 2 ticks");
    assert!(history.iter().all(|(_, d)| *d >= Check::U64), "below the floor");
    let low = depth_at(Duration::from_millis(5990));
    assert!(depth_at(Duration::from_secs(6) + t_up + 2 * tick) > low, "no upshift within t_up + 2 ticks");
    assert_eq!(history.last().unwrap().1, Check::U128);
    let switches = r.policy().switches;
    println!("load step: {} ticks, {switches} switches, low depth {low}", history.len());
    assert!(switches <= 6, "{switches} switches");
}

/// A forgery derived from the genuine datagram `g`, of kind `kind`.
fn forge(g: &[u8], tag_len: usize, kind: u64, rng: &mut Rng) -> Vec<u8> {
    let mut f = g.to_vec();
    let body = f.len() - tag_len;
    match kind % 6 {
        0 => rng.fill(&mut f[body..]),                                             // random tag
        1 => f[20 + (rng.next() as usize % (body - 20))] ^= 1 << (rng.next() % 8), // payload bit
        2 => f[8 + (rng.next() as usize % 8)] ^= 1 << (rng.next() % 8),            // seq bit
        3 => {
            // Wrong profile: claim U96 and cut the tag to 12 bytes.
            f[1] = Profile::U96.code();
            f.truncate(body + 12);
        }
        4 => f[3] ^= 1,    // next or previous epoch
        _ => f[4] ^= 0x80, // another sender
    }
    f
}

fn forgery_run(level: Check, profile: Profile, genuine: u64, per_genuine: u64, seed: u64) -> (u64, u64) {
    // Badger-160: `level.badger_trees()` trees; a UMAC prefix: the level,
    // capped by the profile.
    let expected = match profile {
        Profile::Badger160 => level,
        p => level.min(p.full_check()),
    };
    // Budget enough for 9000-byte packets at full depth: this run tests
    // forgeries, not load.
    let mut r = receiver(level, level, 100.0);
    let mut s = sender(profile);
    let mut link = Link::new(1);
    let mut rng = Rng(seed);
    let mut forged = 0;
    let mut accepted_forgeries = 0;
    let mut delivered = BTreeSet::new();
    let step = Duration::from_micros(20);
    let mut n = 0u32;
    for i in 0..genuine {
        let len = [64, 576, 1400, 9000][(i % 4) as usize];
        let g = s.seal(step * n, &payload(i, len)).unwrap();
        for k in 0..per_genuine {
            let f = forge(&g, profile.tag_len(), i * per_genuine + k, &mut rng);
            n += 1;
            link.deliver(step * n, &f, &mut [&mut r], |_, v| {
                if let Verdict::Delivered(_) = v {
                    accepted_forgeries += 1;
                }
            });
            forged += 1;
        }
        // The genuine packet still arrives after its forgeries: they did
        // not move the window.
        n += 1;
        link.deliver(step * n, &g, &mut [&mut r], |_, v| match v {
            Verdict::Delivered(d) => {
                assert_eq!(d.payload, &payload(i, len)[..]);
                assert_eq!((d.profile, d.check), (profile, expected));
                assert!(delivered.insert(d.seq));
            }
            other => panic!("genuine packet {i} refused: {other:?}"),
        });
    }
    let c = r.counters();
    assert_conserved(&format!("forgeries at {level}"), link.sent, c);
    assert_eq!(c.delivered, genuine);
    (forged, accepted_forgeries)
}

/// Scenario C: at least 100,000 forgeries (random tags, flipped payload
/// and header bits, wrong profiles, epochs and senders) at depth U64, none
/// accepted; and more at every stronger level.
#[test]
fn scenario_c_no_forgery_accepted_at_u64() {
    let (forged, accepted) = forgery_run(Check::U64, Profile::U128, 20_000, 5, 1);
    println!("U64: {forged} forgeries, {accepted} accepted");
    assert!(forged >= 100_000);
    assert_eq!(accepted, 0);
}

#[test]
fn scenario_c_no_forgery_accepted_at_stronger_levels() {
    let mut total = 0;
    for (i, level) in [Check::U96, Check::U128, Check::U128H128].into_iter().enumerate() {
        let (forged, accepted) = forgery_run(level, Profile::U128H128, 6_000, 3, 10 + i as u64);
        println!("{level}: {forged} forgeries, {accepted} accepted");
        assert_eq!(accepted, 0);
        total += forged;
    }
    assert!(total >= 50_000);
}

/// The Badger gears: a Badger-160 stream checked on 2 trees (policy depth
/// U64) and on all 5, with the same forgeries: none accepted.
#[test]
fn scenario_c_badger_gears_reject_forgeries() {
    for (i, level) in [Check::U64, Check::U128H128].into_iter().enumerate() {
        let (forged, accepted) = forgery_run(level, Profile::Badger160, 8_000, 3, 20 + i as u64);
        println!("Badger, {} trees: {forged} forgeries, {accepted} accepted", level.badger_trees());
        assert_eq!(accepted, 0);
    }
}

/// Scenario C: every replay is rejected, in-window reordering delivers
/// each packet exactly once, and a packet left of the window is too old.
#[test]
fn scenario_c_replays_and_reordering() {
    let mut r = receiver(Check::U64, Check::U128, 1.0);
    let mut s = sender(Profile::U128);
    let mut link = Link::new(1);
    let mut rng = Rng(77);
    let packets: Vec<Vec<u8>> = (0..20_000u64).map(|i| s.seal(Duration::ZERO, &payload(i, 200)).unwrap()).collect();
    // Shuffle within blocks of 256 (well inside the 2048 window).
    let mut order: Vec<usize> = (0..packets.len()).collect();
    for block in order.chunks_mut(256) {
        for i in (1..block.len()).rev() {
            block.swap(i, rng.next() as usize % (i + 1));
        }
    }
    let mut seen = BTreeSet::new();
    let (mut replays, mut replays_rejected) = (0u64, 0u64);
    let mut clock = 0u32;
    let mut now = || {
        clock += 1;
        Duration::from_micros(10) * clock
    };
    for (k, &i) in order.iter().enumerate() {
        link.deliver(now(), &packets[i], &mut [&mut r], |_, v| match v {
            Verdict::Delivered(d) => assert!(seen.insert(d.seq), "seq {} delivered twice", d.seq),
            other => panic!("packet {i} refused: {other:?}"),
        });
        // Replay an earlier packet (from the last 2000 sent) every 3rd step.
        if k % 3 == 2 {
            let j = order[k - (rng.next() as usize % k.min(2000))];
            replays += 1;
            link.deliver(now(), &packets[j], &mut [&mut r], |_, v| {
                if matches!(v, Verdict::RejectedReplay(_)) {
                    replays_rejected += 1;
                }
            });
        }
    }
    // A packet far left of the window.
    link.deliver(now(), &packets[0], &mut [&mut r], |_, v| {
        assert_eq!(*v, Verdict::RejectedReplay(ReplayError::TooOld));
    });
    assert_eq!(seen.len(), packets.len());
    assert_eq!(replays, replays_rejected);
    let c = r.counters();
    assert_eq!(c.rejected_replay, replays + 1);
    assert_conserved("replays", link.sent, c);
}

/// Scenario C: a genuine packet that jumps the window's right edge by more
/// than J is verified at full depth even when the policy is at U32, and a
/// forged jump is rejected without moving the window.
#[test]
fn scenario_c_window_jump_is_verified_at_full_depth() {
    let mut r = receiver(Check::U32, Check::U32, 1.0);
    let mut s = sender(Profile::U128);
    let mut link = Link::new(1);
    let packets: Vec<Vec<u8>> = (0..3000u64).map(|i| s.seal(Duration::ZERO, &payload(i, 100)).unwrap()).collect();
    let t = Duration::from_millis(1);
    link.deliver(t, &packets[0], &mut [&mut r], |_, v| {
        assert!(matches!(v, Verdict::Delivered(d) if (d.profile, d.check) == (Profile::U128, Check::U32)));
    });
    // Forged jump: seq 2999's header with a wrong tag.
    let mut forged = packets[2999].clone();
    let n = forged.len();
    forged[n - 1] ^= 1; // only the last byte: a U32 check would not see it
    link.deliver(t * 2, &forged, &mut [&mut r], |_, v| assert_eq!(*v, Verdict::RejectedAuth));
    link.deliver(t * 3, &packets[2999], &mut [&mut r], |_, v| {
        assert!(matches!(v, Verdict::Delivered(d) if (d.profile, d.check) == (Profile::U128, Check::U128)));
    });
    // Back inside the window: weak depth again (after the escalation the
    // failure caused, the ceiling is U32 anyway).
    link.deliver(t * 4, &packets[2500], &mut [&mut r], |_, v| {
        assert!(matches!(v, Verdict::Delivered(d) if (d.profile, d.check) == (Profile::U128, Check::U32)));
    });
    let c = r.counters();
    assert_eq!(c.forced_full, 2);
    assert_conserved("jump", link.sent, c);
}

/// Scenario D: the sender rekeys every 2000 packets (1 ms apart) while
/// packets are reordered across epoch boundaries. Packets delayed by less
/// than the grace period (100 ms) all arrive; exactly the ones held back
/// longer than the grace period are refused, as predicted.
#[test]
fn scenario_d_rekey_mid_stream() {
    let grace = Duration::from_millis(100);
    let limits = RekeyLimits { packets: 2000, grace, ..RekeyLimits::default() };
    let mut config = SenderConfig::new(Profile::U128);
    config.limits = limits;
    let mut s = Sender::new(secret(), config, Duration::ZERO).unwrap();
    let mut rc = ReceiverConfig::new(PolicyConfig::new(Check::U64, Check::U128, emulated_costs()), 1e9);
    rc.limits = limits;
    let mut r = receiver_with(rc);
    let mut link = Link::new(1);
    let ms = Duration::from_millis(1);
    // (arrival, seal order, datagram)
    let mut schedule = Vec::new();
    let mut late = 0u64;
    for i in 0..12_000u64 {
        let (epoch, seq) = (s.epoch(), s.next_seq());
        let d = s.seal(ms * i as u32, &payload(i, 300)).unwrap();
        let seq = if seq == 2000 { 0 } else { seq };
        let epoch = if u16::from_be_bytes([d[2], d[3]]) != epoch { epoch + 1 } else { epoch };
        let delay = if epoch == 2 && seq >= 1990 {
            late += 1;
            ms * 300 // beyond the grace period: predicted loss
        } else if i % 50 == 49 || seq >= 1985 {
            ms * 20 // reordered across the boundary, within grace
        } else {
            Duration::ZERO
        };
        schedule.push((ms * i as u32 + delay, i, d));
    }
    schedule.sort_by_key(|(at, i, _)| (*at, *i));
    let mut refused = 0u64;
    for (at, _, d) in &schedule {
        link.deliver(*at, d, &mut [&mut r], |_, v| match v {
            Verdict::Delivered(_) => {}
            Verdict::RejectedFormat(FormatReject::UnknownEpoch(2)) => refused += 1,
            other => panic!("unexpected {other:?}"),
        });
    }
    let c = r.counters();
    assert_conserved("rekey", link.sent, c);
    assert_eq!(s.epoch(), 5);
    assert_eq!(c.epoch_changes, 5);
    assert_eq!(refused, late);
    assert_eq!(c.delivered, link.sent - late);
    println!("rekey: {late} packets held beyond the grace period, all others delivered");
}

/// docs/gears.md section 6.8: at depth U32 the forgery budget 2^-20 allows exactly 1024
/// failures; then the epoch is retired until the sender rekeys.
#[test]
fn forgery_budget_retires_the_epoch() {
    let mut r = receiver(Check::U32, Check::U32, 1.0);
    let mut s = sender(Profile::U128);
    let mut link = Link::new(1);
    let mut rng = Rng(5);
    let t = Duration::from_micros(10);
    let mut n = 0;
    for i in 0..1024u64 {
        let g = s.seal(Duration::ZERO, &payload(i, 64)).unwrap();
        assert_eq!(r.counters().epochs_retired, 0);
        n += 1;
        link.deliver(t * n, &forge(&g, 16, 0, &mut rng), &mut [&mut r], |_, v| assert_eq!(*v, Verdict::RejectedAuth));
    }
    assert_eq!(r.counters().epochs_retired, 1);
    let g = s.seal(Duration::ZERO, b"after").unwrap();
    link.deliver(t * (n + 1), &g, &mut [&mut r], |_, v| {
        assert_eq!(*v, Verdict::RejectedFormat(FormatReject::EpochRetired(0)));
    });
    s.rekey(Duration::ZERO).unwrap();
    let g = s.seal(Duration::ZERO, b"new epoch").unwrap();
    link.deliver(t * (n + 2), &g, &mut [&mut r], |_, v| assert!(matches!(v, Verdict::Delivered(_))));
    assert_conserved("budget", link.sent, r.counters());
}

/// Group senders share the session secret: their sequence numbers overlap,
/// their nonces (seq || sender_id) do not, and each (epoch, sender) has its
/// own replay window, so both streams arrive whole and replays across
/// senders are still caught.
#[test]
fn group_senders_have_their_own_windows() {
    let mut r = receiver(Check::U64, Check::U128, 1.0);
    let mut link = Link::new(1);
    let mut senders: Vec<Sender> = (1..=3u32)
        .map(|id| {
            let mut c = SenderConfig::new(if id == 3 { Profile::Badger160 } else { Profile::U128 });
            c.sender_id = id;
            Sender::new(secret(), c, Duration::ZERO).unwrap()
        })
        .collect();
    let t = Duration::from_micros(10);
    let mut n = 0;
    let mut kept = Vec::new();
    for i in 0..3000u64 {
        for s in senders.iter_mut() {
            let d = s.seal(Duration::ZERO, &payload(i, 100)).unwrap();
            n += 1;
            link.deliver(t * n, &d, &mut [&mut r], |_, v| assert!(matches!(v, Verdict::Delivered(_)), "{v:?}"));
            if i == 2990 {
                kept.push(d);
            }
        }
    }
    for d in &kept {
        n += 1;
        link.deliver(t * n, d, &mut [&mut r], |_, v| assert_eq!(*v, Verdict::RejectedReplay(ReplayError::Duplicate)));
    }
    let c = r.counters();
    assert_eq!(c.delivered, 9000);
    assert_conserved("group", link.sent, c);
}

/// docs/gears.md section 6.8: a receiver refuses an epoch older than 1.5 x T_rekey (a
/// sender that fails to rekey), and accepts the next one.
#[test]
fn receiver_refuses_an_epoch_past_its_time_limit() {
    let limits = RekeyLimits { time: Duration::from_secs(1), ..RekeyLimits::default() };
    let mut rc = ReceiverConfig::new(PolicyConfig::new(Check::U64, Check::U128, emulated_costs()), 1e9);
    rc.limits = limits;
    let mut r = receiver_with(rc);
    let mut s = sender(Profile::U128); // its own limit is the default 120 s
    let mut link = Link::new(1);
    let at = |ms: u64| Duration::from_millis(ms);
    let d = s.seal(at(0), b"early").unwrap();
    link.deliver(at(100), &d, &mut [&mut r], |_, v| assert!(matches!(v, Verdict::Delivered(_))));
    let d = s.seal(at(0), b"late").unwrap();
    link.deliver(at(1500), &d, &mut [&mut r], |_, v| {
        assert_eq!(*v, Verdict::RejectedFormat(FormatReject::EpochRetired(0)));
    });
    s.rekey(at(1500)).unwrap();
    let d = s.seal(at(1500), b"fresh").unwrap();
    link.deliver(at(1501), &d, &mut [&mut r], |_, v| assert!(matches!(v, Verdict::Delivered(_))));
    assert_conserved("time limit", link.sent, r.counters());
}

/// The experimental partial-MAC profiles are refused unless a receiver
/// enables them; when enabled, deliveries say a sample was checked, not a
/// level.
#[test]
fn partial_mac_profiles_are_opt_in() {
    let mut off = receiver(Check::U64, Check::U128, 1.0);
    let mut rc = ReceiverConfig::new(PolicyConfig::new(Check::U64, Check::U128, emulated_costs()), 1e9);
    rc.accept_sample = true;
    let mut on = receiver_with(rc);
    let mut s = sender(Profile::Sample(SampleRate::L8));
    let mut link = Link::new(2);
    let t = Duration::from_micros(10);
    for i in 0..500u32 {
        let d = s.seal(Duration::ZERO, &payload(u64::from(i), 1400)).unwrap();
        link.deliver(t * i, &d, &mut [&mut off, &mut on], |r, v| match r {
            0 => assert_eq!(*v, Verdict::RejectedFormat(FormatReject::ProfileNotAccepted(Profile::Sample(SampleRate::L8)))),
            _ => assert!(matches!(v, Verdict::Delivered(d) if (d.profile, d.check) == (Profile::Sample(SampleRate::L8), Check::U64))),
        });
    }
    assert_conserved("sample off", link.sent, off.counters());
    assert_conserved("sample on", link.sent, on.counters());
}

fn audited_receiver(fraction: f64) -> fastmac_gears::Receiver {
    let mut rc = ReceiverConfig::new(PolicyConfig::new(Check::U32, Check::U32, emulated_costs()), 1e9);
    rc.audit = Some(AuditConfig { key: *b"receiver-local!!", fraction });
    receiver_with(rc)
}

/// docs/gears.md section 6.6: secret audits check a PRF-chosen fraction of packets at
/// full depth. A packet whose checked 4-byte prefix matches but whose full
/// tag does not is caught by an audit, raises an alarm and escalates for
/// the longest period; without audits a U32 receiver cannot see it.
#[test]
fn secret_audits_catch_a_matching_prefix_with_a_wrong_tag() {
    let mut plain = receiver(Check::U32, Check::U32, 1.0);
    let mut audited = audited_receiver(1.0);
    let mut s = sender(Profile::U128);
    let mut link = Link::new(2);
    let mut d = s.seal(Duration::ZERO, b"prefix right, suffix wrong").unwrap();
    let n = d.len();
    d[n - 1] ^= 1;
    let now = Duration::from_millis(1);
    link.deliver(now, &d, &mut [&mut plain, &mut audited], |r, v| match r {
        0 => assert!(matches!(v, Verdict::Delivered(d) if (d.profile, d.check) == (Profile::U128, Check::U32))),
        _ => assert_eq!(*v, Verdict::RejectedAuth),
    });
    assert_eq!(audited.counters().audit_alarms, 1);
    assert_eq!(audited.policy().escalated_until, Some(now + Duration::from_secs(80)));
    let d = s.seal(Duration::ZERO, b"genuine").unwrap();
    link.deliver(now * 2, &d, &mut [&mut plain, &mut audited], |r, v| {
        let want = if r == 0 { Check::U32 } else { Check::U128 };
        assert!(matches!(v, Verdict::Delivered(d) if (d.profile, d.check) == (Profile::U128, want)), "{v:?}");
    });
    assert_conserved("no audit", link.sent, plain.counters());
    assert_conserved("audit", link.sent, audited.counters());
}

/// A quarter of the packets audited: 4000 packets give 1000 expected
/// audits (sd 27); accept 850..1150. Each audited packet is delivered with
/// the full level it was checked at.
#[test]
fn audit_fraction_is_respected() {
    let mut r = audited_receiver(0.25);
    let mut s = sender(Profile::U128);
    let mut link = Link::new(1);
    let mut full = 0;
    for i in 0..4000u32 {
        let d = s.seal(Duration::ZERO, &payload(u64::from(i), 64)).unwrap();
        link.deliver(Duration::from_micros(10) * i, &d, &mut [&mut r], |_, v| {
            if matches!(v, Verdict::Delivered(d) if (d.profile, d.check) == (Profile::U128, Check::U128)) {
                full += 1;
            }
        });
    }
    let c = r.counters();
    assert!((850..1150).contains(&c.audited), "{c}");
    assert_eq!(full, c.audited);
    assert_eq!(c.audit_alarms, 0);
    assert_conserved("audit 1/4", link.sent, c);
}
