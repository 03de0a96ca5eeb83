//! Interleaved timing for the benchmarks that compare two ways of tagging
//! the same bytes (docs/performance.md, "How to measure"): rounds that time one
//! batch of each, alternately first, and the median of the per-round
//! ratios. The two run back to back in one process, so a machine whose
//! speed drifts (a shared one) moves both alike.

use std::time::Instant;

/// Bytes each timed batch hashes (at least one message), so that a batch
/// lasts long enough for the clock and short enough to interleave finely.
const BATCH_BYTES: usize = 1 << 20;

/// Rounds when the command line names none (`-- ROUNDS`).
const DEFAULT_ROUNDS: usize = 21;

/// The number of rounds: the first number on the command line, or 21.
pub fn rounds() -> usize {
    std::env::args().skip(1).find_map(|arg| arg.parse::<usize>().ok()).unwrap_or(DEFAULT_ROUNDS)
}

/// Messages per timed batch for messages of `len` bytes.
pub fn batch_len(len: usize) -> usize {
    (BATCH_BYTES / len.max(1)).max(1)
}

/// Nanoseconds per message of `batch` calls of `tag`, given the counter
/// nonces `base..base + batch`.
pub fn time_batch(batch: usize, base: u64, mut tag: impl FnMut(u64)) -> f64 {
    let start = Instant::now();
    for n in base..base + batch as u64 {
        tag(n);
    }
    start.elapsed().as_nanos() as f64 / batch as f64
}

/// `rounds` rounds of the timed batches `a` and `b` (each given the first
/// nonce of its round; one untimed round of each first warms caches and
/// pad caches alike): the median ns of `a`, of `b`, and the median of the
/// per-round ratios `b / a`.
pub fn interleave(
    rounds: usize,
    batch: usize,
    mut a: impl FnMut(u64) -> f64,
    mut b: impl FnMut(u64) -> f64,
) -> (f64, f64, f64) {
    a(0);
    b(0);
    let (mut a_ns, mut b_ns, mut ratio) = (Vec::new(), Vec::new(), Vec::new());
    for round in 0..rounds {
        let base = (round as u64 + 1) * batch as u64;
        let (x, y) = if round % 2 == 0 {
            let x = a(base);
            (x, b(base))
        } else {
            let y = b(base);
            (a(base), y)
        };
        a_ns.push(x);
        b_ns.push(y);
        ratio.push(y / x);
    }
    (median(&mut a_ns), median(&mut b_ns), median(&mut ratio))
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}
