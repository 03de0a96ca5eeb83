//! `DynMac::update_from_file` gives the one-shot tag of every algorithm, for
//! files whose lengths fall around the 1 KiB chunk, the 128 KiB read piece
//! (src/file.rs), the 1 MiB threshold of the multi-core path and its 2 MiB
//! units (src/umac/parallel.rs, feature `parallel`), on one to three
//! threads, from the start of a file or from a position inside it, and after
//! input already streamed (so the file starts mid-chunk). A file that ends
//! before its size is reached is an error that discards the streamed input.
#![cfg(feature = "std")]

use std::fs::File;
use std::io::{Seek, SeekFrom, Write};
use std::num::NonZeroUsize;
use std::path::PathBuf;

use fastmac::umac::{AnyUmac, PARALLEL_MIN, TAG_LENS, Umac128};
use fastmac::{Algorithm, DynMac};
use rand::{Rng, SeedableRng, rngs::StdRng};

const KIB: usize = 1024;
const PIECE: usize = 128 * KIB;
const UNIT: usize = 2048 * KIB;

/// Lengths on each side of every boundary the readers cut at.
fn lengths() -> Vec<usize> {
    let mut lengths = vec![0, 1, KIB - 1, KIB, KIB + 1, PIECE - 1, PIECE, PIECE + 1];
    for edge in [PARALLEL_MIN, PARALLEL_MIN + KIB, UNIT, UNIT + KIB, 2 * UNIT + KIB] {
        lengths.extend([edge - 1, edge, edge + 1]);
    }
    lengths.push(5 * UNIT + 3 * KIB + 17);
    lengths
}

struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, contents: &[u8]) -> TempFile {
        let path = std::env::temp_dir().join(format!("fastmac-update-from-file-{}-{name}", std::process::id()));
        File::create(&path).unwrap().write_all(contents).unwrap();
        TempFile(path)
    }

    /// The file opened at `position`.
    fn open_at(&self, position: u64) -> File {
        let mut file = File::open(&self.0).unwrap();
        file.seek(SeekFrom::Start(position)).unwrap();
        file
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// A nonce of a length the algorithm takes (none for HMAC).
fn nonce_for(alg: Algorithm) -> Vec<u8> {
    let info = alg.info();
    vec![0x6e; info.max_nonce_len.min(8).max(info.min_nonce_len)]
}

fn one_shot(alg: Algorithm, key: &[u8], nonce: &[u8], msg: &[u8]) -> Vec<u8> {
    let mut mac = alg.new_mac(key).unwrap();
    mac.update(msg);
    let mut tag = vec![0; mac.tag_len()];
    mac.finalize_reset_into(nonce, &mut tag).unwrap();
    tag
}

fn threads(n: usize) -> NonZeroUsize {
    NonZeroUsize::new(n).unwrap()
}

#[test]
fn umac_tags_of_files_equal_the_one_shot_tags() {
    let mut rng = StdRng::seed_from_u64(41);
    let key: [u8; 16] = rng.random();
    let nonce = b"file-nonce";
    let lengths = lengths();
    let mut data = vec![0u8; *lengths.iter().max().unwrap() + 3000];
    rng.fill(&mut data[..]);
    // Input streamed before the file: none, and a length that leaves the
    // file to start mid-block and mid-chunk.
    let streamed = &data[..1000];
    for &len in &lengths {
        let file = TempFile::new(&format!("umac-{len}"), &data[1000..1000 + 2000 + len]);
        // The file's bytes from position 2000 on: `len` of them.
        let msg = &data[3000..3000 + len];
        for tag_len in TAG_LENS {
            let mut expected_mac = AnyUmac::new(&key, tag_len).unwrap();
            let whole = expected_mac.mac(nonce, msg).unwrap();
            let after_streamed = expected_mac.mac(nonce, &[streamed, msg].concat()).unwrap();
            for n in 1..=3 {
                let mut mac = AnyUmac::new(&key, tag_len).unwrap();
                let mut f = file.open_at(2000);
                assert_eq!(mac.update_from_file(&mut f, threads(n)).unwrap(), len as u64);
                assert_eq!(f.stream_position().unwrap(), 2000 + len as u64, "the position ends at the end");
                assert_eq!(mac.finalize_reset(nonce).unwrap(), whole, "UMAC-{} len {len} threads {n}", 8 * tag_len);

                mac.update(streamed);
                mac.update_from_file(&mut file.open_at(2000), threads(n)).unwrap();
                assert_eq!(
                    mac.finalize_reset(nonce).unwrap(),
                    after_streamed,
                    "UMAC-{} len {len} after 1000 B, threads {n}",
                    8 * tag_len
                );
            }
        }
    }
}

#[test]
fn every_algorithm_tags_files_like_its_one_shot_tag() {
    let mut rng = StdRng::seed_from_u64(43);
    let lengths = [0, 1, KIB + 1, PIECE - 1, PIECE + 1, PARALLEL_MIN + 1, UNIT + KIB + 1];
    let mut data = vec![0u8; UNIT + KIB + 1];
    rng.fill(&mut data[..]);
    for &len in &lengths {
        let msg = &data[..len];
        let file = TempFile::new(&format!("all-{len}"), msg);
        for &alg in Algorithm::ALL {
            let key: Vec<u8> = (0..alg.info().key_len).map(|i| i as u8 ^ 0x5c).collect();
            let nonce = nonce_for(alg);
            let expected = one_shot(alg, &key, &nonce, msg);
            for n in [1, 2] {
                let mut mac = alg.new_mac(&key).unwrap();
                assert_eq!(mac.update_from_file(&mut file.open_at(0), threads(n)).unwrap(), len as u64);
                let mut tag = vec![0; mac.tag_len()];
                mac.finalize_reset_into(&nonce, &mut tag).unwrap();
                assert_eq!(tag, expected, "{} len {len} threads {n}", alg.info().name);
            }
        }
    }
}

#[cfg(unix)]
#[test]
fn pipes_are_read_to_their_end() {
    let mut rng = StdRng::seed_from_u64(47);
    let mut msg = vec![0u8; 3 * PARALLEL_MIN + 5];
    rng.fill(&mut msg[..]);
    let (reader, mut writer) = std::io::pipe().unwrap();
    let sent = msg.clone();
    let feeder = std::thread::spawn(move || writer.write_all(&sent).unwrap());
    let mut mac = Umac128::new(&[3; 16]);
    let mut file = File::from(std::os::fd::OwnedFd::from(reader));
    assert_eq!(DynMac::update_from_file(&mut mac, &mut file, threads(2)).unwrap(), msg.len() as u64);
    feeder.join().unwrap();
    assert_eq!(mac.finalize_reset(b"pipe").unwrap(), Umac128::new(&[3; 16]).mac(b"pipe", &msg).unwrap());
}

// A directory opens as a file on Unix, and fails at the first read.
#[cfg(unix)]
#[test]
fn a_read_error_discards_the_streamed_input() {
    let mut not_a_file = File::open(std::env::temp_dir()).unwrap();
    for &alg in Algorithm::ALL {
        let key: Vec<u8> = (0..alg.info().key_len).map(|i| i as u8).collect();
        let nonce = nonce_for(alg);
        let mut mac = alg.new_mac(&key).unwrap();
        mac.update(b"streamed before the error");
        assert!(mac.update_from_file(&mut not_a_file, threads(2)).is_err(), "{}", alg.info().name);
        let mut tag = vec![0; mac.tag_len()];
        mac.finalize_reset_into(&nonce, &mut tag).unwrap();
        assert_eq!(tag, one_shot(alg, &key, &nonce, b""), "{}: the tag of the empty message", alg.info().name);
    }
}
