//! The gears' cost figures (docs/gears.md section 6.2): the 16-byte field
//! against UMAC-128 alone, and verification at depths 1-4 (and U128+H128)
//! at 1500 bytes. Run: `cargo bench -p fastmac-bench --bench gears`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use fastmac::umac::{NestedPads, NestedUmac, Umac32, Umac128};
use fastmac_gears::wire::group_nonce;
use fastmac_gears::{Check, EpochKeys, NonceMode, SessionSecret};

fn field_vs_umac128(c: &mut Criterion) {
    let key = *b"bench key 16 B!!";
    let nested = NestedUmac::new(&key);
    let mut umac = Umac128::new(&key);
    for len in [64usize, 1500, 9000] {
        let msg = vec![0xa5u8; len];
        let mut g = c.benchmark_group(format!("field_{len}"));
        g.throughput(Throughput::Bytes(len as u64));
        let mut seq = 0u64;
        // The sender's pad cache, for 8-byte counter nonces.
        let mut pads = NestedPads::new(1 << 64);
        g.bench_function("gears_field", |b| {
            b.iter(|| {
                seq += 1;
                let mut field = [0u8; 16];
                nested.prefix_into_cached(&mut pads, &seq.to_be_bytes(), black_box(&msg), &mut field).unwrap();
                black_box(field)
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
    let mut pads = keys.pads(NonceMode::Group);
    // In-order packets of one sender: the nonce is seq(8) || sender(4).
    let nonce = |seq: u64| group_nonce(seq, 0);
    let field = keys.field(&mut pads, &nonce(0), &msg);
    let hmac = keys.hmac_tag(&msg);
    let mut seq = 0u64;
    let mut g = c.benchmark_group("verify_1500");
    g.throughput(Throughput::Bytes(1500));
    for level in [Check::U32, Check::U64, Check::U96, Check::U128, Check::U128H128] {
        g.bench_function(level.name(), |b| {
            b.iter(|| {
                let h = level.checks_hmac().then_some(&hmac[..]);
                seq += 1;
                // Packets after 0 fail after doing all the work.
                black_box(keys.verify_umac(&mut pads, level, &nonce(seq), black_box(&msg), &field, h)).ok()
            })
        });
    }
    g.finish();
}

criterion_group!(benches, field_vs_umac128, verify_depths);
criterion_main!(benches);
