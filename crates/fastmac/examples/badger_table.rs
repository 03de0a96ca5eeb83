//! Prints the paper's table 1 measured on this machine, and Badger-64
//! against UMAC-64 per message size, in ns and core cycles.
//!
//! `cargo run --release -p fastmac --example badger_table`
//!
//! Method (for a shared VM without cycle counters, docs/performance.md, "How to measure"):
//! every figure is the minimum over 300 short samples (about 0.1 ms each, so
//! that some land between time slices of other processes); the core clock
//! is the fastest of the same number of dependent-`imul` chains (3 cycles
//! per `imul` on Zen 5), measured in between. Cycles = ns x GHz.

use std::hint::black_box;
use std::time::Instant;

use fastmac::badger::{Badger64, BadgerSender};
use fastmac::umac::Umac64;
use rabbit::Rabbit;
use rabbit::cipher::{KeyIvInit, StreamCipher};

const KEY: [u8; 16] = *b"0123456789abcdef";
const SAMPLES: usize = 300;

/// GHz from one chain of dependent squarings (3 cycles each).
fn clock_sample() -> f64 {
    const N: u64 = 200_000;
    let mut x = black_box(0x9E37_79B9_7F4A_7C15u64);
    let start = Instant::now();
    for _ in 0..N / 4 {
        x = x.wrapping_mul(x);
        x = x.wrapping_mul(x);
        x = x.wrapping_mul(x);
        x = x.wrapping_mul(x);
    }
    black_box(x);
    3.0 * N as f64 / start.elapsed().as_nanos() as f64
}

struct Meter {
    ghz: f64,
}

impl Meter {
    /// Best ns per call of `f`, `reps` calls per sample.
    fn ns(&mut self, reps: usize, mut f: impl FnMut()) -> f64 {
        let mut best = f64::MAX;
        for _ in 0..SAMPLES {
            let start = Instant::now();
            for _ in 0..reps {
                f();
            }
            best = best.min(start.elapsed().as_nanos() as f64 / reps as f64);
            self.ghz = self.ghz.max(clock_sample());
        }
        best
    }
}

fn message(len: usize) -> Vec<u8> {
    (0..len).map(|i| (i * 131 + 7) as u8).collect()
}

fn main() {
    let mut m = Meter { ghz: 0.0 };
    let key_setup = m.ns(20, || {
        black_box(Badger64::new(black_box(&KEY)));
    });
    let key_setup_v8 = m.ns(50, || {
        black_box(Badger64::with_levels(black_box(&KEY), 8).unwrap());
    });
    let mac = Badger64::new(&KEY);
    let (kib, k64) = (message(1024), message(65536));
    let hash_1k = m.ns(100, || {
        black_box(mac.hash(black_box(&kib)).unwrap());
    });
    let hash_64k = m.ns(3, || {
        black_box(mac.hash(black_box(&k64)).unwrap());
    });
    let f_only = m.ns(1000, || {
        black_box(mac.hash(black_box(b"")).unwrap());
    });
    let mut sender = BadgerSender::<8>::new(&KEY);
    let fin_no_iv = m.ns(1000, || {
        black_box(sender.tag(black_box(b"")).unwrap());
    });
    let mut nonce = 1u64;
    let fin_iv = m.ns(300, || {
        nonce += 1;
        black_box(mac.mac(&nonce.to_le_bytes(), black_box(b"")).unwrap());
    });
    let rabbit_setup = m.ns(300, || {
        nonce += 1;
        let mut pad = [0u8; 8];
        Rabbit::new(&KEY.into(), &nonce.to_le_bytes().into()).write_keystream(&mut pad);
        black_box(pad);
    });
    let g = m.ghz;
    println!("core clock: {g:.2} GHz (fastest imul chain)\n");
    println!("Table 1 (u = 2, 64-bit tags)                 ns        cycles");
    let row = |name: &str, ns: f64| println!("{name:<44} {ns:>9.1} {:>11.0}", ns * g);
    row("key setup (v = 58, 976 B of keys)", key_setup);
    row("key setup (v = 8, messages <= 2 KiB)", key_setup_v8);
    println!(
        "{:<44} {:>9.3} {:>11.3}  (per byte)",
        "universal hash, 1 KiB (incl. F)",
        hash_1k / 1024.0,
        hash_1k * g / 1024.0
    );
    println!(
        "{:<44} {:>9.3} {:>11.3}  (per byte)",
        "universal hash, 64 KiB (incl. F)",
        hash_64k / 65536.0,
        hash_64k * g / 65536.0
    );
    row("F only (hash of the empty message)", f_only);
    row("finalization without IV (F + stream pad)", fin_no_iv);
    row("finalization with IV (F + Rabbit setup + pad)", fin_iv);
    row("  of which Rabbit key + IV setup + 8 B", rabbit_setup);

    println!("\nper message: ns (cycles)");
    println!(
        "{:>7} {:>18} {:>18} {:>18} {:>18}",
        "bytes", "badger-64 nonce", "badger-64 seq", "badger-64 hash", "umac-64"
    );
    let mut umac = Umac64::new(&KEY);
    for len in [32usize, 64, 256, 1500, 65536] {
        let msg = message(len);
        let reps = (100_000 / len).clamp(3, 300);
        let nonce_mode = m.ns(reps, || {
            nonce += 1;
            black_box(mac.mac(&nonce.to_le_bytes(), black_box(&msg)).unwrap());
        });
        let sequential = m.ns(reps, || {
            black_box(sender.tag(black_box(&msg)).unwrap());
        });
        let hash = m.ns(reps, || {
            black_box(mac.hash(black_box(&msg)).unwrap());
        });
        let umac_ns = m.ns(reps, || {
            nonce += 1;
            black_box(umac.mac(&nonce.to_be_bytes(), black_box(&msg)).unwrap());
        });
        let cell = |ns: f64| format!("{ns:.1} ({:.0})", ns * g);
        println!("{len:>7} {:>18} {:>18} {:>18} {:>18}", cell(nonce_mode), cell(sequential), cell(hash), cell(umac_ns));
    }
}
