//! Cost figures of issue 8: the 16-byte gears field against UMAC-128
//! alone, and verification at depths 1-4 (and U128+H128) at 1500 bytes.
//! Run: `cargo bench -p fastmac --bench gears`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fastmac::gears::{EpochKeys, Level, SessionSecret};
use fastmac::umac::{NestedUmac, Umac32, Umac128};

fn field_vs_umac128(c: &mut Criterion) {
    let key = *b"bench key 16 B!!";
    let nested = NestedUmac::new(&key);
    let mut umac = Umac128::new(&key);
    for len in [64usize, 1500, 9000] {
        let msg = vec![0xa5u8; len];
        let mut g = c.benchmark_group(format!("field_{len}"));
        g.throughput(Throughput::Bytes(len as u64));
        let mut seq = 0u64;
        g.bench_function("gears_field", |b| {
            b.iter(|| {
                seq += 1;
                black_box(nested.field(&seq.to_be_bytes(), black_box(&msg)).unwrap())
            })
        });
        g.bench_function("umac128_mac", |b| {
            b.iter(|| {
                seq += 1;
                black_box(umac.mac(&seq.to_be_bytes(), black_box(&msg)).unwrap())
            })
        });
        let u32 = Umac32::new(&key);
        g.bench_function("umac32_uhash", |b| b.iter(|| black_box(u32.uhash(black_box(&msg)))));
        g.finish();
    }
}

fn verify_depths(c: &mut Criterion) {
    let keys = EpochKeys::derive(&SessionSecret::new(&[9u8; 32]).unwrap(), 0);
    let msg = vec![0x3cu8; 1500];
    let nonce = [1u8; 12];
    let field = keys.field(&nonce, &msg);
    let hmac = keys.hmac_tag(&msg);
    let mut g = c.benchmark_group("verify_1500");
    g.throughput(Throughput::Bytes(1500));
    for level in [Level::U32, Level::U64, Level::U96, Level::U128, Level::U128H128] {
        g.bench_function(level.name(), |b| {
            b.iter(|| {
                let h = level.checks_hmac().then_some(&hmac[..]);
                black_box(keys.verify_level(level, &nonce, black_box(&msg), &field, h)).unwrap()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, field_vs_umac128, verify_depths);
criterion_main!(benches);
