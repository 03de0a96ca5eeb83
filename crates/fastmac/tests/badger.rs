//! Badger: Rabbit against RFC 4503, the library's streaming tree against the
//! level-by-level reference of figure 3 (tests/common/badger_ref.rs), the
//! structural identities of docs/badger.md section 8, and the API's errors.

mod common;

use common::badger_ref::{self as reference, P};
use fastmac::Error;
use fastmac::badger::{Badger, BadgerReceiver, BadgerSender};
use rabbit::cipher::{KeyInit, KeyIvInit, StreamCipher};
use rabbit::{Rabbit, RabbitKeyOnly};
use rand::{Rng, SeedableRng, rngs::StdRng};

fn unhex(text: &str) -> Vec<u8> {
    hex::decode(text.replace(' ', "")).unwrap()
}

/// RFC 4503 prints octets most significant first; Rabbit's reference byte
/// order (the crate's, eSTREAM's) is the reverse (docs/badger.md section 6.1).
fn reversed(printed: &str) -> Vec<u8> {
    let mut bytes = unhex(printed);
    bytes.reverse();
    bytes
}

#[test]
fn rabbit_reproduces_rfc4503_appendix_a_with_byte_reversal() {
    // A.1, key setup only: key, S[0], S[1], S[2].
    let a1 = [
        [
            "00000000000000000000000000000000",
            "B1 57 54 F0 36 A5 D6 EC F5 6B 45 26 1C 4A F7 02",
            "88 E8 D8 15 C5 9C 0C 39 7B 69 6C 47 89 C6 8A A7",
            "F4 16 A1 C3 70 0C D4 51 DA 68 D1 88 16 73 D6 96",
        ],
        [
            "91 28 13 29 2E 3D 36 FE 3B FC 62 F1 DC 51 C3 AC",
            "3D 2D F3 C8 3E F6 27 A1 E9 7F C3 84 87 E2 51 9C",
            "F5 76 CD 61 F4 40 5B 88 96 BF 53 AA 85 54 FC 19",
            "E5 54 74 73 FB DB 43 50 8A E5 3B 20 20 4D 4C 5E",
        ],
        [
            "83 95 74 15 87 E0 C7 33 E9 E9 AB 01 C0 9B 00 43",
            "0C B1 0D CD A0 41 CD AC 32 EB 5C FD 02 D0 60 9B",
            "95 FC 9F CA 0F 17 01 5A 7B 70 92 11 4C FF 3E AD",
            "96 49 E5 DE 8B FC 7F 3F 92 41 47 AD 3A 94 74 28",
        ],
    ];
    for [key, s0, s1, s2] in a1 {
        let key: [u8; 16] = reversed(key).try_into().unwrap();
        let mut out = [0u8; 48];
        RabbitKeyOnly::new(&key.into()).write_keystream(&mut out);
        assert_eq!(out[..16], reversed(s0)[..]);
        assert_eq!(out[16..32], reversed(s1)[..]);
        assert_eq!(out[32..], reversed(s2)[..]);
        // The library's own key-only stream is the same one: its key setup
        // agrees with the reference, which reads this stream.
        assert_eq!(reference::key_only_stream(&key, 48), out);
    }
    // A.2, key setup with the zero key, then IV setup: iv, S[0], S[1], S[2].
    let a2 = [
        [
            "00 00 00 00 00 00 00 00",
            "C6 A7 27 5E F8 54 95 D8 7C CD 5D 37 67 05 B7 ED",
            "5F 29 A6 AC 04 F5 EF D4 7B 8F 29 32 70 DC 4A 8D",
            "2A DE 82 2B 29 DE 6C 1E E5 2B DB 8A 47 BF 8F 66",
        ],
        [
            "C3 73 F5 75 C1 26 7E 59",
            "1F CD 4E B9 58 00 12 E2 E0 DC CC 92 22 01 7D 6D",
            "A7 5F 4E 10 D1 21 25 01 7B 24 99 FF ED 93 6F 2E",
            "EB C1 12 C3 93 E7 38 39 23 56 BD D0 12 02 9B A7",
        ],
        [
            "A6 EB 56 1A D2 F4 17 27",
            "44 5A D8 C8 05 85 8D BF 70 B6 AF 23 A1 51 10 4D",
            "96 C8 F2 79 47 F4 2C 5B AE AE 67 C6 AC C3 5B 03",
            "9F CB FC 89 5F A7 1C 17 31 3D F0 34 F0 15 51 CB",
        ],
    ];
    for [iv, s0, s1, s2] in a2 {
        let iv: [u8; 8] = reversed(iv).try_into().unwrap();
        let mut out = [0u8; 48];
        Rabbit::new(&[0u8; 16].into(), &iv.into()).write_keystream(&mut out);
        assert_eq!(out[..16], reversed(s0)[..]);
        assert_eq!(out[16..32], reversed(s1)[..]);
        assert_eq!(out[32..], reversed(s2)[..]);
    }
}

/// Unreversed RFC octets do not match: the reversal is the convention, not
/// an accident of a symmetric test.
#[test]
fn rabbit_rfc_octets_unreversed_do_not_match() {
    let key: [u8; 16] = unhex("91 28 13 29 2E 3D 36 FE 3B FC 62 F1 DC 51 C3 AC").try_into().unwrap();
    let mut out = [0u8; 16];
    RabbitKeyOnly::new(&key.into()).write_keystream(&mut out);
    assert_ne!(out[..], reversed("3D 2D F3 C8 3E F6 27 A1 E9 7F C3 84 87 E2 51 9C")[..]);
    assert_ne!(out[..], unhex("3D 2D F3 C8 3E F6 27 A1 E9 7F C3 84 87 E2 51 9C")[..]);
}

fn random_message(rng: &mut StdRng, len: usize) -> Vec<u8> {
    let mut msg = vec![0u8; len];
    rng.fill(&mut msg[..]);
    msg
}

/// Streams `msg` in random pieces (including empty ones).
fn stream_randomly<F: FnMut(&[u8])>(rng: &mut StdRng, msg: &[u8], mut update: F) {
    let mut at = 0;
    while at < msg.len() {
        let step = match rng.random_range(0..4) {
            0 => rng.random_range(0..=8),
            1 => rng.random_range(0..=64),
            2 => rng.random_range(0..=1100),
            _ => rng.random_range(0..=msg.len() - at),
        };
        let end = (at + step).min(msg.len());
        update(&msg[at..end]);
        at = end;
    }
}

/// Nonce-mode tags of the library (one-shot, and streamed in random
/// pieces) against the reference, for one `u`.
fn nonce_mode_agrees<const T: usize>(rng: &mut StdRng, lengths: &[usize], streamed_every: usize) -> usize {
    let u = T / 4;
    let key: [u8; 16] = rng.random();
    let mut mac = Badger::<T>::new(&key);
    let reference_keys = reference::key_setup(&key, u, 58);
    let mut checked = 0;
    for (n, &len) in lengths.iter().enumerate() {
        let msg = random_message(rng, len);
        let nonce: [u8; 8] = (n as u64 + 1).to_le_bytes();
        let pad = reference::iv_stream(&key, &nonce, T);
        let expect: Vec<u8> = reference::hash(&reference_keys, &msg).iter().zip(&pad).map(|(h, p)| h ^ p).collect();
        assert_eq!(mac.mac(&nonce, &msg).unwrap()[..], expect[..], "u = {u}, len {len}");
        if n % streamed_every == 0 {
            stream_randomly(rng, &msg, |piece| mac.update(piece));
            assert_eq!(mac.finalize_reset(&nonce).unwrap()[..], expect[..], "streamed: u = {u}, len {len}");
        }
        checked += 1;
    }
    checked
}

#[test]
fn streaming_form_equals_figure_3_on_every_length_up_to_4200() {
    let mut rng = StdRng::seed_from_u64(0xBAD6E5);
    let lengths: Vec<usize> = (0..=4200).collect();
    let total = nonce_mode_agrees::<4>(&mut rng, &lengths, 1)
        + nonce_mode_agrees::<8>(&mut rng, &lengths, 1)
        + nonce_mode_agrees::<12>(&mut rng, &lengths, 3)
        + nonce_mode_agrees::<16>(&mut rng, &lengths, 3)
        + nonce_mode_agrees::<20>(&mut rng, &lengths, 1);
    assert_eq!(total, 5 * 4201);
}

#[test]
fn streaming_form_equals_figure_3_at_powers_of_two_plus_minus_one_up_to_1_mib() {
    let mut rng = StdRng::seed_from_u64(0x2_0000);
    let lengths: Vec<usize> = (0..=20).flat_map(|k| [(1usize << k) - 1, 1 << k, (1 << k) + 1]).collect();
    let total = nonce_mode_agrees::<4>(&mut rng, &lengths, 2)
        + nonce_mode_agrees::<8>(&mut rng, &lengths, 1)
        + nonce_mode_agrees::<20>(&mut rng, &lengths, 2);
    assert_eq!(total, 3 * 63);
}

#[test]
fn random_streaming_splits_of_random_lengths() {
    let mut rng = StdRng::seed_from_u64(77);
    for _ in 0..300 {
        let len = rng.random_range(0..20_000);
        let msg = random_message(&mut rng, len);
        let key: [u8; 16] = rng.random();
        let nonce: [u8; 8] = rng.random::<u64>().max(1).to_le_bytes();
        let mut mac = Badger::<12>::new(&key);
        let expect = reference::tag_nonce(&key, 3, &nonce, &msg);
        for _ in 0..3 {
            stream_randomly(&mut rng, &msg, |piece| mac.update(piece));
            assert_eq!(mac.finalize_reset(&nonce).unwrap()[..], expect[..], "len {len}");
        }
        assert_eq!(mac.mac(&nonce, &msg).unwrap()[..], expect[..]);
    }
}

/// Sequential mode against the reference for one `u` and `v`: a sender's
/// tags (one-shot and streamed alternately) and a receiver accepting them.
fn sequential_agrees<const T: usize>(rng: &mut StdRng, levels: usize, lengths: &[usize]) {
    let key: [u8; 16] = rng.random();
    let msgs: Vec<Vec<u8>> = lengths.iter().map(|&len| random_message(rng, len)).collect();
    let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
    let expect = reference::tags_sequential(&key, T / 4, levels, &refs);
    let mut sender = BadgerSender::<T>::with_levels(&key, levels).unwrap();
    let mut receiver = BadgerReceiver::<T>::with_levels(&key, levels).unwrap();
    for (s, msg) in msgs.iter().enumerate() {
        assert_eq!(sender.position(), s as u64);
        let tag = if s % 2 == 0 {
            sender.tag(msg).unwrap()
        } else {
            stream_randomly(rng, msg, |piece| sender.update(piece));
            sender.finalize_reset().unwrap()
        };
        assert_eq!(tag[..], expect[s][..], "u = {}, v = {levels}, message {s}", T / 4);
        if s % 3 == 2 {
            stream_randomly(rng, msg, |piece| receiver.update(piece));
            receiver.verify_reset(&tag).unwrap();
        } else {
            receiver.verify(msg, &tag).unwrap();
        }
        assert_eq!(receiver.position(), s as u64 + 1);
    }
}

#[test]
fn sequential_mode_equals_the_reference_for_every_u_and_several_v() {
    let mut rng = StdRng::seed_from_u64(9);
    let lengths: Vec<usize> = (0..140).chain([1000, 1024, 1460, 1500, 1536, 4097, 4200]).collect();
    for levels in [58, 13, 10] {
        sequential_agrees::<4>(&mut rng, levels, &lengths);
        sequential_agrees::<8>(&mut rng, levels, &lengths);
        sequential_agrees::<12>(&mut rng, levels, &lengths);
        sequential_agrees::<16>(&mut rng, levels, &lengths);
        sequential_agrees::<20>(&mut rng, levels, &lengths);
    }
    // With v = 1 the longest message is 16 bytes.
    sequential_agrees::<8>(&mut rng, 1, &[0, 1, 8, 9, 16, 3]);
}

/// Streams `msg` in pieces of `piece` bytes (the last one shorter).
fn stream_in_pieces<F: FnMut(&[u8])>(msg: &[u8], piece: usize, update: F) {
    msg.chunks(piece).for_each(update);
}

/// For one `u`, every length from 0 to 4,200 bytes streamed through the
/// public calls in pieces of 1 byte and of 7, 8, 9, 64, 65 and 1,500 bytes
/// (whole blocks, partial blocks continued, a level-1 vector's blocks
/// under AVX2), in nonce mode against the one-shot tag, and in sequential
/// mode a streaming sender against a one-shot one and a streaming
/// receiver; returns the messages checked.
fn fixed_pieces_agree<const T: usize>(key: &[u8; 16], msg: &[u8]) -> usize {
    const PIECES: [usize; 7] = [1, 7, 8, 9, 64, 65, 1500];
    let mut mac = Badger::<T>::new(key);
    let (mut one_shot, mut streaming) = (BadgerSender::<T>::new(key), BadgerSender::<T>::new(key));
    let mut receiver = BadgerReceiver::<T>::new(key);
    let mut checked = 0;
    for len in 0..=msg.len() {
        let msg = &msg[..len];
        let nonce = (len as u64 + 1).to_le_bytes();
        let tag = mac.mac(&nonce, msg).unwrap();
        for piece in PIECES {
            stream_in_pieces(msg, piece, |part| mac.update(part));
            assert_eq!(mac.finalize_reset(&nonce).unwrap(), tag, "u = {}, {len} bytes in pieces of {piece}", T / 4);
            checked += 1;
        }
        let piece = PIECES[len % PIECES.len()];
        stream_in_pieces(msg, piece, |part| streaming.update(part));
        let sequential = streaming.finalize_reset().unwrap();
        assert_eq!(sequential, one_shot.tag(msg).unwrap(), "sequential: u = {}, {len} bytes", T / 4);
        stream_in_pieces(msg, PIECES[(len + 1) % PIECES.len()], |part| receiver.update(part));
        receiver.verify_reset(&sequential).unwrap();
        checked += 1;
    }
    checked
}

/// Under emulation (`make test-cross`) the lengths stop at 1,100 bytes:
/// the byte-at-a-time pieces make the cost grow with the square of the
/// longest length (32 s of qemu-s390x to 4,200 bytes), and the streaming
/// logic is the same on every architecture; test-rust runs every length.
#[test]
fn streaming_in_fixed_pieces_equals_one_shot_for_every_u_in_both_modes() {
    let mut rng = StdRng::seed_from_u64(0x5713_EA4D);
    let key: [u8; 16] = rng.random();
    let longest = if common::emulated() { 1100 } else { 4200 };
    let msg = random_message(&mut rng, longest);
    let total = fixed_pieces_agree::<4>(&key, &msg)
        + fixed_pieces_agree::<8>(&key, &msg)
        + fixed_pieces_agree::<12>(&key, &msg)
        + fixed_pieces_agree::<16>(&key, &msg)
        + fixed_pieces_agree::<20>(&key, &msg);
    assert_eq!(total, 5 * (longest + 1) * 8);
}

// --- Structural identities (docs/badger.md section 8) ---------------------------

const KEY: [u8; 16] = *b"badger key 0123.";
const NONCE: [u8; 8] = 0x0123_4567_89AB_CDEFu64.to_le_bytes();

/// `S^1..S^u` of a nonce-mode tag: the tag XOR the IV stream.
fn unpadded(tag: &[u8]) -> Vec<u32> {
    let pad = reference::iv_stream(&KEY, &NONCE, tag.len());
    tag.chunks(4).zip(pad.chunks(4)).map(|(t, p)| u32::from_le_bytes(core::array::from_fn(|b| t[b] ^ p[b]))).collect()
}

#[test]
fn empty_message_tag_is_the_last_f_key_xor_the_pad() {
    let keys = reference::key_setup(&KEY, 5, 58);
    let tag = Badger::<20>::new(&KEY).mac(&NONCE, b"").unwrap();
    let expect: Vec<u32> = (0..5).map(|i| keys.fk[5][i] as u32).collect();
    assert_eq!(unpadded(&tag), expect);
}

#[test]
fn messages_of_1_to_8_bytes_hash_to_their_zero_extended_block() {
    let keys = reference::key_setup(&KEY, 2, 58);
    let mac = Badger::<8>::new(&KEY);
    for len in 1..=8 {
        let msg: Vec<u8> = (0..len as u8).map(|b| 0xA0 ^ b).collect();
        let mut block = [0u8; 8];
        block[..len].copy_from_slice(&msg);
        let h = u64::from_le_bytes(block);
        let expect: Vec<u32> = (0..2).map(|i| reference::f(&keys, i, 8 * len as u64, h) as u32).collect();
        assert_eq!(unpadded(&mac.mac(&NONCE, &msg).unwrap()), expect, "len {len}");
    }
}

#[test]
fn every_unpadded_chunk_is_below_p() {
    let mut rng = StdRng::seed_from_u64(3);
    let mac = Badger::<20>::new(&KEY);
    for _ in 0..2000 {
        let len = rng.random_range(0..300);
        let msg = random_message(&mut rng, len);
        for s in unpadded(&mac.mac(&NONCE, &msg).unwrap()) {
            assert!(u64::from(s) < P);
        }
        for chunk in mac.hash(&msg).unwrap().chunks(4) {
            assert!(u64::from(u32::from_le_bytes(chunk.try_into().unwrap())) < P);
        }
    }
}

#[test]
fn hash_is_the_tag_before_the_pad() {
    let mac = Badger::<16>::new(&KEY);
    let msg = b"the pad is the only difference";
    let hashed: Vec<u32> =
        mac.hash(msg).unwrap().chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(hashed, unpadded(&mac.mac(&NONCE, msg).unwrap()));
}

#[test]
fn prefix_verification_checks_exactly_the_first_w_chunks() {
    let mac = Badger::<20>::new(&KEY);
    let msg = b"verifier-selectable assurance";
    let tag = mac.mac(&NONCE, msg).unwrap();
    for w in 1..=5 {
        mac.verify_prefix(&NONCE, msg, &tag, w).unwrap();
        mac.verify_prefix(&NONCE, msg, &tag[..4 * w], w).unwrap();
        for byte in 0..20 {
            let mut bad = tag;
            bad[byte] ^= 0x10;
            let result = mac.verify_prefix(&NONCE, msg, &bad, w);
            if byte < 4 * w {
                assert_eq!(result, Err(Error::InvalidTag), "w {w}, byte {byte}");
            } else {
                assert_eq!(result, Ok(()), "w {w}, byte {byte}: chunk {} is not checked", byte / 4 + 1);
            }
        }
        // Streamed too.
        let mut streaming = mac.clone();
        streaming.update(msg);
        streaming.verify_prefix_reset(&NONCE, &tag, w).unwrap();
    }
    assert_eq!(mac.verify(&NONCE, b"other message", &tag), Err(Error::InvalidTag));
    let out_of_range = |w| Err(Error::OutOfRange { what: "trees to verify", min: 1, max: 5, got: w });
    assert_eq!(mac.verify_prefix(&NONCE, msg, &tag, 0), out_of_range(0));
    assert_eq!(mac.verify_prefix(&NONCE, msg, &tag, 6), out_of_range(6));
    assert_eq!(mac.verify_prefix(&NONCE, msg, &tag[..7], 2), Err(Error::TagLength { expected: 20, got: 7 }));
}

#[test]
fn sequential_receiver_prefix_still_advances_the_whole_tag() {
    let mut sender = BadgerSender::<12>::new(&KEY);
    let mut receiver = BadgerReceiver::<12>::new(&KEY);
    let tags: Vec<[u8; 12]> = (0..4).map(|s| sender.tag(&[s as u8; 40]).unwrap()).collect();
    receiver.verify_prefix(&[0; 40], &tags[0][..4], 1).unwrap();
    receiver.verify_prefix(&[1; 40], &tags[1], 2).unwrap();
    receiver.verify(&[2; 40], &tags[2]).unwrap();
    let mut bad = tags[3];
    bad[4] ^= 1;
    receiver.verify_prefix(&[3; 40], &bad, 1).unwrap();
    assert_eq!(receiver.position(), 4);
}

#[test]
fn key_layout_depends_on_u() {
    let one = reference::key_setup(&KEY, 1, 58);
    let two = reference::key_setup(&KEY, 2, 58);
    assert_eq!(one.fk[0][0], two.fk[0][0], "K_1^1 is word 0 for every u");
    assert_ne!(one.fk[1][0], two.fk[1][0]);
    assert_ne!(one.lk[0][0], two.lk[0][0]);
    // So a 32-bit tag is not a prefix of the 64-bit tag under one key.
    for msg in [&b""[..], b"x", b"a longer message of several blocks"] {
        let t32 = Badger::<4>::new(&KEY).mac(&NONCE, msg).unwrap();
        let t64 = Badger::<8>::new(&KEY).mac(&NONCE, msg).unwrap();
        assert_ne!(t32[..], t64[..4]);
    }
}

#[test]
fn nonce_zero_is_rejected_everywhere_and_would_reuse_key_material() {
    let mut mac = Badger::<8>::new(&KEY);
    let zero = [0u8; 8];
    assert_eq!(mac.mac(&zero, b"m"), Err(Error::ZeroNonce));
    assert_eq!(mac.verify(&zero, b"m", &[0; 8]), Err(Error::ZeroNonce));
    assert_eq!(mac.verify_prefix(&zero, b"m", &[0; 8], 1), Err(Error::ZeroNonce));
    mac.update(b"m");
    assert_eq!(mac.finalize_reset(&zero), Err(Error::ZeroNonce));
    // The streamed input survives a bad nonce.
    assert_eq!(mac.finalize_reset(&NONCE).unwrap(), mac.mac(&NONCE, b"m").unwrap());
    assert!(Error::ZeroNonce.to_string().contains("nonce 0 is reserved"));
    // Why (docs/badger.md section 5): IS(0) equals KS from byte 64, and for
    // u = 2 those 8 bytes are the level key k_2 of tree 1.
    let ks = reference::key_only_stream(&KEY, 128);
    assert_eq!(reference::iv_stream(&KEY, &zero, 64), ks[64..]);
    let keys = reference::key_setup(&KEY, 2, 58);
    if keys.p0 == 4 * 12 + 8 * 2 * 58 {
        // No redraw happened, so the layout is the textbook one.
        assert_eq!(keys.lk[1][0].to_le_bytes()[..], ks[64..72]);
    }
    // Nonces differing only in the top byte are fine.
    let mut top = [0u8; 8];
    top[7] = 1;
    mac.mac(&top, b"m").unwrap();
}

#[test]
fn bad_lengths_and_parameters_are_typed_errors() {
    assert_eq!(Badger::<8>::new_from_slice(&[0; 15]).unwrap_err(), Error::KeyLength { expected: 16, got: 15 });
    let mac = Badger::<8>::new(&KEY);
    assert_eq!(mac.mac(&[1; 7], b""), Err(Error::NonceLength { min: 8, max: 8, got: 7 }));
    assert_eq!(mac.mac(&[1; 16], b""), Err(Error::NonceLength { min: 8, max: 8, got: 16 }));
    assert_eq!(mac.verify(&NONCE, b"", &[0; 9]), Err(Error::TagLength { expected: 8, got: 9 }));
    for levels in [0, 59] {
        let expect = Error::OutOfRange { what: "Badger tree levels", min: 1, max: 58, got: levels };
        assert_eq!(Badger::<8>::with_levels(&KEY, levels).unwrap_err(), expect);
        assert_eq!(BadgerSender::<8>::with_levels(&KEY, levels).unwrap_err(), expect);
        assert_eq!(BadgerReceiver::<8>::with_levels(&KEY, levels).unwrap_err(), expect);
    }
    assert_eq!(Badger::<8>::new(&KEY).max_message_len(), (1 << 61) - 1);
}

#[test]
fn messages_longer_than_v_levels_allow_are_rejected() {
    // v = 2: at most 4 blocks, 32 bytes.
    let mut mac = Badger::<8>::with_levels(&KEY, 2).unwrap();
    assert_eq!(mac.max_message_len(), 32);
    let too_long = Err(Error::MessageTooLong { max: 32 });
    mac.mac(&NONCE, &[5; 32]).unwrap();
    assert_eq!(mac.mac(&NONCE, &[5; 33]), too_long);
    // Nonce-mode tags do not depend on v.
    assert_eq!(mac.mac(&NONCE, &[5; 32]).unwrap(), Badger::<8>::new(&KEY).mac(&NONCE, &[5; 32]).unwrap());
    mac.update(&[5; 20]);
    mac.update(&[5; 13]);
    assert_eq!(mac.finalize_reset(&NONCE), too_long);
    // The state was reset: the next message works.
    mac.update(&[5; 32]);
    mac.verify_reset(&NONCE, &mac.mac(&NONCE, &[5; 32]).unwrap()).unwrap();
    // A sender rejects it without spending a pad.
    let mut sender = BadgerSender::<8>::with_levels(&KEY, 2).unwrap();
    assert_eq!(sender.tag(&[0; 40]), too_long);
    assert_eq!(sender.position(), 0);
    assert!(Error::MessageTooLong { max: 32 }.to_string().contains("at most 32 bytes"));
}

#[test]
fn sequential_mode_is_ordered_and_forgeries_do_not_desynchronise() {
    let mut sender = BadgerSender::<8>::new(&KEY);
    let mut receiver = BadgerReceiver::<8>::new(&KEY);
    let t0 = sender.tag(b"first").unwrap();
    let t1 = sender.tag(b"second").unwrap();
    // Out of order: message 1 is not accepted as message 0.
    assert_eq!(receiver.verify(b"second", &t1), Err(Error::InvalidTag));
    // A forgery is rejected and leaves the position alone.
    let mut forged = t0;
    forged[0] ^= 0x80;
    assert_eq!(receiver.verify(b"first", &forged), Err(Error::InvalidTag));
    assert_eq!(receiver.position(), 0);
    receiver.verify(b"first", &t0).unwrap();
    receiver.verify(b"second", &t1).unwrap();
    // The same message gets a different tag each time (fresh pads).
    assert_ne!(sender.tag(b"first").unwrap(), t0);
    // In sequential mode the tags depend on v (the pads start after the keys).
    let mut short = BadgerSender::<8>::with_levels(&KEY, 20).unwrap();
    assert_ne!(short.tag(b"first").unwrap(), t0);
}

#[test]
fn reset_discards_streamed_input() {
    let mut mac = Badger::<8>::new(&KEY);
    mac.update(b"garbage that is dropped");
    mac.reset();
    mac.update(b"msg");
    assert_eq!(mac.finalize_reset(&NONCE).unwrap(), mac.mac(&NONCE, b"msg").unwrap());
    let mut sender = BadgerSender::<4>::new(&KEY);
    sender.update(b"dropped");
    sender.reset();
    assert_eq!(sender.position(), 0);
    let tag = sender.tag(b"msg").unwrap();
    let mut receiver = BadgerReceiver::<4>::new(&KEY);
    receiver.update(b"dropped");
    receiver.reset();
    receiver.verify(b"msg", &tag).unwrap();
}

#[test]
fn registry_names_and_dyn_mac_match_the_typed_api() {
    use fastmac::Algorithm;
    use fastmac::badger::forgery_bound_log2;
    let msg = b"registry message, longer than one block";
    for (name, tag_len) in
        [("badger-32", 4), ("badger-64", 8), ("badger-96", 12), ("badger-128", 16), ("BADGER-160", 20)]
    {
        let alg = Algorithm::from_name(name).unwrap();
        let info = alg.info();
        assert_eq!((info.key_len, info.min_nonce_len, info.max_nonce_len, info.tag_len), (16, 8, 8, tag_len));
        let exact = forgery_bound_log2(tag_len / 4, (1 << 61) - 1);
        assert!((info.forgery_bound_log2 - exact).abs() < 0.005, "{name}: {}", info.forgery_bound_log2);
        let mut dyn_mac = alg.new_mac(&KEY).unwrap();
        dyn_mac.update(&msg[..5]);
        dyn_mac.update(&msg[5..]);
        let mut tag = vec![0u8; tag_len];
        dyn_mac.finalize_reset_into(&NONCE, &mut tag).unwrap();
        assert_eq!(tag, reference::tag_nonce(&KEY, tag_len / 4, &NONCE, msg), "{name}");
        dyn_mac.update(msg);
        dyn_mac.verify_reset(&NONCE, &tag).unwrap();
        let mut short = vec![0u8; tag_len - 1];
        assert_eq!(
            dyn_mac.finalize_reset_into(&NONCE, &mut short),
            Err(Error::TagLength { expected: tag_len, got: tag_len - 1 })
        );
        assert_eq!(dyn_mac.finalize_reset_into(&[0; 8], &mut tag), Err(Error::ZeroNonce));
    }
}

/// `Backend::set_default` chooses Badger's tree code for the keys made
/// after it, as it chooses NH's (`umac/nh/platform.rs`), and under every
/// backend this CPU runs the tags are the portable code's: nonce mode
/// one-shot and streamed, and sequential mode.
#[test]
fn set_default_chooses_the_tree_code_and_every_backend_gives_the_portable_tags() {
    use fastmac::umac::Backend;
    let mut rng = StdRng::seed_from_u64(0x5e7d_efa0);
    let key: [u8; 16] = rng.random();
    let msg = random_message(&mut rng, 5000);
    let lengths: Vec<usize> = (0..=300).chain([511, 512, 1000, 1500, 1536, 4000, 4096, 5000]).collect();
    let tags = |trees: Backend, rng: &mut StdRng| -> Vec<[u8; 12]> {
        let mut mac = Badger::<12>::new(&key);
        let mut sender = BadgerSender::<12>::new(&key);
        let mut receiver = BadgerReceiver::<12>::new(&key);
        assert_eq!((mac.backend(), sender.backend(), receiver.backend()), (trees, trees, trees));
        let mut out = Vec::new();
        for (n, &len) in lengths.iter().enumerate() {
            let nonce = (n as u64 + 1).to_le_bytes();
            let tag = mac.mac(&nonce, &msg[..len]).unwrap();
            stream_randomly(rng, &msg[..len], |piece| mac.update(piece));
            assert_eq!(mac.finalize_reset(&nonce).unwrap(), tag, "{trees}: streamed, {len} bytes");
            let sequential = sender.tag(&msg[..len]).unwrap();
            receiver.verify(&msg[..len], &sequential).unwrap();
            out.extend([tag, sequential]);
        }
        out
    };
    Backend::set_default(Some(Backend::Portable)).unwrap();
    let portable = tags(Backend::Portable, &mut rng);
    for backend in Backend::supported() {
        let trees = match backend {
            Backend::Avx2 | Backend::Avx512 => backend,
            _ => Backend::Portable,
        };
        assert_eq!(backend.badger_trees(), trees, "{backend}");
        Backend::set_default(Some(backend)).unwrap();
        assert!(tags(trees, &mut rng) == portable, "{backend}: the tags differ from the portable code's");
    }
    Backend::set_default(None).unwrap();
    assert_eq!(Badger::<12>::new(&key).backend(), Backend::detect().badger_trees());
    // A backend this CPU cannot run never names vector code.
    for backend in Backend::ALL.into_iter().filter(|b| !b.is_supported()) {
        assert_eq!(backend.badger_trees(), Backend::Portable, "{backend}");
    }
}
