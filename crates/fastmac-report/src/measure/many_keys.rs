//! `fastmac bench --keys`: the cost of a packet when many keys are live, as
//! on a server that holds one keyed MAC per connection and touches each
//! only when that connection's packet arrives (docs/performance.md,
//! "Many live keys").
//!
//! For each MAC and each count of live keys, one keyed state per
//! connection (with its own sequence number, the packet's nonce, as SSH
//! forms UMAC's) is built in one array, and packets are sent to the
//! connections in a scattered order: a fixed pseudo-random permutation of
//! the connections, walked round after round, so that a connection's next
//! packet comes after every other connection's, and the hardware
//! prefetcher sees no stride between them. The packets themselves are 64
//! distinct messages of the size, cycled. A round is a fixed count of
//! packets timed on the monotonic clock; the figure is the median of the
//! rounds, in ns per packet. Each MAC's states are built, timed and dropped
//! before the next MAC's, so that one MAC's states never evict another's.
//! The `/prefetch-next` rows ask, before each packet, for the lines of the
//! connection the next packet goes to, as a server that takes its packets
//! in batches can (docs/performance.md, "Asking ahead").

use std::hint::black_box;
use std::time::Instant;

use aegis::aegis128l::Aegis128LMac;
use fastmac::badger::Badger64;
use fastmac::ssh::SshMac;
use fastmac::umac::{TagLen, Umac, UmacTagLen, counter_nonce};
use serde::Serialize;

use super::{Clock, Machine};

/// The packet sizes of `fastmac bench --keys` when no `--sizes` are given:
/// a short packet, a full Ethernet frame, and SSH's largest.
pub const DEFAULT_SIZES: [usize; 3] = [64, 1500, 32_768];
/// Distinct packets of each size, cycled.
const PACKETS: usize = 64;
/// Timed rounds per cell; the figure is their median.
const ROUNDS: usize = 5;
/// Packets per round: 100,000, fewer for long packets, so that a round
/// hashes at most about 64 MiB.
const MAX_PACKETS_PER_ROUND: usize = 100_000;
const BYTES_PER_ROUND: usize = 64 << 20;

/// The MACs measured, by the name their rows carry. A `/prefetch-next`
/// row is its MAC with the next packet's connection asked for before each
/// packet, as a server handling packets in batches can.
pub const SUBJECTS: [&str; 11] = [
    "umac-32",
    "umac-64",
    "umac-128",
    "umac-64/prefetch-next",
    "umac-128/prefetch-next",
    "umac-64@openssh.com",
    "umac-128@openssh.com",
    "badger-64",
    super::aegis::AEGIS_128L,
    "aegismac-128l/prefetch-next",
    "aegismac-128l/keyed-per-packet",
];

/// One measured cell.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct KeysRow {
    /// The MAC (one of [`SUBJECTS`]).
    pub alg: &'static str,
    /// How a packet reaches it.
    pub path: &'static str,
    /// Live keys: connections, one keyed state each.
    pub keys: usize,
    /// Packet size in bytes.
    pub size: usize,
    /// Median of the rounds, ns per packet.
    pub ns_per_packet: f64,
    /// Fastest round, ns per packet.
    pub ns_min: f64,
    /// Bytes of one connection's keyed state (`size_of` of its type; the
    /// state owns no heap memory).
    pub state_bytes: usize,
    /// The share of the memory mappings holding the connections that the
    /// kernel backs with 2 MiB pages, 0 to 1 (`AnonHugePages` over `Size`
    /// in `/proc/self/smaps`); `None` where the system does not say.
    pub huge_page_share: Option<f64>,
}

/// The memory system as one core sees it past the caches, the terms of a
/// packet's floor when its key state is not cached.
#[derive(Serialize, Clone, Debug, PartialEq)]
pub struct Memory {
    /// ns per load of a chain of dependent loads, each from a random line
    /// of a 256 MiB buffer: one miss's full latency.
    pub latency_ns: f64,
    /// ns per line when 16 such chains run side by side: a miss's cost when
    /// misses overlap as far as the core lets them.
    pub overlapped_line_ns: f64,
    /// GB/s of one core reading the buffer in order.
    pub sequential_gb_s: f64,
}

/// A `fastmac bench --keys` run.
#[derive(Serialize, Clone, Debug)]
pub struct KeysRun {
    /// The machine (its core clock is not measured here).
    pub machine: Machine,
    /// Memory latency and bandwidth, measured before the MACs.
    pub memory: Memory,
    /// The system's transparent huge page mode (`always`, `madvise` or
    /// `never`), which decides whether the connections can sit in 2 MiB
    /// pages; `None` where the system does not say.
    pub transparent_huge_pages: Option<String>,
    /// Rounds per cell.
    pub rounds: usize,
    /// Distinct packets of each size.
    pub distinct_packets: usize,
    /// The cells, by MAC, then live keys, then size.
    pub results: Vec<KeysRow>,
}

/// One connection's MAC: its keyed state and its sequence number.
trait Connection {
    /// Keys connection `index`'s state.
    fn new(index: usize) -> Self;
    /// MACs `packet` under the next sequence number; a byte of the tag.
    fn packet(&mut self, packet: &[u8]) -> u8;
}

/// A connection whose state the next packet reads can be asked for ahead
/// of it, reading none of it.
trait Prefetch: Connection {
    /// Asks for the lines a packet of `len` bytes reads of this connection.
    fn prefetch(&self, len: usize);
}

/// Asks for every line of `value`, reading none of it: for the states the
/// MAC crates measured here offer no such call for (the connection's
/// sequence number, AEGIS-128L's state).
#[allow(unsafe_code)] // SSE's prefetch intrinsic
fn prefetch_value<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        let start = (&raw const *value).cast::<i8>();
        let offset = start.addr() % 64;
        for line in (0..offset + size_of::<T>()).step_by(64) {
            // SAFETY: a prefetch is a hint: it reads nothing the program
            // sees and never faults; SSE is in the x86-64 baseline.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(start.wrapping_sub(offset).wrapping_add(line)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}

/// A 16-byte key of connection `index`: distinct per connection.
fn key_of(index: usize) -> [u8; 16] {
    let mut key = [0x5au8; 16];
    key[..8].copy_from_slice(&(index as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15).to_le_bytes());
    key
}

/// UMAC through its one-shot call, the nonce the 8-byte sequence number.
struct UmacConnection<const TAG_LEN: usize>
where
    TagLen<TAG_LEN>: UmacTagLen,
{
    mac: Umac<TAG_LEN>,
    seq: u64,
}

impl<const TAG_LEN: usize> Connection for UmacConnection<TAG_LEN>
where
    TagLen<TAG_LEN>: UmacTagLen,
{
    fn new(index: usize) -> Self {
        UmacConnection { mac: Umac::new(&key_of(index)), seq: 0 }
    }

    #[inline]
    fn packet(&mut self, packet: &[u8]) -> u8 {
        let tag = self.mac.mac(&counter_nonce(self.seq), packet).map_or(0, |tag| tag[0]);
        self.seq += 1;
        tag
    }
}

impl<const TAG_LEN: usize> Prefetch for UmacConnection<TAG_LEN>
where
    TagLen<TAG_LEN>: UmacTagLen,
{
    #[inline]
    fn prefetch(&self, len: usize) {
        self.mac.prefetch(len);
        prefetch_value(&self.seq);
    }
}

/// An SSH MAC through the library's per-packet type, the nonce the
/// packet's 32-bit sequence number.
struct SshConnection<const TAG_LEN: usize> {
    mac: SshMac,
    seq: u32,
}

impl<const TAG_LEN: usize> Connection for SshConnection<TAG_LEN> {
    fn new(index: usize) -> Self {
        let name = if TAG_LEN == 8 { "umac-64@openssh.com" } else { "umac-128@openssh.com" };
        let mac = SshMac::new(name, &key_of(index)).expect("UMAC's SSH names take 16-byte keys");
        SshConnection { mac, seq: 0 }
    }

    #[inline]
    fn packet(&mut self, packet: &[u8]) -> u8 {
        let tag = self.mac.compute(self.seq, packet)[0];
        self.seq = self.seq.wrapping_add(1);
        tag
    }
}

/// Badger-64 in nonce mode, the nonce the sequence number plus one (never
/// all zeros).
struct BadgerConnection {
    mac: Badger64,
    seq: u64,
}

impl Connection for BadgerConnection {
    fn new(index: usize) -> Self {
        BadgerConnection { mac: Badger64::new(&key_of(index)), seq: 0 }
    }

    #[inline]
    fn packet(&mut self, packet: &[u8]) -> u8 {
        self.seq += 1;
        self.mac.mac(&self.seq.to_be_bytes(), packet).map_or(0, |tag| tag[0])
    }
}

/// AEGIS-128L's MAC (the `aegis` crate), a keyed state per connection,
/// cloned per packet (the state a keyed MAC keeps is the one it starts each
/// message from).
struct AegisConnection {
    keyed: Aegis128LMac<16>,
}

impl Connection for AegisConnection {
    fn new(index: usize) -> Self {
        AegisConnection { keyed: Aegis128LMac::new(&key_of(index)) }
    }

    #[inline]
    fn packet(&mut self, packet: &[u8]) -> u8 {
        let mut mac = self.keyed.clone();
        mac.update(packet);
        mac.finalize()[0]
    }
}

impl Prefetch for AegisConnection {
    #[inline]
    fn prefetch(&self, _len: usize) {
        prefetch_value(&self.keyed);
    }
}

/// AEGIS-128L's MAC keyed for every packet from the connection's 16-byte
/// key: the state then is the key alone, and each packet pays the key
/// setup.
struct AegisPerPacket {
    key: [u8; 16],
}

impl Connection for AegisPerPacket {
    fn new(index: usize) -> Self {
        AegisPerPacket { key: key_of(index) }
    }

    #[inline]
    fn packet(&mut self, packet: &[u8]) -> u8 {
        let mut mac = Aegis128LMac::<16>::new(&self.key);
        mac.update(packet);
        mac.finalize()[0]
    }
}

/// Bytes of the buffer [`memory`] walks: far past the last-level cache.
const MEMORY_BYTES: usize = 256 << 20;
/// Chains of dependent loads walked side by side for the overlapped figure.
const CHAINS: usize = 16;

/// Measures [`Memory`]: a random cycle through the buffer's 64-byte lines,
/// each line holding the index of the next, walked as one chain and as
/// [`CHAINS`] chains started apart; then the buffer summed in order.
fn memory() -> Memory {
    const LINE_WORDS: usize = 8;
    let lines = MEMORY_BYTES / 64;
    let order = scattered(lines);
    let mut next = vec![0u64; lines * LINE_WORDS];
    for (i, &line) in order.iter().enumerate() {
        next[line as usize * LINE_WORDS] = u64::from(order[(i + 1) % lines]);
    }
    let hops = 1 << 21;
    let start = Instant::now();
    let mut at = 0usize;
    for _ in 0..hops {
        at = next[at * LINE_WORDS] as usize;
    }
    let latency_ns = start.elapsed().as_secs_f64() * 1e9 / hops as f64;
    black_box(at);
    let mut ats: [usize; CHAINS] = core::array::from_fn(|c| order[c * (lines / CHAINS)] as usize);
    let start = Instant::now();
    for _ in 0..hops / CHAINS {
        for at in &mut ats {
            *at = next[*at * LINE_WORDS] as usize;
        }
    }
    let overlapped_line_ns = start.elapsed().as_secs_f64() * 1e9 / (hops / CHAINS * CHAINS) as f64;
    black_box(ats);
    let start = Instant::now();
    let sum = next.chunks_exact(LINE_WORDS).fold(0u64, |sum, line| line.iter().fold(sum, |s, &w| s.wrapping_add(w)));
    let sequential_gb_s = MEMORY_BYTES as f64 / start.elapsed().as_secs_f64() / 1e9;
    black_box(sum);
    Memory { latency_ns, overlapped_line_ns, sequential_gb_s }
}

/// A fixed pseudo-random permutation of `0..n` (xorshift64*, Fisher-Yates).
fn scattered(n: usize) -> Vec<u32> {
    let mut order: Vec<u32> = (0..n as u32).collect();
    let mut s = 0x2545_f491_4f6c_dd1d_u64;
    for i in (1..n).rev() {
        s ^= s >> 12;
        s ^= s << 25;
        s ^= s >> 27;
        let j = (s.wrapping_mul(0x2545_f491_4f6c_dd1d) % (i as u64 + 1)) as usize;
        order.swap(i, j);
    }
    order
}

/// The 64 distinct packets of `size` bytes.
fn packets(size: usize) -> Vec<Vec<u8>> {
    (0..PACKETS)
        .map(|p| (0..size).map(|i| (i as u32).wrapping_mul(2_654_435_761).wrapping_add(p as u32) as u8).collect())
        .collect()
}

/// One measured cell of [`measure`].
struct Cell {
    keys: usize,
    size: usize,
    median: f64,
    fastest: f64,
    huge_page_share: Option<f64>,
}

/// Times `C` at each key count and size.
fn measure<C: Connection>(keys: &[usize], sizes: &[usize]) -> Vec<Cell> {
    measure_asking(keys, sizes, |_: &C, _| {})
}

/// [`measure`], the next packet's connection asked for before each packet.
fn measure_prefetching<C: Prefetch>(keys: &[usize], sizes: &[usize]) -> Vec<Cell> {
    measure_asking(keys, sizes, C::prefetch)
}

/// [`measure`], with `ask` told before each packet of the connection that
/// the next packet goes to, and its size.
fn measure_asking<C: Connection>(keys: &[usize], sizes: &[usize], ask: impl Fn(&C, usize)) -> Vec<Cell> {
    let mut cells = Vec::new();
    for &n in keys {
        let mut connections: Vec<C> = (0..n).map(C::new).collect();
        let huge_page_share = huge_page_share(connections.as_ptr().addr(), size_of_val(connections.as_slice()));
        let order = scattered(n);
        let mut next = 0usize;
        for &size in sizes {
            let packets = packets(size);
            let per_round = (BYTES_PER_ROUND / size.max(1)).clamp(1, MAX_PACKETS_PER_ROUND);
            let mut sink = 0u8;
            let mut round = |count: usize| {
                for i in 0..count {
                    let after = if next + 1 == n { 0 } else { next + 1 };
                    ask(&connections[order[after] as usize], size);
                    let connection = &mut connections[order[next] as usize];
                    next = after;
                    sink ^= connection.packet(black_box(&packets[i % PACKETS]));
                }
            };
            // A warm-up pass visits every connection once (its pad cache
            // filled, as on a busy server) before the timed rounds.
            round(n.max(per_round / 10));
            let mut times: Vec<f64> = (0..ROUNDS)
                .map(|_| {
                    let start = Instant::now();
                    round(per_round);
                    start.elapsed().as_secs_f64() * 1e9 / per_round as f64
                })
                .collect();
            black_box(sink);
            times.sort_by(f64::total_cmp);
            cells.push(Cell { keys: n, size, median: times[times.len() / 2], fastest: times[0], huge_page_share });
        }
    }
    cells
}

/// The share of the memory mappings that hold the `bytes` bytes from
/// address `start` which the kernel backs with 2 MiB pages: their
/// `AnonHugePages` over their `Size` in `/proc/self/smaps` (Linux). A core
/// translates a 4 KiB page's address through its TLB, whose entries (2,048
/// in a Zen 3's second level) cover 8 MiB of 4 KiB pages: past that, a
/// packet's state costs a page walk before its first miss is even asked
/// for (docs/performance.md, "Many live keys").
fn huge_page_share(start: usize, bytes: usize) -> Option<f64> {
    let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
    let end = start + bytes;
    let (mut size_kb, mut huge_kb) = (0u64, 0u64);
    let mut holds_states = false;
    for line in smaps.lines() {
        let mut fields = line.split_whitespace();
        let (Some(first), Some(second)) = (fields.next(), fields.next()) else { continue };
        // A mapping's first line: `low-high perms offset device inode path`.
        if let Some((low, high)) = first.split_once('-')
            && let (Ok(low), Ok(high)) = (usize::from_str_radix(low, 16), usize::from_str_radix(high, 16))
        {
            holds_states = low < end && start < high;
        } else if holds_states {
            let kb = second.parse::<u64>().unwrap_or(0);
            match first {
                "Size:" => size_kb += kb,
                "AnonHugePages:" => huge_kb += kb,
                _ => {}
            }
        }
    }
    (size_kb > 0).then(|| huge_kb as f64 / size_kb as f64)
}

/// The transparent huge page mode, the bracketed word of
/// `/sys/kernel/mm/transparent_hugepage/enabled` (Linux).
fn transparent_huge_pages() -> Option<String> {
    let modes = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").ok()?;
    let (_, chosen) = modes.split_once('[')?;
    Some(chosen.split_once(']')?.0.to_owned())
}

/// The path of the UMAC rows that ask for the next connection ahead.
const PREFETCH_NEXT: &str =
    "one-shot; the next packet's connection asked for ahead (`Umac::prefetch`, and its sequence number's line)";

/// Runs the MACs of `algs` (all of [`SUBJECTS`] when empty) at each count of
/// live keys and packet size; `progress` hears of each MAC as it starts.
pub fn run(algs: &[&str], keys: &[usize], sizes: &[usize], mut progress: impl FnMut(&str)) -> KeysRun {
    progress("memory latency and bandwidth");
    let memory = memory();
    let mut results = Vec::new();
    for alg in SUBJECTS.into_iter().filter(|a| algs.is_empty() || algs.contains(a)) {
        progress(alg);
        let (path, state_bytes, cells) = match alg {
            "umac-32" => ("one-shot", size_of::<UmacConnection<4>>(), measure::<UmacConnection<4>>(keys, sizes)),
            "umac-64" => ("one-shot", size_of::<UmacConnection<8>>(), measure::<UmacConnection<8>>(keys, sizes)),
            "umac-128" => ("one-shot", size_of::<UmacConnection<16>>(), measure::<UmacConnection<16>>(keys, sizes)),
            "umac-64/prefetch-next" => {
                (PREFETCH_NEXT, size_of::<UmacConnection<8>>(), measure_prefetching::<UmacConnection<8>>(keys, sizes))
            }
            "umac-128/prefetch-next" => {
                (PREFETCH_NEXT, size_of::<UmacConnection<16>>(), measure_prefetching::<UmacConnection<16>>(keys, sizes))
            }
            "umac-64@openssh.com" => {
                ("ssh per-packet", size_of::<SshConnection<8>>(), measure::<SshConnection<8>>(keys, sizes))
            }
            "umac-128@openssh.com" => {
                ("ssh per-packet", size_of::<SshConnection<16>>(), measure::<SshConnection<16>>(keys, sizes))
            }
            "badger-64" => ("one-shot", size_of::<BadgerConnection>(), measure::<BadgerConnection>(keys, sizes)),
            name if name == super::aegis::AEGIS_128L => {
                ("keyed state cloned per packet", size_of::<AegisConnection>(), measure::<AegisConnection>(keys, sizes))
            }
            "aegismac-128l/prefetch-next" => (
                "keyed state cloned per packet; the next packet's connection asked for ahead (its state's lines)",
                size_of::<AegisConnection>(),
                measure_prefetching::<AegisConnection>(keys, sizes),
            ),
            _ => ("keyed per packet", size_of::<AegisPerPacket>(), measure::<AegisPerPacket>(keys, sizes)),
        };
        for Cell { keys, size, median, fastest, huge_page_share } in cells {
            results.push(KeysRow {
                alg,
                path,
                keys,
                size,
                ns_per_packet: median,
                ns_min: fastest,
                state_bytes,
                huge_page_share,
            });
        }
    }
    KeysRun {
        machine: Machine::describe(&Clock::default(), Vec::new()),
        memory,
        transparent_huge_pages: transparent_huge_pages(),
        rounds: ROUNDS,
        distinct_packets: PACKETS,
        results,
    }
}

/// The run as a text table: a row per MAC and key count, a column per
/// size, and each figure's multiple of the MAC's own one-key figure.
pub fn table(run: &KeysRun) -> String {
    use std::fmt::Write as _;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} ({} logical CPUs), NH backend {}",
        run.machine.cpu, run.machine.logical_cpus, run.machine.fastmac_backend
    );
    let _ = writeln!(out, "{}", memory_line(&run.memory));
    let _ = writeln!(out, "{}", pages_line(run));
    let _ = writeln!(
        out,
        "ns per packet, median of {} rounds; scattered order over the live keys, per-connection sequence-number nonces, {} distinct packets",
        run.rounds, run.distinct_packets
    );
    let mut sizes: Vec<usize> = run.results.iter().map(|r| r.size).collect();
    sizes.sort_unstable();
    sizes.dedup();
    let _ = write!(out, "{:<28} {:>7} {:>11} {:>11}", "alg (path)", "keys", "state B/key", "2 MiB pages");
    for size in &sizes {
        let _ = write!(out, " {:>18}", format!("{size} B"));
    }
    out.push('\n');
    let mut seen: Vec<(&str, usize)> = Vec::new();
    for r in &run.results {
        if seen.contains(&(r.alg, r.keys)) {
            continue;
        }
        seen.push((r.alg, r.keys));
        let _ =
            write!(out, "{:<28} {:>7} {:>11} {:>11}", r.alg, r.keys, r.state_bytes, huge_page_cell(r.huge_page_share));
        for &size in &sizes {
            let _ = write!(out, " {:>18}", cell(run, r.alg, r.keys, size));
        }
        out.push('\n');
    }
    let mut paths: Vec<(&str, &str)> = run.results.iter().map(|r| (r.alg, r.path)).collect();
    paths.dedup();
    for (alg, path) in paths {
        let _ = writeln!(out, "{alg}: {path}");
    }
    out
}

/// The memory system's figures in one line, as the table prints them.
pub fn memory_line(m: &Memory) -> String {
    format!(
        "memory past the caches: {:.1} ns per dependent miss, {:.1} ns per line with {CHAINS} misses in flight, {:.1} GB/s in order",
        m.latency_ns, m.overlapped_line_ns, m.sequential_gb_s
    )
}

/// Where the connections' states sit, as the table prints it: the
/// transparent huge page mode, and what the `2 MiB pages` column means.
pub fn pages_line(run: &KeysRun) -> String {
    let mode = run.transparent_huge_pages.as_deref().unwrap_or("not reported");
    format!(
        "transparent huge pages: {mode}; 2 MiB pages = the share of the mappings holding the states that the kernel backs with 2 MiB pages (4 KiB pages take a TLB entry each)"
    )
}

/// A [`KeysRow::huge_page_share`] as a percentage, `-` when not reported.
pub fn huge_page_cell(share: Option<f64>) -> String {
    share.map_or("-".to_owned(), |share| format!("{:.0}%", 100.0 * share))
}

/// One cell of the table: `alg`'s ns per packet with `keys` live keys at
/// `size`, and past one key its multiple of the MAC's own one-key figure
/// at that size; `-` when not measured.
pub fn cell(run: &KeysRun, alg: &str, keys: usize, size: usize) -> String {
    let find = |keys| run.results.iter().find(|c| c.alg == alg && c.keys == keys && c.size == size);
    match (find(keys), find(1)) {
        (Some(c), Some(one)) if keys != 1 => {
            format!("{:.1} ({:.1}x)", c.ns_per_packet, c.ns_per_packet / one.ns_per_packet)
        }
        (Some(c), _) => format!("{:.1}", c.ns_per_packet),
        (None, _) => "-".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scattered_order_visits_every_connection_once_per_pass() {
        for n in [1, 2, 255, 4096] {
            let mut order = scattered(n);
            assert!(n < 4 || order.windows(2).any(|w| w[1] != w[0] + 1), "{n}: not in order");
            order.sort_unstable();
            assert_eq!(order, (0..n as u32).collect::<Vec<_>>(), "{n}: a permutation");
        }
    }

    /// The states of a large array are found in `/proc/self/smaps`, in
    /// mappings whose share of 2 MiB pages is a fraction.
    #[test]
    fn the_states_mappings_are_found() {
        let states = vec![1u8; 8 << 20];
        match huge_page_share(states.as_ptr().addr(), states.len()) {
            Some(share) => assert!((0.0..=1.0).contains(&share), "{share}"),
            None => assert!(std::fs::metadata("/proc/self/smaps").is_err(), "smaps is there but not read"),
        }
        assert_eq!(huge_page_share(0, 1), None, "no mapping holds address 0");
    }

    /// A connection that checks it was asked for before each packet.
    struct Probe(usize);

    std::thread_local! {
        /// The connection asked for before the last packet, and before it.
        static ASKED: std::cell::Cell<[Option<usize>; 2]> = const { std::cell::Cell::new([None; 2]) };
    }

    impl Connection for Probe {
        fn new(index: usize) -> Self {
            Probe(index)
        }

        fn packet(&mut self, _packet: &[u8]) -> u8 {
            let [_, before_this] = ASKED.get();
            assert!(
                before_this.is_none_or(|asked| asked == self.0),
                "connection {} got {before_this:?}'s packet",
                self.0
            );
            0
        }
    }

    impl Prefetch for Probe {
        fn prefetch(&self, len: usize) {
            assert_eq!(len, 64);
            let [last, _] = ASKED.get();
            ASKED.set([Some(self.0), last]);
        }
    }

    /// `/prefetch-next` rows ask, before each packet, for the connection
    /// the next packet goes to, with its size.
    #[test]
    fn the_next_packets_connection_is_asked_for_before_each_packet() {
        let cells = measure_prefetching::<Probe>(&[5], &[64]);
        assert_eq!(cells.len(), 1);
        assert!(ASKED.get()[0].is_some(), "never asked");
    }

    /// Every connection's tags are its own key's, under its own sequence
    /// numbers: the first packet of connection 3 is UMAC-64 under key 3 and
    /// nonce 0, its second under nonce 1.
    #[test]
    fn connections_use_their_own_key_and_sequence() {
        let packet = b"one packet";
        let mut connection = UmacConnection::<8>::new(3);
        let mut reference = fastmac::umac::Umac64::new(&key_of(3));
        assert_eq!(connection.packet(packet), reference.mac(&counter_nonce(0), packet).unwrap()[0]);
        assert_eq!(connection.packet(packet), reference.mac(&counter_nonce(1), packet).unwrap()[0]);
        assert_ne!(key_of(3), key_of(4));
    }
}
