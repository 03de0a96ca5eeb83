//! Streaming against the one-shot call, as interleaved ratios: for each
//! size and tag length, rounds that time the one-shot `mac` and then
//! `update` + `finalize_reset` over the same bytes, alternately, and the
//! median of the per-round ratios (streaming time over one-shot time). The
//! two run back to back in one process, so a machine whose speed drifts
//! (a shared one) moves both alike. Counter nonces, as SSH's sequence
//! numbers.
//!
//! `cargo bench -p fastmac-bench --bench streaming`
//! (`-- ROUNDS` for another number of rounds than 21).

use std::hint::black_box;
use std::time::Instant;

use fastmac::umac::Umac;

const SIZES: [usize; 7] = [32, 1024, 1025, 1500, 2048, 32768, 65536];
const KEY: &[u8; 16] = b"abcdefghijklmnop";
/// Bytes each timed batch hashes (at least one message), so that a batch
/// lasts long enough for the clock and short enough to interleave finely.
const BATCH_BYTES: usize = 1 << 20;

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// Nanoseconds per message of `batch` calls of `tag`.
fn time_batch(batch: usize, mut tag: impl FnMut(u64)) -> f64 {
    let start = Instant::now();
    for n in 0..batch as u64 {
        tag(n);
    }
    start.elapsed().as_nanos() as f64 / batch as f64
}

/// One row: one-shot ns, streaming ns (medians) and the median ratio.
fn compare<const N: usize>(msg: &[u8], rounds: usize) -> (f64, f64, f64) {
    let mut one_shot = Umac::<N>::new(KEY);
    let mut streaming = Umac::<N>::new(KEY);
    let batch = (BATCH_BYTES / msg.len().max(1)).max(1);
    let mut run_one_shot = |base: u64| {
        time_batch(batch, |n| {
            black_box(one_shot.mac(&(base + n).to_be_bytes(), black_box(msg)).expect("8-byte nonce"));
        })
    };
    let mut run_streaming = |base: u64| {
        time_batch(batch, |n| {
            streaming.update(black_box(msg));
            black_box(streaming.finalize_reset(&(base + n).to_be_bytes()).expect("8-byte nonce"));
        })
    };
    // One untimed round of each warms caches and the pad cache alike.
    run_one_shot(0);
    run_streaming(0);
    let (mut a, mut b, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let base = (round as u64 + 1) * batch as u64;
        let (x, y) = if round % 2 == 0 {
            let x = run_one_shot(base);
            (x, run_streaming(base))
        } else {
            let y = run_streaming(base);
            (run_one_shot(base), y)
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
        "update + finalize_reset over mac, same bytes, backend {}: median of {rounds} interleaved rounds",
        Umac::<8>::new(KEY).backend()
    );
    println!("{:>6} {:>8} {:>12} {:>12} {:>7}", "bytes", "UMAC", "one-shot ns", "stream ns", "ratio");
    for size in SIZES {
        for (bits, (a, b, r)) in
            [(64, compare::<8>(&data[..size], rounds)), (128, compare::<16>(&data[..size], rounds))]
        {
            println!("{size:>6} {bits:>8} {a:>12.1} {b:>12.1} {r:>7.3}");
        }
    }
}
