//! RFC 4418 appendix vectors (with the 'a' * 2^25 erratum and Nettle's
//! UMAC-128 column), read from tests/vectors/rfc4418.txt.

use crate::common;

use fastmac::Error;
use fastmac::umac::{TagLen, Umac, Umac32, Umac64, Umac96, Umac128, UmacTagLen};

fn check<const N: usize>(column: usize) -> usize
where
    TagLen<N>: UmacTagLen,
{
    let (key, nonce, rows) = common::rfc4418_vectors();
    let mut mac = Umac::<N>::new_from_slice(&key).unwrap();
    for row in &rows {
        let expect = &row.tags[column];
        let len = row.message.len();
        assert_eq!(&mac.mac(&nonce, &row.message).unwrap()[..], &expect[..], "UMAC-{} len {len}", N * 8);
        mac.verify(&nonce, &row.message, expect).unwrap();
        // Through a shared reference: the pad from one AES block, no cache.
        assert_eq!(&mac.mac_shared(&nonce, &row.message).unwrap()[..], &expect[..], "shared, len {len}");
        mac.verify_shared(&nonce, &row.message, expect).unwrap();
        // Streaming in uneven pieces gives the same tag.
        for piece in row.message.chunks(1000 + 7) {
            mac.update(piece);
        }
        assert_eq!(&mac.finalize_reset(&nonce).unwrap()[..], &expect[..], "streamed, len {len}");
        // Any flipped bit of the tag is rejected. Under emulation only on
        // the rows below 1 MiB: each flip re-hashes the whole message.
        if common::emulated() && len >= 1 << 20 {
            continue;
        }
        for bit in 0..8 * N {
            let mut bad = expect.clone();
            bad[bit / 8] ^= 1 << (bit % 8);
            assert_eq!(mac.verify(&nonce, &row.message, &bad), Err(Error::InvalidTag));
        }
    }
    rows.len()
}

#[test]
fn umac32_vectors() {
    assert_eq!(check::<4>(0), 8);
}

#[test]
fn umac64_vectors() {
    assert_eq!(check::<8>(1), 8);
}

#[test]
fn umac96_vectors() {
    assert_eq!(check::<12>(2), 8);
}

#[test]
fn umac128_vectors() {
    assert_eq!(check::<16>(3), 8);
}

#[test]
fn uhash_nests_across_tag_lengths() {
    // RFC 4418 section 5.1: iteration i uses the same key slices whatever
    // the tag length, so shorter UHASH outputs are prefixes of longer ones.
    let (key, _, rows) = common::rfc4418_vectors();
    let key: &[u8; 16] = key.as_slice().try_into().unwrap();
    for row in rows.iter().filter(|r| r.message.len() < 1 << 21) {
        let h128 = Umac128::new(key).uhash(&row.message);
        assert_eq!(Umac96::new(key).uhash(&row.message)[..], h128[..12]);
        assert_eq!(Umac64::new(key).uhash(&row.message)[..], h128[..8]);
        assert_eq!(Umac32::new(key).uhash(&row.message)[..], h128[..4]);
    }
}

#[test]
fn bad_lengths_are_typed_errors() {
    assert_eq!(Umac64::new_from_slice(&[0; 15]).unwrap_err(), Error::KeyLength { expected: 16, got: 15 });
    assert_eq!(Umac64::new_from_slice(&[0; 17]).unwrap_err(), Error::KeyLength { expected: 16, got: 17 });
    let mut mac = Umac64::new(&[7; 16]);
    let nonce_err = |got| Error::NonceLength { min: 1, max: 16, got };
    assert_eq!(mac.mac(&[], b"m").unwrap_err(), nonce_err(0));
    assert_eq!(mac.mac(&[0; 17], b"m").unwrap_err(), nonce_err(17));
    assert_eq!(mac.verify(&[1], b"m", &[0; 7]).unwrap_err(), Error::TagLength { expected: 8, got: 7 });
    assert_eq!(mac.verify(&[1], b"m", &[0; 16]).unwrap_err(), Error::TagLength { expected: 8, got: 16 });
    // A bad nonce at finalize keeps the streamed input for a retry.
    mac.update(b"abc");
    assert!(mac.finalize_reset(&[]).is_err());
    assert_eq!(mac.finalize_reset(b"n").unwrap(), mac.mac(b"n", b"abc").unwrap());
    // Messages name lengths, never bytes.
    assert_eq!(nonce_err(0).to_string(), "wrong nonce length: expected 1 to 16 bytes, got 0");
}

#[test]
fn one_key_many_messages_and_clones_agree() {
    // The Linux vmac bug: per-message state kept in the key object made only
    // the first tag right. Tag many messages with one object, and compare
    // with fresh objects and clones used from other threads.
    let key = [0x5a; 16];
    let mut reused = Umac128::new(&key);
    let msgs: Vec<Vec<u8>> = (0..300).map(|i| vec![i as u8; i * 7]).collect();
    let tags: Vec<[u8; 16]> =
        msgs.iter().enumerate().map(|(i, m)| reused.mac(&(i as u64).to_be_bytes(), m).unwrap()).collect();
    for (i, m) in msgs.iter().enumerate().step_by(37) {
        assert_eq!(Umac128::new(&key).mac(&(i as u64).to_be_bytes(), m).unwrap(), tags[i]);
    }
    std::thread::scope(|s| {
        for t in 0..2 {
            let mut mine = reused.clone();
            let (msgs, tags) = (&msgs, &tags);
            s.spawn(move || {
                for (i, m) in msgs.iter().enumerate().skip(t) {
                    assert_eq!(mine.mac(&(i as u64).to_be_bytes(), m).unwrap(), tags[i]);
                }
            });
        }
    });
}
