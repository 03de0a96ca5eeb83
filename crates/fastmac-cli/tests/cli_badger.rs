//! The `fastmac` binary with the Badger algorithms (nonce mode): tags match
//! the library, nonce 0 and wrong nonce lengths exit 2, `list` shows the
//! paper's bounds.

mod common;

use common::fastmac;

use fastmac::badger::{Badger32, Badger64, Badger96, Badger128, Badger160};

const KEY: &str = "000102030405060708090a0b0c0d0e0f";
const NONCE: &str = "0102030405060708";

fn library_tag(alg: &str, msg: &[u8]) -> String {
    let key: [u8; 16] = hex::decode(KEY).unwrap().try_into().unwrap();
    let nonce = hex::decode(NONCE).unwrap();
    hex::encode(match alg {
        "badger-32" => Badger32::new(&key).mac(&nonce, msg).unwrap().to_vec(),
        "badger-64" => Badger64::new(&key).mac(&nonce, msg).unwrap().to_vec(),
        "badger-96" => Badger96::new(&key).mac(&nonce, msg).unwrap().to_vec(),
        "badger-128" => Badger128::new(&key).mac(&nonce, msg).unwrap().to_vec(),
        _ => Badger160::new(&key).mac(&nonce, msg).unwrap().to_vec(),
    })
}

const ALGS: [&str; 5] = ["badger-32", "badger-64", "badger-96", "badger-128", "badger-160"];

#[test]
fn badger_tags_and_verification_match_the_library() {
    for len in [0usize, 5, 1024, 100_003] {
        let msg: Vec<u8> = (0..len).map(|i| (i * 7) as u8).collect();
        for alg in ALGS {
            let tag = library_tag(alg, &msg);
            let out = fastmac(&["tag", "--alg", alg, "--key", KEY, "--nonce", NONCE], &msg);
            assert_eq!(String::from_utf8(out.stdout).unwrap(), format!("{tag}\n"), "{alg} len {len}");
            let ok = fastmac(&["verify", "--alg", alg, "--key", KEY, "--nonce", NONCE, "--tag", &tag], &msg);
            assert_eq!(ok.status.code(), Some(0));
            let mut bad = hex::decode(&tag).unwrap();
            bad[3] ^= 4;
            let bad = hex::encode(bad);
            let out = fastmac(&["verify", "--alg", alg, "--key", KEY, "--nonce", NONCE, "--tag", &bad], &msg);
            assert_eq!(out.status.code(), Some(1), "{alg}");
        }
    }
}

#[test]
fn nonce_zero_and_wrong_nonce_lengths_exit_2() {
    for (nonce, expect) in [
        ("0000000000000000", "nonce 0 is reserved"),
        ("01020304050607", "wrong nonce length: expected 8 bytes, got 7"),
        ("010203040506070809", "wrong nonce length: expected 8 bytes, got 9"),
    ] {
        let out = fastmac(&["tag", "--alg", "badger-64", "--key", KEY, "--nonce", nonce], b"m");
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.contains(expect), "{err:?} lacks {expect:?}");
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn list_shows_badger_lengths_and_the_worst_case_bound() {
    let out = fastmac(&["list"], b"");
    let text = String::from_utf8(out.stdout).unwrap();
    for (alg, tag, bound) in [
        ("badger-32", "4", "2^-26.12"),
        ("badger-64", "8", "2^-52.23"),
        ("badger-96", "12", "2^-78.35"),
        ("badger-128", "16", "2^-104.47"),
        ("badger-160", "20", "2^-130.59"),
    ] {
        let line = text.lines().find(|l| l.starts_with(&format!("{alg} "))).unwrap_or_else(|| panic!("{alg} missing"));
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[1..4], ["16", "8", tag], "{line}");
        assert!(line.contains(bound), "{line}");
    }
}
