//! Streaming against the one-shot call, as interleaved ratios: for each
//! size and tag length, rounds that time the one-shot `mac` and then
//! `update` + `finalize_reset` over the same bytes, alternately, and the
//! median of the per-round ratios (streaming time over one-shot time). The
//! two run back to back in one process, so a machine whose speed drifts
//! (a shared one) moves both alike. Counter nonces, as SSH's sequence
//! numbers. UMAC-64 and UMAC-128, then Badger-32, Badger-64 and Badger-160
//! in nonce mode under each tree code the CPU runs, at sizes with and
//! without a partial last block.
//!
//! `cargo bench -p fastmac-bench --bench streaming`
//! (`-- ROUNDS` for another number of rounds than 21).

mod common;

use std::hint::black_box;

use fastmac::badger::Badger;
use fastmac::umac::{Backend, TagLen, Umac, UmacTagLen};

const SIZES: [usize; 7] = [32, 1024, 1025, 1500, 2048, 32768, 65536];
const BADGER_SIZES: [usize; 11] = [64, 500, 512, 1460, 1500, 1536, 4000, 4096, 16500, 32768, 65536];
const KEY: &[u8; 16] = b"abcdefghijklmnop";

/// One row: one-shot ns, streaming ns (medians) and the median ratio.
fn compare<const N: usize>(msg: &[u8], rounds: usize) -> (f64, f64, f64)
where
    TagLen<N>: UmacTagLen,
{
    let mut one_shot = Umac::<N>::new(KEY);
    let mut streaming = Umac::<N>::new(KEY);
    let batch = common::batch_len(msg.len());
    let run_one_shot = |base| {
        common::time_batch(batch, base, |n| {
            black_box(one_shot.mac(&n.to_be_bytes(), black_box(msg)).expect("8-byte nonce"));
        })
    };
    let run_streaming = |base| {
        common::time_batch(batch, base, |n| {
            streaming.update(black_box(msg));
            black_box(streaming.finalize_reset(&n.to_be_bytes()).expect("8-byte nonce"));
        })
    };
    common::interleave(rounds, batch, run_one_shot, run_streaming)
}

/// [`compare`] for Badger with a `TAG_LEN`-byte tag (counter nonces from 1:
/// Badger rejects nonce 0).
fn compare_badger<const TAG_LEN: usize>(msg: &[u8], rounds: usize) -> (f64, f64, f64) {
    let one_shot = Badger::<TAG_LEN>::new(KEY);
    let mut streaming = Badger::<TAG_LEN>::new(KEY);
    let batch = common::batch_len(msg.len());
    let run_one_shot = |base| {
        common::time_batch(batch, base, |n| {
            black_box(one_shot.mac(&(n + 1).to_le_bytes(), black_box(msg)).expect("nonzero 8-byte nonce"));
        })
    };
    let run_streaming = |base| {
        common::time_batch(batch, base, |n| {
            streaming.update(black_box(msg));
            black_box(streaming.finalize_reset(&(n + 1).to_le_bytes()).expect("nonzero 8-byte nonce"));
        })
    };
    common::interleave(rounds, batch, run_one_shot, run_streaming)
}

fn main() {
    let rounds = common::rounds();
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
    // Badger under each tree code this CPU runs (portable, AVX2, AVX-512),
    // chosen as the default backend when the keys are made.
    let mut tree_codes: Vec<Backend> = Backend::supported().map(Backend::badger_trees).collect();
    tree_codes.dedup();
    for trees in tree_codes {
        Backend::set_default(Some(trees)).expect("a supported backend");
        println!("Badger, tree code {}: the same", Badger::<8>::new(KEY).backend());
        println!("{:>6} {:>8} {:>12} {:>12} {:>7}", "bytes", "Badger", "one-shot ns", "stream ns", "ratio");
        for size in BADGER_SIZES {
            for (bits, (a, b, r)) in [
                (32, compare_badger::<4>(&data[..size], rounds)),
                (64, compare_badger::<8>(&data[..size], rounds)),
                (160, compare_badger::<20>(&data[..size], rounds)),
            ] {
                println!("{size:>6} {bits:>8} {a:>12.1} {b:>12.1} {r:>7.3}");
            }
        }
    }
    Backend::set_default(None).expect("the detected backend");
}
