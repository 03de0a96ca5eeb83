//! The Rust rows of docs/bad-input.md: every algorithm through the public
//! by-name API (`Algorithm::new_mac`, `DynMac`) and the typed APIs, against
//! each class of bad input. Each case must give its typed error, leave the
//! object usable, and say nothing of the key or the tag in its text.

use fastmac::badger::Badger64;
use fastmac::nonce::NonceCounter;
use fastmac::ssh::{InboundMac, OutboundMac, SshMac};
use fastmac::umac::{SequencedUmac, Umac64, counter_nonce};
use fastmac::{Algorithm, Error};

const KEY_BYTE: u8 = 0xc3;

/// The error's text must not contain the key or the tag, in any of the
/// spellings a careless message would use (hex either case, raw bytes,
/// Rust's byte-array Debug).
fn assert_no_secret(err: &Error, key: &[u8], tag: &[u8]) {
    let text = format!("{err} {err:?}");
    for secret in [key, tag] {
        if secret.len() < 2 {
            continue;
        }
        let hex: String = secret.iter().map(|b| format!("{b:02x}")).collect();
        assert!(!text.contains(&hex) && !text.contains(&hex.to_uppercase()), "{text:?} shows secret bytes");
        assert!(!text.contains(&format!("{:?}", &secret[..2]).trim_end_matches(']').to_string()), "{text:?}");
        assert!(!text.contains(&String::from_utf8_lossy(secret).to_string()), "{text:?}");
    }
}

#[test]
fn every_algorithm_rejects_bad_lengths_with_typed_errors() {
    for &alg in Algorithm::ALL {
        let info = alg.info();
        let key = vec![KEY_BYTE; info.key_len];
        // Wrong key lengths. HMAC takes keys of any length; UMAC and Badger exactly 16.
        if info.name.starts_with("umac") || info.name.starts_with("badger") {
            for bad in [0, info.key_len - 1, info.key_len + 1] {
                let err = alg.new_mac(&vec![KEY_BYTE; bad]).err();
                assert_eq!(err, Some(Error::KeyLength { expected: info.key_len, got: bad }), "{}", info.name);
            }
        }
        let mut mac = alg.new_mac(&key).unwrap();
        let nonce_ok = vec![1u8; info.min_nonce_len];
        let mut tag = vec![0u8; info.tag_len];
        mac.update(b"some message");
        mac.finalize_reset_into(&nonce_ok, &mut tag).unwrap();

        // Wrong nonce lengths: below the minimum and above the maximum.
        let mut bad_nonces = vec![vec![1u8; info.max_nonce_len + 1]];
        if info.min_nonce_len > 0 {
            bad_nonces.push(vec![1u8; info.min_nonce_len - 1]);
        }
        for nonce in &bad_nonces {
            let mut out = vec![0u8; info.tag_len];
            let err = mac.finalize_reset_into(nonce, &mut out).unwrap_err();
            assert!(matches!(err, Error::NonceLength { got, .. } if got == nonce.len()), "{}: {err:?}", info.name);
            assert_no_secret(&err, &key, &tag);
            let err = mac.verify_reset(nonce, &tag).unwrap_err();
            assert!(matches!(err, Error::NonceLength { .. }), "{}: {err:?}", info.name);
        }
        // Wrong tag lengths, for the output buffer and for the received tag.
        for bad in [0, info.tag_len - 1, info.tag_len + 1] {
            let mut out = vec![0u8; bad];
            let err = mac.finalize_reset_into(&nonce_ok, &mut out).unwrap_err();
            assert_eq!(err, Error::TagLength { expected: info.tag_len, got: bad }, "{}", info.name);
            let received: Vec<u8> = tag.iter().copied().cycle().take(bad).collect();
            let err = mac.verify_reset(&nonce_ok, &received).unwrap_err();
            assert!(matches!(err, Error::TagLength { got, .. } if got == bad), "{}: {err:?}", info.name);
            assert_no_secret(&err, &key, &tag);
        }
        // A wrong tag of the right length: InvalidTag, and no bytes in the text.
        let mut forged = tag.clone();
        forged[0] ^= 1;
        mac.update(b"some message");
        let err = mac.verify_reset(&nonce_ok, &forged).unwrap_err();
        assert_eq!(err, Error::InvalidTag);
        assert_no_secret(&err, &key, &tag);
        // Failed calls consumed nothing: the object still verifies the right tag.
        mac.update(b"some message");
        mac.verify_reset(&nonce_ok, &tag).unwrap_or_else(|e| panic!("{}: {e}", info.name));
        // The empty message is valid input.
        let mut out = vec![0u8; info.tag_len];
        mac.finalize_reset_into(&nonce_ok, &mut out).unwrap();
    }
    // Debug output of keyed objects shows no key bytes.
    for debug in [format!("{:?}", Umac64::new(&[KEY_BYTE; 16])), format!("{:?}", Badger64::new(&[KEY_BYTE; 16]))] {
        assert!(!debug.contains("c3") && !debug.contains("195"), "{debug}");
    }
}

/// A refused call (wrong nonce or tag length) consumes nothing: the message
/// streamed before it still gets its tag. HMAC's `verify_reset` used to reset
/// on a wrong tag length, unlike UMAC and Badger (found by the c_api fuzz
/// target through `fastmac_mac_verify`).
#[test]
fn refused_calls_consume_nothing() {
    const MSG: &[u8] = b"a message streamed before the refused calls";
    for &alg in Algorithm::ALL {
        let info = alg.info();
        let key = vec![KEY_BYTE; info.key_len];
        let nonce = vec![1u8; info.min_nonce_len];
        let mut right = vec![0u8; info.tag_len];
        let mut fresh = alg.new_mac(&key).unwrap();
        fresh.update(MSG);
        fresh.finalize_reset_into(&nonce, &mut right).unwrap();

        let mut mac = alg.new_mac(&key).unwrap();
        mac.update(MSG);
        let bad_nonce = vec![1u8; info.max_nonce_len + 1];
        for bad in [0, info.tag_len - 1, info.tag_len + 1] {
            let received: Vec<u8> = right.iter().copied().cycle().take(bad).collect();
            assert!(mac.verify_reset(&nonce, &received).is_err(), "{}", info.name);
            assert!(mac.finalize_reset_into(&nonce, &mut vec![0u8; bad]).is_err(), "{}", info.name);
        }
        assert!(mac.verify_reset(&bad_nonce, &right).is_err(), "{}", info.name);
        assert!(mac.finalize_reset_into(&bad_nonce, &mut vec![0u8; info.tag_len]).is_err(), "{}", info.name);
        mac.verify_reset(&nonce, &right)
            .unwrap_or_else(|e| panic!("{}: a refused call consumed the message: {e}", info.name));
    }
}

#[test]
fn unknown_algorithm_names_are_typed_errors() {
    for name in ["", "umac-63", "UMAC-64 ", "badger-24", "hmac-sha3-256", "umac-64@openssh.com", "umac\0-64"] {
        let err = Algorithm::from_name(name).unwrap_err();
        assert_eq!(err, Error::UnknownAlgorithm(name.into()));
        // Without the feature `hmac`, an HMAC name's message names it.
        let hint = if cfg!(feature = "hmac") || !name.starts_with("hmac-") {
            ""
        } else {
            " (HMAC needs fastmac's cargo feature `hmac`)"
        };
        assert_eq!(err.to_string(), format!("unknown algorithm {name:?}{hint}"));
    }
    for name in ["umac-32@openssh.com", "hmac-sha1-96-etm", "", "UMAC-64@OPENSSH.COM"] {
        assert_eq!(SshMac::new(name, &[0; 16]).err(), Some(Error::UnknownAlgorithm(name.into())));
    }
}

/// The HMAC names exist with the feature `hmac` and nowhere without it:
/// neither listed nor accepted, by `Algorithm` or by the SSH names.
#[test]
fn hmac_names_follow_the_feature() {
    let listed = Algorithm::ALL.iter().filter(|alg| alg.info().name.starts_with("hmac-")).count();
    let ssh_listed = fastmac::ssh::ALGORITHMS.iter().filter(|alg| alg.name.starts_with("hmac-")).count();
    let by_name = Algorithm::from_name("HMAC-SHA2-256").map(|alg| alg.info().name);
    let by_ssh_name = SshMac::new("hmac-sha2-256", &[0; 32]).map(|mac| mac.name());
    if cfg!(feature = "hmac") {
        assert_eq!((listed, ssh_listed), (7, 15));
        assert_eq!((by_name, by_ssh_name), (Ok("hmac-sha2-256"), Ok("hmac-sha2-256")));
    } else {
        assert_eq!((listed, ssh_listed), (0, 0));
        let unknown = Err(Error::UnknownAlgorithm("HMAC-SHA2-256".into()));
        assert_eq!(by_name, unknown);
        assert_eq!(by_ssh_name, Err(Error::UnknownAlgorithm("hmac-sha2-256".into())));
    }
}

#[test]
fn badger_zero_nonce_and_too_long_messages() {
    let key = [KEY_BYTE; 16];
    let badger = Badger64::new(&key);
    assert_eq!(badger.mac(&[0; 8], b"m").unwrap_err(), Error::ZeroNonce);
    // With one tree level the longest message is 16 bytes (8 * 2^levels).
    let short = Badger64::with_levels(&key, 1).unwrap();
    assert_eq!(short.max_message_len(), 16);
    assert!(short.mac(&[1; 8], &[0; 16]).is_ok());
    let err = short.mac(&[1; 8], &[0; 17]).unwrap_err();
    assert_eq!(err, Error::MessageTooLong { max: 16 });
    assert!(matches!(Badger64::with_levels(&key, 0).unwrap_err(), Error::OutOfRange { got: 0, .. }));
    assert!(matches!(Badger64::with_levels(&key, 59).unwrap_err(), Error::OutOfRange { got: 59, .. }));
}

#[test]
fn ssh_bad_keys_and_tags() {
    for alg in fastmac::ssh::ALGORITHMS {
        let key = vec![KEY_BYTE; alg.key_len];
        let err = SshMac::new(alg.name, &key[1..]).unwrap_err();
        assert_eq!(err, Error::KeyLength { expected: alg.key_len, got: alg.key_len - 1 });
        assert_no_secret(&err, &key, &[]);
        let mut mac = SshMac::new(alg.name, &key).unwrap();
        let tag = mac.compute(7, b"packet");
        let err = mac.verify(7, b"packet", &tag[1..]).unwrap_err();
        assert_eq!(err, Error::TagLength { expected: alg.tag_len, got: alg.tag_len - 1 });
        let err = mac.verify(8, b"packet", &tag).unwrap_err();
        assert_eq!(err, Error::InvalidTag);
        assert_no_secret(&err, &key, &tag);
    }
}

/// Sender-side nonce counters at their limit: a typed error instead of a
/// repeated or wrapped nonce, the counter does not move, and the text shows
/// neither key nor tag. (The SSH types' 2^31 and 2^32 limits are reached in
/// their unit tests, ssh::sequenced::tests, which can jump the count.)
#[test]
fn exhausted_nonce_counters_are_typed_errors() {
    let key = [KEY_BYTE; 16];
    assert_eq!(NonceCounter::starting_at(9, 9), Err(Error::NonceExhausted { limit: 9 }));
    let limit = 1000;
    let mut sender = SequencedUmac::<8>::with_counter(&key, NonceCounter::starting_at(limit - 1, limit).unwrap());
    let (nonce, tag) = sender.tag(b"last").unwrap();
    assert_eq!(tag, Umac64::new(&key).mac(&counter_nonce(nonce), b"last").unwrap());
    for _ in 0..2 {
        let err = sender.tag(b"again").unwrap_err();
        assert_eq!(err, Error::NonceExhausted { limit });
        assert_eq!(err.to_string(), "all 1000 nonces of this key are used (a nonce never repeats or wraps): rekey");
        assert_no_secret(&err, &key, &tag);
        assert_eq!(sender.next_nonce(), limit);
    }

    // The inbound SSH side: a bad tag does not move the expected number.
    let name = "umac-64@openssh.com";
    let mut outbound = OutboundMac::new(SshMac::new(name, &key).unwrap(), 5);
    let mut inbound = InboundMac::new(SshMac::new(name, &key).unwrap(), 5);
    let (seq, tag) = outbound.compute(b"packet").unwrap();
    assert_eq!(inbound.verify(b"packet", &tag[1..]), Err(Error::TagLength { expected: 8, got: 7 }));
    assert_eq!(inbound.verify(b"packeT", &tag), Err(Error::InvalidTag));
    assert_eq!((inbound.verify(b"packet", &tag), inbound.next_seq()), (Ok(seq), 6));
}
