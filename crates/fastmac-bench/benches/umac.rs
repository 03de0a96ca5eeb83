//! Criterion benchmarks of UMAC: each tag length, on every NH backend this
//! CPU supports, at packet and bulk sizes, with counter nonces (as SSH's
//! sequence numbers). `fastmac bench` is the cross-implementation report;
//! these track the library itself between commits.
//!
//! `cargo bench -p fastmac-bench --bench umac [-- FILTER]`; with
//! `--features parallel`, sizes of 1 MiB and more use all cores.
//!
//! The `key-setup` benchmarks time `Umac::new`, UMAC-64 and UMAC-128.
//!
//! The `streaming` groups time `update` then `finalize_reset` beside the
//! one-shot `mac` of the same bytes, UMAC-64 and UMAC-128, on the backend
//! this CPU picks; `cargo bench -p fastmac-bench --bench streaming` prints the
//! same comparison as interleaved ratios, which a shared machine moves less.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fastmac::umac::{Backend, TagLen, Umac, UmacTagLen};

const SIZES: [usize; 8] = [32, 512, 1024, 1025, 1500, 4096, 65536, 1 << 20];
const KEY: &[u8; 16] = b"abcdefghijklmnop";

fn bench_tag<const N: usize>(c: &mut Criterion)
where
    TagLen<N>: UmacTagLen,
{
    let data: Vec<u8> = (0..*SIZES.last().unwrap()).map(|i| (i * 131 + 7) as u8).collect();
    let mut group = c.benchmark_group(format!("umac-{}", 8 * N));
    for backend in Backend::supported() {
        let mut mac = Umac::<N>::with_backend(KEY, backend).expect("supported backend");
        let mut counter = 0u64;
        for size in SIZES {
            group.throughput(Throughput::Bytes(size as u64));
            group.bench_with_input(BenchmarkId::new(backend.name(), size), &data[..size], |b, msg| {
                b.iter(|| {
                    counter = counter.wrapping_add(1);
                    black_box(mac.mac(&counter.to_be_bytes(), black_box(msg)).expect("8-byte nonce"))
                });
            });
        }
    }
    group.finish();
}

/// The sizes of the streaming comparison: a short packet, one chunk, one
/// byte past it, a datagram, two chunks, and bulk.
const STREAMING_SIZES: [usize; 7] = [32, 1024, 1025, 1500, 2048, 32768, 65536];

fn bench_streaming<const N: usize>(c: &mut Criterion)
where
    TagLen<N>: UmacTagLen,
{
    let data: Vec<u8> = (0..*STREAMING_SIZES.last().unwrap()).map(|i| (i * 131 + 7) as u8).collect();
    let mut group = c.benchmark_group(format!("umac-{}-streaming", 8 * N));
    let mut mac = Umac::<N>::new(KEY);
    let mut counter = 0u64;
    for size in STREAMING_SIZES {
        group.throughput(Throughput::Bytes(size as u64));
        group.bench_with_input(BenchmarkId::new("mac", size), &data[..size], |b, msg| {
            b.iter(|| {
                counter = counter.wrapping_add(1);
                black_box(mac.mac(&counter.to_be_bytes(), black_box(msg)).expect("8-byte nonce"))
            });
        });
        group.bench_with_input(BenchmarkId::new("update+finalize_reset", size), &data[..size], |b, msg| {
            b.iter(|| {
                counter = counter.wrapping_add(1);
                mac.update(black_box(msg));
                black_box(mac.finalize_reset(&counter.to_be_bytes()).expect("8-byte nonce"))
            });
        });
    }
    group.finish();
}

/// Key setup, as a server pays it per new connection: the AES key
/// schedules and every key UHASH reads derived (RFC 4418 section 5.1).
fn bench_key_setup<const N: usize>(c: &mut Criterion)
where
    TagLen<N>: UmacTagLen,
{
    let mut key = *KEY;
    c.bench_function(&format!("umac-{}-key-setup", 8 * N), |b| {
        b.iter(|| {
            key[0] = key[0].wrapping_add(1);
            black_box(Umac::<N>::new(black_box(&key)))
        });
    });
}

fn umac(c: &mut Criterion) {
    bench_key_setup::<8>(c);
    bench_key_setup::<16>(c);
    bench_tag::<4>(c);
    bench_tag::<8>(c);
    bench_tag::<12>(c);
    bench_tag::<16>(c);
    bench_streaming::<8>(c);
    bench_streaming::<16>(c);
}

criterion_group!(benches, umac);
criterion_main!(benches);
