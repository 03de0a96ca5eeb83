//! A message longer than 2^32 bytes, streamed
//! through the multi-core path (feature `parallel`), through the sequential
//! path and through GNU Nettle, at all four tag lengths: the three tags must
//! agree. Past 2^32 bytes any 32-bit byte count, chunk counter or length
//! would have wrapped (the message has 2^22 + 2^18 - 5 chunks of 1 KiB).
//!
//! The message is 17 slices of 256 MiB, the last 4321 bytes short (so it
//! ends inside a chunk), generated in one reused buffer: pseudo-random bytes
//! made once, then every slice stamps its index into each 4 KiB page, so no
//! two slices are equal. Each slice goes whole to `update`, so the parallel
//! path hashes it on all cores; the sequential path is the same code inside
//! a one-thread rayon pool (parallel.rs: `worth_it` picks the multi-core
//! code for an update of 1 to 4 MiB or more, by the tag length, in a pool
//! of several threads). How the multi-core path's work actually spread
//! over the pool's threads is printed from each thread's CPU time (Linux
//! `/proc/thread-self/stat`), not
//! asserted: on a loaded machine the OS may starve the other worker, and the
//! first then hashes nearly every batch itself (same code, same tags).
//!
//! It reads about 4.25 GiB 12 times (3 paths, 4 tag lengths); the time of
//! each path is printed (`--nocapture`).
//!
//! Built under `--cfg fastmac_nettle` (set by the root Makefile's test runs),
//! on x86_64, with the `parallel` feature.
#![cfg(all(feature = "parallel", fastmac_nettle, target_arch = "x86_64"))]

mod common;

use std::time::{Duration, Instant};

use common::nettle::NettleUmac;
use fastmac::umac::{TagLen, Umac, UmacTagLen};

const SLICE: usize = 256 << 20;
const SLICES: usize = 17;
/// The last slice is this much shorter than the others.
const SHORT: usize = 4321;
const PAGE: usize = 4096;
const NONCE: &[u8] = b"above 4 GiB";

/// One implementation under test, at one tag length.
trait Stream {
    fn update(&mut self, data: &[u8]);
    fn tag(&mut self) -> Vec<u8>;
}

impl<const N: usize> Stream for Umac<N>
where
    TagLen<N>: UmacTagLen,
{
    fn update(&mut self, data: &[u8]) {
        Umac::update(self, data);
    }
    fn tag(&mut self) -> Vec<u8> {
        self.finalize_reset(NONCE).unwrap().to_vec()
    }
}

impl Stream for NettleUmac {
    fn update(&mut self, data: &[u8]) {
        NettleUmac::update(self, data);
    }
    fn tag(&mut self) -> Vec<u8> {
        self.digest(NONCE)
    }
}

/// An implementation, the rayon pool it runs in and the time it took.
struct Path {
    name: &'static str,
    pool: rayon::ThreadPool,
    streams: Vec<Box<dyn Stream + Send>>,
    time: Duration,
}

impl Path {
    fn new(name: &'static str, threads: usize, streams: Vec<Box<dyn Stream + Send>>) -> Self {
        let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool");
        Path { name, pool, streams, time: Duration::ZERO }
    }

    fn update(&mut self, data: &[u8]) {
        let start = Instant::now();
        let streams = &mut self.streams;
        self.pool.install(|| streams.iter_mut().for_each(|s| s.update(data)));
        self.time += start.elapsed();
    }

    fn tags(&mut self) -> Vec<Vec<u8>> {
        self.streams.iter_mut().map(|s| s.tag()).collect()
    }

    /// CPU time (clock ticks) each thread of the pool has used.
    fn thread_cpu_ticks(&self) -> Vec<u64> {
        self.pool.broadcast(|_| {
            let stat = std::fs::read_to_string("/proc/thread-self/stat").expect("/proc/thread-self/stat");
            // Fields after the command name: state is field 3, utime 14, stime 15.
            let fields: Vec<&str> = stat[stat.rfind(')').expect("comm") + 1..].split_whitespace().collect();
            fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
        })
    }
}

fn umacs(key: &[u8; 16]) -> Vec<Box<dyn Stream + Send>> {
    vec![
        Box::new(Umac::<4>::new(key)),
        Box::new(Umac::<8>::new(key)),
        Box::new(Umac::<12>::new(key)),
        Box::new(Umac::<16>::new(key)),
    ]
}

/// xorshift64: cheap, deterministic, no byte pattern shorter than the slice.
fn fill_pseudo_random(buf: &mut [u8]) {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for word in buf.chunks_exact_mut(8) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        word.copy_from_slice(&state.to_le_bytes());
    }
}

#[test]
fn parallel_equals_sequential_and_nettle_above_4_gib() {
    let key = *b"four GiB and up!";
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).max(2);
    let mut paths = [
        Path::new("parallel", threads, umacs(&key)),
        Path::new("sequential", 1, umacs(&key)),
        Path::new(
            "nettle",
            1,
            [4, 8, 12, 16].map(|n| Box::new(NettleUmac::new(n, &key)) as Box<dyn Stream + Send>).into(),
        ),
    ];
    let mut buf = vec![0u8; SLICE];
    fill_pseudo_random(&mut buf);
    let mut total = 0u64;
    for slice in 0..SLICES {
        for page in buf.chunks_exact_mut(PAGE) {
            page[..8].copy_from_slice(&(slice as u64).to_be_bytes());
        }
        let len = if slice + 1 == SLICES { SLICE - SHORT } else { SLICE };
        for path in &mut paths {
            path.update(&buf[..len]);
        }
        total += len as u64;
    }
    assert!(total > 1 << 32, "the message must be longer than 2^32 bytes");
    let [parallel, sequential, nettle] = paths.each_mut().map(|p| p.tags());
    println!("parallel pool: CPU time per thread, in clock ticks: {:?}", paths[0].thread_cpu_ticks());
    for (i, tag_len) in [4, 8, 12, 16].into_iter().enumerate() {
        assert_eq!(parallel[i].len(), tag_len);
        assert_eq!(parallel[i], sequential[i], "UMAC-{}: parallel vs sequential, {total} bytes", 8 * tag_len);
        assert_eq!(parallel[i], nettle[i], "UMAC-{}: parallel vs Nettle, {total} bytes", 8 * tag_len);
    }
    for path in &paths {
        let gib = total as f64 * 4.0 / f64::from(1 << 30);
        println!(
            "{:>10}: {total} bytes x 4 tag lengths in {:.1} s ({:.2} GiB/s, {threads} rayon threads for parallel)",
            path.name,
            path.time.as_secs_f64(),
            gib / path.time.as_secs_f64()
        );
    }
}
