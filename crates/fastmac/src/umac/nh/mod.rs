//! NH (RFC 4418 section 5.2.2), the hash at the heart of L1-HASH, with one
//! backend per instruction set in the BLAKE3 style: [`portable`] is the
//! specification and the oracle the others are tested against, and
//! [`platform`] picks the fastest one the CPU has, once, and which
//! backend's code runs for an input's length and iteration count.
//!
//! Every backend computes all Toeplitz iterations (section 5.1: iteration
//! `t` uses the key shifted by `16 * t` bytes) in one sweep over the data,
//! and treats a trailing partial block as zero-padded (section 5.2.1), so
//! short messages are never copied into a padded buffer by the caller.
//!
//! Layouts per tag length follow the measurements in
//! `docs/performance.md` section 7: the iteration-parallel layout (message
//! quads broadcast, one Toeplitz iteration per 128-bit lane, natural key)
//! where the lanes divide evenly by the iterations, and the X/Y layout (the
//! low and high 16-byte halves of several blocks gathered into two
//! registers, key pre-arranged to match in [`NhKey`]) otherwise.

mod block;
mod key;
mod platform;
mod portable;

// The x86-64 backends on targets whose baseline has SSE2 (every hosted
// one; not the soft-float x86_64-unknown-none, see `umac/backend.rs`).
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx2;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2;

pub(crate) use block::{BLOCK, CHUNK_BYTES};
pub(crate) use key::{KEY_WORDS, NhKey};
pub(crate) use platform::ChunkRun;

#[cfg(test)]
use super::iters::with_iters;

/// Asks for every cache line that the `bytes` bytes from `start` touch, so
/// that their misses overlap each other and the work before their first
/// use (`docs/performance.md` section 24). Only x86-64 asks; elsewhere the
/// hardware is left to fetch them.
#[inline(always)]
pub(crate) fn prefetch_lines(start: *const u8, bytes: usize) {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        // From the start of the first line, so that the last line is
        // reached however the range sits in the lines.
        let offset = start.addr() % 64;
        for line in (0..offset + bytes).step_by(64) {
            sse2::prefetch(start.wrapping_sub(offset).wrapping_add(line));
        }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    let _ = (start, bytes);
}

#[cfg(test)]
impl NhKey {
    /// [`NhKey::sums`] into `acc`, for an iteration count known at run
    /// time (`acc.len()`): the tests' form.
    pub(crate) fn hash(&self, first_block: usize, data: &[u8], acc: &mut [u64]) {
        with_iters!(acc.len(), T => {
            let acc: &mut [u64; T] = acc.try_into().expect("one sum per iteration");
            *acc = self.sums::<T, 0>(first_block, data, *acc);
        });
    }
}

#[cfg(test)]
mod tests;
