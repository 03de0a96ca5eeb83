//! The timing loop: loops of at least 0.5 ms on the monotonic clock
//! (`Instant`), because a VM's TSC may tick in coarse steps and a single
//! short call cannot be timed (docs/performance.md). The subjects of one
//! size are interleaved, one loop each per round, so that load from other
//! processes falls on all of them alike; a run goes over its sizes in
//! [`PASSES`] passes, so that a slow spell of seconds (a busy neighbour on
//! a shared host) falls on every size alike too; each figure is the median
//! of its loops over all passes, and a ratio between two rows of one size
//! the median of their per-round ratios ([`Loops`]).

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::{Row, Subject};

/// How time is measured, for the report.
pub fn method() -> String {
    format!(
        "std::time::Instant (CLOCK_MONOTONIC); loops >= 0.5 ms; subjects interleaved; sizes in {PASSES} passes; \
         multi-core loops after one untimed message; medians; ratios between rows of one size: medians of their \
         per-round ratios"
    )
}

/// Passes a run makes over its sizes, each with a fifth of the time budget.
pub const PASSES: usize = 5;

/// Shortest timed loop.
const MIN_LOOP: Duration = Duration::from_micros(500);
/// Fewest samples per subject, whatever the time budget.
pub const MIN_SAMPLES: usize = 5;

/// A message buffer aligned to 4 KiB, so placement effects (4K aliasing)
/// are the same for every subject.
struct Aligned {
    storage: Vec<u8>,
    offset: usize,
    len: usize,
}

impl Aligned {
    /// The buffer, or an error if the memory is not there (a size the
    /// command line allows may still exceed a small machine's memory).
    fn new(len: usize) -> Result<Self, String> {
        let no_memory = || format!("cannot allocate a message of {len} bytes");
        let total = len.checked_add(4096).ok_or_else(no_memory)?;
        let mut storage = Vec::new();
        storage.try_reserve_exact(total).map_err(|_| no_memory())?;
        storage.resize(total, 0u8);
        let offset = storage.as_ptr().align_offset(4096);
        // Arbitrary, non-constant contents (xorshift).
        let mut s = 0x9e37_79b9_7f4a_7c15u64;
        for b in &mut storage[offset..offset + len] {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            *b = s as u8;
        }
        Ok(Aligned { storage, offset, len })
    }

    fn bytes(&self) -> &[u8] {
        &self.storage[self.offset..self.offset + self.len]
    }
}

/// The messages per loop that make one loop last at least [`MIN_LOOP`].
fn calibrate(subject: &mut Subject, msg: &[u8]) -> u64 {
    let mut count = 1u64;
    loop {
        let elapsed = subject.time(count, msg);
        if elapsed >= MIN_LOOP {
            return count;
        }
        let scale = (MIN_LOOP.as_secs_f64() / elapsed.as_secs_f64().max(1e-9) * 1.2).clamp(1.5, 100.0);
        count = ((count as f64) * scale).ceil() as u64;
    }
}

/// Median and fastest of some samples (ns per message).
fn summary(mut samples: Vec<f64>) -> (f64, f64, usize) {
    samples.sort_by(f64::total_cmp);
    (samples[samples.len() / 2], samples[0], samples.len())
}

/// The loops of the subjects of one size so far, over the passes: each
/// subject's messages per loop (calibrated in the first pass) and its
/// samples (ns per message), loop `i` of every subject timed in the same
/// round; `sampling` tells this set of subjects from any other.
pub struct Sampled {
    sampling: u64,
    counts: Vec<u64>,
    samples: Vec<Vec<f64>>,
}

impl Default for Sampled {
    fn default() -> Self {
        // One number per sampling in the process: rows of different
        // samplings never pair their loops.
        static NEXT: AtomicU64 = AtomicU64::new(1);
        Sampled { sampling: NEXT.fetch_add(1, Ordering::Relaxed), counts: Vec::new(), samples: Vec::new() }
    }
}

/// A row's timed loops (ns per message) in the order taken, and the
/// sampling they belong to: loop `i` of every row of one sampling was
/// timed in the same round as the others' loop `i`, side by side.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Loops {
    /// 0 for a row not timed here.
    sampling: u64,
    ns: Vec<f64>,
}

impl Loops {
    /// The median over rounds of `numerator`'s loop time over
    /// `denominator`'s, if both were timed side by side.
    pub fn paired_ratio(numerator: &Loops, denominator: &Loops) -> Option<f64> {
        let paired = numerator.sampling != 0
            && numerator.sampling == denominator.sampling
            && numerator.ns.len() == denominator.ns.len()
            && !numerator.ns.is_empty();
        paired.then(|| {
            let ratios = numerator.ns.iter().zip(&denominator.ns).map(|(n, d)| n / d).collect();
            summary(ratios).0
        })
    }
}

/// Times every subject at `size` for about `budget` each, at least
/// `min_samples` loops each, adding the loops to `sampled` (the same
/// subjects in the same order at every call). An error if the message does
/// not fit in memory.
pub fn sample_size(
    subjects: &mut [&mut Subject],
    size: usize,
    budget: Duration,
    min_samples: usize,
    sampled: &mut Sampled,
) -> Result<(), String> {
    let buffer = Aligned::new(size)?;
    let msg = buffer.bytes();
    if sampled.counts.is_empty() {
        sampled.counts = subjects.iter_mut().map(|s| calibrate(s, msg)).collect();
        sampled.samples = vec![Vec::new(); subjects.len()];
    }
    let goal: Vec<usize> = sampled.samples.iter().map(|s| s.len() + min_samples).collect();
    let total_budget = budget * subjects.len().max(1) as u32;
    let start = Instant::now();
    while sampled.samples.iter().zip(&goal).any(|(s, &goal)| s.len() < goal) || start.elapsed() < total_budget {
        for ((subject, &count), samples) in subjects.iter_mut().zip(&sampled.counts).zip(&mut sampled.samples) {
            samples.push(subject.time(count, msg).as_nanos() as f64 / count as f64);
        }
    }
    Ok(())
}

/// The rows of `subjects` at `size` from their loops; no cycle figures yet
/// ([`Row::use_clock`]).
pub fn rows(subjects: &[&mut Subject], size: usize, sampled: Sampled) -> Vec<Row> {
    let sampling = sampled.sampling;
    subjects
        .iter()
        .zip(sampled.samples)
        .map(|(subject, loops)| {
            let (ns, ns_min, samples) = summary(loops.clone());
            Row {
                alg: subject.alg.clone(),
                imp: subject.imp,
                size,
                ns_per_msg: ns,
                ns_min,
                gb_per_s: size as f64 / ns,
                cycles_per_byte: None,
                cycles_per_msg: None,
                threads: subject.threads(),
                backend: subject.backend,
                state_bytes: subject.state_bytes,
                samples,
                loops: Loops { sampling, ns: loops },
            }
        })
        .collect()
}

/// Measures every subject at `size` for about `budget` each, in one pass;
/// the rows have no cycle figures yet ([`Row::use_clock`]). An error if the
/// message does not fit in memory.
pub fn measure_size(subjects: &mut [&mut Subject], size: usize, budget: Duration) -> Result<Vec<Row>, String> {
    let mut sampled = Sampled::default();
    sample_size(subjects, size, budget, MIN_SAMPLES, &mut sampled)?;
    Ok(rows(subjects, size, sampled))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::measure::Imp;

    #[test]
    fn every_subject_gets_a_row_with_the_loop_figures() {
        let mut calls = 0u64;
        let mut a = Subject::per_message("a", Imp::Fastmac, move |msg: &[u8]| {
            calls += 1;
            msg.iter().fold(calls as u8, |x, &b| x ^ b)
        });
        let mut b = Subject::per_message("b", Imp::RustCrypto, |msg: &[u8]| msg[0]);
        let rows = measure_size(&mut [&mut a, &mut b], 64, Duration::ZERO).unwrap();
        assert_eq!(rows.len(), 2);
        for row in &rows {
            assert_eq!(row.size, 64);
            assert!(row.samples >= MIN_SAMPLES && row.ns_min <= row.ns_per_msg && row.ns_per_msg > 0.0);
            assert!((row.gb_per_s - 64.0 / row.ns_per_msg).abs() < 1e-9);
        }
        assert_eq!((rows[1].alg.as_str(), rows[1].imp), ("b", Imp::RustCrypto));
    }

    #[test]
    fn rows_timed_side_by_side_pair_their_loops() {
        let mut a = Subject::per_message("a", Imp::Fastmac, |msg: &[u8]| msg[0]);
        let mut b = Subject::per_message("b", Imp::Nettle, |msg: &[u8]| msg[1]);
        let one = measure_size(&mut [&mut a, &mut b], 64, Duration::ZERO).unwrap();
        let other = measure_size(&mut [&mut a, &mut b], 64, Duration::ZERO).unwrap();
        assert!(Loops::paired_ratio(&one[0].loops, &one[1].loops).is_some(), "one sampling");
        assert_eq!(Loops::paired_ratio(&one[0].loops, &other[1].loops), None, "two samplings");
        assert_eq!(one[0].loops.ns.len(), one[0].samples);
    }

    #[test]
    fn a_paired_ratio_is_the_median_of_the_rounds_ratios() {
        // A spell slowed the third round of the first row only: the rounds'
        // ratios are 1, 1, 3, 1, 1 (median 1), the medians 3 and 1.
        let numerator = Loops { sampling: 7, ns: vec![1.0, 1.0, 3.0, 3.0, 3.0] };
        let denominator = Loops { sampling: 7, ns: vec![1.0, 1.0, 1.0, 3.0, 3.0] };
        assert_eq!(Loops::paired_ratio(&numerator, &denominator), Some(1.0));
        let elsewhere = Loops { sampling: 8, ..denominator.clone() };
        assert_eq!(Loops::paired_ratio(&numerator, &elsewhere), None, "another sampling");
        let shorter = Loops { sampling: 7, ns: vec![1.0, 1.0, 1.0] };
        assert_eq!(Loops::paired_ratio(&numerator, &shorter), None, "not loop for loop");
        assert_eq!(Loops::paired_ratio(&Loops::default(), &Loops::default()), None, "not timed here");
    }

    #[test]
    fn the_median_is_the_middle_sample() {
        assert_eq!(summary(vec![5.0, 1.0, 3.0, 9.0, 2.0]), (3.0, 1.0, 5));
    }
}
