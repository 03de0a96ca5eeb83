//! Multi-core UHASH of a message in memory (cargo feature `parallel`), a
//! driver above the chunk engine (`super::uhash`).
//!
//! L1-HASH hashes each 1024-byte chunk independently (RFC 4418 section
//! 5.2.1), so the chunks of a large input are NH-hashed on all cores of the
//! current rayon pool. L2-HASH (section 5.3) is a polynomial evaluated in
//! chunk order. While it is POLY64 (the first 2^14 chunks, 16 MiB), each
//! task hashes its chunks through NH and through POLY64 as a map
//! (`l2::Poly64Map`: Horner's steps compose), and L2 absorbs the maps in
//! order, one multiply-add each, so POLY64 runs on every core with NH.
//! Past that, POLY128 the same way (`l2::Poly128Map`), each task whole
//! 16-byte words of it (two chunks each). Inside a one-thread rayon pool the
//! engine's own loop runs instead, which is how the benchmark compares the
//! two paths in one process.
//!
//! Without the feature only [`PARALLEL_MIN`] is here, so that the API is the
//! same in every build.

#[cfg(feature = "parallel")]
use core::sync::atomic::{AtomicUsize, Ordering};
#[cfg(feature = "parallel")]
use std::time::Instant;

#[cfg(feature = "parallel")]
use aes::Aes128;
#[cfg(feature = "parallel")]
use aes::cipher::KeyInit;
#[cfg(feature = "parallel")]
use rayon::prelude::*;

#[cfg(feature = "parallel")]
use super::backend::Backend;
#[cfg(feature = "parallel")]
use super::iters::{MAX_ITERS, with_iters};
#[cfg(feature = "parallel")]
use super::l1::{L1_CHUNK, l1_chunks};
#[cfg(feature = "parallel")]
use super::l2::{L2Key, MappedOutputs, Outputs, Poly64Map, Poly64Run, Poly128Map, Poly128Run, PolyRun};
#[cfg(feature = "parallel")]
use super::nh::NhKey;
#[cfg(feature = "parallel")]
use super::uhash::{self, UhashKey, UhashState};

/// With the `parallel` feature, no one-call input or streamed update shorter
/// than this hashes its L1 chunks on more than one core (UMAC-128's
/// threshold; UMAC-32 to UMAC-96 wait for more bytes unless
/// `calibrate_parallel` chose otherwise); every input without the feature
/// hashes on one.
pub const PARALLEL_MIN: usize = 1 << 20;

/// Bytes times iterations (the NH work) that an input needs before its
/// chunks are split across the pool, unless a calibration chose otherwise:
/// splitting costs a fixed amount per input (waking the pool's threads, each
/// reading bytes the caller's cache held), which only enough NH work repays.
/// UMAC-128 (four iterations) goes parallel from 1 MiB, UMAC-64 from 2 MiB,
/// UMAC-96 from 4/3 MiB and UMAC-32 from 4 MiB (`docs/performance.md`, "The
/// multi-core path: when it is taken").
#[cfg(feature = "parallel")]
const PARALLEL_WORK_MIN: usize = 4 << 20;

/// The sizes [`calibrate_parallel`] times: 1 to 16 MiB.
#[cfg(feature = "parallel")]
const CALIBRATION_SIZES: [usize; 5] = [1 << 20, 2 << 20, 4 << 20, 8 << 20, 16 << 20];
/// How much faster than one core the multi-core path must be at a size for
/// a calibration to take it there: a margin over the timing noise of a
/// machine shared with other work.
#[cfg(feature = "parallel")]
const CALIBRATION_MARGIN: f64 = 1.25;
/// Rounds of timed runs of each path per size and iteration count, the
/// paths alternating (the median of each path's runs counts).
#[cfg(feature = "parallel")]
const CALIBRATION_ROUNDS: usize = 5;
/// Consecutive runs of one path per round: the first all-core run of a
/// round wakes the pool, the later ones find it awake ([`speedup`]).
#[cfg(feature = "parallel")]
const CALIBRATION_BURST: usize = 3;

/// The thresholds of the last calibration, per iteration count (index
/// `ITERS - 1`): the smallest input in bytes that goes to all cores,
/// `usize::MAX` for never. They hold in rayon pools of
/// `CALIBRATED_THREADS` threads (0: no calibration); other pools keep the
/// default rule.
#[cfg(feature = "parallel")]
static CALIBRATED_MIN: [AtomicUsize; MAX_ITERS] = [const { AtomicUsize::new(0) }; MAX_ITERS];
#[cfg(feature = "parallel")]
static CALIBRATED_THREADS: AtomicUsize = AtomicUsize::new(0);

/// Bytes of message past POLY64's range hashed by one set of tasks, whose
/// maps are absorbed before the next set's tasks start: 256 MiB (an even
/// count of chunks), so that the maps held at once are a few hundred
/// whatever the input's size.
#[cfg(feature = "parallel")]
const POLY128_SPAN: usize = 256 << 20;
/// Chunks per rayon task of an input of `chunks` chunks: about eight tasks
/// per thread, from [`TASK_CHUNKS_MIN`] to [`TASK_CHUNKS_MAX`]. Each task
/// starts NH's batches anew and ends its polynomial's run with a power of
/// the key, so fewer, longer tasks cost less; several per thread still let
/// a thread that starts late take a smaller share (`docs/performance-log.md`
/// section 18).
#[cfg(feature = "parallel")]
fn task_chunks(chunks: usize) -> usize {
    (chunks / (8 * rayon::current_num_threads())).clamp(TASK_CHUNKS_MIN, TASK_CHUNKS_MAX)
}
/// The shortest task: 64 KiB, long enough to amortize a steal.
#[cfg(feature = "parallel")]
const TASK_CHUNKS_MIN: usize = 64;
/// The longest task: 512 KiB.
#[cfg(feature = "parallel")]
const TASK_CHUNKS_MAX: usize = 512;

/// Whether `len` bytes should be hashed on several cores with `ITERS`
/// iterations: more than one thread in the current rayon pool (in a
/// one-thread pool the engine's loop is the faster single-core path), and
/// at least the threshold that [`calibrate_parallel`] chose for pools of
/// this size, or without one, at least [`PARALLEL_MIN`] bytes and
/// `PARALLEL_WORK_MIN` of NH work.
#[cfg(feature = "parallel")]
pub(crate) fn worth_it<const ITERS: usize>(len: usize) -> bool {
    let threads = rayon::current_num_threads();
    if threads < 2 {
        return false;
    }
    if CALIBRATED_THREADS.load(Ordering::Relaxed) == threads {
        let calibrated = CALIBRATED_MIN[ITERS - 1].load(Ordering::Relaxed);
        if calibrated != 0 {
            return len >= calibrated;
        }
    }
    len >= PARALLEL_MIN && len.saturating_mul(ITERS) >= PARALLEL_WORK_MIN
}

/// Times UMAC's one-core and multi-core paths in the current rayon pool,
/// for each tag length on messages of 1 to 16 MiB, and from then on sends an
/// input in memory to all cores only from the smallest of those sizes at
/// which the multi-core path was at least 1.25x faster, there and at every
/// larger size timed (never, if not at 16 MiB); in other pools, and before
/// any calibration, the default rule of [`PARALLEL_MIN`] holds.
///
/// Returns the thresholds in bytes for UMAC-32, UMAC-64, UMAC-96 and
/// UMAC-128 (`None`: one core at every size). The choice is the
/// application's to make, once, under the load it expects: it takes about
/// 0.2 s on two cores of a recent server (more where a core is slower) and
/// 16 MiB of memory, and it changes which cores hash an input, never a
/// tag. Files read through
/// [`DynMac::update_from_file`](crate::DynMac::update_from_file) keep their
/// own reader.
///
/// The calibration, like the path, uses the pool as the operating system
/// places its threads. On a virtual machine, a pool whose workers were not
/// pinned was found with two of them on one vCPU for tens of milliseconds,
/// slower than one core (`docs/performance-log.md` section 17 of the
/// repository); pinning each worker to a CPU of its own (rayon's
/// `ThreadPoolBuilder::start_handler`) avoids that.
#[cfg(feature = "parallel")]
pub fn calibrate_parallel() -> [Option<usize>; MAX_ITERS] {
    calibrate_at(&CALIBRATION_SIZES, CALIBRATION_ROUNDS)
}

/// [`calibrate_parallel`] over `sizes` (ascending, at least [`PARALLEL_MIN`]
/// each), `rounds` timed runs per path and size.
#[cfg(feature = "parallel")]
fn calibrate_at(sizes: &[usize], rounds: usize) -> [Option<usize>; MAX_ITERS] {
    debug_assert!(sizes.is_sorted() && sizes.first().is_some_and(|&s| s >= PARALLEL_MIN));
    let threads = rayon::current_num_threads();
    if threads < 2 {
        // One thread: no multi-core path to time, nor to take.
        return [None; MAX_ITERS];
    }
    let msg: Vec<u8> =
        (0..sizes.last().copied().unwrap_or(0)).map(|i| (i as u32).wrapping_mul(0x9e37_79b9) as u8).collect();
    let cipher = Aes128::new(&[0x5a; 16].into());
    let chosen: [Option<usize>; MAX_ITERS] = core::array::from_fn(|i| {
        let speedups: Vec<f64> = with_iters!(i + 1, ITERS => {
            let key = UhashKey::<ITERS>::derive(&cipher, Backend::detect());
            sizes.iter().map(|&size| speedup::<ITERS, ITERS>(&key, &msg[..size], rounds)).collect()
        });
        // The smallest size from which every speedup clears the margin:
        // the one after the last size where one did not.
        let last_miss = speedups.iter().rposition(|&s| s < CALIBRATION_MARGIN);
        match last_miss {
            None => sizes.first().copied(),
            Some(last) => sizes.get(last + 1).copied(),
        }
    });
    for (stored, min) in CALIBRATED_MIN.iter().zip(chosen) {
        stored.store(min.unwrap_or(usize::MAX), Ordering::Relaxed);
    }
    CALIBRATED_THREADS.store(threads, Ordering::Relaxed);
    chosen
}

/// One core's time over all cores' for UHASH of `msg`: the median of
/// `rounds` rounds of [`CALIBRATION_BURST`] consecutive runs of each path,
/// the paths alternating. A pool's other threads go to sleep while one
/// core hashes alone, and in a virtual machine waking them can take
/// milliseconds; so the first run of each all-core burst is the cold one,
/// and the later ones see them awake, as an application that hashes one
/// input after another on all cores does (and the benchmark's loops). The
/// median of the runs is then a warm one, where the fastest would be a
/// run that the typical input does not see.
#[cfg(feature = "parallel")]
fn speedup<const ITERS: usize, const K: usize>(key: &UhashKey<K>, msg: &[u8], rounds: usize) -> f64 {
    let time = |f: &dyn Fn() -> u128| {
        let start = Instant::now();
        core::hint::black_box(f());
        start.elapsed().as_secs_f64()
    };
    let runs = rounds * CALIBRATION_BURST;
    let (mut one, mut all) = (Vec::with_capacity(runs), Vec::with_capacity(runs));
    for _ in 0..rounds {
        for _ in 0..CALIBRATION_BURST {
            one.push(time(&|| uhash::uhash::<ITERS, K>(key, core::hint::black_box(msg))));
        }
        for _ in 0..CALIBRATION_BURST {
            all.push(time(&|| uhash::<ITERS, K>(key, core::hint::black_box(msg))));
        }
    }
    median(&mut one) / median(&mut all)
}

/// The median of `times` (the upper one of an even count), sorting them.
#[cfg(feature = "parallel")]
fn median(times: &mut [f64]) -> f64 {
    times.sort_by(f64::total_cmp);
    times[times.len() / 2]
}

/// UHASH of a whole message, its chunks on all cores.
#[cfg(feature = "parallel")]
pub(crate) fn uhash<const ITERS: usize, const K: usize>(key: &UhashKey<K>, msg: &[u8]) -> u128 {
    let mut state = UhashState::<ITERS>::default();
    update(key, &mut state, msg);
    state.finalize(key)
}

/// [`UhashState::update`] with the whole chunks of `data` on all cores: up
/// to a chunk boundary through the state, then every whole chunk but the
/// last (which may end the message) into its L2, then the rest through the
/// state.
#[cfg(feature = "parallel")]
pub(crate) fn update<const ITERS: usize, const K: usize>(
    key: &UhashKey<K>,
    state: &mut UhashState<ITERS>,
    data: &[u8],
) {
    let (head, data) = data.split_at(state.bytes_to_chunk_boundary().min(data.len()));
    state.update(key, head);
    let (chunks, rest) = data.split_at(data.len().saturating_sub(1) / L1_CHUNK * L1_CHUNK);
    if !chunks.is_empty() {
        let l2 = state.l2_at_chunk_boundary(key).expect("the head ends on a chunk boundary");
        l2.absorb_mapped(&key.l2, ChunksOnAllCores { l1: &key.l1, chunks: chunks.as_chunks::<L1_CHUNK>().0 });
    }
    state.update(key, rest);
}

/// Whole chunks (none of them the message's last) hashed on all cores of
/// the current rayon pool, as the outputs L2 absorbs
/// ([`L2Hash::absorb_mapped`](super::l2::L2Hash::absorb_mapped)): L2 cuts the run where its phase changes
/// and takes each piece as maps of tasks ([`ChunksOnAllCores::poly64_maps`],
/// [`ChunksOnAllCores::poly128_maps`]), or, for the odd chunk of a
/// POLY128 word on either side, on this core.
#[cfg(feature = "parallel")]
#[derive(Clone, Copy)]
struct ChunksOnAllCores<'a> {
    l1: &'a NhKey,
    chunks: &'a [[u8; L1_CHUNK]],
}

#[cfg(feature = "parallel")]
impl<const ITERS: usize> Outputs<ITERS> for ChunksOnAllCores<'_> {
    fn len(&self) -> usize {
        self.chunks.len()
    }

    fn split_at(self, mid: usize) -> (Self, Self) {
        let (head, tail) = self.chunks.split_at(mid);
        (ChunksOnAllCores { chunks: head, ..self }, ChunksOnAllCores { chunks: tail, ..self })
    }

    fn each(self, take: impl FnMut([u64; ITERS])) {
        l1_chunks(self.l1, self.chunks).each(take);
    }
}

#[cfg(feature = "parallel")]
impl<const ITERS: usize> MappedOutputs<ITERS> for ChunksOnAllCores<'_> {
    /// One POLY64 map per task.
    fn poly64_maps<const K: usize>(self, key: &L2Key<K>, absorb: impl FnMut(&Poly64Map<ITERS>)) {
        let task = task_chunks(self.chunks.len());
        maps::<ITERS, Poly64Run<ITERS>, K>(self.l1, key, self.chunks, task, absorb);
    }

    /// Tasks of whole POLY128 words (an even count of chunks), each hashed
    /// into a POLY128 map, [`POLY128_SPAN`] at a time.
    fn poly128_maps<const K: usize>(self, key: &L2Key<K>, mut absorb: impl FnMut(&Poly128Map<ITERS>)) {
        for span in self.chunks.chunks(POLY128_SPAN / L1_CHUNK) {
            let task = task_chunks(span.len()).next_multiple_of(2);
            maps::<ITERS, Poly128Run<ITERS>, K>(self.l1, key, span, task, &mut absorb);
        }
    }
}

/// Whole chunks in rayon tasks of `task` chunks, each task's NH and its
/// polynomial's map (`R`) together, the maps handed to `absorb` in order.
#[cfg(feature = "parallel")]
fn maps<const ITERS: usize, R: PolyRun<ITERS>, const K: usize>(
    l1: &NhKey,
    l2_key: &L2Key<K>,
    chunks: &[[u8; L1_CHUNK]],
    task: usize,
    mut absorb: impl FnMut(&R::Map),
) where
    R::Map: Send,
{
    let maps: Vec<R::Map> = chunks
        .par_chunks(task)
        .map(|task| {
            let mut run = R::default();
            l1_chunks(l1, task).each(
                // Inlined into the backend's run, as in one core's loop
                // (`L2Hash::absorb`, `l2/state.rs`).
                #[inline(always)]
                |word| run.absorb(l2_key, word),
            );
            run.into_map(l2_key)
        })
        .collect();
    for map in &maps {
        absorb(map);
    }
}

#[cfg(all(test, feature = "parallel"))]
mod tests {
    use super::*;

    fn in_pool<T: Send>(threads: usize, f: impl FnOnce() -> T + Send) -> T {
        rayon::ThreadPoolBuilder::new().num_threads(threads).build().expect("thread pool").install(f)
    }

    /// The multi-core UHASH, taken whatever the threshold, equals one
    /// core's at every iteration count: within POLY64's range (one
    /// [`Poly64Map`] per task, the last task short, tasks of the shortest
    /// length and longer) and just past it, whole from the start and after
    /// a head that is not on a chunk boundary.
    #[test]
    fn all_cores_equal_one_core() {
        fn check<const ITERS: usize>(msg: &[u8]) {
            let key = UhashKey::<ITERS>::derive(&Aes128::new(&[0x6b; 16].into()), Backend::detect());
            let shortest = TASK_CHUNKS_MIN * L1_CHUNK;
            for len in [shortest + 1, 5 * shortest / 2 + 77, (3 << 20) + (100 << 10) + 77, msg.len()] {
                let msg = &msg[..len];
                let expect = uhash::uhash::<ITERS, ITERS>(&key, msg);
                assert_eq!(in_pool(3, || uhash::<ITERS, ITERS>(&key, msg)), expect, "{ITERS} iterations, {len} bytes");
                let mut state = UhashState::<ITERS>::default();
                state.update(&key, &msg[..100]);
                in_pool(2, || update(&key, &mut state, &msg[100..]));
                assert_eq!(state.finalize::<ITERS>(&key), expect, "{ITERS} iterations, {len} bytes after a head");
            }
        }
        // Past 16 MiB, where POLY64's range ends.
        let msg: Vec<u8> = (0..(16 << 20) + 3000u32).map(|i| (i.wrapping_mul(0x9e37_79b9) >> 11) as u8).collect();
        check::<1>(&msg);
        check::<2>(&msg);
        check::<3>(&msg);
        check::<4>(&msg);
    }

    /// Past POLY64's range, several tasks of POLY128 words: the multi-core
    /// UHASH equals one core's for a message whose whole chunks there are
    /// an odd count, and streamed after heads that leave POLY128 on a word
    /// boundary and inside a word.
    #[test]
    fn all_cores_equal_one_core_past_poly64s_range() {
        fn check<const ITERS: usize>(msg: &[u8]) {
            let key = UhashKey::<ITERS>::derive(&Aes128::new(&[0x3c; 16].into()), Backend::detect());
            let expect = uhash::uhash::<ITERS, ITERS>(&key, msg);
            assert_eq!(in_pool(3, || uhash::<ITERS, ITERS>(&key, msg)), expect, "{ITERS} iterations");
            for head in [(16 << 20) + (4 << 10) + 100, (16 << 20) + (5 << 10) + 100] {
                let mut state = UhashState::<ITERS>::default();
                state.update(&key, &msg[..head]);
                in_pool(2, || update(&key, &mut state, &msg[head..]));
                assert_eq!(state.finalize::<ITERS>(&key), expect, "{ITERS} iterations after {head} bytes");
            }
        }
        // 16 MiB, then 301 whole chunks and 77 bytes.
        let msg: Vec<u8> =
            (0..(16 << 20) + (301 << 10) + 77u32).map(|i| (i.wrapping_mul(0x85eb_ca6b) >> 13) as u8).collect();
        check::<1>(&msg);
        check::<2>(&msg);
        check::<3>(&msg);
        check::<4>(&msg);
    }

    #[test]
    fn the_threshold_scales_with_the_iterations() {
        const MIB: usize = 1 << 20;
        let firsts = in_pool(2, || {
            [
                (worth_it::<1>(4 * MIB - 1), worth_it::<1>(4 * MIB)),
                (worth_it::<2>(2 * MIB - 1), worth_it::<2>(2 * MIB)),
                (worth_it::<3>(4 * MIB / 3 - 1), worth_it::<3>(4 * MIB / 3 + 1)),
                (worth_it::<4>(MIB - 1), worth_it::<4>(MIB)),
            ]
        });
        assert_eq!(firsts, [(false, true); 4], "UMAC-32 / 64 / 96 / 128: below and at the threshold");
        assert!(!in_pool(1, || worth_it::<4>(64 * MIB)), "a one-thread pool never splits");
        assert!(in_pool(2, || worth_it::<1>(usize::MAX)), "no overflow at the largest length");
    }

    #[test]
    fn a_calibration_sets_the_thresholds_of_pools_of_its_size() {
        // Three threads: the other tests' pools of one and two threads keep
        // the default rule while this one runs.
        const MIB: usize = 1 << 20;
        let chosen = in_pool(3, || calibrate_at(&[MIB, 2 * MIB], 1));
        let decisions = in_pool(3, || {
            [
                (worth_it::<1>(MIB - 1), worth_it::<1>(MIB), worth_it::<1>(2 * MIB), worth_it::<1>(64 * MIB)),
                (worth_it::<2>(MIB - 1), worth_it::<2>(MIB), worth_it::<2>(2 * MIB), worth_it::<2>(64 * MIB)),
                (worth_it::<3>(MIB - 1), worth_it::<3>(MIB), worth_it::<3>(2 * MIB), worth_it::<3>(64 * MIB)),
                (worth_it::<4>(MIB - 1), worth_it::<4>(MIB), worth_it::<4>(2 * MIB), worth_it::<4>(64 * MIB)),
            ]
        });
        for (iters, (min, (below, one, two, large))) in chosen.into_iter().zip(decisions).enumerate() {
            assert!(!below, "{} iterations: below every calibrated size", iters + 1);
            match min {
                Some(min) => {
                    assert!(min == MIB || min == 2 * MIB, "{} iterations: a size timed, not {min}", iters + 1);
                    assert_eq!((one, two, large), (min == MIB, true, true), "{} iterations", iters + 1);
                }
                None => assert_eq!((one, two, large), (false, false, false), "{} iterations", iters + 1),
            }
        }
        // A pool of another size keeps the default rule.
        assert_eq!(in_pool(4, || (worth_it::<1>(2 * MIB), worth_it::<1>(4 * MIB))), (false, true));
        // A one-thread pool has nothing to calibrate, and its calibration
        // leaves the other pools' thresholds alone.
        assert_eq!(in_pool(1, || calibrate_at(&[MIB], 1)), [None; MAX_ITERS]);
        assert_eq!(in_pool(3, || worth_it::<1>(2 * MIB)), chosen[0].is_some(), "the three-thread calibration holds");
    }
}
