//! The `&self` path against the `&mut self` one, as interleaved ratios: for
//! each size and tag length, rounds that time `Umac::mac` (the pad from
//! the cache, one AES call per 16 to 32 counter nonces) and
//! `Umac::mac_shared` (one AES block per call, through a shared
//! reference) alternately on one thread, and the median of the per-round
//! ratios (shared time over `mac` time). Counter nonces, as SSH's sequence
//! numbers: the cache's best case, so the ratio is the most the shared
//! path costs.
//!
//! `cargo bench -p fastmac-bench --bench shared`
//! (`-- ROUNDS` for another number of rounds than 21).

mod common;

use std::hint::black_box;

use fastmac::umac::{TagLen, Umac, UmacTagLen};

const SIZES: [usize; 4] = [32, 1024, 1500, 65536];
const KEY: &[u8; 16] = b"abcdefghijklmnop";

/// One row: `mac` ns, `mac_shared` ns (medians) and the median ratio.
fn compare<const N: usize>(msg: &[u8], rounds: usize) -> (f64, f64, f64)
where
    TagLen<N>: UmacTagLen,
{
    let mut cached = Umac::<N>::new(KEY);
    let shared = Umac::<N>::new(KEY);
    let batch = common::batch_len(msg.len());
    let run_cached = |base| {
        common::time_batch(batch, base, |n| {
            black_box(cached.mac(&n.to_be_bytes(), black_box(msg)).expect("8-byte nonce"));
        })
    };
    let run_shared = |base| {
        common::time_batch(batch, base, |n| {
            black_box(shared.mac_shared(&n.to_be_bytes(), black_box(msg)).expect("8-byte nonce"));
        })
    };
    common::interleave(rounds, batch, run_cached, run_shared)
}

fn main() {
    let rounds = common::rounds();
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
