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
//! Past that, batches: while the pool hashes batch n + 1, one task absorbs
//! the L1 outputs of batch n into L2 as a run, and rayon's work stealing
//! gives the rest of the pool to NH. Inside a one-thread rayon pool the
//! engine's own loop runs instead, which is how the benchmark compares the
//! two paths in one process.
//!
//! Without the feature only [`PARALLEL_MIN`] is here, so that the API is the
//! same in every build.

#[cfg(feature = "parallel")]
use rayon::prelude::*;
#[cfg(feature = "parallel")]
use zeroize::Zeroizing;

#[cfg(feature = "parallel")]
use super::l1::{L1_CHUNK, l1_hash};
#[cfg(feature = "parallel")]
use super::l2::{L2Hash, Poly64Map};
#[cfg(feature = "parallel")]
use super::uhash::{UhashKey, UhashState};

/// With the `parallel` feature, one-call inputs and streamed updates of at
/// least this many bytes hash their L1 chunks on all cores of the current
/// rayon pool; shorter ones, and every input without the feature, on one.
pub const PARALLEL_MIN: usize = 1 << 20;

/// Chunks per batch: 1 MiB of message, at most 32 KiB of L1 outputs (small
/// enough for the allocator to reuse heap memory rather than map fresh
/// pages).
#[cfg(feature = "parallel")]
const BATCH_CHUNKS: usize = 1024;
/// Chunks per rayon task: 64 KiB, long enough to amortize a steal.
#[cfg(feature = "parallel")]
const TASK_CHUNKS: usize = 64;

/// Whether `len` bytes should be hashed on several cores: large enough, and
/// more than one thread in the current rayon pool (in a one-thread pool the
/// engine's loop is the faster single-core path).
#[cfg(feature = "parallel")]
pub(crate) fn worth_it(len: usize) -> bool {
    len >= PARALLEL_MIN && rayon::current_num_threads() > 1
}

/// UHASH of a whole message, its chunks on all cores.
#[cfg(feature = "parallel")]
pub(crate) fn uhash<const ITERS: usize>(key: &UhashKey, msg: &[u8]) -> u128 {
    let mut state = UhashState::default();
    update::<ITERS>(key, &mut state, msg);
    state.finalize::<ITERS>(key)
}

/// [`UhashState::update`] with the whole chunks of `data` on all cores: up
/// to a chunk boundary through the state, then every whole chunk but the
/// last (which may end the message) into its L2, then the rest through the
/// state.
#[cfg(feature = "parallel")]
pub(crate) fn update<const ITERS: usize>(key: &UhashKey, state: &mut UhashState, data: &[u8]) {
    let (head, data) = data.split_at(state.bytes_to_chunk_boundary().min(data.len()));
    state.update::<ITERS>(key, head);
    let (chunks, rest) = data.split_at(data.len().saturating_sub(1) / L1_CHUNK * L1_CHUNK);
    if !chunks.is_empty() {
        let l2 = state.l2_at_chunk_boundary::<ITERS>(key).expect("the head ends on a chunk boundary");
        absorb_chunks::<ITERS>(key, l2, chunks);
    }
    state.update::<ITERS>(key, rest);
}

/// L1-HASH of `data` (whole chunks, none of them the message's last) on
/// all cores, absorbed into `l2` in order: the chunks within POLY64's range
/// as one [`Poly64Map`] per task, the rest in batches
/// ([`absorb_in_batches`]).
#[cfg(feature = "parallel")]
fn absorb_chunks<const ITERS: usize>(key: &UhashKey, l2: &mut L2Hash, data: &[u8]) {
    debug_assert_eq!(data.len() % L1_CHUNK, 0);
    let (in_poly64, rest) = data.split_at((data.len() / L1_CHUNK).min(l2.poly64_room()) * L1_CHUNK);
    let maps: Vec<Poly64Map<ITERS>> = in_poly64
        .par_chunks(TASK_CHUNKS * L1_CHUNK)
        .map(|task| {
            let mut map = Poly64Map::default();
            for chunk in task.as_chunks::<L1_CHUNK>().0 {
                map.absorb(&key.l2, l1_hash(&key.l1, chunk));
            }
            map
        })
        .collect();
    for map in &maps {
        l2.absorb_run(&key.l2, map);
    }
    if !rest.is_empty() {
        absorb_in_batches::<ITERS>(key, l2, rest);
    }
}

/// L1-HASH of `data` (whole chunks past POLY64's range) on all cores,
/// absorbed into `l2` in order, batch by batch: each batch's outputs are
/// absorbed while the next batch is hashed. The outputs are wiped when the
/// buffers are dropped.
#[cfg(feature = "parallel")]
fn absorb_in_batches<const ITERS: usize>(key: &UhashKey, l2: &mut L2Hash, data: &[u8]) {
    let mut current = Zeroizing::new(vec![[0u64; ITERS]; BATCH_CHUNKS]);
    let mut previous = Zeroizing::new(vec![[0u64; ITERS]; BATCH_CHUNKS]);
    let mut previous_len = 0;
    for batch in data.chunks(BATCH_CHUNKS * L1_CHUNK) {
        let outputs = &mut current[..batch.len() / L1_CHUNK];
        let done = &previous[..previous_len];
        rayon::join(|| l2.absorb_run(&key.l2, done.iter().copied()), || l1_hash_chunks(key, batch, outputs));
        previous_len = outputs.len();
        core::mem::swap(&mut current, &mut previous);
    }
    l2.absorb_run(&key.l2, previous[..previous_len].iter().copied());
}

/// The L1 outputs of each whole chunk of `data`, in rayon tasks.
#[cfg(feature = "parallel")]
fn l1_hash_chunks<const ITERS: usize>(key: &UhashKey, data: &[u8], outputs: &mut [[u64; ITERS]]) {
    outputs.par_chunks_mut(TASK_CHUNKS).zip(data.par_chunks(TASK_CHUNKS * L1_CHUNK)).for_each(|(outs, chunks)| {
        for (out, chunk) in outs.iter_mut().zip(chunks.chunks_exact(L1_CHUNK)) {
            *out = l1_hash(&key.l1, chunk);
        }
    });
}
