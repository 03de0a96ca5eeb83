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
pub(crate) use block::{BLOCK, CHUNK_BYTES};
pub(crate) use key::{KEY_WORDS, NhKey};
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
use platform::Layout;

#[cfg(test)]
use super::iters::with_iters;
use block::CHUNK_BLOCKS;
use block::RUN_AHEAD;

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

/// Whole chunks per AVX-512 NH call for `t` (1 to 4) iterations in a long
/// run ([`NhKey::chunk_runs`]): as many as fill one 512-bit register with
/// their sums, eight 64-bit words: 8, 4, 2 and 2.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
const fn batch_chunks(t: usize) -> usize {
    8 / t
}

/// Chunks a run needs before AVX-512 batches pay: the last batch's outputs
/// are handed on after its NH is done, with no NH left to overlap them.
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
const BATCHED_RUN_MIN: usize = 32;

impl NhKey {
    /// `sums` plus `NH(K, data)` for each of the `T` (1 to 4) iterations.
    /// `data` starts at block `first_block` of an L1 chunk and ends inside
    /// it; a trailing partial block counts as zero-padded. Inlined into the
    /// caller's loop, with no dispatch on the count and no call frame
    /// around the backend's.
    ///
    /// Which backend's code runs is `platform::KernelChoice`'s choice. The SSE2
    /// code adds into its own copy of `sums`: the one handed to an
    /// out-of-line backend lives in memory, but the inlined SSE2 code's stays
    /// in registers, where a shared array would make it store its sums and
    /// the caller read them back (a store-forwarding stall on every short
    /// message).
    #[inline(always)]
    pub(crate) fn sums<const T: usize>(&self, first_block: usize, data: &[u8], sums: [u64; T]) -> [u64; T] {
        self.sums_asking_ahead::<T, 0>(first_block, data, sums)
    }

    /// [`NhKey::sums`], the AVX2 and AVX-512 kernels asking for the
    /// message's lines `AHEAD` bytes past their loads (0: none).
    #[inline(always)]
    #[allow(unsafe_code)] // calls into the SIMD backends
    fn sums_asking_ahead<const T: usize, const AHEAD: usize>(
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
            // implies AVX2).
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

    /// Whether [`NhKey::chunk_runs`] hashes a run of `chunks` whole chunks
    /// for `T` iterations in one call to the backend: under an AVX-512 key
    /// in batches of several chunks ([`batch_chunks`]) for runs of at least
    /// [`BATCHED_RUN_MIN`] chunks; under AVX2, the chunk loop inside the
    /// backend ([`avx2::chunk_run`]) for runs of two chunks or more.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[inline(always)]
    pub(crate) fn runs_in_one_call<const T: usize>(&self, chunks: usize) -> bool {
        match self.kernels.kernel::<T>(CHUNK_BYTES) {
            Backend::Avx512 => chunks >= BATCHED_RUN_MIN,
            Backend::Avx2 => chunks >= 2,
            _ => false,
        }
    }

    /// Off x86-64 every backend is called once per chunk.
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    #[inline(always)]
    pub(crate) fn runs_in_one_call<const T: usize>(&self, _chunks: usize) -> bool {
        false
    }

    /// NH of whole `chunks` for `T` iterations, each chunk's sums from
    /// `init`, handed to `take` in order: in one call to the backend where
    /// [`NhKey::runs_in_one_call`] says so, else one call per chunk.
    #[inline(always)]
    #[allow(unsafe_code)] // calls into the AVX2 backend
    pub(crate) fn chunk_runs<const T: usize>(
        &self,
        chunks: &[[u8; CHUNK_BYTES]],
        init: u64,
        mut take: impl FnMut([u64; T]),
    ) {
        #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
        if self.runs_in_one_call::<T>(chunks.len()) {
            if self.kernels.kernel::<T>(CHUNK_BYTES) == Backend::Avx2 {
                // SAFETY: an AVX2 kernel is chosen only for a key laid out
                // after `Backend::is_supported` confirmed AVX2, or AVX-512
                // F, which implies it.
                unsafe { avx2::chunk_run::<T>(self, chunks, init, &mut take) };
                return;
            }
            match T {
                1 => self.batched::<T, { batch_chunks(1) }>(chunks, init, &mut take),
                2 => self.batched::<T, { batch_chunks(2) }>(chunks, init, &mut take),
                3 => self.batched::<T, { batch_chunks(3) }>(chunks, init, &mut take),
                _ => self.batched::<T, { batch_chunks(4) }>(chunks, init, &mut take),
            }
            return;
        }
        for chunk in chunks {
            take(self.run_chunk_sums::<T>(chunk, init));
        }
    }

    /// NH of one whole chunk of a run (more of the message follows it), its
    /// sums from `init`: [`NhKey::sums`], but the AVX2 and AVX-512 kernels
    /// ask for the lines of the chunks ahead as they go ([`RUN_AHEAD`]).
    #[inline(always)]
    pub(crate) fn run_chunk_sums<const T: usize>(&self, chunk: &[u8; CHUNK_BYTES], init: u64) -> [u64; T] {
        self.sums_asking_ahead::<T, RUN_AHEAD>(0, chunk, [init; T])
    }

    /// [`NhKey::chunk_runs`] in AVX-512 batches of `N` chunks, pipelined:
    /// each output of a batch is handed on between two chunks of the next
    /// batch's NH, so that the caller's work on it (L2-HASH's steps, a
    /// chain of multiplications) overlaps NH as it does one chunk at a
    /// time. The chunks past the last whole batch go one by one.
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    #[inline(always)]
    #[allow(unsafe_code)] // calls into the AVX-512 backend
    fn batched<const T: usize, const N: usize>(
        &self,
        chunks: &[[u8; CHUNK_BYTES]],
        init: u64,
        take: &mut impl FnMut([u64; T]),
    ) {
        debug_assert!(N * T <= 8 && self.runs_in_one_call::<T>(chunks.len()));
        let (batches, rest) = chunks.as_chunks::<N>();
        // SAFETY: `runs_in_one_call` saw an AVX-512 kernel, laid out only after AVX-512
        // F/BW/VL were detected; N * T <= 8.
        unsafe { avx512::chunk_batches::<T, N>(self, batches, init, take) };
        for chunk in rest {
            take(self.run_chunk_sums::<T>(chunk, init));
        }
    }

    /// [`NhKey::sums`] into `acc`, for an iteration count known at run
    /// time (`acc.len()`): the tests' form.
    #[cfg(test)]
    pub(crate) fn hash(&self, first_block: usize, data: &[u8], acc: &mut [u64]) {
        with_iters!(acc.len(), T => {
            let acc: &mut [u64; T] = acc.try_into().expect("one sum per iteration");
            *acc = self.sums(first_block, data, *acc);
        });
    }
}

#[cfg(test)]
mod tests;
