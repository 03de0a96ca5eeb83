//! The one registry of what can be measured: every algorithm of the
//! library under its own name (`fastmac list`), every SSH MAC under its
//! SSH name, the comparators, and the
//! parts of Badger and the gears that no single MAC call shows. To measure
//! something new, add an [`Entry`] to [`registry`]; anything with a name and
//! a closure over a message is a [`Subject`].
//!
//! Every MAC subject tags message number `n` with the counter `n` as its
//! nonce (like an SSH sequence number), so UMAC's pad cache works as it
//! does in a protocol.

use std::hint::black_box;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use fastmac::algorithm::AlgorithmInfo;
use fastmac::badger::{AnyBadger, Badger64, BadgerSender, MAX_LEVELS};
use fastmac::ssh::{SshAlgorithm, SshMac};
use fastmac::umac::__bench::NhCeiling;
use fastmac::umac::{TAG_LENS, TagLen, Umac, UmacTagLen};
use fastmac::{Algorithm, DynMac};
use hmac::{Hmac, KeyInit as _, Mac as _};
use poly1305::Poly1305;
use sha2::Sha256;

use super::Imp;
use super::aegis;
use super::keyed_blake3::{self, KeyedBlake3};
use super::nettle::{Nettle, NettleUmac};
use super::openssl::{self, OpenSsl, OpenSslGcm128, OpenSslGmac, OpenSslPoly1305};
use super::read_limit::ReadKernel;

/// The benchmark key (the RFC 4418 test key): speed does not depend on it.
const KEY: &[u8; 16] = b"abcdefghijklmnop";

/// The comparator Poly1305 (RustCrypto, OpenSSL).
pub const POLY1305: &str = "poly1305";
/// The comparator Poly1305 with the one-time key given, not derived
/// (OpenSSL): [`POLY1305`] less its key derivation.
pub const POLY1305_GIVEN_KEY: &str = "poly1305/given-key";
/// The comparator GMAC with AES-128 (OpenSSL).
pub const GMAC: &str = "aes-128-gmac";
/// The comparator GMAC with AES-128 through OpenSSL's `CRYPTO_gcm128_*`:
/// [`GMAC`] less the `EVP_MAC` layers.
pub const GMAC_GCM128: &str = "aes-128-gmac/gcm128";
/// The comparator BLAKE3 in keyed mode (the `blake3` crate).
pub const BLAKE3_KEYED: &str = "blake3-keyed";
/// The pure read pass.
pub const READ_LIMIT: &str = "read-limit";
/// Badger-64's key setup alone (the message is not used).
pub const BADGER_KEY_SETUP: &str = "badger-64/key-setup";
/// Badger-64 in sequential mode: the pad is the next bytes of one
/// keystream, with no IV setup.
pub const BADGER_SEQUENTIAL: &str = "badger-64/sequential";

/// Processes `count` messages; returns a byte that depends on every output,
/// so no work can be optimized away.
type Batch = Box<dyn FnMut(u64, &[u8]) -> u8 + Send>;

/// Something to time: a name and a closure over a message.
pub struct Subject {
    /// Algorithm name in the rows.
    pub alg: String,
    /// Who implements it.
    pub imp: Imp,
    /// fastmac's NH backend, or the read pass's kernel.
    pub backend: Option<&'static str>,
    /// Bytes of the keyed state a message starts from, where known.
    pub state_bytes: Option<usize>,
    batch: Batch,
    /// A pool of its own to run in (the parallel rows).
    pool: Option<Parallel>,
    /// The sizes it is measured at; all when `None`.
    sizes: Option<Vec<usize>>,
}

/// A parallel row's pool, the least size at which the row is measured,
/// and the tag length's place in [`PARALLEL_FROM`] (UMAC-32 to UMAC-128).
struct Parallel {
    pool: rayon::ThreadPool,
    min_size: usize,
    tag_index: usize,
}

/// The first byte of a tag, the whole tag first handed to the optimizer as
/// read: with a MAC inlined into the timing loop, using only `tag[0]`
/// would let the compiler skip the work behind the other bytes (for UMAC,
/// the L3 of every UHASH iteration but the first).
pub(super) fn first_byte_of(tag: &[u8]) -> u8 {
    black_box(tag)[0]
}

impl Subject {
    /// A subject that runs `mac` once per message.
    pub fn per_message(alg: &str, imp: Imp, mut mac: impl FnMut(&[u8]) -> u8 + Send + 'static) -> Subject {
        let batch = move |count: u64, msg: &[u8]| {
            let mut sink = 0u8;
            for _ in 0..count {
                sink ^= mac(black_box(msg));
            }
            sink
        };
        Subject {
            alg: alg.to_owned(),
            imp,
            backend: None,
            state_bytes: None,
            batch: Box::new(batch),
            pool: None,
            sizes: None,
        }
    }

    /// Records the size of its per-key state, a `T`.
    pub fn keeps<T>(mut self) -> Subject {
        self.state_bytes = Some(std::mem::size_of::<T>());
        self
    }

    /// Measured only at `sizes`.
    pub fn only_at(mut self, sizes: Vec<usize>) -> Subject {
        self.sizes = Some(sizes);
        self
    }

    /// Whether it is measured at `size`.
    pub fn applies_to(&self, size: usize) -> bool {
        self.sizes.as_ref().is_none_or(|s| s.contains(&size)) && self.pool.as_ref().is_none_or(|p| size >= p.min_size)
    }

    /// Threads it uses.
    pub fn threads(&self) -> usize {
        self.pool.as_ref().map_or(1, |p| p.pool.current_num_threads())
    }

    /// Times `count` messages `msg` on the monotonic clock. A subject with
    /// a pool is timed from inside it, after one message that is not
    /// timed: handing the loop to the pool, and the first task each other
    /// worker steals, cost wake-ups, which are not part of hashing (an
    /// application that hashes on all cores already runs there, its workers
    /// awake between messages) and in a VM can take as long as a
    /// loop of 1 MiB messages. The hand-off starts from a plain thread that
    /// blocks until the loop is done: the benchmark's own thread is a rayon
    /// worker (see `super::run`), and one waiting on another pool spins
    /// and yields for a while, taking a core from the pool it waits on.
    /// The first parallel row of the run calibrates the library's
    /// multi-core threshold in the pool first ([`parallel_from`]); below
    /// the threshold a parallel row is timed here, on the benchmark's
    /// thread, as the one-core row is: the library takes its one-core path
    /// there, and on the pool's thread the row would time the message's
    /// move to another core's caches, not a path.
    pub fn time(&mut self, count: u64, msg: &[u8]) -> Duration {
        let Subject { batch, pool, .. } = self;
        let mut timed = |warm_up: u64| {
            black_box(batch(warm_up, msg));
            let start = Instant::now();
            black_box(batch(count, msg));
            start.elapsed()
        };
        let Some(parallel) = pool else { return timed(0) };
        let from = *PARALLEL_FROM.get_or_init(|| in_pool(&parallel.pool, fastmac::umac::calibrate_parallel));
        if from[parallel.tag_index].is_none_or(|from| msg.len() < from) {
            return timed(0);
        }
        in_pool(&parallel.pool, || timed(1))
    }
}

/// Runs `work` in `pool`, handed over from a plain thread that blocks until
/// it is done (see [`Subject::time`]).
fn in_pool<T: Send>(pool: &rayon::ThreadPool, work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|scope| {
        scope.spawn(|| pool.install(work)).join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// A row of the registry: builds the subject, or says why it is not
/// available here.
pub struct Entry {
    /// Algorithm name.
    pub alg: &'static str,
    /// Implementation.
    pub imp: Imp,
    make: Box<dyn Fn() -> Result<Subject, String>>,
}

impl Entry {
    fn new(alg: &'static str, imp: Imp, make: impl Fn() -> Result<Subject, String> + 'static) -> Entry {
        Entry { alg, imp, make: Box::new(make) }
    }

    /// The subject, or why it cannot be measured here.
    pub fn make(&self) -> Result<Subject, String> {
        (self.make)()
    }
}

/// Everything the benchmark knows how to measure.
pub fn registry() -> Vec<Entry> {
    let mut entries = Vec::new();
    for &algorithm in Algorithm::ALL {
        let name = algorithm.info().name;
        entries.push(match UMACS.iter().find(|u| u.0 == algorithm) {
            Some(&(_, typed)) => Entry::new(name, Imp::Fastmac, move || typed(algorithm, false)),
            None if is_badger(algorithm) => Entry::new(name, Imp::Fastmac, move || badger(algorithm)),
            None => Entry::new(name, Imp::Fastmac, move || library_mac(algorithm)),
        });
    }
    // The SSH names that are not also library names (the HMACs are both).
    for alg in fastmac::ssh::ALGORITHMS.iter().filter(|a| Algorithm::from_name(a.name).is_err()) {
        entries.push(Entry::new(alg.name, Imp::Fastmac, move || ssh_mac(alg)));
    }
    entries.push(Entry::new(BADGER_KEY_SETUP, Imp::Fastmac, badger_key_setup));
    entries.push(Entry::new(BADGER_SEQUENTIAL, Imp::Fastmac, badger_sequential));
    entries.extend(
        super::gears::GEAR_NAMES
            .iter()
            .map(|&name| Entry::new(name, Imp::Fastmac, move || super::gears::subject(name))),
    );
    for &(algorithm, typed) in &UMACS {
        entries.push(Entry::new(algorithm.info().name, Imp::FastmacParallel, move || typed(algorithm, true)));
    }
    for &(algorithm, _) in &UMACS {
        let AlgorithmInfo { name, tag_len, .. } = algorithm.info();
        entries.push(Entry::new(name, Imp::Nettle, move || nettle(name, tag_len)));
        entries.push(Entry::new(name, Imp::NhCeiling, move || nh_ceiling(name, tag_len)));
    }
    entries.push(Entry::new("hmac-sha2-256", Imp::RustCrypto, || Ok(hmac_sha256())));
    entries.push(Entry::new(POLY1305, Imp::RustCrypto, || Ok(poly1305())));
    entries.push(Entry::new(POLY1305, Imp::OpenSsl, openssl_poly1305));
    entries.push(Entry::new(POLY1305_GIVEN_KEY, Imp::OpenSsl, openssl_poly1305_given_key));
    entries.push(Entry::new(GMAC, Imp::OpenSsl, openssl_gmac));
    entries.push(Entry::new(GMAC_GCM128, Imp::OpenSsl, openssl_gcm128));
    let aegis_key: [u8; 32] = std::array::from_fn(|i| KEY[i % KEY.len()]);
    for &(keyed, nonce, subject) in aegis::ROWS {
        entries.push(Entry::new(keyed, Imp::Aegis, move || Ok(subject(keyed, false, &aegis_key))));
        entries.push(Entry::new(nonce, Imp::Aegis, move || Ok(subject(nonce, true, &aegis_key))));
    }
    entries.push(Entry::new(BLAKE3_KEYED, Imp::Blake3, || Ok(blake3_keyed())));
    entries.push(Entry::new(READ_LIMIT, Imp::ReadLimit, || Ok(read_limit())));
    entries
}

/// The distinct algorithm names of `entries`, in registry order.
pub fn names(entries: &[Entry]) -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    for entry in entries {
        if !names.contains(&entry.alg) {
            names.push(entry.alg);
        }
    }
    names
}

/// The subject of each UMAC of the library: the typed API, `Umac<N>` at
/// the algorithm's tag length (checked when the subject is made). The one
/// place here where a tag length is a type: a subject built on `AnyUmac`
/// would time its dispatch too, which keeps the typed UMAC from being
/// inlined into the timing loop with its 8-byte nonce, and the fastmac rows
/// would no longer be the typed API's figures.
type UmacSubject = fn(Algorithm, bool) -> Result<Subject, String>;
const UMACS: [(Algorithm, UmacSubject); 4] = [
    (Algorithm::Umac32, umac::<4>),
    (Algorithm::Umac64, umac::<8>),
    (Algorithm::Umac96, umac::<12>),
    (Algorithm::Umac128, umac::<16>),
];

/// fastmac's UMAC through its typed API, at `algorithm`'s tag length `N`,
/// on one core or (`parallel`) with the L1 layer of large inputs on all
/// cores.
fn umac<const N: usize>(algorithm: Algorithm, parallel: bool) -> Result<Subject, String>
where
    TagLen<N>: UmacTagLen,
{
    let AlgorithmInfo { name, tag_len, .. } = algorithm.info();
    if tag_len != N {
        return Err(format!("{name} has {tag_len}-byte tags, not {N}"));
    }
    let mut mac = Umac::<N>::new(KEY);
    let backend = mac.backend().name();
    let mut n = 0u64;
    let mut subject = Subject::per_message(name, Imp::Fastmac, move |msg| {
        n += 1;
        mac.mac(&n.to_be_bytes(), msg).map_or(0, |tag| first_byte_of(&tag))
    })
    .keeps::<Umac<N>>();
    subject.backend = Some(backend);
    if parallel {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        if threads < 2 {
            return Err("one CPU: no parallel path to measure".to_owned());
        }
        let pool = pinned_pool(threads)?;
        let tag_index = TAG_LENS.iter().position(|&len| len == tag_len).ok_or("not a UMAC tag length")?;
        subject.imp = Imp::FastmacParallel;
        subject.pool = Some(Parallel { pool, min_size: fastmac::umac::PARALLEL_MIN, tag_index });
    }
    Ok(subject)
}

/// A pool of `threads` workers, worker `i` kept on the `i`-th CPU this
/// process may run on. Unpinned, the two workers of a 2-vCPU virtual
/// machine were left on one vCPU after the benchmark's thread had run
/// alone or slept, for tens of milliseconds, and the multi-core path ran
/// at 0.8x one core (`docs/performance-log.md` section 17): the rows would time
/// the scheduler's placement, not the hashing. A worker without a CPU of
/// its own (more workers than CPUs) is left unpinned.
fn pinned_pool(threads: usize) -> Result<rayon::ThreadPool, String> {
    let cpus = core_affinity::get_core_ids().unwrap_or_default();
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .start_handler(move |i| {
            if let Some(&cpu) = cpus.get(i) {
                core_affinity::set_for_current(cpu);
            }
        })
        .build()
        .map_err(|e| e.to_string())
}

/// Where the parallel rows' pool takes the multi-core path, per UMAC tag
/// length (32 to 128 bits): the library's calibration in that pool, run
/// once, before the first parallel row is timed (only a run with a size of
/// at least `PARALLEL_MIN` has one), so that the rows show the path a
/// calibrated application gets: one core where splitting did not win on
/// this machine.
static PARALLEL_FROM: OnceLock<[Option<usize>; 4]> = OnceLock::new();

/// The calibration of `PARALLEL_FROM`, if a parallel row was set up.
pub fn parallel_from() -> Option<[Option<usize>; 4]> {
    PARALLEL_FROM.get().copied()
}

fn is_badger(algorithm: Algorithm) -> bool {
    matches!(
        algorithm,
        Algorithm::Badger32 | Algorithm::Badger64 | Algorithm::Badger96 | Algorithm::Badger128 | Algorithm::Badger160
    )
}

/// fastmac's Badger (nonce mode) as the UMAC rows are timed: a whole
/// packet in one call, [`AnyBadger::mac`], whose tree hashes the final
/// block in the same run as the blocks before it. (Its match on the tag
/// length is nothing beside a Badger message's hundreds of nanoseconds.)
/// The streaming calls, which [`library_mac`] would time, add the costs of
/// two calls (`cargo bench -p fastmac-bench --bench streaming` compares
/// the two).
fn badger(algorithm: Algorithm) -> Result<Subject, String> {
    let AlgorithmInfo { name, tag_len, .. } = algorithm.info();
    let mac = AnyBadger::new(KEY, tag_len, MAX_LEVELS).map_err(|e| e.to_string())?;
    let mut n = 0u64;
    Ok(Subject::per_message(name, Imp::Fastmac, move |msg| {
        // Counting from 1: Badger rejects nonce 0 (it would reuse key
        // material as the pad).
        n += 1;
        mac.mac(&n.to_be_bytes(), msg).map_or(0, |tag| first_byte_of(tag.as_slice()))
    }))
}

/// Any other MAC of the library through [`DynMac`]: stream the message,
/// finalize with the next counter nonce.
fn library_mac(algorithm: Algorithm) -> Result<Subject, String> {
    let info = algorithm.info();
    let key: Vec<u8> = KEY.iter().copied().cycle().take(info.key_len).collect();
    let mut mac: Box<dyn DynMac> = algorithm.new_mac(&key).map_err(|e| e.to_string())?;
    // An 8-byte counter where the algorithm takes a nonce; none for HMAC.
    let nonce_len = if info.max_nonce_len == 0 { 0 } else { 8usize.clamp(info.min_nonce_len, info.max_nonce_len) };
    let mut tag = vec![0u8; mac.tag_len()];
    let mut n = 0u64;
    Ok(Subject::per_message(info.name, Imp::Fastmac, move |msg| {
        n += 1;
        let mut nonce = [0u8; 16];
        let counter = n.to_be_bytes();
        nonce[nonce_len.saturating_sub(8)..nonce_len].copy_from_slice(&counter[8 - nonce_len.min(8)..]);
        mac.update(msg);
        // The nonce and tag lengths come from info(): this cannot fail.
        mac.finalize_reset_into(&nonce[..nonce_len], &mut tag).map_or(0, |()| first_byte_of(&tag))
    }))
}

/// An SSH MAC as OpenSSH computes it, message `n` as packet number `n`.
fn ssh_mac(alg: &'static SshAlgorithm) -> Result<Subject, String> {
    let key: Vec<u8> = KEY.iter().copied().cycle().take(alg.key_len).collect();
    let mut mac = SshMac::new(alg.name, &key).map_err(|e| e.to_string())?;
    let mut seq = 0u32;
    Ok(Subject::per_message(alg.name, Imp::Fastmac, move |msg| {
        seq = seq.wrapping_add(1);
        first_byte_of(&mac.compute(seq, msg))
    }))
}

/// Keying Badger-64: Rabbit key setup and every hash key; the message is
/// not used.
fn badger_key_setup() -> Result<Subject, String> {
    Ok(Subject::per_message(BADGER_KEY_SETUP, Imp::Fastmac, |_| {
        black_box(Badger64::new(black_box(KEY)));
        0
    }))
}

/// Badger-64 without IV setup: the next message of a sequential sender.
fn badger_sequential() -> Result<Subject, String> {
    let mut sender = BadgerSender::<8>::new(KEY);
    Ok(Subject::per_message(BADGER_SEQUENTIAL, Imp::Fastmac, move |msg| {
        sender.tag(msg).map_or(0, |t| first_byte_of(&t))
    }))
}

/// The NH ceiling of UMAC with `tag_len`-byte tags: a bare NH pass of the
/// backend fastmac's UMAC uses, with as many iterations.
fn nh_ceiling(alg: &str, tag_len: usize) -> Result<Subject, String> {
    let backend = fastmac::umac::Backend::detect();
    let ceiling = NhCeiling::new(KEY, tag_len, backend).map_err(|e| e.to_string())?;
    let mut subject = Subject::per_message(alg, Imp::NhCeiling, move |msg| black_box(ceiling.pass(msg)) as u8);
    subject.backend = Some(backend.name());
    Ok(subject)
}

/// GNU Nettle's UMAC: set_nonce, update, digest per message.
fn nettle(alg: &str, tag_len: usize) -> Result<Subject, String> {
    let mut mac = NettleUmac::new(Nettle::get()?, tag_len, KEY);
    let (mut n, mut tag) = (0u64, [0u8; 16]);
    Ok(Subject::per_message(alg, Imp::Nettle, move |msg| {
        n += 1;
        mac.mac(&n.to_be_bytes(), msg, &mut tag);
        first_byte_of(&tag)
    }))
}

/// RustCrypto HMAC-SHA2-256 (the `sha2` crate uses SHA-NI where present),
/// from a keyed state cloned per message (ipad/opad hashed once).
fn hmac_sha256() -> Subject {
    let keyed = Hmac::<Sha256>::new_from_slice(KEY).expect("HMAC takes any key length");
    Subject::per_message("hmac-sha2-256", Imp::RustCrypto, move |msg| {
        let mut mac = keyed.clone();
        mac.update(msg);
        mac.finalize().into_bytes()[0]
    })
    .keeps::<Hmac<Sha256>>()
}

/// RustCrypto Poly1305 (its AVX2 backend where present). Poly1305 is a
/// one-time MAC and a protocol keys it per message (ChaCha20-Poly1305);
/// this row leaves that key setup out (it clones a keyed state per
/// message) and so measures the hashing alone: the strictest comparison
/// for UMAC.
fn poly1305() -> Subject {
    let keyed = Poly1305::new(&[0x5au8; 32].into());
    Subject::per_message(POLY1305, Imp::RustCrypto, move |msg| keyed.clone().compute_unpadded(msg)[0])
        .keeps::<Poly1305>()
}

/// How each comparator is keyed per message, printed beside its rows:
/// what a protocol would pay per message, and what the row counts of it.
/// The first field is an algorithm name or, for Nettle, the family prefix.
const KEYING: &[(&str, Imp, &str)] = &[
    (
        "umac",
        Imp::Nettle,
        "one key; set_nonce with the 8-byte counter, update, digest per message, as fastmac's UMAC rows",
    ),
    ("hmac-sha2-256", Imp::RustCrypto, "one key; the keyed state (ipad and opad hashed once) cloned per message"),
    (
        POLY1305,
        Imp::RustCrypto,
        "one key for every message, the keyed state cloned: the one-time key per message a protocol needs is not counted (the OpenSSL row counts it)",
    ),
    (POLY1305_GIVEN_KEY, Imp::OpenSsl, openssl::POLY1305_GIVEN_KEY_KEYING),
    (POLY1305, Imp::OpenSsl, openssl::POLY1305_KEYING),
    (GMAC_GCM128, Imp::OpenSsl, openssl::GMAC_GCM128_KEYING),
    (GMAC, Imp::OpenSsl, openssl::GMAC_KEYING),
    (BLAKE3_KEYED, Imp::Blake3, keyed_blake3::KEYING),
];

/// How the AEGIS row `alg` is keyed: from a keyed state, or a nonce per
/// message.
fn aegis_keying(alg: &str) -> &'static str {
    if alg.ends_with(aegis::NONCE_SUFFIX) { aegis::NONCE } else { aegis::KEYED }
}

/// How the comparator `alg` of `imp` is keyed per message: the first
/// entry of `KEYING` whose name `alg` starts with (so a longer name, as
/// `poly1305/given-key`, comes before its prefix).
pub fn keying(alg: &str, imp: Imp) -> Option<&'static str> {
    if imp == Imp::Aegis {
        return Some(aegis_keying(alg));
    }
    KEYING.iter().find(|k| k.1 == imp && alg.starts_with(k.0)).map(|k| k.2)
}

/// The 96-bit nonce of message `n`: 4 zero bytes, then `n` big-endian.
fn nonce96(n: u64) -> [u8; 12] {
    let mut nonce = [0u8; 12];
    nonce[4..].copy_from_slice(&n.to_be_bytes());
    nonce
}

/// OpenSSL's Poly1305, keyed per message from ChaCha20 under one key.
fn openssl_poly1305() -> Result<Subject, String> {
    let key: [u8; 32] = std::array::from_fn(|i| KEY[i % KEY.len()]);
    let mut mac = OpenSslPoly1305::new(OpenSsl::get().map_err(|e| e.to_string())?, &key).map_err(|e| e.to_string())?;
    let (mut n, mut tag) = (0u64, [0u8; 16]);
    // One tag before timing, so that a failing call is reported, not timed.
    mac.mac(&nonce96(0), b"", &mut tag).map_err(|e| e.to_string())?;
    Ok(Subject::per_message(POLY1305, Imp::OpenSsl, move |msg| {
        n += 1;
        mac.mac(&nonce96(n), msg, &mut tag).map_or(0, |()| first_byte_of(&tag))
    }))
}

/// OpenSSL's Poly1305 under a one-time key given per message: the
/// counter in the key's first 8 bytes, so that no two messages share one.
fn openssl_poly1305_given_key() -> Result<Subject, String> {
    let mut key: [u8; 32] = std::array::from_fn(|i| KEY[i % KEY.len()]);
    let mut mac = OpenSslPoly1305::new(OpenSsl::get().map_err(|e| e.to_string())?, &key).map_err(|e| e.to_string())?;
    let (mut n, mut tag) = (0u64, [0u8; 16]);
    mac.mac_with_key(&key, b"", &mut tag).map_err(|e| e.to_string())?;
    Ok(Subject::per_message(POLY1305_GIVEN_KEY, Imp::OpenSsl, move |msg| {
        n += 1;
        key[..8].copy_from_slice(&n.to_le_bytes());
        mac.mac_with_key(&key, msg, &mut tag).map_or(0, |()| first_byte_of(&tag))
    }))
}

/// OpenSSL's AES-128-GMAC through `CRYPTO_gcm128_*`, one key, the counter
/// as the IV.
fn openssl_gcm128() -> Result<Subject, String> {
    let mut mac = OpenSslGcm128::new(OpenSsl::get().map_err(|e| e.to_string())?, KEY).map_err(|e| e.to_string())?;
    let (mut n, mut tag) = (0u64, [0u8; 16]);
    mac.mac(&nonce96(0), b"", &mut tag).map_err(|e| e.to_string())?;
    Ok(Subject::per_message(GMAC_GCM128, Imp::OpenSsl, move |msg| {
        n += 1;
        mac.mac(&nonce96(n), msg, &mut tag).map_or(0, |()| first_byte_of(&tag))
    }))
}

/// OpenSSL's AES-128-GMAC, one key, the counter as the IV.
fn openssl_gmac() -> Result<Subject, String> {
    let mut mac = OpenSslGmac::new(OpenSsl::get().map_err(|e| e.to_string())?, KEY).map_err(|e| e.to_string())?;
    let (mut n, mut tag) = (0u64, [0u8; 16]);
    mac.mac(&nonce96(0), b"", &mut tag).map_err(|e| e.to_string())?;
    Ok(Subject::per_message(GMAC, Imp::OpenSsl, move |msg| {
        n += 1;
        mac.mac(&nonce96(n), msg, &mut tag).map_or(0, |()| first_byte_of(&tag))
    }))
}

/// BLAKE3's keyed hash, the counter hashed after the message.
fn blake3_keyed() -> Subject {
    let mac = KeyedBlake3::new(&std::array::from_fn(|i| KEY[i % KEY.len()]));
    let mut n = 0u64;
    Subject::per_message(BLAKE3_KEYED, Imp::Blake3, move |msg| {
        n += 1;
        mac.mac(n, msg)[0]
    })
}

/// The read limit: one pass over the message with the widest loads.
fn read_limit() -> Subject {
    let kernel = ReadKernel::detect();
    let mut subject = Subject::per_message(READ_LIMIT, Imp::ReadLimit, move |msg| kernel.read(msg));
    subject.backend = Some(kernel.name());
    subject
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_registry_uses_the_library_names_and_has_each_entry_once() {
        let entries = registry();
        for alg in Algorithm::ALL {
            let name = alg.info().name;
            assert!(entries.iter().any(|e| e.alg == name && e.imp == Imp::Fastmac), "{name}");
        }
        assert!(!names(&entries).contains(&"hmac-sha256"));
        for (i, a) in entries.iter().enumerate() {
            assert!(!entries[i + 1..].iter().any(|b| a.alg == b.alg && a.imp == b.imp), "{} twice", a.alg);
        }
    }

    #[test]
    fn every_subject_that_builds_runs() {
        for entry in registry() {
            let Ok(mut subject) = entry.make() else { continue };
            assert_eq!((subject.alg.as_str(), subject.imp), (entry.alg, entry.imp));
            subject.time(2, &[7u8; 64]);
        }
    }

    #[test]
    fn every_comparator_says_how_it_is_keyed() {
        for entry in registry() {
            let comparator =
                !matches!(entry.imp, Imp::Fastmac | Imp::FastmacParallel | Imp::NhCeiling | Imp::ReadLimit);
            assert_eq!(keying(entry.alg, entry.imp).is_some(), comparator, "{} ({})", entry.alg, entry.imp.name());
        }
    }

    #[test]
    fn openssl_and_blake3_subjects_build_here() {
        // libcrypto.so.3 is installed by `make deps`; absent, this fails
        // with the reason.
        for (alg, imp) in [
            (POLY1305, Imp::OpenSsl),
            (POLY1305_GIVEN_KEY, Imp::OpenSsl),
            (GMAC, Imp::OpenSsl),
            (GMAC_GCM128, Imp::OpenSsl),
            (BLAKE3_KEYED, Imp::Blake3),
        ] {
            let entry = registry().into_iter().find(|e| e.alg == alg && e.imp == imp).expect("registered");
            if let Err(why) = entry.make() {
                panic!("{alg} ({}) not built: {why}", imp.name());
            }
        }
    }
}
