//! One keyed UMAC shared across threads: `Arc<Umac<N>>` and `Arc<AnyUmac>`
//! tag and verify through `&self` (`mac_shared`, `verify_shared`) from
//! several threads at once, and every tag equals the one a single thread
//! computes with `Umac::mac` (the pad cache's path), at every tag length,
//! for sizes on both sides of the NH block, L1 chunk and multi-core
//! boundaries and nonces of every length.
//!
//! The threads tag the same messages under the same nonces on purpose:
//! the test compares deterministic outputs, no key is at stake.

use std::sync::Arc;

use fastmac::Error;
use fastmac::umac::{AnyUmac, PARALLEL_MIN, TagLen, Umac, UmacTagLen};
use rand::{Rng, SeedableRng, rngs::StdRng};

const KEY: &[u8; 16] = b"\x9a\x03shared-key\x77\x10\xee\x01";
const THREADS: usize = 4;
/// Lengths on both sides of a 32-byte NH block, a 1024-byte L1 chunk, the
/// 16 KiB L2 run, 1500 (a packet) and the multi-core threshold.
const SIZES: [usize; 22] = [
    0,
    1,
    31,
    32,
    33,
    64,
    100,
    1023,
    1024,
    1025,
    1500,
    2047,
    2048,
    2049,
    3072,
    3073,
    16383,
    16384,
    16385,
    65536,
    65537,
    PARALLEL_MIN + 1,
];
/// Messages per tag length: every size several times, at different offsets
/// into the buffer and under different nonces.
const MESSAGES: usize = 3 * SIZES.len();

const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Arc<Umac<4>>>();
    send_sync::<Arc<Umac<8>>>();
    send_sync::<Arc<Umac<12>>>();
    send_sync::<Arc<Umac<16>>>();
    send_sync::<Arc<AnyUmac>>();
};

struct Job {
    nonce: Vec<u8>,
    start: usize,
    len: usize,
}

/// The messages: sizes from [`SIZES`], offsets that move them off any
/// alignment, nonces of 1 to 16 bytes counting up (the cache's case) and
/// jumping (its miss).
fn jobs() -> Vec<Job> {
    (0..MESSAGES)
        .map(|i| {
            let nonce_len = 1 + i % 16;
            let counter = (i as u128 * 0x0102_0304_0506_0708_090a_0b0c_0d0e_0f11) ^ (i as u128);
            let nonce = counter.to_be_bytes()[16 - nonce_len..].to_vec();
            Job { nonce, start: (i * 7) % 61, len: SIZES[i % SIZES.len()] }
        })
        .collect()
}

fn message<'a>(data: &'a [u8], job: &Job) -> &'a [u8] {
    &data[job.start..job.start + job.len]
}

fn data() -> Vec<u8> {
    let mut data = vec![0u8; PARALLEL_MIN + 128];
    StdRng::seed_from_u64(31).fill(&mut data[..]);
    data
}

/// Tags and verifies every job from `THREADS` threads sharing `mac`, each
/// thread starting at another job; returns the tags each thread computed,
/// in job order.
fn from_threads<M: Send + Sync>(
    mac: &Arc<M>,
    data: &[u8],
    jobs: &[Job],
    tag: impl Fn(&M, &[u8], &[u8]) -> Vec<u8> + Sync,
    verify: impl Fn(&M, &[u8], &[u8], &[u8]) -> Result<(), Error> + Sync,
) -> Vec<Vec<Vec<u8>>> {
    let (tag, verify) = (&tag, &verify);
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..THREADS)
            .map(|thread| {
                let mac = Arc::clone(mac);
                scope.spawn(move || {
                    let mut tags = vec![Vec::new(); jobs.len()];
                    for k in 0..jobs.len() {
                        let i = (k + thread * jobs.len() / THREADS) % jobs.len();
                        let job = &jobs[i];
                        let msg = message(data, job);
                        tags[i] = tag(&mac, &job.nonce, msg);
                        verify(&mac, &job.nonce, msg, &tags[i]).expect("its own tag verifies");
                        let mut bad = tags[i].clone();
                        let flipped = k % bad.len();
                        bad[flipped] ^= 1 << (k % 8);
                        assert_eq!(verify(&mac, &job.nonce, msg, &bad), Err(Error::InvalidTag), "job {i}");
                    }
                    tags
                })
            })
            .collect();
        workers.into_iter().map(|worker| worker.join().expect("no thread panics")).collect()
    })
}

fn shared_equals_single_threaded<const N: usize>() -> usize
where
    TagLen<N>: UmacTagLen,
{
    let data = data();
    let jobs = jobs();
    let mut single = Umac::<N>::new(KEY);
    let expected: Vec<Vec<u8>> =
        jobs.iter().map(|job| single.mac(&job.nonce, message(&data, job)).unwrap().to_vec()).collect();

    let fixed = Arc::new(Umac::<N>::new(KEY));
    let any = Arc::new(AnyUmac::new(KEY, N).unwrap());
    let from_fixed = from_threads(
        &fixed,
        &data,
        &jobs,
        |mac, nonce, msg| mac.mac_shared(nonce, msg).unwrap().to_vec(),
        |mac, nonce, msg, tag| mac.verify_shared(nonce, msg, tag),
    );
    let from_any = from_threads(
        &any,
        &data,
        &jobs,
        |mac, nonce, msg| mac.mac_shared(nonce, msg).unwrap().as_slice().to_vec(),
        |mac, nonce, msg, tag| mac.verify_shared(nonce, msg, tag),
    );
    let mut compared = 0;
    for (thread, tags) in from_fixed.iter().chain(&from_any).enumerate() {
        for (i, (tag, want)) in tags.iter().zip(&expected).enumerate() {
            assert_eq!(tag, want, "UMAC-{} thread {thread} job {i} ({} bytes)", 8 * N, jobs[i].len);
            compared += 1;
        }
    }
    compared
}

#[test]
fn shared_umac32_equals_single_threaded() {
    assert_eq!(shared_equals_single_threaded::<4>(), 2 * THREADS * MESSAGES);
}

#[test]
fn shared_umac64_equals_single_threaded() {
    assert_eq!(shared_equals_single_threaded::<8>(), 2 * THREADS * MESSAGES);
}

#[test]
fn shared_umac96_equals_single_threaded() {
    assert_eq!(shared_equals_single_threaded::<12>(), 2 * THREADS * MESSAGES);
}

#[test]
fn shared_umac128_equals_single_threaded() {
    assert_eq!(shared_equals_single_threaded::<16>(), 2 * THREADS * MESSAGES);
}

/// Bad lengths through `&self` are the same typed errors as through
/// `&mut self`, checked before any hashing.
#[test]
fn shared_calls_reject_bad_lengths() {
    let mac = Umac::<8>::new(KEY);
    let any = AnyUmac::new(KEY, 8).unwrap();
    for nonce in [&[][..], &[0u8; 17][..]] {
        let error = Error::NonceLength { min: 1, max: 16, got: nonce.len() };
        assert_eq!(mac.mac_shared(nonce, b"msg"), Err(error.clone()));
        assert_eq!(mac.verify_shared(nonce, b"msg", &[0; 8]), Err(error.clone()));
        assert_eq!(any.mac_shared(nonce, b"msg").map(|_| ()), Err(error.clone()));
        assert_eq!(any.verify_shared(nonce, b"msg", &[0; 8]), Err(error));
    }
    let tag = mac.mac_shared(b"nonce", b"msg").unwrap();
    assert_eq!(mac.verify_shared(b"nonce", b"msg", &tag[..7]), Err(Error::TagLength { expected: 8, got: 7 }));
    assert_eq!(any.verify_shared(b"nonce", b"msg", &[0; 16]), Err(Error::TagLength { expected: 8, got: 16 }));
}
