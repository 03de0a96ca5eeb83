//! One key over many consecutive messages, and from several threads at once.
//!
//! The Linux kernel's VMAC kept per-message state in its key object, so a
//! tag depended on what had been MACed before (docs/umac.md section 3.8).
//! Here one long-lived keyed object MACs 100,000 consecutive messages of
//! varying lengths (one-shot and streaming interleaved, every nonce
//! different, so UMAC's pad cache both hits and misses) and every tag must
//! equal a freshly keyed object's; then several threads share the key at
//! once (Badger and UMAC's UHASH through `&self`, UMAC and SSH through
//! clones of one keyed object) and must reproduce the same tags.

use fastmac::badger::Badger64;
use fastmac::ssh::SshMac;
use fastmac::umac::Umac64;
use std::thread;

const MESSAGES: usize = 100_000;
const THREADS: usize = 4;
const KEY: [u8; 16] = *b"long-and-many-k!";

/// Message `i`: lengths 0..=1499 in a scrambled order (across NH's
/// 32-byte and L1's 1024-byte boundaries), contents depending on `i`.
fn message(i: usize, buf: &mut Vec<u8>) {
    let len = (i * 7919) % 1500;
    buf.clear();
    let mut state = (i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    buf.extend((0..len).map(|_| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as u8
    }));
}

/// Never all zero: Badger rejects the zero nonce.
fn nonce(i: usize) -> [u8; 8] {
    (i as u64 + 1).to_be_bytes()
}

/// Tags of every message under one long-lived object, checked against a
/// fresh object for each; even messages one-shot, odd ones streamed in two
/// pieces.
#[test]
fn umac_one_key_many_messages_matches_fresh_objects() {
    let mut long_lived = Umac64::new(&KEY);
    let mut buf = Vec::new();
    for i in 0..MESSAGES {
        message(i, &mut buf);
        let tag = if i % 2 == 0 {
            long_lived.mac(&nonce(i), &buf).unwrap()
        } else {
            let (head, tail) = buf.split_at(buf.len() / 3);
            long_lived.update(head);
            long_lived.update(tail);
            long_lived.finalize_reset(&nonce(i)).unwrap()
        };
        let fresh = Umac64::new(&KEY).mac(&nonce(i), &buf).unwrap();
        assert_eq!(tag, fresh, "message {i}: the long-lived object's tag differs");
        long_lived.verify(&nonce(i), &buf, &tag).unwrap();
    }
}

#[test]
fn badger_one_key_many_messages_matches_fresh_objects() {
    let shared = Badger64::new(&KEY);
    let mut streaming = Badger64::new(&KEY);
    let mut buf = Vec::new();
    for i in 0..MESSAGES {
        message(i, &mut buf);
        let tag = shared.mac(&nonce(i), &buf).unwrap();
        streaming.update(&buf);
        assert_eq!(streaming.finalize_reset(&nonce(i)).unwrap(), tag, "message {i}: streaming differs");
        let fresh = Badger64::new(&KEY).mac(&nonce(i), &buf).unwrap();
        assert_eq!(tag, fresh, "message {i}: the long-lived object's tag differs");
    }
}

#[test]
fn ssh_one_key_many_packets_matches_fresh_objects() {
    for name in [
        "umac-64@openssh.com",
        "umac-128-etm@openssh.com",
        #[cfg(feature = "hmac")]
        "hmac-sha2-256",
    ] {
        let key = vec![0x5c; SshMac::new(name, &[0; 16]).map_or(32, |m| m.key_len())];
        let mut long_lived = SshMac::new(name, &key).unwrap();
        let mut buf = Vec::new();
        // The HMAC is slower per fresh key: every 7th packet against a fresh object.
        let stride = if name.starts_with("hmac") { 7 } else { 1 };
        for i in 0..MESSAGES {
            message(i, &mut buf);
            let seq = i as u32;
            let tag = long_lived.compute(seq, &buf);
            if i % stride == 0 {
                let fresh = SshMac::new(name, &key).unwrap().compute(seq, &buf);
                assert_eq!(&tag[..], &fresh[..], "{name} packet {i}: the long-lived object's tag differs");
            }
            long_lived.verify(seq, &buf, &tag).unwrap();
        }
    }
}

/// Reference tags computed on one thread, then recomputed by `THREADS`
/// threads at once, each taking every `THREADS`-th message.
#[test]
fn one_key_from_several_threads_at_once() {
    const COUNT: usize = 20_000;
    let mut messages = Vec::with_capacity(COUNT);
    for i in 0..COUNT {
        let mut buf = Vec::new();
        message(i, &mut buf);
        messages.push(buf);
    }
    let badger = Badger64::new(&KEY);
    let umac = Umac64::new(&KEY);
    let ssh = SshMac::new("umac-128@openssh.com", &KEY).unwrap();
    let mut reference_umac = umac.clone();
    let mut reference_ssh = ssh.clone();
    let reference: Vec<_> = messages
        .iter()
        .enumerate()
        .map(|(i, m)| {
            let ssh_tag = reference_ssh.compute(i as u32, m);
            (badger.mac(&nonce(i), m).unwrap(), reference_umac.mac(&nonce(i), m).unwrap(), umac.uhash(m), ssh_tag)
        })
        .collect();

    thread::scope(|scope| {
        for t in 0..THREADS {
            let (badger, umac, ssh, messages, reference) = (&badger, &umac, &ssh, &messages, &reference);
            scope.spawn(move || {
                let mut own_umac = umac.clone();
                let mut own_ssh = ssh.clone();
                for i in (t..COUNT).step_by(THREADS) {
                    let m = &messages[i];
                    let (badger_tag, umac_tag, uhash, ssh_tag) = &reference[i];
                    assert_eq!(&badger.mac(&nonce(i), m).unwrap(), badger_tag, "thread {t} badger {i}");
                    assert_eq!(&own_umac.mac(&nonce(i), m).unwrap(), umac_tag, "thread {t} umac {i}");
                    assert_eq!(&umac.uhash(m), uhash, "thread {t} uhash {i}");
                    assert_eq!(&own_ssh.compute(i as u32, m)[..], &ssh_tag[..], "thread {t} ssh {i}");
                }
            });
        }
    });
}
