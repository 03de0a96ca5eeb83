//! HMAC known answers (RFC 2202, RFC 4231, RFC 2286) from
//! `tests/vectors/hmac.txt`, through the `hmac` module, the `Algorithm`
//! registry and the SSH names.

mod common;

use common::{unhex, vectors_dir};
use fastmac::hmac::{HashFunction, Hmac};
use fastmac::{Algorithm, Error};

struct Row {
    case: String,
    hash: HashFunction,
    key: Vec<u8>,
    data: Vec<u8>,
    tag: Vec<u8>,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(vectors_dir().join("hmac.txt")).expect("vector file");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            assert_eq!(f.len(), 6, "malformed line: {line}");
            let hash = match f[2] {
                "md5" => HashFunction::Md5,
                "sha1" => HashFunction::Sha1,
                "ripemd160" => HashFunction::Ripemd160,
                "sha256" => HashFunction::Sha256,
                "sha512" => HashFunction::Sha512,
                other => panic!("unknown hash {other}"),
            };
            Row {
                case: format!("{} case {} {}", f[0], f[1], f[2]),
                hash,
                key: unhex(f[3]),
                data: unhex(f[4]),
                tag: unhex(f[5]),
            }
        })
        .collect()
}

#[test]
fn rfc_known_answers() {
    let rows = rows();
    assert_eq!(rows.len(), 37);
    for row in &rows {
        let mut mac = Hmac::new_truncated(row.hash, &row.key, row.tag.len()).unwrap();
        let mut tag = vec![0u8; row.tag.len()];
        // Twice: the keyed object must come back to its keyed state.
        for _ in 0..2 {
            mac.update(&row.data);
            mac.finalize_reset_into(&mut tag).unwrap();
            assert_eq!(tag, row.tag, "{}", row.case);
        }
        // Streamed byte by byte.
        for byte in &row.data {
            mac.update(core::slice::from_ref(byte));
        }
        mac.verify_reset(&row.tag).unwrap();
    }
}

#[test]
fn registry_names_give_the_same_answers() {
    for row in rows() {
        let name = match (row.hash, row.tag.len()) {
            (HashFunction::Md5, 16) => "hmac-md5",
            (HashFunction::Md5, 12) => "hmac-md5-96",
            (HashFunction::Sha1, 20) => "hmac-sha1",
            (HashFunction::Sha1, 12) => "hmac-sha1-96",
            (HashFunction::Ripemd160, 20) => "hmac-ripemd160",
            (HashFunction::Sha256, 32) => "hmac-sha2-256",
            (HashFunction::Sha512, 64) => "hmac-sha2-512",
            _ => continue, // RFC 4231's 128-bit truncation has no name
        };
        let alg = Algorithm::from_name(name).unwrap();
        assert_eq!(alg.info().tag_len, row.tag.len());
        let mut mac = alg.new_mac(&row.key).unwrap();
        mac.update(&row.data);
        let mut tag = vec![0u8; mac.tag_len()];
        mac.finalize_reset_into(&[], &mut tag).unwrap();
        assert_eq!(tag, row.tag, "{name} {}", row.case);
        mac.update(&row.data);
        mac.verify_reset(&[], &row.tag).unwrap();
    }
}

#[test]
fn wrong_tags_and_lengths_are_typed_errors() {
    let mut mac = Hmac::new(HashFunction::Sha256, b"key");
    mac.update(b"message");
    let mut tag = [0u8; 32];
    mac.finalize_reset_into(&mut tag).unwrap();
    for i in 0..tag.len() {
        let mut bad = tag;
        bad[i] ^= 0x01;
        mac.update(b"message");
        assert_eq!(mac.verify_reset(&bad), Err(Error::InvalidTag));
    }
    mac.update(b"message");
    assert_eq!(mac.verify_reset(&tag[..31]), Err(Error::TagLength { expected: 32, got: 31 }));
    // The refused verification consumed nothing (as UMAC's and Badger's): the
    // streamed message still verifies.
    mac.verify_reset(&tag).unwrap();
    assert!(matches!(mac.finalize_reset_into(&mut [0u8; 12]), Err(Error::TagLength { expected: 32, got: 12 })));
    // RFC 2104 section 5: no truncation below 80 bits.
    assert!(Hmac::new_truncated(HashFunction::Md5, b"k", 9).is_err());
    assert!(Hmac::new_truncated(HashFunction::Sha512, b"k", 9).is_err());
    assert!(Hmac::new_truncated(HashFunction::Sha1, b"k", 21).is_err());
    // HMAC takes no nonce.
    let mut dynmac = Algorithm::from_name("hmac-sha1").unwrap().new_mac(b"k").unwrap();
    assert_eq!(dynmac.finalize_reset_into(b"n", &mut [0u8; 20]), Err(Error::NonceLength { min: 0, max: 0, got: 1 }));
}
