//! Badger known answers, tests/vectors/badger.txt, for both modes and every
//! u. No reference vectors are public (docs/badger.md section 7): these are the
//! outputs of the level-by-level reference form (tests/common/badger_ref.rs)
//! once it agreed with the library on every test of tests/badger.rs, checked
//! in so that neither form can drift silently. Regenerate (from the
//! reference, never from the library) with
//! `BADGER_WRITE_KAT=1 cargo test --release -p fastmac --test badger_kat --
//! --test-threads=1`.

mod common;

use std::collections::HashMap;
use std::fmt::Write;

use common::badger_ref as reference;
use fastmac::badger::{Badger, BadgerReceiver, BadgerSender};

const FILE: &str = "badger.txt";

/// The KAT message of `len` bytes: byte i is i mod 251.
fn message(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i % 251) as u8).collect()
}

const LENGTHS: [usize; 31] = [
    0,
    1,
    3,
    7,
    8,
    9,
    15,
    16,
    17,
    31,
    32,
    33,
    63,
    64,
    65,
    100,
    127,
    128,
    129,
    255,
    256,
    257,
    1000,
    1023,
    1024,
    1025,
    1500,
    4096,
    65536,
    65537,
    1 << 20 | 3,
];

const KEYS: [&str; 2] = ["000102030405060708090a0b0c0d0e0f", "91281329 2e3d36fe 3bfc62f1 dc51c3ac"];

fn key_bytes(text: &str) -> [u8; 16] {
    hex::decode(text.replace(' ', "")).unwrap().try_into().unwrap()
}

/// The file's text, computed by the reference form.
fn generate() -> String {
    let mut out = String::from(
        "# Badger known answers (fastmac). Every value is hex; messages are given by\n\
         # length: message byte i is i mod 251. Conventions: design note docs/badger.md\n\
         # section 3 (Rabbit reference byte order for key and nonce, tag =\n\
         # LE32(S^1)..LE32(S^u) xor pad). Produced by the level-by-level reference\n\
         # form of the tests, not by the library. No official vectors exist.\n\
         #\n\
         # key KEY                    sets the key for the lines below\n\
         # nonce U NONCE LEN TAG      nonce mode, u trees (v does not matter)\n\
         # seq U V S LEN TAG          sequential mode: message number S of the\n\
         #                            sender keyed with (KEY, U, V), in file order\n",
    );
    for (k, key_text) in KEYS.iter().enumerate() {
        let key = key_bytes(key_text);
        writeln!(out, "\nkey {}", hex::encode(key)).unwrap();
        for u in 1..=5 {
            for (n, &len) in LENGTHS.iter().enumerate() {
                let nonce = (0x0807_0605_0403_0201u64 + (n as u64) * 0x1_0000_0000 + k as u64).to_le_bytes();
                let tag = reference::tag_nonce(&key, u, &nonce, &message(len));
                writeln!(out, "nonce {u} {} {len} {}", hex::encode(nonce), hex::encode(tag)).unwrap();
            }
        }
        for (u, v, max_len) in
            [(1, 58, usize::MAX), (2, 58, usize::MAX), (3, 58, 4096), (4, 58, 4096), (5, 58, 4096), (2, 12, 32768)]
        {
            let msgs: Vec<Vec<u8>> = LENGTHS.iter().filter(|&&len| len <= max_len).map(|&len| message(len)).collect();
            let refs: Vec<&[u8]> = msgs.iter().map(Vec::as_slice).collect();
            for (s, tag) in reference::tags_sequential(&key, u, v, &refs).iter().enumerate() {
                writeln!(out, "seq {u} {v} {s} {} {}", msgs[s].len(), hex::encode(tag)).unwrap();
            }
        }
    }
    out
}

/// Checks one nonce-mode line with the library's Badger of `T` bytes.
fn check_nonce<const T: usize>(key: &[u8; 16], nonce: &[u8], msg: &[u8], tag: &[u8]) {
    let mut mac = Badger::<T>::new(key);
    assert_eq!(mac.mac(nonce, msg).unwrap()[..], tag[..], "u {} len {}", T / 4, msg.len());
    mac.verify(nonce, msg, tag).unwrap();
    for piece in msg.chunks(1000 + 3) {
        mac.update(piece);
    }
    mac.verify_reset(nonce, tag).unwrap();
}

/// A sequential-mode sender and receiver pair with `T`-byte tags.
struct Pair<const T: usize>(BadgerSender<T>, BadgerReceiver<T>);

trait SeqCheck {
    fn check(&mut self, s: u64, msg: &[u8], tag: &[u8]);
}

impl<const T: usize> SeqCheck for Pair<T> {
    fn check(&mut self, s: u64, msg: &[u8], tag: &[u8]) {
        assert_eq!(self.0.position(), s);
        assert_eq!(self.0.tag(msg).unwrap()[..], tag[..], "u {} message {s}", T / 4);
        self.1.verify(msg, tag).unwrap();
    }
}

fn pair(key: &[u8; 16], u: usize, v: usize) -> Box<dyn SeqCheck> {
    fn make<const T: usize>(key: &[u8; 16], v: usize) -> Box<dyn SeqCheck> {
        Box::new(Pair::<T>(BadgerSender::with_levels(key, v).unwrap(), BadgerReceiver::with_levels(key, v).unwrap()))
    }
    match u {
        1 => make::<4>(key, v),
        2 => make::<8>(key, v),
        3 => make::<12>(key, v),
        4 => make::<16>(key, v),
        _ => make::<20>(key, v),
    }
}

#[test]
fn library_reproduces_the_known_answers_of_both_modes_for_every_u() {
    let path = common::vectors_dir().join(FILE);
    if std::env::var_os("BADGER_WRITE_KAT").is_some() {
        std::fs::write(&path, generate()).unwrap();
    }
    let text = std::fs::read_to_string(&path).expect("tests/vectors/badger.txt");
    let mut key = [0u8; 16];
    let mut pairs: HashMap<(usize, usize), Box<dyn SeqCheck>> = HashMap::new();
    let (mut nonce_lines, mut seq_lines) = (0, 0);
    let mut modes_seen = std::collections::BTreeSet::new();
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let fields: Vec<&str> = line.split_whitespace().collect();
        match fields.as_slice() {
            ["key", k] => {
                key = key_bytes(k);
                pairs.clear();
            }
            ["nonce", u, nonce, len, tag] => {
                let (nonce, tag) = (hex::decode(nonce).unwrap(), hex::decode(tag).unwrap());
                let msg = message(len.parse().unwrap());
                match u.parse::<usize>().unwrap() {
                    1 => check_nonce::<4>(&key, &nonce, &msg, &tag),
                    2 => check_nonce::<8>(&key, &nonce, &msg, &tag),
                    3 => check_nonce::<12>(&key, &nonce, &msg, &tag),
                    4 => check_nonce::<16>(&key, &nonce, &msg, &tag),
                    5 => check_nonce::<20>(&key, &nonce, &msg, &tag),
                    other => panic!("u = {other}"),
                }
                modes_seen.insert(("nonce", u.to_string()));
                nonce_lines += 1;
            }
            ["seq", u, v, s, len, tag] => {
                let (u, v): (usize, usize) = (u.parse().unwrap(), v.parse().unwrap());
                let checker = pairs.entry((u, v)).or_insert_with(|| pair(&key, u, v));
                checker.check(s.parse().unwrap(), &message(len.parse().unwrap()), &hex::decode(tag).unwrap());
                modes_seen.insert(("seq", u.to_string()));
                seq_lines += 1;
            }
            _ => panic!("malformed line: {line}"),
        }
    }
    assert_eq!(modes_seen.len(), 10, "both modes, every u");
    assert_eq!(nonce_lines, 2 * 5 * LENGTHS.len());
    assert!(seq_lines > 200, "{seq_lines} sequential lines");
}

/// The file is exactly what the reference form computes now.
#[test]
fn the_file_is_what_the_reference_form_computes() {
    let text = std::fs::read_to_string(common::vectors_dir().join(FILE)).unwrap();
    assert!(text == generate(), "tests/vectors/badger.txt differs from the reference form");
}
