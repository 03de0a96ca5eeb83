//! Criterion benchmarks of a packet's cost when many keys are live: one
//! keyed state per connection, each with its own sequence-number nonce,
//! the connections visited in a fixed scattered order, so that a
//! connection's state has left the caches by its next packet once the
//! states outgrow them. UMAC-64 and UMAC-128 one-shot, Badger-64 and
//! AEGIS-128L (a keyed state cloned per packet), at 1, 4,096 and 65,536
//! live keys and 64 and 1500 bytes. `fastmac bench --keys` is the full
//! table (docs/performance.md, "Many live keys").
//!
//! `cargo bench -p fastmac-bench --bench many_keys [-- FILTER]`

use std::hint::black_box;

use aegis::aegis128l::Aegis128LMac;
use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use fastmac::badger::Badger64;
use fastmac::umac::{TagLen, Umac, UmacTagLen, counter_nonce};

const KEYS: [usize; 3] = [1, 4096, 65_536];
const SIZES: [usize; 2] = [64, 1500];

fn key_of(index: usize) -> [u8; 16] {
    let mut key = [0x5au8; 16];
    key[..8].copy_from_slice(&(index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15).to_le_bytes());
    key
}

/// A fixed pseudo-random permutation of `0..n` (xorshift64*, Fisher-Yates).
fn scattered(n: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut s = 0x2545_f491_4f6c_dd1d_u64;
    for i in (1..n).rev() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        order.swap(i, (s.wrapping_mul(0x2545_f491_4f6c_dd1d) % (i as u64 + 1)) as usize);
    }
    order
}

/// Times one packet per iteration, to the next connection in the
/// scattered order, each connection's state `S` built by `new` and
/// tagging with `packet`.
fn bench_mac<S>(c: &mut Criterion, name: &str, new: impl Fn(usize) -> S, mut packet: impl FnMut(&mut S, &[u8]) -> u8) {
    let data: Vec<u8> = (0..*SIZES.iter().max().unwrap()).map(|i| (i * 131 + 7) as u8).collect();
    let mut group = c.benchmark_group(format!("many-keys/{name}"));
    for keys in KEYS {
        let mut states: Vec<S> = (0..keys).map(&new).collect();
        let order = scattered(keys);
        let mut next = 0;
        for size in SIZES {
            group.throughput(Throughput::Bytes(size as u64));
            group.bench_with_input(BenchmarkId::new(format!("{keys} keys"), size), &data[..size], |b, msg| {
                b.iter(|| {
                    let state = &mut states[order[next] as usize];
                    next = if next + 1 == keys { 0 } else { next + 1 };
                    black_box(packet(state, black_box(msg)))
                });
            });
        }
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    fn umac<const N: usize>(c: &mut Criterion, name: &str)
    where
        TagLen<N>: UmacTagLen,
    {
        bench_mac(
            c,
            name,
            |i| (Umac::<N>::new(&key_of(i)), 0u64),
            |(mac, seq), msg| {
                *seq += 1;
                mac.mac(&counter_nonce(*seq), msg).expect("8-byte nonce")[0]
            },
        );
    }
    umac::<8>(c, "umac-64");
    umac::<16>(c, "umac-128");
    bench_mac(
        c,
        "badger-64",
        |i| (Badger64::new(&key_of(i)), 0u64),
        |(mac, seq), msg| {
            *seq += 1;
            mac.mac(&seq.to_be_bytes(), msg).expect("8-byte nonce, not zero")[0]
        },
    );
    bench_mac(
        c,
        "aegismac-128l",
        |i| Aegis128LMac::<16>::new(&key_of(i)),
        |keyed, msg| {
            let mut mac = keyed.clone();
            mac.update(msg);
            mac.finalize()[0]
        },
    );
}

criterion_group!(many_keys, benches);
criterion_main!(many_keys);
