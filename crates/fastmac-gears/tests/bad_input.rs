//! The gears rows of docs/bad-input.md: malformed datagrams, payloads and
//! configurations get typed [`Error`]s whose messages name lengths, codes
//! and limits only, never the session secret or a tag.

use std::time::Duration;

use fastmac_gears::wire::{self, MAX_PAYLOAD};
use fastmac_gears::{
    Check, ControlReceiver, ControlSender, Error, NonceMode, Profile, Sender, SenderConfig, SessionSecret,
};

const T: Duration = Duration::ZERO;
const SECRET_BYTE: u8 = 0xc3;

/// The error's text must not contain `secret` or `tag`, in the spellings a
/// careless message would use (hex either case, raw bytes, byte-array Debug).
fn assert_no_secret(err: &Error, secret: &[u8], tag: &[u8]) {
    let text = format!("{err} {err:?}");
    for bytes in [secret, tag] {
        let window = &bytes[..bytes.len().min(4)];
        let lower: String = window.iter().map(|b| format!("{b:02x}")).collect();
        assert!(!text.contains(&lower) && !text.contains(&lower.to_uppercase()), "{text}");
        assert!(!text.contains(&format!("{window:?}")[1..]), "{text}");
        assert!(!text.as_bytes().windows(window.len()).any(|w| w == window), "{text}");
    }
}

/// Truncated and lying gears datagrams (the parser's own unit test checks
/// each variant; here: every truncation of a real datagram is an error, none
/// panics, and the text shows no tag bytes).
#[test]
fn truncated_gears_datagrams_are_errors() {
    let good = {
        let mut d = vec![0u8; 20];
        d[0] = 1;
        d
    };
    for cut in 0..good.len() {
        let err = wire::parse(&good[..cut]).unwrap_err();
        assert!(!format!("{err}").is_empty());
    }
    let secret = [SECRET_BYTE; 32];
    let mut sender = Sender::new(SessionSecret::new(&secret).unwrap(), SenderConfig::new(Profile::U128), T).unwrap();
    let datagram = sender.seal(T, b"payload").unwrap();
    let tag = &datagram[datagram.len() - 16..];
    for cut in 0..datagram.len() {
        let err = Error::from(wire::parse(&datagram[..cut]).unwrap_err());
        assert!(err.to_string().starts_with("malformed gears datagram: "), "{err}");
        assert_no_secret(&err, &secret, tag);
    }
}

/// T8 (1-byte tags) exists only in the crate's own unit-test build: the
/// build a dependent gets knows no T8 check, profile or gear, and refuses a
/// sealed datagram whose profile byte is T8's 0xFE.
#[test]
fn a_dependent_build_has_no_t8() {
    assert!(Check::all().iter().all(|check| check.umac_bytes() >= 4), "{:?}", Check::all());
    assert!(Profile::all().iter().all(|profile| profile.code() != 0xFE), "{:?}", Profile::all());
    assert_eq!(Profile::from_code(0xFE), None);
    assert!(fastmac_gears::table::gears().iter().all(|gear| gear.name != "T8"));
    let mut sender =
        Sender::new(SessionSecret::new(&[SECRET_BYTE; 32]).unwrap(), SenderConfig::new(Profile::U32), T).unwrap();
    let mut datagram = sender.seal(T, b"payload").unwrap();
    datagram[1] = 0xFE;
    let err = Error::from(wire::parse(&datagram).unwrap_err());
    assert_eq!(err.to_string(), "malformed gears datagram: unknown profile 0xfe");
}

/// Every kind of refusal a sender or a control channel gives is typed, and
/// its message carries no secret or tag byte.
#[test]
fn refused_calls_are_typed_and_name_no_secret() {
    let secret = [SECRET_BYTE; 32];
    let session = SessionSecret::new(&secret).unwrap();
    let short = SessionSecret::new(&secret[..15]).unwrap_err();
    assert_eq!(short, Error::Mac(fastmac::Error::KeyLength { expected: 16, got: 15 }));
    assert_no_secret(&short, &secret, &secret);

    let mut sender = Sender::new(session.clone(), SenderConfig::new(Profile::U128), T).unwrap();
    let datagram = sender.seal(T, b"genuine").unwrap();
    let tag = datagram[datagram.len() - 16..].to_vec();
    let too_long = sender.seal(T, &vec![0u8; MAX_PAYLOAD + 1]).unwrap_err();
    assert_eq!(too_long, Error::PayloadTooLong { max: MAX_PAYLOAD, got: MAX_PAYLOAD + 1 });

    let mut group = SenderConfig::new(Profile::U64);
    group.nonce_mode = NonceMode::RfcPrefix;
    group.sender_id = 3;
    let config = Sender::new(session.clone(), group, T).unwrap_err();
    assert!(matches!(config, Error::Config(_)));

    let mut control = ControlReceiver::new(&session, T);
    let mut forged = ControlSender::new(&session, T).unwrap().max_depth(T, Check::U32).unwrap();
    let last = forged.len() - 1;
    forged[last] ^= 1;
    let forgery = control.apply(&mut sender, T, &forged).unwrap_err();
    assert_eq!(forgery, Error::Mac(fastmac::Error::InvalidTag));
    let malformed = control.apply(&mut sender, T, &datagram[..10]).unwrap_err();
    assert!(matches!(malformed, Error::Control(_)));

    for err in [too_long, config, forgery, malformed, Error::SequenceExhausted, Error::EpochsExhausted] {
        assert!(!err.to_string().is_empty());
        assert_no_secret(&err, &secret, &tag);
    }
}
