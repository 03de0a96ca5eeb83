//! Timing: loops of at least 0.5 ms on the monotonic clock (`Instant`),
//! because this VM's TSC ticks in 10 ns steps and a single short call
//! cannot be timed (`design/limits.md` section 2). The subjects of one size
//! are interleaved, one loop each per round, so that load from other
//! processes falls on all of them alike; each figure is the median of the
//! rounds.

use std::time::{Duration, Instant};

use super::report::ResultRow;
use super::subjects::Subject;

/// Shortest timed loop.
const MIN_LOOP: Duration = Duration::from_micros(500);
/// Fewest samples per subject, whatever the time budget.
const MIN_SAMPLES: usize = 5;

/// A message buffer aligned to 4 KiB, so placement effects (4K aliasing,
/// `design/limits.md` section 7) are the same for every subject.
struct Aligned {
    storage: Vec<u8>,
    offset: usize,
    len: usize,
}

impl Aligned {
    fn new(len: usize) -> Self {
        let mut storage = vec![0u8; len + 4096];
        let offset = storage.as_ptr().align_offset(4096);
        // Arbitrary, non-constant contents (xorshift).
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for b in &mut storage[offset..offset + len] {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            *b = s as u8;
        }
        Aligned { storage, offset, len }
    }

    fn bytes(&self) -> &[u8] {
        &self.storage[self.offset..self.offset + self.len]
    }
}

/// Per subject: messages per loop, nonce counter, samples in ns/message.
struct Cell {
    index: usize,
    count: u64,
    next_nonce: u64,
    samples: Vec<f64>,
}

/// Measures every applicable subject at `size` for about `budget` each.
pub fn measure_size(subjects: &mut [Box<dyn Subject>], size: usize, budget: Duration, ghz: Option<f64>) -> Vec<ResultRow> {
    let buffer = Aligned::new(size);
    let msg = buffer.bytes();
    let mut cells: Vec<Cell> = Vec::new();
    for (index, subject) in subjects.iter_mut().enumerate().filter(|(_, s)| s.applies_to(size)) {
        // Calibrate: grow the loop until it takes at least MIN_LOOP.
        let mut count = 1u64;
        let mut next_nonce = 0u64;
        loop {
            let elapsed = time(subject.as_mut(), next_nonce, count, msg);
            next_nonce += count;
            if elapsed >= MIN_LOOP {
                break;
            }
            let scale = (MIN_LOOP.as_secs_f64() / elapsed.as_secs_f64().max(1e-9) * 1.2).clamp(1.5, 100.0);
            count = ((count as f64) * scale).ceil() as u64;
        }
        cells.push(Cell { index, count, next_nonce, samples: Vec::new() });
    }
    let total_budget = budget * cells.len().max(1) as u32;
    let start = Instant::now();
    while cells.iter().any(|c| c.samples.len() < MIN_SAMPLES) || start.elapsed() < total_budget {
        for cell in &mut cells {
            let elapsed = time(subjects[cell.index].as_mut(), cell.next_nonce, cell.count, msg);
            cell.next_nonce += cell.count;
            cell.samples.push(elapsed.as_nanos() as f64 / cell.count as f64);
        }
    }
    cells
        .into_iter()
        .map(|mut cell| {
            cell.samples.sort_by(f64::total_cmp);
            let ns = cell.samples[cell.samples.len() / 2];
            let subject = &subjects[cell.index];
            ResultRow {
                alg: subject.alg().to_owned(),
                implementation: subject.implementation(),
                size,
                ns_per_msg: ns,
                ns_min: cell.samples[0],
                gb_per_s: size as f64 / ns,
                cycles_per_byte: ghz.map(|g| ns * g / size as f64),
                cycles_per_msg: ghz.map(|g| ns * g),
                threads: subject.threads(),
                backend: subject.backend().map(|b| b.name().to_owned()),
                samples: cell.samples.len(),
            }
        })
        .collect()
}

fn time(subject: &mut dyn Subject, first: u64, count: u64, msg: &[u8]) -> Duration {
    subject.timed_run(first, count, msg)
}
