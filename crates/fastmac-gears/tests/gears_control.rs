//! Sender-side gear lowering (docs/gears.md section 6.4): an authenticated request from
//! a unicast receiver lowers the sender's tags to the depth the receiver
//! checks, a later one raises them again, and forged, replayed, stale,
//! malformed or cross-channel messages change nothing.

use std::time::Duration;

use fastmac_gears::Error;
use fastmac_gears::{
    Check, ControlReceiver, ControlSender, PolicyConfig, Profile, Receiver, ReceiverConfig, Sender, SenderConfig,
    SessionSecret, Verdict,
};

const T: Duration = Duration::ZERO;

fn secret() -> SessionSecret {
    SessionSecret::new(b"gears control test secret 32 B!!").unwrap()
}

/// Seals one packet and has `receiver` take it: (tag bytes, check made).
fn send_one(sender: &mut Sender, receiver: &mut Receiver, payload: &[u8]) -> (usize, Check) {
    let datagram = sender.seal(T, payload).unwrap();
    let tag_len = datagram.len() - 20 - payload.len();
    match receiver.receive(T, &datagram) {
        Verdict::Delivered(d) => (tag_len, d.check),
        other => panic!("not delivered: {other:?}"),
    }
}

#[test]
fn a_request_lowers_and_a_later_one_raises_the_senders_gear() {
    let mut sender = Sender::new(secret(), SenderConfig::new(Profile::U128), T).unwrap();
    let mut receiver =
        Receiver::new(secret(), ReceiverConfig::new(PolicyConfig::new(Check::U32, Check::U64, Vec::new()), 1e9), T);
    let mut to_sender = ControlSender::new(&secret(), T).unwrap();
    let mut from_receiver = ControlReceiver::new(&secret(), T);

    assert_eq!(send_one(&mut sender, &mut receiver, b"before"), (16, Check::U64));
    for (level, profile, tag_len) in [
        (Check::U64, Profile::U64, 8),
        (Check::U32, Profile::U32, 4),
        (Check::U96, Profile::U96, 12),
        (Check::U128, Profile::U128, 16),
    ] {
        let request = to_sender.max_depth(T, level).unwrap();
        assert_eq!(from_receiver.apply(&mut sender, T, &request), Ok(profile));
        assert_eq!(sender.profile(), profile);
        let (got_len, checked) = send_one(&mut sender, &mut receiver, b"payload");
        assert_eq!(got_len, tag_len, "{level}");
        // The receiver checks what it would anyway, capped by the profile.
        assert_eq!(checked, level.min(Check::U64), "{level}");
    }
}

#[test]
fn forged_replayed_stale_and_cross_channel_requests_change_nothing() {
    let mut sender = Sender::new(secret(), SenderConfig::new(Profile::U128), T).unwrap();
    let mut to_sender = ControlSender::new(&secret(), T).unwrap();
    let mut from_receiver = ControlReceiver::new(&secret(), T);
    let lower = to_sender.max_depth(T, Check::U32).unwrap();
    let raise = to_sender.max_depth(T, Check::U128).unwrap();

    // Any flipped bit (header, payload or tag) is a forgery.
    for bit in 0..8 * lower.len() {
        let mut forged = lower.clone();
        forged[bit / 8] ^= 1 << (bit % 8);
        assert!(from_receiver.apply(&mut sender, T, &forged).is_err(), "bit {bit}");
        assert_eq!(sender.profile(), Profile::U128);
    }
    // A data packet is not a control message: other keys.
    let mut data_sender = Sender::new(secret(), SenderConfig::new(Profile::U128), T).unwrap();
    let data = data_sender.seal(T, &[0x01, Profile::U32.code()]).unwrap();
    assert_eq!(from_receiver.apply(&mut sender, T, &data), Err(Error::Mac(fastmac::Error::InvalidTag)));
    // Nor is a request under another session's secret.
    let other = SessionSecret::new(&[9u8; 32]).unwrap();
    let foreign = ControlSender::new(&other, T).unwrap().max_depth(T, Check::U32).unwrap();
    assert_eq!(from_receiver.apply(&mut sender, T, &foreign), Err(Error::Mac(fastmac::Error::InvalidTag)));
    assert_eq!(sender.profile(), Profile::U128);

    // The later "raise" arrives first; the held-back "lower" is then stale.
    assert_eq!(from_receiver.apply(&mut sender, T, &raise), Ok(Profile::U128));
    assert!(matches!(from_receiver.apply(&mut sender, T, &lower), Err(Error::Control(_))));
    assert_eq!(sender.profile(), Profile::U128);
    // And a replay of the applied one is refused.
    assert!(matches!(from_receiver.apply(&mut sender, T, &raise), Err(Error::Control(_))));
}

#[test]
fn malformed_requests_and_senders_that_cannot_lower_are_typed_errors() {
    // Authentic datagrams on the control channel with bodies that are not
    // a v1 request.
    let mut raw = Sender::new(secret().control_channel(), SenderConfig::new(Profile::U128), T).unwrap();
    let mut from_receiver = ControlReceiver::new(&secret(), T);
    let mut sender = Sender::new(secret(), SenderConfig::new(Profile::U128), T).unwrap();
    let h128 = Profile::U128H128.code();
    for body in [&[][..], &[0x01], &[0x02, 0x13], &[0x01, 0x13, 0x00], &[0x01, h128], &[0x01, 0xff]] {
        let datagram = raw.seal(T, body).unwrap();
        assert!(matches!(from_receiver.apply(&mut sender, T, &datagram), Err(Error::Control(_))), "{body:?}");
        assert_eq!(sender.profile(), Profile::U128);
    }
    assert!(matches!(from_receiver.apply(&mut sender, T, b"short"), Err(Error::Control(_))));
    assert!(matches!(ControlSender::new(&secret(), T).unwrap().max_depth(T, Check::U128H128), Err(Error::Control(_))));

    // A group sender tags for its strongest receiver; an HMAC or Badger
    // sender has no prefix gears.
    let mut to_sender = ControlSender::new(&secret(), T).unwrap();
    let mut group = SenderConfig::new(Profile::U128);
    group.sender_id = 7;
    for config in [group, SenderConfig::new(Profile::U128H128), SenderConfig::new(Profile::Badger160)] {
        let mut sender = Sender::new(secret(), config, T).unwrap();
        let before = sender.profile();
        let request = to_sender.max_depth(T, Check::U64).unwrap();
        assert!(matches!(ControlReceiver::new(&secret(), T).apply(&mut sender, T, &request), Err(Error::Config(_))));
        assert_eq!(sender.profile(), before);
    }
    // A U64 sender asked for U128 stays at U64: it never exceeds its profile.
    let mut sender = Sender::new(secret(), SenderConfig::new(Profile::U64), T).unwrap();
    let request = to_sender.max_depth(T, Check::U128).unwrap();
    assert_eq!(ControlReceiver::new(&secret(), T).apply(&mut sender, T, &request), Ok(Profile::U64));
}
