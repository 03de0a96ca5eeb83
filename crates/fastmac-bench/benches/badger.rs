//! Badger's costs in the shape of the paper's table 1 (key setup, hash per
//! byte, finalization with and without IV setup), and Badger-64 against
//! UMAC-64 per message size.
//!
//! `cargo bench -p fastmac-bench --bench badger`. Criterion reports ns; this VM has
//! no cycle counter and its TSC is not the core clock, so the bench first
//! prints the core clock measured in-process (a dependent chain of 64-bit
//! `imul`, 3 cycles each on Zen 5; docs/performance.md, "How to measure"):
//! cycles = ns x GHz.

use std::hint::black_box;
use std::time::Instant;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fastmac::badger::{Badger32, Badger64, Badger96, Badger128, Badger160, BadgerSender};
use fastmac::umac::Umac64;
use rabbit::Rabbit;
use rabbit::cipher::{KeyIvInit, StreamCipher};

const KEY: [u8; 16] = *b"0123456789abcdef";

/// Core clock in GHz: `n` dependent squarings take `3n` cycles.
fn core_ghz() -> f64 {
    const N: u64 = 20_000_000;
    let mut best = f64::MAX;
    for _ in 0..7 {
        let mut x = black_box(0x9E37_79B9_7F4A_7C15u64);
        let start = Instant::now();
        for _ in 0..N / 8 {
            x = x.wrapping_mul(x);
            x = x.wrapping_mul(x);
            x = x.wrapping_mul(x);
            x = x.wrapping_mul(x);
            x = x.wrapping_mul(x);
            x = x.wrapping_mul(x);
            x = x.wrapping_mul(x);
            x = x.wrapping_mul(x);
        }
        black_box(x);
        best = best.min(start.elapsed().as_nanos() as f64);
    }
    3.0 * N as f64 / best
}

fn message(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 131 + 7) as u8).collect()
}

fn table_1(c: &mut Criterion) {
    eprintln!("core clock (imul chain, this process): {:.3} GHz", core_ghz());
    let mut group = c.benchmark_group("badger-table1");
    group.bench_function("key setup u=2 v=58", |b| b.iter(|| Badger64::new(black_box(&KEY))));
    group.bench_function("key setup u=2 v=8 (2 KiB max)", |b| {
        b.iter(|| Badger64::with_levels(black_box(&KEY), 8).unwrap())
    });
    group.bench_function("key setup u=5 v=58", |b| b.iter(|| Badger160::new(black_box(&KEY))));
    let mac = Badger64::new(&KEY);
    for len in [1024usize, 65536] {
        let msg = message(len);
        group.throughput(Throughput::Bytes(len as u64));
        group.bench_with_input(BenchmarkId::new("hash u=2 (tree + F, no pad)", len), &msg, |b, msg| {
            b.iter(|| mac.hash(black_box(msg)).unwrap())
        });
    }
    group.throughput(Throughput::Elements(1));
    // Finalization = F + pad. With the empty message the tree does nothing,
    // so these are the F function plus the pad generation of each mode.
    let mut sender = BadgerSender::<8>::new(&KEY);
    group.bench_function("finalization without IV (sequential, empty msg)", |b| {
        b.iter(|| sender.tag(black_box(b"")).unwrap())
    });
    let mut nonce = 1u64;
    group.bench_function("finalization with IV (nonce mode, empty msg)", |b| {
        b.iter(|| {
            nonce += 1;
            mac.mac(black_box(&nonce.to_le_bytes()), black_box(b"")).unwrap()
        })
    });
    group.bench_function("F only (hash of the empty msg)", |b| b.iter(|| mac.hash(black_box(b"")).unwrap()));
    group.bench_function("rabbit key+IV setup + 8 pad bytes", |b| {
        b.iter(|| {
            nonce += 1;
            let mut pad = [0u8; 8];
            Rabbit::new(&KEY.into(), &nonce.to_le_bytes().into()).write_keystream(&mut pad);
            pad
        })
    });
    group.finish();
}

fn badger_vs_umac(c: &mut Criterion) {
    let mut group = c.benchmark_group("badger64-vs-umac64");
    let badger = Badger64::new(&KEY);
    let mut umac = Umac64::new(&KEY);
    let mut sender = BadgerSender::<8>::new(&KEY);
    for len in [32usize, 64, 256, 1500, 65536] {
        let msg = message(len);
        group.throughput(Throughput::Bytes(len as u64));
        let mut nonce = 1u64;
        group.bench_with_input(BenchmarkId::new("badger-64 nonce mode", len), &msg, |b, msg| {
            b.iter(|| {
                nonce += 1;
                badger.mac(&nonce.to_le_bytes(), black_box(msg)).unwrap()
            })
        });
        group.bench_with_input(BenchmarkId::new("badger-64 sequential", len), &msg, |b, msg| {
            b.iter(|| sender.tag(black_box(msg)).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("badger-64 hash only", len), &msg, |b, msg| {
            b.iter(|| badger.hash(black_box(msg)).unwrap())
        });
        group.bench_with_input(BenchmarkId::new("umac-64", len), &msg, |b, msg| {
            b.iter(|| {
                nonce += 1;
                umac.mac(&nonce.to_be_bytes(), black_box(msg)).unwrap()
            })
        });
    }
    group.finish();
}

fn tag_lengths(c: &mut Criterion) {
    let mut group = c.benchmark_group("badger-tag-lengths");
    let msg = message(65536);
    group.throughput(Throughput::Bytes(msg.len() as u64));
    let nonce = 5u64.to_le_bytes();
    let (b32, b96, b128, b160) = (Badger32::new(&KEY), Badger96::new(&KEY), Badger128::new(&KEY), Badger160::new(&KEY));
    group.bench_function("badger-32 65536", |b| b.iter(|| b32.mac(&nonce, black_box(&msg)).unwrap()));
    group.bench_function("badger-96 65536", |b| b.iter(|| b96.mac(&nonce, black_box(&msg)).unwrap()));
    group.bench_function("badger-128 65536", |b| b.iter(|| b128.mac(&nonce, black_box(&msg)).unwrap()));
    group.bench_function("badger-160 65536", |b| b.iter(|| b160.mac(&nonce, black_box(&msg)).unwrap()));
    group.bench_function("badger-160 verify_prefix w=1 65536", |b| {
        let tag = b160.mac(&nonce, &msg).unwrap();
        b.iter(|| b160.verify_prefix(&nonce, black_box(&msg), &tag, 1).unwrap())
    });
    group.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().warm_up_time(std::time::Duration::from_millis(500))
        .measurement_time(std::time::Duration::from_secs(2));
    targets = table_1, badger_vs_umac, tag_lengths
}
criterion_main!(benches);
