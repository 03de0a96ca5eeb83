//! The `&self` path against the `&mut self` one, as interleaved ratios: for
//! each size and tag length, rounds that time `Umac::mac` (the pad from
//! the cache, one AES call per 16 to 32 counter nonces) and
//! `Umac::mac_shared` (one AES block per call, through a shared
//! reference) alternately on one thread, and the median of the per-round
//! ratios (shared time over `mac` time). Counter nonces, as SSH's sequence
//! numbers: the cache's best case, so the ratio is the most the shared
//! path costs.
//!
//! `cargo bench -p fastmac --bench shared`
//! (`-- ROUNDS` for another number of rounds than 21).

use std::hint::black_box;
use std::time::Instant;

use fastmac::umac::Umac;

const SIZES: [usize; 4] = [32, 1024, 1500, 65536];
const KEY: &[u8; 16] = b"abcdefghijklmnop";
/// Bytes each timed batch hashes (at least one message), so that a batch
/// lasts long enough for the clock and short enough to interleave finely.
const BATCH_BYTES: usize = 1 << 20;

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Nanoseconds per message of `batch` calls of `tag`, nonces from `base`.
fn time_batch(batch: usize, base: u64, mut tag: impl FnMut(u64)) -> f64 {
    let start = Instant::now();
    for n in base..base + batch as u64 {
        tag(n);
    }
    start.elapsed().as_nanos() as f64 / batch as f64
}

/// One row: `mac` ns, `mac_shared` ns (medians) and the median ratio.
fn compare<const N: usize>(msg: &[u8], rounds: usize) -> (f64, f64, f64) {
    let mut cached = Umac::<N>::new(KEY);
    let shared = Umac::<N>::new(KEY);
    let batch = (BATCH_BYTES / msg.len().max(1)).max(1);
    let mut run_cached = |base| {
        time_batch(batch, base, |n| {
            black_box(cached.mac(&n.to_be_bytes(), black_box(msg)).expect("8-byte nonce"));
        })
    };
    let run_shared = |base| {
        time_batch(batch, base, |n| {
            black_box(shared.mac_shared(&n.to_be_bytes(), black_box(msg)).expect("8-byte nonce"));
        })
    };
    // One untimed round of each warms caches and the pad cache alike.
    run_cached(0);
    run_shared(0);
    let (mut a, mut b, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let base = (round as u64 + 1) * batch as u64;
        let (x, y) = if round % 2 == 0 {
            let x = run_cached(base);
            (x, run_shared(base))
        } else {
            let y = run_shared(base);
            (run_cached(base), y)
        };
        a.push(x);
        b.push(y);
        ratio.push(y / x);
    }
    (median(&mut a), median(&mut b), median(&mut ratio))
}

fn main() {
    let rounds = std::env::args().skip(1).find_map(|arg| arg.parse::<usize>().ok()).unwrap_or(21);
    let data: Vec<u8> = (0..SIZES[SIZES.len() - 1]).map(|i| (i * 131 + 7) as u8).collect();
    println!(
        "mac_shared (&self) over mac (&mut self), backend {}: median of {rounds} interleaved rounds",
        Umac::<8>::new(KEY).backend()
    );
    println!("{:>6} {:>8} {:>10} {:>13} {:>7}", "bytes", "UMAC", "mac ns", "mac_shared ns", "ratio");
    for size in SIZES {
        for (bits, (a, b, r)) in
            [(64, compare::<8>(&data[..size], rounds)), (128, compare::<16>(&data[..size], rounds))]
        {
            println!("{size:>6} {bits:>8} {a:>10.1} {b:>13.1} {r:>7.3}");
        }
    }
}
