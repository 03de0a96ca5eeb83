//! The one-pass 16-byte field (docs/umac.md sections 3.2 to 3.5, docs/gears.md section 6.3): every
//! prefix equals the standalone RFC 4418 tag where the RFC says it must,
//! the gears path never uses the sliced UMAC-32/64 pads, and the whole
//! sender path (HKDF keys, wire header, nonce = 4 * seq) produces standard
//! UMAC-32/64/96/128 tags.

use std::time::Duration;

use fastmac::umac::{NestedPads, NestedUmac, Umac32, Umac64, Umac96, Umac128};
use fastmac_gears::{NonceMode, Profile, Sender, SenderConfig, SessionSecret};
use hkdf::Hkdf;
use proptest::prelude::*;
use sha2::Sha256;

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// UHASH nests (docs/umac.md section 3.2): the `4j`-byte prefix, computed with `j`
    /// iterations, is the prefix of UMAC-128 at any nonce, and equals
    /// UMAC-96 at any nonce.
    #[test]
    fn prefixes_are_umac128_prefixes(
        key in any::<[u8; 16]>(),
        nonce in proptest::collection::vec(any::<u8>(), 1..=16),
        msg in proptest::collection::vec(any::<u8>(), 0..2600),
    ) {
        let nested = NestedUmac::new(&key);
        let full = Umac128::new(&key).mac(&nonce, &msg).unwrap();
        prop_assert_eq!(nested.field(&nonce, &msg).unwrap(), full);
        for len in 1..=16 {
            let mut prefix = vec![0u8; len];
            nested.prefix_into(&nonce, &msg, &mut prefix).unwrap();
            prop_assert_eq!(&prefix[..], &full[..len]);
            prop_assert!(nested.verify_prefix(&nonce, &msg, &full[..len]).is_ok());
        }
        prop_assert_eq!(&full[..12], &Umac96::new(&key).mac(&nonce, &msg).unwrap()[..]);
    }

    /// With nonce = BE64(4 * seq), the 4- and 8-byte prefixes are also the
    /// standalone UMAC-32 and UMAC-64 tags (docs/umac.md section 3.3).
    #[test]
    fn nonce_four_seq_makes_every_prefix_a_standard_tag(
        key in any::<[u8; 16]>(),
        seq in 0u64..(1 << 62),
        msg in proptest::collection::vec(any::<u8>(), 0..2100),
    ) {
        let nonce = (4 * seq).to_be_bytes();
        let field = NestedUmac::new(&key).field(&nonce, &msg).unwrap();
        prop_assert_eq!(&field[..4], &Umac32::new(&key).mac(&nonce, &msg).unwrap()[..]);
        prop_assert_eq!(&field[..8], &Umac64::new(&key).mac(&nonce, &msg).unwrap()[..]);
        prop_assert_eq!(&field[..12], &Umac96::new(&key).mac(&nonce, &msg).unwrap()[..]);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// The prefetched pads of [`NestedPads`] never change a tag: a run of
    /// nonces (counter steps of the cache's stride, mixed with repeats,
    /// jumps back and forth, and counters about to wrap) gives the same
    /// prefixes and verdicts as the uncached path.
    #[test]
    fn pad_cache_never_changes_a_tag(
        key in any::<[u8; 16]>(),
        nonce_len in 1usize..=16,
        counter_byte in 0usize..16,
        steps in proptest::collection::vec((0u8..4, any::<u64>(), 1usize..=16), 1..60),
    ) {
        let counter_byte = counter_byte.min(nonce_len - 1);
        let stride = 1u128 << (8 * (15 - counter_byte));
        let nested = NestedUmac::new(&key);
        let mut pads = NestedPads::new(stride);
        let mut block = 0u128;
        let msg = [0x5au8; 100];
        for (kind, jump, len) in steps {
            block = match kind {
                0 | 1 => block.wrapping_add(stride), // the counter, as intended
                2 => u128::from(jump) << 64 | u128::from(jump), // anywhere
                _ => u128::MAX - stride * u128::from(jump % 3), // about to wrap
            };
            let nonce = &block.to_be_bytes()[..nonce_len];
            let mut cached = vec![0u8; len];
            let mut direct = vec![0u8; len];
            nested.prefix_into_cached(&mut pads, nonce, &msg, &mut cached).unwrap();
            nested.prefix_into(nonce, &msg, &mut direct).unwrap();
            prop_assert_eq!(&cached, &direct);
            prop_assert!(nested.verify_prefix_cached(&mut pads, nonce, &msg, &direct).is_ok());
            direct[0] ^= 1;
            prop_assert!(nested.verify_prefix_cached(&mut pads, nonce, &msg, &direct).is_err());
        }
    }
}

/// `K_umac` of docs/gears.md section 6.3, derived here independently of the library.
fn k_umac(secret: &[u8], epoch: u16) -> [u8; 16] {
    let mut info = b"gears v1 umac".to_vec();
    info.extend_from_slice(&epoch.to_be_bytes());
    let mut key = [0u8; 16];
    Hkdf::<Sha256>::new(None, secret).expand(&info, &mut key).unwrap();
    key
}

/// The whole sender path in RFC-prefix mode: a U32/U64/U96/U128 packet's
/// tag is the standalone RFC tag of `header || payload` under `K_umac` with
/// nonce BE64(4 * seq), over two epochs.
#[test]
fn rfc_prefix_mode_packets_carry_standard_tags() {
    let secret = [0x42u8; 32];
    for (profile, tag_len) in [(Profile::U32, 4), (Profile::U64, 8), (Profile::U96, 12), (Profile::U128, 16)] {
        let mut config = SenderConfig::new(profile);
        config.nonce_mode = NonceMode::RfcPrefix;
        config.limits.packets = 40; // rekey after 40 packets
        let mut sender = Sender::new(SessionSecret::new(&secret).unwrap(), config, Duration::ZERO).unwrap();
        for i in 0..80u64 {
            let payload: Vec<u8> = (0..(i * 37 % 1500)).map(|b| (b * 7 + i) as u8).collect();
            let (epoch, seq) = (sender.epoch(), sender.next_seq());
            let seq = if sender.next_seq() == 40 { 0 } else { seq };
            let epoch = if sender.next_seq() == 40 { epoch + 1 } else { epoch };
            let packet = sender.seal(Duration::ZERO, &payload).unwrap();
            let (body, tag) = packet.split_at(packet.len() - tag_len);
            assert_eq!(u16::from_be_bytes([packet[2], packet[3]]), epoch);
            let key = k_umac(&secret, epoch);
            let nonce = (4 * seq).to_be_bytes();
            let expected: Vec<u8> = match tag_len {
                4 => Umac32::new(&key).mac(&nonce, body).unwrap().to_vec(),
                8 => Umac64::new(&key).mac(&nonce, body).unwrap().to_vec(),
                12 => Umac96::new(&key).mac(&nonce, body).unwrap().to_vec(),
                _ => Umac128::new(&key).mac(&nonce, body).unwrap().to_vec(),
            };
            assert_eq!(tag, &expected[..], "{profile} packet {i}");
        }
        assert_eq!(sender.epoch(), 1);
    }
}

/// Regression for docs/umac.md section 3.4: the gears key must never reach the native
/// UMAC-32/64 PDF, whose sliced pads reuse pad bytes across tag lengths.
///
/// Native tags exhibit the leak `UMAC64(M, 1)[0..4] ^ UMAC32(M', 2) =
/// UHASH32(M) ^ UHASH32(M')` (both use `AES_K'(0)[8..12]`); the test first
/// shows it can see that leak, then checks every gears prefix over a run of
/// nonces: each equals the UMAC-128 prefix and, at nonces the RFC slices
/// differently, differs from the native UMAC-32/64 tag.
#[test]
fn gears_key_never_reaches_the_native_umac32_64_pad() {
    let key = *b"gears regression";
    let (m, m2) = (vec![1u8; 300], vec![2u8; 700]);
    let xor = |a: &[u8], b: &[u8]| -> Vec<u8> { a.iter().zip(b).map(|(x, y)| x ^ y).collect() };
    let n = |v: u64| v.to_be_bytes();
    let uhash_diff = xor(&Umac32::new(&key).uhash(&m), &Umac32::new(&key).uhash(&m2));

    // The hazard is visible with the native types...
    let native64 = Umac64::new(&key).mac(&n(1), &m).unwrap();
    let native32 = Umac32::new(&key).mac(&n(2), &m2).unwrap();
    assert_eq!(xor(&native64[..4], &native32), uhash_diff, "the test must be able to see the leak");

    // ...and absent from the gears prefixes at the same nonces.
    let nested = NestedUmac::new(&key);
    let mut g64 = [0u8; 8];
    let mut g32 = [0u8; 4];
    nested.prefix_into(&n(1), &m, &mut g64).unwrap();
    nested.prefix_into(&n(2), &m2, &mut g32).unwrap();
    assert_ne!(xor(&g64[..4], &g32), uhash_diff);

    // Every prefix over 64 consecutive nonces, as the Group mode (12-byte
    // nonces whose last byte is the sender id) and raw counters use them.
    let mut u32n = Umac32::new(&key);
    let mut u64n = Umac64::new(&key);
    let mut u128n = Umac128::new(&key);
    for v in 0u64..64 {
        for nonce in [n(v).to_vec(), [n(v).as_slice(), &[0, 0, 0, (v % 4) as u8]].concat()] {
            let full = u128n.mac(&nonce, &m).unwrap();
            let mut p4 = [0u8; 4];
            let mut p8 = [0u8; 8];
            nested.prefix_into(&nonce, &m, &mut p4).unwrap();
            nested.prefix_into(&nonce, &m, &mut p8).unwrap();
            assert_eq!((&p4[..], &p8[..]), (&full[..4], &full[..8]));
            let last = nonce[nonce.len() - 1];
            if last % 4 != 0 {
                assert_ne!(p4, u32n.mac(&nonce, &m).unwrap(), "nonce {nonce:?}: U32 used the sliced pad");
            }
            if last % 2 != 0 {
                assert_ne!(p8, u64n.mac(&nonce, &m).unwrap(), "nonce {nonce:?}: U64 used the sliced pad");
            }
        }
    }
}
