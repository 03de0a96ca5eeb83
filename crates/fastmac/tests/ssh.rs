//! The `ssh` module: MACs by SSH name, as OpenSSH's mac.c computes them.
//! UMAC is checked against GNU Nettle with the sequence number as an 8-byte
//! big-endian nonce; the HMACs against the RFC-checked `hmac` module over
//! `uint32 seq || packet`. (The Python tests prove the same names against a
//! real OpenSSH server.)

mod common;

#[cfg(all(fastmac_nettle, target_arch = "x86_64"))]
use common::nettle::NettleUmac;
use fastmac::Error;
use fastmac::hmac::{HashFunction, Hmac};
use fastmac::ssh::{ALGORITHMS, InboundMac, OutboundMac, SshAlgorithm, SshMac};
use rand::{Rng, SeedableRng, rngs::StdRng};

const EXPECTED_NAMES: [&str; 19] = [
    "umac-64@openssh.com",
    "umac-128@openssh.com",
    "umac-64-etm@openssh.com",
    "umac-128-etm@openssh.com",
    "hmac-sha2-256",
    "hmac-sha2-512",
    "hmac-sha1",
    "hmac-sha1-96",
    "hmac-md5",
    "hmac-md5-96",
    "hmac-ripemd160",
    "hmac-ripemd160@openssh.com",
    "hmac-sha2-256-etm@openssh.com",
    "hmac-sha2-512-etm@openssh.com",
    "hmac-sha1-etm@openssh.com",
    "hmac-sha1-96-etm@openssh.com",
    "hmac-md5-etm@openssh.com",
    "hmac-md5-96-etm@openssh.com",
    "hmac-ripemd160-etm@openssh.com",
];

#[test]
fn every_openssh_name_is_listed_with_its_lengths() {
    assert_eq!(ALGORITHMS.len(), EXPECTED_NAMES.len());
    for name in EXPECTED_NAMES {
        let alg = SshAlgorithm::from_name(name).unwrap();
        assert_eq!(alg.etm, name.contains("-etm@"), "{name}");
        // OpenSSH mac.c: key_len and tag length per name.
        let (key_len, tag_len) = match name.split("-etm").next().unwrap().trim_end_matches("@openssh.com") {
            "umac-64" => (16, 8),
            "umac-128" => (16, 16),
            "hmac-sha2-256" => (32, 32),
            "hmac-sha2-512" => (64, 64),
            "hmac-sha1" => (20, 20),
            "hmac-sha1-96" => (20, 12),
            "hmac-md5" => (16, 16),
            "hmac-md5-96" => (16, 12),
            "hmac-ripemd160" => (20, 20),
            other => panic!("unexpected {other}"),
        };
        assert_eq!((alg.key_len, alg.tag_len), (key_len, tag_len), "{name}");
        let mac = SshMac::new(name, &vec![1u8; key_len]).unwrap();
        assert_eq!((mac.name(), mac.key_len(), mac.tag_len(), mac.is_etm()), (name, key_len, tag_len, alg.etm));
    }
}

// libnettle is linked under `--cfg fastmac_nettle` on x86_64 only (see
// common/mod.rs); the known-answer test below checks the UMAC names on every
// target and build.
#[cfg(all(fastmac_nettle, target_arch = "x86_64"))]
#[test]
fn umac_names_equal_nettle_with_the_sequence_number_as_nonce() {
    let mut rng = StdRng::seed_from_u64(0x5353_4800);
    let mut buf = vec![0u8; 40_000];
    for name in ["umac-64@openssh.com", "umac-128@openssh.com", "umac-64-etm@openssh.com", "umac-128-etm@openssh.com"] {
        let key: [u8; 16] = rng.random();
        let mut ours = SshMac::new(name, &key).unwrap();
        let mut theirs = NettleUmac::new(ours.tag_len(), &key);
        // Consecutive sequence numbers (the pad cache), wrap-around, random.
        let seqs =
            (0..300u32).chain(u32::MAX - 5..=u32::MAX).chain((0..300).map(|_| rng.random::<u32>()).collect::<Vec<_>>());
        for seq in seqs {
            let len = rng.random_range(0..=buf.len());
            rng.fill(&mut buf[..len]);
            let packet = &buf[..len];
            let tag = ours.compute(seq, packet);
            let nonce = u64::from(seq).to_be_bytes();
            assert_eq!(&tag[..], &theirs.mac(&nonce, packet)[..], "{name} seq {seq} len {len}");
            ours.verify(seq, packet, &tag).unwrap();
        }
    }
}

#[test]
fn hmac_names_hash_the_sequence_number_then_the_packet() {
    let mut rng = StdRng::seed_from_u64(0x5353_4801);
    for alg in ALGORITHMS.iter().filter(|a| a.name.starts_with("hmac-")) {
        let hash = match alg.name {
            n if n.starts_with("hmac-sha2-256") => HashFunction::Sha256,
            n if n.starts_with("hmac-sha2-512") => HashFunction::Sha512,
            n if n.starts_with("hmac-sha1") => HashFunction::Sha1,
            n if n.starts_with("hmac-md5") => HashFunction::Md5,
            n if n.starts_with("hmac-ripemd160") => HashFunction::Ripemd160,
            n => panic!("{n}"),
        };
        let key: Vec<u8> = (0..alg.key_len).map(|_| rng.random()).collect();
        let mut ours = SshMac::new(alg.name, &key).unwrap();
        for _ in 0..200 {
            let seq: u32 = rng.random();
            let packet: Vec<u8> = (0..rng.random_range(0..3000)).map(|_| rng.random()).collect();
            let mut reference = Hmac::new(hash, &key);
            reference.update(&seq.to_be_bytes());
            reference.update(&packet);
            let mut full = vec![0u8; hash.output_len()];
            reference.finalize_reset_into(&mut full).unwrap();
            let tag = ours.compute(seq, &packet);
            assert_eq!(&tag[..], &full[..alg.tag_len], "{}", alg.name);
            // Streamed in two pieces.
            let mut stream = ours.start(seq);
            let (a, b) = packet.split_at(packet.len() / 3);
            stream.update(a);
            stream.update(b);
            stream.verify(&tag).unwrap();
        }
    }
}

#[test]
fn verify_rejects_wrong_tags_sequence_numbers_and_lengths() {
    for alg in ALGORITHMS {
        let mut mac = SshMac::new(alg.name, &vec![9u8; alg.key_len]).unwrap();
        let packet = b"\x00\x00\x00\x0c\x0a\x05hello\x00\x00\x00";
        let tag = mac.compute(7, packet);
        mac.verify(7, packet, &tag).unwrap();
        assert_eq!(mac.verify(8, packet, &tag), Err(Error::InvalidTag), "{}", alg.name);
        for i in 0..tag.len() {
            let mut bad = tag.to_vec();
            bad[i] ^= 0x80;
            assert_eq!(mac.verify(7, packet, &bad), Err(Error::InvalidTag), "{}", alg.name);
        }
        assert_eq!(
            mac.verify(7, packet, &tag[..tag.len() - 1]),
            Err(Error::TagLength { expected: alg.tag_len, got: alg.tag_len - 1 })
        );
        // Still in sync after the failures.
        mac.verify(7, packet, &tag).unwrap();
    }
}

#[test]
fn bad_names_and_keys_are_typed_errors() {
    assert_eq!(
        SshMac::new("umac-32@openssh.com", &[0; 16]).unwrap_err(),
        Error::UnknownAlgorithm("umac-32@openssh.com".into())
    );
    // SSH names are case-sensitive.
    assert!(matches!(SshMac::new("HMAC-SHA1", &[0; 20]), Err(Error::UnknownAlgorithm(_))));
    assert_eq!(SshMac::new("umac-64@openssh.com", &[0; 15]).unwrap_err(), Error::KeyLength { expected: 16, got: 15 });
    assert_eq!(SshMac::new("hmac-sha2-256", &[0; 16]).unwrap_err(), Error::KeyLength { expected: 32, got: 16 });
    let err = SshMac::new("hmac-sha2-512", &[0xAB; 63]).unwrap_err().to_string();
    assert_eq!(err, "wrong key length: expected 64 bytes, got 63");
}

/// `tests/vectors/ssh_macs.txt`: answers computed without fastmac (CPython's
/// hmac for the HMACs, GNU Nettle for the UMACs), every name, 4 rows each.
#[test]
fn ssh_known_answers_from_independent_implementations() {
    let text = std::fs::read_to_string(common::vectors_dir().join("ssh_macs.txt")).expect("vector file");
    let mut seen = std::collections::BTreeMap::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 5, "malformed line: {line}");
        let seq: u32 = f[1].parse().unwrap();
        let key = common::unhex(f[2]);
        let packet = if f[3] == "-" { Vec::new() } else { common::unhex(f[3]) };
        let tag = common::unhex(f[4]);
        let mut mac = SshMac::new(f[0], &key).unwrap();
        assert_eq!(&mac.compute(seq, &packet)[..], &tag[..], "{} seq {seq} len {}", f[0], packet.len());
        mac.verify(seq, &packet, &tag).unwrap();
        *seen.entry(f[0].to_owned()).or_insert(0) += 1;
    }
    assert_eq!(seen.len(), ALGORITHMS.len());
    assert!(seen.values().all(|&rows| rows == 4));
}

/// The same known answers through the types that own the sequence number:
/// started at the row's number, the first packet gets it and its tag.
#[test]
fn outbound_and_inbound_macs_reproduce_the_known_answers() {
    let text = std::fs::read_to_string(common::vectors_dir().join("ssh_macs.txt")).expect("vector file");
    let mut rows = 0;
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let f: Vec<&str> = line.split_whitespace().collect();
        let seq: u32 = f[1].parse().unwrap();
        let key = common::unhex(f[2]);
        let packet = if f[3] == "-" { Vec::new() } else { common::unhex(f[3]) };
        let tag = common::unhex(f[4]);
        let mut outbound = OutboundMac::new(SshMac::new(f[0], &key).unwrap(), seq);
        let (used, computed) = outbound.compute(&packet).unwrap();
        assert_eq!((used, &computed[..]), (seq, &tag[..]), "{} seq {seq}", f[0]);
        assert_eq!(outbound.next_seq(), seq.wrapping_add(1));
        let mut inbound = InboundMac::new(SshMac::new(f[0], &key).unwrap(), seq);
        assert_eq!(inbound.verify(&packet, &tag), Ok(seq), "{} seq {seq}", f[0]);
        assert_eq!(inbound.verify(&packet, &tag), Err(Error::InvalidTag), "{} replayed", f[0]);
        rows += 1;
    }
    assert_eq!(rows, 4 * ALGORITHMS.len());
}

/// Consecutive packets through `OutboundMac` (across the uint32 wrap)
/// equal libnettle's UMAC with each sequence number as the nonce.
#[cfg(all(fastmac_nettle, target_arch = "x86_64"))]
#[test]
fn outbound_umac_equals_nettle_over_consecutive_packets() {
    let mut rng = StdRng::seed_from_u64(0x4f55_5442);
    for name in ["umac-64@openssh.com", "umac-128-etm@openssh.com"] {
        let key: [u8; 16] = rng.random();
        let mut outbound = OutboundMac::new(SshMac::new(name, &key).unwrap(), u32::MAX - 40);
        let mut nettle = NettleUmac::new(outbound.mac().tag_len(), &key);
        for i in 0..100u32 {
            let packet = vec![i as u8; rng.random_range(0..3000)];
            let (seq, tag) = outbound.compute(&packet).unwrap();
            assert_eq!(seq, (u32::MAX - 40).wrapping_add(i));
            assert_eq!(tag[..], nettle.mac(&u64::from(seq).to_be_bytes(), &packet)[..], "{name} seq {seq}");
        }
    }
}

/// The packet stream as a `DynMac` (how the CLI streams files): the nonce
/// must be empty, and after each tag the same packet number starts again.
#[test]
fn packet_stream_as_dynmac() {
    use fastmac::DynMac;
    for alg in ALGORITHMS {
        let key = vec![3u8; alg.key_len];
        let expected = SshMac::new(alg.name, &key).unwrap().compute(41, b"abcdef");
        let mut mac = SshMac::new(alg.name, &key).unwrap();
        let mut stream = mac.start(41);
        let dynmac: &mut dyn DynMac = &mut stream;
        assert_eq!(dynmac.tag_len(), alg.tag_len);
        let mut tag = vec![0u8; alg.tag_len];
        for _ in 0..2 {
            dynmac.update(b"abc");
            dynmac.update(b"def");
            dynmac.finalize_reset_into(&[], &mut tag).unwrap();
            assert_eq!(tag, &expected[..], "{}", alg.name);
        }
        dynmac.update(b"abcdef");
        dynmac.verify_reset(&[], &expected).unwrap();
        dynmac.update(b"abcdeF");
        assert_eq!(dynmac.verify_reset(&[], &expected), Err(Error::InvalidTag));
        assert_eq!(dynmac.finalize_reset_into(&[0], &mut tag), Err(Error::NonceLength { min: 0, max: 0, got: 1 }));
    }
}
