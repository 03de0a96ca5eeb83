//! Multi-core L1-HASH for large inputs (cargo feature `parallel`).
//!
//! L1-HASH hashes each 1024-byte chunk independently (RFC 4418 section
//! 5.2.1), so the chunks of a large input are NH-hashed on all cores with
//! rayon; L2-HASH (section 5.3) is a polynomial evaluated in chunk order,
//! so it stays sequential. It overlaps the NH of the next batch: while the
//! pool hashes batch n + 1, L2 absorbs the outputs of batch n, and rayon's
//! work stealing gives the rest of the pool to NH.
//!
//! Inside a one-thread rayon pool the sequential code runs instead, which
//! is how the benchmark compares the two paths in one process.

use rayon::prelude::*;

use super::PARALLEL_MIN;
use super::l1::{L1_CHUNK, L1Output, l1_hash_chunk};
use super::nh::{MAX_ITERS, NhKey};

/// Whether `len` bytes should be hashed on several cores: large enough, and
/// more than one thread in the current rayon pool (in a one-thread pool the
/// sequential loop is the faster single-core path).
pub(crate) fn worth_it(len: usize) -> bool {
    len >= PARALLEL_MIN && rayon::current_num_threads() > 1
}
/// Chunks per batch: 1 MiB of message, 32 KiB of L1 outputs (small enough
/// for the allocator to reuse heap memory rather than map fresh pages).
const BATCH_CHUNKS: usize = 1024;
/// Chunks per rayon task: 64 KiB, long enough to amortize a steal.
const TASK_CHUNKS: usize = 64;

/// Hashes `data` (whole chunks, none of them the message's last) in
/// batches, handing each batch's L1 outputs to `absorb` in order.
pub(crate) fn l1_in_batches(key: &NhKey, iters: usize, data: &[u8], mut absorb: impl FnMut(&[L1Output]) + Send) {
    debug_assert_eq!(data.len() % L1_CHUNK, 0);
    let mut current = vec![[0u64; MAX_ITERS]; BATCH_CHUNKS];
    let mut previous = vec![[0u64; MAX_ITERS]; BATCH_CHUNKS];
    let mut previous_len = 0;
    for batch in data.chunks(BATCH_CHUNKS * L1_CHUNK) {
        let outputs = &mut current[..batch.len() / L1_CHUNK];
        let done = &previous[..previous_len];
        rayon::join(|| absorb(done), || l1_outputs(key, iters, batch, outputs));
        previous_len = outputs.len();
        core::mem::swap(&mut current, &mut previous);
    }
    absorb(&previous[..previous_len]);
}

/// L1-HASH of each whole chunk.
fn l1_outputs(key: &NhKey, iters: usize, data: &[u8], outputs: &mut [L1Output]) {
    outputs.par_chunks_mut(TASK_CHUNKS).zip(data.par_chunks(TASK_CHUNKS * L1_CHUNK)).for_each(|(outs, chunks)| {
        for (out, chunk) in outs.iter_mut().zip(chunks.chunks_exact(L1_CHUNK)) {
            *out = l1_hash_chunk(key, iters, chunk);
        }
    });
}
