//! NH (RFC 4418 section 5.2.2), the hash at the heart of L1-HASH, with one
//! backend per instruction set in the BLAKE3 style: [`portable`] is the
//! specification and the oracle the others are tested against, and
//! [`platform`] picks the fastest one the CPU has, once, and which
//! backend's code runs for an input's length and iteration count, and
//! calls it: once per input ([`NhKey::sums`]), or once per run of whole
//! chunks ([`ChunkRun`]).
//!
//! Every backend computes all Toeplitz iterations (section 5.1: iteration
//! `t` uses the key shifted by `16 * t` bytes) in one sweep over the data,
//! and treats a trailing partial block as zero-padded (section 5.2.1), so
//! short messages are never copied into a padded buffer by the caller.
//!
//! Layouts per tag length follow the measurements in
//! `docs/performance.md`, "NH: layouts and what bounds them": the
//! iteration-parallel layout (message
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

use super::backend::Backend;
use super::l2::Outputs;
pub(crate) use block::{BLOCK, CHUNK_BYTES};
use block::{CHUNK_BLOCKS, RUN_AHEAD};
#[cfg(test)]
pub(crate) use key::KEY_WORDS;
pub(crate) use key::NhKey;
use platform::RunKernel;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use platform::{Layout, batch_chunks};

#[cfg(test)]
use super::iters::with_iters;

/// Asks for every cache line that the `bytes` bytes from `start` touch, so
/// that their misses overlap each other and the work before their first
/// use (`docs/performance.md`, "Many live keys"). Only x86-64 asks; elsewhere the
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

impl NhKey {
    /// Asks for the lines of this key that a message of `len` bytes reads
    /// with `iters` iterations, ahead of the message, without reading the
    /// key (a read that missed would hold the core until its line came):
    /// so the lines of either layout ([`NhKey::read_ahead`]).
    #[inline(always)]
    pub(crate) fn prefetch(&self, len: usize, iters: usize) {
        for (start, bytes) in self.read_ahead(len, iters) {
            prefetch_lines(start, bytes);
        }
    }

    /// `sums` plus `NH(K, data)` for each of the `T` (1 to 4) iterations.
    /// `data` starts at block `first_block` of an L1 chunk and ends inside
    /// it; a trailing partial block counts as zero-padded. The AVX2 and
    /// AVX-512 kernels ask for the message's lines `AHEAD` bytes past their
    /// loads (0: none; [`RUN_AHEAD`] for a whole chunk that more of the
    /// message follows). Inlined into the caller, with no dispatch on the
    /// count and no call frame around the backend's.
    ///
    /// The backend is `KernelChoice::kernel`'s for the input's length
    /// (`platform.rs`).
    /// The SSE2 code adds into its own copy of `sums`: the one handed to an
    /// out-of-line backend lives in memory, but the inlined SSE2 code's
    /// stays in registers, where a shared array would make it store its
    /// sums and the caller read them back (a store-forwarding stall on
    /// every short message).
    #[inline(always)]
    #[allow(unsafe_code)] // calls into the SIMD backends
    pub(crate) fn sums<const T: usize, const AHEAD: usize>(
        &self,
        first_block: usize,
        data: &[u8],
        sums: [u64; T],
    ) -> [u64; T] {
        debug_assert!(first_block * BLOCK + data.len() <= CHUNK_BLOCKS * BLOCK);
        debug_assert!(self.serves(T), "a key is hashed with only the iteration counts its layout serves");
        let kernel = self.kernels.kernel::<T>(data.len());
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        if kernel == Backend::Sse2 {
            let mut in_registers = sums;
            // SAFETY: this code is built only for targets with SSE2 enabled.
            unsafe {
                match self.kernels.layout() {
                    Layout::Natural => sse2::nh::<T, false>(self, first_block, data, &mut in_registers),
                    Layout::Split => sse2::nh::<T, true>(self, first_block, data, &mut in_registers),
                }
            };
            return in_registers;
        }
        let mut acc = sums;
        match kernel {
            Backend::Portable => portable::nh::<T>(self, first_block, data, &mut acc),
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            // SAFETY: `kernel` names a backend no wider than the key's, and
            // `NhKey::new` keeps a SIMD backend only after
            // `Backend::is_supported` confirmed it on this CPU (AVX-512 F
            // implies AVX2); it names AVX2 for no input of 1 to 32 bytes.
            Backend::Avx2 => unsafe { avx2::nh::<T, AHEAD>(self, first_block, data, &mut acc) },
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            // SAFETY: as above, AVX-512 F/BW/VL were detected.
            Backend::Avx512 => unsafe { avx512::nh::<T, AHEAD>(self, first_block, data, &mut acc) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: as above, NEON was detected.
            Backend::Neon => unsafe { neon::nh::<T>(self, first_block, data, &mut acc) },
            #[allow(unreachable_patterns)] // every variant exists on some target only
            _ => unreachable!("a key is only laid out for a supported backend"),
        }
        acc
    }
}

/// A run of whole chunks (more of the message follows each), each chunk's
/// NH sums from `init`, as the L1 outputs L2-HASH absorbs ([`Outputs`]).
#[derive(Clone, Copy)]
pub(crate) struct ChunkRun<'a> {
    key: &'a NhKey,
    chunks: &'a [[u8; CHUNK_BYTES]],
    init: u64,
}

impl<'a> ChunkRun<'a> {
    /// NH under `key` of `chunks`, each chunk's sums from `init`.
    pub(crate) fn new(key: &'a NhKey, chunks: &'a [[u8; CHUNK_BYTES]], init: u64) -> Self {
        ChunkRun { key, chunks, init }
    }
}

impl<const T: usize> Outputs<T> for ChunkRun<'_> {
    fn len(&self) -> usize {
        self.chunks.len()
    }

    fn split_at(self, mid: usize) -> (Self, Self) {
        let (head, tail) = self.chunks.split_at(mid);
        (ChunkRun { chunks: head, ..self }, ChunkRun { chunks: tail, ..self })
    }

    /// Each chunk's sums handed to `take` in order, hashed as
    /// `KernelChoice::run` (`platform.rs`) chose once for the run: in one
    /// call to AVX2 ([`avx2::chunk_run`]), in AVX-512 batches
    /// ([`batched`]), or one call per chunk, the AVX2 and AVX-512 kernels
    /// then asking for the lines of the chunks ahead as they go
    /// ([`RUN_AHEAD`]).
    #[inline(always)]
    #[allow(unsafe_code)] // calls into the AVX2 and AVX-512 backends
    fn each(self, mut take: impl FnMut([u64; T])) {
        let ChunkRun { key, chunks, init } = self;
        match key.kernels.run::<T>(chunks.len()) {
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            // SAFETY: an AVX2 kernel is chosen only for a key laid out
            // after `Backend::is_supported` confirmed AVX2, or AVX-512 F,
            // which implies it.
            RunKernel::Avx2Loop => unsafe { avx2::chunk_run::<T>(key, chunks, init, &mut take) },
            #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
            RunKernel::Avx512Batches => match T {
                1 => batched::<T, { batch_chunks(1) }>(key, chunks, init, &mut take),
                2 => batched::<T, { batch_chunks(2) }>(key, chunks, init, &mut take),
                3 => batched::<T, { batch_chunks(3) }>(key, chunks, init, &mut take),
                _ => batched::<T, { batch_chunks(4) }>(key, chunks, init, &mut take),
            },
            RunKernel::EachChunk => {
                for chunk in chunks {
                    take(key.sums::<T, RUN_AHEAD>(0, chunk, [init; T]));
                }
            }
        }
    }
}

/// [`ChunkRun::each`] in AVX-512 batches of `N` chunks, pipelined: each
/// output of a batch is handed on between two chunks of the next batch's
/// NH, so that the caller's work on it (L2-HASH's steps, a chain of
/// multiplications) overlaps NH as it does one chunk at a time. The chunks
/// past the last whole batch go one by one.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
#[inline(always)]
#[allow(unsafe_code)] // calls into the AVX-512 backend
fn batched<const T: usize, const N: usize>(
    key: &NhKey,
    chunks: &[[u8; CHUNK_BYTES]],
    init: u64,
    take: &mut impl FnMut([u64; T]),
) {
    debug_assert!(N * T <= 8 && key.kernels.kernel::<T>(CHUNK_BYTES) == Backend::Avx512);
    let (batches, rest) = chunks.as_chunks::<N>();
    // SAFETY: an AVX-512 kernel is chosen only for a key laid out after
    // AVX-512 F/BW/VL were detected; N * T <= 8.
    unsafe { avx512::chunk_batches::<T, N>(key, batches, init, take) };
    for chunk in rest {
        take(key.sums::<T, RUN_AHEAD>(0, chunk, [init; T]));
    }
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
