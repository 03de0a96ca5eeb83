//! NH's message blocks (RFC 4418 section 5.2.2: eight 32-bit words), and
//! how the backends read a chunk's trailing partial block as zero-padded
//! (section 5.2.1) without the caller copying the message.

/// Bytes NH consumes per step: eight 32-bit words.
pub(crate) const BLOCK: usize = 32;
/// Blocks in one 1024-byte L1 chunk.
pub(crate) const CHUNK_BLOCKS: usize = 32;
/// Bytes in one L1 chunk.
pub(crate) const CHUNK_BYTES: usize = CHUNK_BLOCKS * BLOCK;
/// How far ahead of its loads the AVX2 and AVX-512 NH ask for the
/// message's cache lines inside a run of chunks: two chunks. Past the
/// caches, the hardware of the Intel Xeon in `docs/performance.md`, "Runs
/// of chunks", did not fetch ahead of them fast enough. A request past a run's end
/// is a hint that goes unused, never a fault; outside runs (a message's
/// last chunk, a short message) they request nothing. The other backends
/// take no distance.
pub(super) const RUN_AHEAD: usize = 2 * CHUNK_BYTES;
/// Copies the last partial block of `data` (if any) into a zeroed block.
/// Returns the whole blocks of `data` and the padded tail, if there is one.
#[inline]
pub(super) fn split_tail(data: &[u8]) -> (&[u8], Option<[u8; BLOCK]>) {
    let whole = data.len() / BLOCK * BLOCK;
    let (blocks, rest) = data.split_at(whole);
    if rest.is_empty() {
        (blocks, None)
    } else {
        let mut tail = [0u8; BLOCK];
        tail[..rest.len()].copy_from_slice(rest);
        (blocks, Some(tail))
    }
}

/// The partial last block `rest` (1 to 31 bytes) zero-padded, as four
/// little-endian 64-bit words, read in place: whole words directly, the
/// word the block ends in from overlapping reads (below). For the SIMD
/// backends, which build their registers from these words: a copy into a
/// padded buffer would be re-read by loads wider than the stores that
/// filled it, a store-forwarding stall (`docs/performance.md`, "What the
/// measurements imply for the code", item 3) on every message whose length is not a multiple of 32.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
pub(super) fn tail_words(rest: &[u8]) -> [u64; 4] {
    debug_assert!((1..BLOCK).contains(&rest.len()));
    [word_at(rest, 0), word_at(rest, 8), word_at(rest, 16), word_at(rest, 24)]
}

/// The zero-padded little-endian word of `rest` at byte `start`, for
/// [`tail_words`] (written out per word rather than through an array
/// builder, which LLVM leaves as a call on the short-message path).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn word_at(rest: &[u8], start: usize) -> u64 {
    if start + 8 <= rest.len() {
        u64::from_le_bytes(rest[start..start + 8].try_into().expect("8 bytes"))
    } else if start < rest.len() {
        partial_word(&rest[start..])
    } else {
        0
    }
}

/// 1 to 7 bytes as a zero-padded little-endian word, from two reads of
/// half the width or less that overlap in the middle (both read the same
/// bytes there, so OR-ing them is exact).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
fn partial_word(bytes: &[u8]) -> u64 {
    let n = bytes.len();
    debug_assert!((1..8).contains(&n));
    let read4 = |at: usize| u64::from(u32::from_le_bytes(bytes[at..at + 4].try_into().expect("4 bytes")));
    let read2 = |at: usize| u64::from(u16::from_le_bytes(bytes[at..at + 2].try_into().expect("2 bytes")));
    if n >= 4 {
        read4(0) | read4(n - 4) << (8 * (n - 4))
    } else if n >= 2 {
        read2(0) | read2(n - 2) << (8 * (n - 2))
    } else {
        u64::from(bytes[0])
    }
}
