//! Benchmark subjects for the report's rows that the bench registry does
//! not have: any MAC of the library by name (HMACs, Badger, gears), through
//! its run-time interface, and Badger's table 1 parts.

use std::hint::black_box;

use fastmac::badger::{Badger64, BadgerSender};
use fastmac::{Algorithm, DynMac};

use crate::bench::Subject;

use super::plan;

/// The benchmark key: speed does not depend on it.
const KEY: &[u8; 16] = b"abcdefghijklmnop";

/// The subject measuring `alg`, or why there is none in this build.
pub fn by_name(alg: &str) -> Result<Box<dyn Subject>, String> {
    if alg == plan::BADGER_KEY_SETUP || alg == plan::BADGER_SEQUENTIAL {
        return badger_part(alg);
    }
    if alg.starts_with("gear") {
        return super::gears::subject(alg);
    }
    let algorithm = Algorithm::from_name(alg).map_err(|_| "not in this build of fastmac".to_owned())?;
    Ok(Box::new(Named::new(algorithm)?))
}

/// A MAC of the library through [`DynMac`]: stream the message, finalize
/// with the next counter nonce, as a protocol does per packet.
struct Named {
    name: &'static str,
    mac: Box<dyn DynMac>,
    nonce_len: usize,
    tag: Vec<u8>,
}

impl Named {
    fn new(algorithm: Algorithm) -> Result<Named, String> {
        let info = algorithm.info();
        let key: Vec<u8> = KEY.iter().copied().cycle().take(info.key_len).collect();
        let mac = algorithm.new_mac(&key).map_err(|e| e.to_string())?;
        // An 8-byte counter like an SSH sequence number, where the
        // algorithm takes a nonce; none for HMAC.
        let nonce_len = if info.max_nonce_len == 0 { 0 } else { 8usize.clamp(info.min_nonce_len, info.max_nonce_len) };
        Ok(Named { name: info.name, tag: vec![0; mac.tag_len()], mac, nonce_len })
    }
}

impl Subject for Named {
    fn alg(&self) -> &'static str {
        self.name
    }
    fn implementation(&self) -> String {
        "fastmac".to_owned()
    }
    fn run(&mut self, first: u64, count: u64, msg: &[u8]) -> u8 {
        let mut sink = 0u8;
        for n in first..first + count {
            // Counting from 1: Badger rejects nonce 0 (it would reuse key
            // material as the pad).
            let counter = (n + 1).to_be_bytes();
            let mut nonce = [0u8; 16];
            nonce[self.nonce_len.saturating_sub(8)..self.nonce_len].copy_from_slice(&counter[8 - self.nonce_len.min(8)..]);
            self.mac.update(black_box(msg));
            self.mac.finalize_reset_into(&nonce[..self.nonce_len], &mut self.tag).expect("nonce and tag lengths from info()");
            sink ^= self.tag[0];
        }
        sink
    }
}

/// Badger's table 1 parts that no MAC call shows on its own: key setup,
/// and the sequential mode (pads continue one keystream, no IV setup).
fn badger_part(alg: &str) -> Result<Box<dyn Subject>, String> {
    Ok(if alg == plan::BADGER_KEY_SETUP { Box::new(BadgerKeySetup) } else { Box::new(BadgerSequential(BadgerSender::new(KEY))) })
}

/// Keying Badger-64: Rabbit key setup and every hash key (paper fig. 2);
/// the message is not used.
struct BadgerKeySetup;

impl Subject for BadgerKeySetup {
    fn alg(&self) -> &'static str {
        plan::BADGER_KEY_SETUP
    }
    fn implementation(&self) -> String {
        "fastmac".to_owned()
    }
    fn run(&mut self, _first: u64, count: u64, _msg: &[u8]) -> u8 {
        for _ in 0..count {
            black_box(Badger64::new(black_box(KEY)));
        }
        0
    }
}

/// Badger-64 without IV setup: the next message of a sequential sender.
struct BadgerSequential(BadgerSender<8>);

impl Subject for BadgerSequential {
    fn alg(&self) -> &'static str {
        plan::BADGER_SEQUENTIAL
    }
    fn implementation(&self) -> String {
        "fastmac".to_owned()
    }
    fn run(&mut self, _first: u64, count: u64, msg: &[u8]) -> u8 {
        let mut sink = 0u8;
        for _ in 0..count {
            sink ^= self.0.tag(black_box(msg)).expect("short messages fit")[0];
        }
        sink
    }
}
