//! Time per message at every length from 32 to 4,200 bytes in steps of 4
//! (and the MTU-like 9,000), for Badger-32 to Badger-160 in nonce mode and
//! UMAC-32 to UMAC-128, and the worst ratio `t(n) / t(m)` over all measured
//! pairs `n < m` up to 4,200 bytes: a message never costs more than a
//! longer one when that ratio is at most 1 (docs/performance.md, "Badger at
//! every length").
//!
//! `cargo bench -p fastmac-bench --bench length_sweep -- [ROUNDS] [--step N]
//! [--only NAME,...] [--tsv FILE]`. Each round times one batch of every
//! subject at every length, the lengths ascending in even rounds and
//! descending in odd ones, so that a slow spell of a shared host falls on
//! short and long messages alike, after one untimed message of the subject
//! at that length; each figure is the median over rounds.
//! The worst ratio is printed from the medians and from each length's
//! fastest round: one disturbed length makes the first, while a real step
//! between lengths shows in both. `--tsv` writes every median and fastest
//! round (subject, length, ns, ns) for comparing runs of two builds.

use std::hint::black_box;
use std::io::Write;
use std::time::Instant;

use fastmac::badger::{Badger32, Badger64, Badger96, Badger128, Badger160};
use fastmac::umac::{Umac32, Umac64, Umac96, Umac128};

const KEY: [u8; 16] = *b"0123456789abcdef";
/// The lengths whose pairs the goal covers.
const FIRST: usize = 32;
const LAST: usize = 4200;
/// A jumbo frame's payload, timed and printed outside the pairs.
const JUMBO: usize = 9000;
/// Bytes each timed batch hashes: long enough for the clock, short enough
/// that one round of every subject and length takes about a second.
const BATCH_BYTES: usize = 64 << 10;

struct Options {
    rounds: usize,
    step: usize,
    only: Option<Vec<String>>,
    tsv: Option<String>,
}

fn options() -> Options {
    let mut opts = Options { rounds: 31, step: 4, only: None, tsv: None };
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--step" => opts.step = args.next().and_then(|s| s.parse().ok()).expect("--step N"),
            "--only" => opts.only = Some(args.next().expect("--only NAMES").split(',').map(String::from).collect()),
            "--tsv" => opts.tsv = Some(args.next().expect("--tsv FILE")),
            // cargo bench passes `--bench`; other flags are criterion's.
            _ => {
                if let Ok(rounds) = arg.parse() {
                    opts.rounds = rounds;
                }
            }
        }
    }
    opts
}

type TagFn = Box<dyn FnMut(u64, &[u8])>;

fn subjects() -> Vec<(&'static str, TagFn)> {
    fn badger<const N: usize>(mac: fastmac::badger::Badger<N>) -> TagFn {
        // Nonce mode rejects nonce 0; the counter starts at 1.
        Box::new(move |n, msg| {
            black_box(mac.mac(&(n + 1).to_le_bytes(), black_box(msg)).expect("a nonzero nonce"));
        })
    }
    macro_rules! umac {
        ($ty:ty) => {{
            let mut mac = <$ty>::new(&KEY);
            Box::new(move |n: u64, msg: &[u8]| {
                black_box(mac.mac(&n.to_be_bytes(), black_box(msg)).expect("an 8-byte nonce"));
            }) as TagFn
        }};
    }
    vec![
        ("badger-32", badger(Badger32::new(&KEY))),
        ("badger-64", badger(Badger64::new(&KEY))),
        ("badger-96", badger(Badger96::new(&KEY))),
        ("badger-128", badger(Badger128::new(&KEY))),
        ("badger-160", badger(Badger160::new(&KEY))),
        ("umac-32", umac!(Umac32)),
        ("umac-64", umac!(Umac64)),
        ("umac-96", umac!(Umac96)),
        ("umac-128", umac!(Umac128)),
    ]
}

/// The largest `t(n) / t(m)` over `n < m`, with its `n` and `m`.
fn worst_ratio(times: &[(usize, f64)]) -> (usize, usize, f64) {
    let mut worst = (0, 0, 0.0);
    // Scan from the longest: `fastest` is the least time of any longer length.
    let mut fastest: Option<(usize, f64)> = None;
    for &(len, ns) in times.iter().rev() {
        if let Some((m, t_m)) = fastest {
            if ns / t_m > worst.2 {
                worst = (len, m, ns / t_m);
            }
            if ns < t_m {
                fastest = Some((len, ns));
            }
        } else {
            fastest = Some((len, ns));
        }
    }
    worst
}

/// The median and the least of `values`.
fn median_and_least(values: &mut [f64]) -> (f64, f64) {
    values.sort_by(f64::total_cmp);
    (values[values.len() / 2], values[0])
}

fn main() {
    let opts = options();
    let mut lengths: Vec<usize> = (FIRST..=LAST).step_by(opts.step).collect();
    lengths.push(JUMBO);
    let mut subjects: Vec<_> = subjects()
        .into_iter()
        .filter(|(name, _)| opts.only.as_ref().is_none_or(|only| only.iter().any(|o| o == name)))
        .collect();
    // A buffer aligned to 4 KiB, as `fastmac bench`'s (docs/performance.md, "How to measure").
    let storage = vec![0x5Au8; JUMBO + 4096];
    let offset = storage.as_ptr().align_offset(4096);
    let buffer = &storage[offset..offset + JUMBO];
    let mut samples = vec![vec![Vec::with_capacity(opts.rounds); lengths.len()]; subjects.len()];
    let mut nonce = 0u64;
    eprintln!("{} subjects, {} lengths, {} rounds", subjects.len(), lengths.len(), opts.rounds);
    // One untimed round warms the caches, then the timed rounds.
    for round in 0..=opts.rounds {
        let order: Vec<usize> =
            if round % 2 == 0 { (0..lengths.len()).collect() } else { (0..lengths.len()).rev().collect() };
        for index in order {
            let len = lengths[index];
            let msg = &buffer[..len];
            let batch = (BATCH_BYTES / len).max(1);
            for (subject, (_, tag)) in subjects.iter_mut().enumerate() {
                // One untimed message first: the subject before this one
                // left its own code and data in the caches, and a batch
                // that paid for that measured the order of the subjects,
                // not the length (docs/performance-log.md section 30).
                tag(nonce, msg);
                nonce += 1;
                let start = Instant::now();
                for _ in 0..batch {
                    tag(nonce, msg);
                    nonce += 1;
                }
                let ns = start.elapsed().as_nanos() as f64 / batch as f64;
                if round > 0 {
                    samples[subject][index].push(ns);
                }
            }
        }
    }
    let mut tsv = opts.tsv.as_ref().map(|path| std::fs::File::create(path).expect("the --tsv file"));
    println!(
        "{:<11} {:>9} {:>9} {:>9} {:>9} {:>9}  worst t(n)/t(m), n < m <= {LAST}: medians; fastest rounds",
        "ns/msg", 576, 1460, 1500, 1536, JUMBO
    );
    for (subject, (name, _)) in subjects.iter().enumerate() {
        let both: Vec<(usize, (f64, f64))> =
            lengths.iter().zip(&mut samples[subject]).map(|(&len, s)| (len, median_and_least(s))).collect();
        if let Some(file) = tsv.as_mut() {
            for (len, (median, least)) in &both {
                writeln!(file, "{name}\t{len}\t{median:.2}\t{least:.2}").expect("writing the --tsv file");
            }
        }
        let at = |want: usize| {
            both.iter().find(|(len, _)| *len == want).map_or("-".to_string(), |(_, (ns, _))| format!("{ns:.1}"))
        };
        let within = || both.iter().filter(|(len, _)| *len <= LAST);
        let (n, m, ratio) = worst_ratio(&within().map(|&(len, (median, _))| (len, median)).collect::<Vec<_>>());
        let (fast_n, fast_m, fast_ratio) =
            worst_ratio(&within().map(|&(len, (_, least))| (len, least)).collect::<Vec<_>>());
        println!(
            "{name:<11} {:>9} {:>9} {:>9} {:>9} {:>9}  {ratio:.3} ({n} B against {m} B); {fast_ratio:.3} ({fast_n} B \
             against {fast_m} B)",
            at(576),
            at(1460),
            at(1500),
            at(1536),
            at(JUMBO)
        );
    }
}
