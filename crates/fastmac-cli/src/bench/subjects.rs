//! The registry of benchmark subjects: one [`Entry`] per (algorithm,
//! implementation). To benchmark something new, implement [`Subject`] and
//! add a row to [`registry`].
//!
//! Every MAC subject tags message number `n` with the 8-byte big-endian
//! counter `n` as its nonce (like an SSH sequence number), so UMAC's pad
//! cache works as it does in a protocol.

use std::hint::black_box;
use std::time::{Duration, Instant};

use fastmac::umac::{Backend, Umac};
use hmac::{Hmac, KeyInit as _, Mac as _};
use poly1305::Poly1305;
use sha2::Sha256;

use super::nettle::{Nettle, NettleUmac};
use super::read_limit::ReadKernel;

/// The benchmark key (the RFC 4418 test key): speed does not depend on it.
const KEY: &[u8; 16] = b"abcdefghijklmnop";
/// Below this size the UMAC subjects never touch the rayon pool.
const PARALLEL_MIN: usize = 1 << 20;

/// Something to time.
pub trait Subject: Send {
    /// Algorithm name in the report (`umac-64`, `hmac-sha256`, ...).
    fn alg(&self) -> &'static str;
    /// Implementation name in the report (`fastmac`, `nettle`, ...).
    fn implementation(&self) -> String;
    /// Threads it uses.
    fn threads(&self) -> usize {
        1
    }
    /// fastmac's NH backend, for the rows that have one.
    fn backend(&self) -> Option<Backend> {
        None
    }
    /// Whether it is measured at this size.
    fn applies_to(&self, _size: usize) -> bool {
        true
    }
    /// Processes `count` messages `msg`, numbered from `first`; returns a
    /// byte that depends on every output, so no work can be optimized away.
    fn run(&mut self, first: u64, count: u64, msg: &[u8]) -> u8;

    /// Times [`Subject::run`] on the monotonic clock.
    fn timed_run(&mut self, first: u64, count: u64, msg: &[u8]) -> Duration {
        let start = Instant::now();
        black_box(self.run(first, count, msg));
        start.elapsed()
    }
}

/// A row of the registry.
pub struct Entry {
    pub alg: &'static str,
    pub implementation: &'static str,
    /// Builds the subject, or says why it is not available here.
    pub make: fn() -> Result<Box<dyn Subject>, String>,
}

/// Everything `fastmac bench` knows how to measure.
pub fn registry() -> Vec<Entry> {
    macro_rules! umac {
        ($alg:literal, $n:literal) => {
            [
                Entry { alg: $alg, implementation: "fastmac", make: || Ok(Box::new(FastmacUmac::<$n>::new(false)?)) },
                Entry {
                    alg: $alg,
                    implementation: "fastmac-parallel",
                    make: || Ok(Box::new(FastmacUmac::<$n>::new(true)?)),
                },
                Entry { alg: $alg, implementation: "nettle", make: || Ok(Box::new(NettleSubject::new($n)?)) },
            ]
        };
    }
    let mut entries = Vec::new();
    entries.extend(umac!("umac-32", 4));
    entries.extend(umac!("umac-64", 8));
    entries.extend(umac!("umac-96", 12));
    entries.extend(umac!("umac-128", 16));
    entries.push(Entry { alg: "hmac-sha256", implementation: "rustcrypto", make: || Ok(Box::new(HmacSha256::new())) });
    entries.push(Entry { alg: "poly1305", implementation: "rustcrypto", make: || Ok(Box::new(Poly1305Subject::new())) });
    entries.push(Entry {
        alg: "read-limit",
        implementation: "simd",
        make: || Ok(Box::new(ReadLimit(ReadKernel::detect()))),
    });
    entries
}

/// The distinct algorithm names, in registry order.
pub fn alg_names(registry: &[Entry]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for entry in registry {
        if !names.contains(&entry.alg) {
            names.push(entry.alg);
        }
    }
    names
}

/// Builds the wanted subjects; the notes say which could not be built.
pub fn instantiate(registry: &[Entry], wanted: impl Fn(&str) -> bool) -> (Vec<Box<dyn Subject>>, Vec<String>) {
    let mut subjects = Vec::new();
    let mut notes = Vec::new();
    for entry in registry.iter().filter(|e| wanted(e.alg)) {
        match (entry.make)() {
            Ok(subject) => subjects.push(subject),
            Err(why) => {
                let note = format!("{} ({}) not measured: {why}", entry.alg, entry.implementation);
                if !notes.contains(&note) {
                    eprintln!("fastmac bench: {note}");
                    notes.push(note);
                }
            }
        }
    }
    (subjects, notes)
}

fn nonce(n: u64) -> [u8; 8] {
    n.to_be_bytes()
}

/// fastmac's UMAC on one core, or (`parallel`) with the L1 layer of inputs
/// of 1 MiB and more on all cores.
///
/// The benchmark runs inside a one-thread rayon pool (see `bench::run`), so
/// the library takes its sequential path on the calling thread; the
/// parallel subject hands each loop to a pool with a thread per core.
struct FastmacUmac<const N: usize> {
    mac: Umac<N>,
    pool: Option<rayon::ThreadPool>,
}

impl<const N: usize> FastmacUmac<N> {
    fn new(parallel: bool) -> Result<Self, String> {
        let pool = if parallel {
            let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
            if threads < 2 {
                return Err("one CPU: no parallel path to measure".to_owned());
            }
            Some(rayon::ThreadPoolBuilder::new().num_threads(threads).build().map_err(|e| e.to_string())?)
        } else {
            None
        };
        Ok(FastmacUmac { mac: Umac::new(KEY), pool })
    }
}

fn tag_many<const N: usize>(mac: &mut Umac<N>, first: u64, count: u64, msg: &[u8]) -> u8 {
    let mut sink = 0u8;
    for n in first..first + count {
        let tag = mac.mac(&nonce(n), black_box(msg)).expect("8-byte nonce");
        sink ^= tag[0];
    }
    sink
}

impl<const N: usize> Subject for FastmacUmac<N> {
    fn alg(&self) -> &'static str {
        ["umac-32", "umac-64", "umac-96", "umac-128"][N / 4 - 1]
    }
    fn implementation(&self) -> String {
        if self.pool.is_some() { "fastmac-parallel".to_owned() } else { "fastmac".to_owned() }
    }
    fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |p| p.current_num_threads())
    }
    fn backend(&self) -> Option<Backend> {
        Some(self.mac.backend())
    }
    fn applies_to(&self, size: usize) -> bool {
        // The parallel rows exist only where the parallel path runs.
        self.pool.is_none() || size >= PARALLEL_MIN
    }
    fn run(&mut self, first: u64, count: u64, msg: &[u8]) -> u8 {
        let FastmacUmac { mac, pool } = self;
        match pool {
            Some(pool) => pool.install(|| tag_many(mac, first, count, msg)),
            None => tag_many(mac, first, count, msg),
        }
    }
    /// The parallel subject is timed from inside its pool: handing the
    /// loop to the pool's thread costs a wake-up, which is not part of
    /// hashing (an application that hashes on all cores already runs there)
    /// and on a loaded machine can take milliseconds.
    fn timed_run(&mut self, first: u64, count: u64, msg: &[u8]) -> Duration {
        let FastmacUmac { mac, pool } = self;
        let timed = |mac: &mut Umac<N>| {
            let start = Instant::now();
            black_box(tag_many(mac, first, count, msg));
            start.elapsed()
        };
        match pool {
            Some(pool) => pool.install(|| timed(mac)),
            None => timed(mac),
        }
    }
}

/// GNU Nettle's UMAC: set_nonce, update, digest per message.
struct NettleSubject {
    mac: NettleUmac,
    tag_len: usize,
}

impl NettleSubject {
    fn new(tag_len: usize) -> Result<Self, String> {
        Ok(NettleSubject { mac: NettleUmac::new(Nettle::get()?, tag_len, KEY), tag_len })
    }
}

impl Subject for NettleSubject {
    fn alg(&self) -> &'static str {
        ["umac-32", "umac-64", "umac-96", "umac-128"][self.tag_len / 4 - 1]
    }
    fn implementation(&self) -> String {
        "nettle".to_owned()
    }
    fn run(&mut self, first: u64, count: u64, msg: &[u8]) -> u8 {
        let mut sink = 0u8;
        let mut tag = [0u8; 16];
        for n in first..first + count {
            self.mac.mac(&nonce(n), black_box(msg), &mut tag);
            sink ^= tag[0];
        }
        sink
    }
}

/// RustCrypto HMAC-SHA256 (the `sha2` crate uses SHA-NI where present),
/// from a keyed state cloned per message (ipad/opad hashed once).
struct HmacSha256 {
    keyed: Hmac<Sha256>,
}

impl HmacSha256 {
    fn new() -> Self {
        HmacSha256 { keyed: Hmac::<Sha256>::new_from_slice(KEY).expect("HMAC takes any key length") }
    }
}

impl Subject for HmacSha256 {
    fn alg(&self) -> &'static str {
        "hmac-sha256"
    }
    fn implementation(&self) -> String {
        "rustcrypto".to_owned()
    }
    fn run(&mut self, _first: u64, count: u64, msg: &[u8]) -> u8 {
        let mut sink = 0u8;
        for _ in 0..count {
            let mut mac = self.keyed.clone();
            mac.update(black_box(msg));
            sink ^= mac.finalize().into_bytes()[0];
        }
        sink
    }
}

/// RustCrypto Poly1305 (its AVX2 backend where present). Poly1305 is a
/// one-time MAC and a protocol keys it per message (ChaCha20-Poly1305);
/// this row leaves that key setup out (it clones a keyed state per
/// message) and so measures the hashing alone: the strictest comparison
/// for UMAC.
struct Poly1305Subject {
    keyed: Poly1305,
}

impl Poly1305Subject {
    fn new() -> Self {
        Poly1305Subject { keyed: Poly1305::new(&[0x5au8; 32].into()) }
    }
}

impl Subject for Poly1305Subject {
    fn alg(&self) -> &'static str {
        "poly1305"
    }
    fn implementation(&self) -> String {
        "rustcrypto".to_owned()
    }
    fn run(&mut self, _first: u64, count: u64, msg: &[u8]) -> u8 {
        let mut sink = 0u8;
        for _ in 0..count {
            sink ^= self.keyed.clone().compute_unpadded(black_box(msg))[0];
        }
        sink
    }
}

/// The read limit: one pass over the message with the widest loads.
struct ReadLimit(ReadKernel);

impl Subject for ReadLimit {
    fn alg(&self) -> &'static str {
        "read-limit"
    }
    fn implementation(&self) -> String {
        self.0.name().to_owned()
    }
    fn run(&mut self, _first: u64, count: u64, msg: &[u8]) -> u8 {
        let mut sink = 0u8;
        for _ in 0..count {
            sink ^= self.0.read(black_box(msg));
        }
        sink
    }
}
