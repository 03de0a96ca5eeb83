//! The multi-core path (feature `parallel`) equals the sequential one and
//! (under `--cfg fastmac_nettle`, as the root Makefile's test runs set it)
//! GNU Nettle, at lengths around its thresholds (1, 2 and 4 MiB: it starts
//! later for fewer iterations) and its batches past 2^24 bytes (POLY128;
//! an eighth of the rest, at least 1 MiB), and the 1 KiB chunks inside
//! them.
//!
//! The sequential reference streams the message in 64 KiB pieces, which
//! never reach the 1 MiB threshold of the parallel path. Everything runs in
//! a three-thread rayon pool, so the parallel path is taken (and split
//! unevenly) whatever the number of cores.
#![cfg(feature = "parallel")]

#[cfg(all(fastmac_nettle, target_arch = "x86_64"))]
use crate::common::nettle::NettleUmac;
use fastmac::umac::{TagLen, Umac, UmacTagLen};
use rand::{Rng, SeedableRng, rngs::StdRng};

const MIB: usize = 1 << 20;

fn in_pool(f: impl FnOnce() + Send) {
    rayon::ThreadPoolBuilder::new().num_threads(3).build().expect("thread pool").install(f);
}

fn check<const N: usize>(msg: &[u8], key: &[u8; 16])
where
    TagLen<N>: UmacTagLen,
{
    let nonce = b"parallel";
    let mut mac = Umac::<N>::new(key);
    let parallel = mac.mac(nonce, msg).unwrap();
    for piece in msg.chunks(64 * 1024) {
        mac.update(piece);
    }
    let sequential = mac.finalize_reset(nonce).unwrap();
    assert_eq!(parallel, sequential, "UMAC-{} len {}", 8 * N, msg.len());
    #[cfg(all(fastmac_nettle, target_arch = "x86_64"))]
    assert_eq!(parallel[..], NettleUmac::new(N, key).mac(nonce, msg)[..], "UMAC-{} len {} vs nettle", 8 * N, msg.len());
}

#[test]
fn parallel_equals_sequential_around_chunk_and_batch_boundaries() {
    let mut rng = StdRng::seed_from_u64(17);
    // Past POLY64's 16 MiB, batches are an eighth of the rest, at least
    // 1 MiB: 10 MiB past it makes batches of 1.25 MiB.
    let mut buf = vec![0u8; (1 << 24) + 10 * MIB];
    rng.fill(&mut buf[..]);
    let key: [u8; 16] = rng.random();
    let mut lengths = vec![];
    for base in [MIB, 2 * MIB, 4 * MIB, 5 * MIB, 8 * MIB, 1 << 24] {
        for delta in [-1025i64, -1024, -1023, -1, 0, 1, 1023, 1024, 1025] {
            lengths.push((base as i64 + delta) as usize);
        }
    }
    lengths.extend([(1 << 24) + 2 * MIB + 12_345, (1 << 24) + 9 * MIB + 12_345, buf.len()]);
    in_pool(|| {
        for len in lengths {
            check::<4>(&buf[..len], &key);
            check::<8>(&buf[..len], &key);
            check::<12>(&buf[..len], &key);
            check::<16>(&buf[..len], &key);
        }
    });
}

#[test]
fn parallel_path_mid_stream() {
    // Large updates arriving at every position in a chunk (so the parallel
    // path starts after the sequential one has finished the chunk) and of
    // lengths that leave partial blocks behind.
    let mut rng = StdRng::seed_from_u64(99);
    let mut msg = vec![0u8; 6 * MIB + 777];
    rng.fill(&mut msg[..]);
    let key: [u8; 16] = rng.random();
    let nonce = b"mid-stream";
    let mut mac = Umac::<16>::new(&key);
    // The sequential path: 64 KiB pieces never reach the parallel threshold.
    for piece in msg.chunks(64 * 1024) {
        mac.update(piece);
    }
    let expect = mac.finalize_reset(nonce).unwrap();
    #[cfg(all(fastmac_nettle, target_arch = "x86_64"))]
    assert_eq!(expect[..], NettleUmac::new(16, &key).mac(nonce, &msg)[..], "sequential vs nettle");
    in_pool(|| {
        for first in [0usize, 1, 31, 32, 1000, 1023, 1024, 1025, 3000] {
            let second = first + 2 * MIB + first % 7;
            mac.update(&msg[..first]);
            mac.update(&msg[first..second]);
            mac.update(&msg[second..]);
            assert_eq!(mac.finalize_reset(nonce).unwrap()[..], expect[..], "split at {first}, {second}");
        }
    });
}
