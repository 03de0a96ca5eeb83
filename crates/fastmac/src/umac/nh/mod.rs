//! NH (RFC 4418 section 5.2.2), the hash at the heart of L1-HASH, with one
//! backend per instruction set in the BLAKE3 style: [`portable`] is the
//! specification and the oracle the others are tested against, and
//! [`platform`] picks the fastest one the CPU has, once.
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

mod platform;
mod portable;

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod sse2;

pub use platform::Backend;

use zeroize::Zeroize;

/// Bytes NH consumes per step: eight 32-bit words.
pub(crate) const BLOCK: usize = 32;
/// Blocks in one 1024-byte L1 chunk.
pub(crate) const CHUNK_BLOCKS: usize = 32;
/// Most UHASH iterations (UMAC-128 has 4; one per 32 bits of tag): the
/// Toeplitz shifts of NH, and the width of every layer above it.
pub(crate) const MAX_ITERS: usize = 4;
/// L1 key words: 1024 bytes plus 16 more per extra iteration (Toeplitz).
pub(crate) const KEY_WORDS: usize = (CHUNK_BLOCKS * BLOCK + 16 * (MAX_ITERS - 1)) / 4;
/// Quads (16-byte key groups) in the even and odd tables, padded so that a
/// 4-quad load starting at any block of the chunk plus the largest Toeplitz
/// shift stays inside the table.
const TABLE_QUADS: usize = CHUNK_BLOCKS + 8;

/// The NH key (L1Key) as every backend wants it, laid out once at key setup.
#[derive(Clone, Zeroize)]
#[repr(C, align(64))]
pub(crate) struct NhKey {
    /// L1Key as 32-bit words read big-endian (RFC 4418 section 5.2.2), padded
    /// with zeros so that full-width loads at the last block stay inside.
    words: [u32; KEY_WORDS + 4],
    /// `even[i]` is key quad `2i` (words `8i..8i+4`): for the X/Y layout.
    even: [[u32; 4]; TABLE_QUADS],
    /// `odd[i]` is key quad `2i + 1`.
    odd: [[u32; 4]; TABLE_QUADS],
    /// The backend this key was laid out for and that hashes with it.
    #[zeroize(skip)]
    backend: Backend,
}

impl NhKey {
    /// Lays out `words` (L1Key, big-endian words) for `backend`. A backend
    /// this CPU cannot run is replaced by the portable one: the SIMD calls in
    /// [`NhKey::hash`] rely on that check.
    pub(crate) fn new(words: &[u32; KEY_WORDS], backend: Backend) -> Self {
        debug_assert!(backend.is_supported(), "callers check support first");
        let backend = if backend.is_supported() { backend } else { Backend::Portable };
        let mut key =
            NhKey { words: [0; KEY_WORDS + 4], even: [[0; 4]; TABLE_QUADS], odd: [[0; 4]; TABLE_QUADS], backend };
        key.words[..KEY_WORDS].copy_from_slice(words);
        for (q, quad) in words.chunks_exact(4).enumerate() {
            let table = if q % 2 == 0 { &mut key.even } else { &mut key.odd };
            table[q / 2].copy_from_slice(quad);
        }
        key
    }

    /// The backend that [`NhKey::hash`] runs.
    pub(crate) fn backend(&self) -> Backend {
        self.backend
    }

    /// Adds `NH(K, data)` to `acc[t]` for each of the `acc.len()` (1 to 4)
    /// iterations. `data` starts at block `first_block` of an L1 chunk and
    /// ends inside it; a trailing partial block counts as zero-padded.
    #[inline]
    pub(crate) fn hash(&self, first_block: usize, data: &[u8], acc: &mut [u64]) {
        debug_assert!(first_block * BLOCK + data.len() <= CHUNK_BLOCKS * BLOCK);
        match acc.len() {
            1 => self.add_sums::<1>(first_block, data, acc),
            2 => self.add_sums::<2>(first_block, data, acc),
            3 => self.add_sums::<3>(first_block, data, acc),
            4 => self.add_sums::<4>(first_block, data, acc),
            n => unreachable!("UHASH has 1 to 4 iterations, not {n}"),
        }
    }

    /// [`NhKey::sums`] into `acc`, which holds exactly `T` sums.
    #[inline(always)]
    fn add_sums<const T: usize>(&self, first_block: usize, data: &[u8], acc: &mut [u64]) {
        let acc: &mut [u64; T] = acc.try_into().expect("one sum per iteration");
        *acc = self.sums(first_block, data, *acc);
    }

    /// [`NhKey::hash`] for a caller that knows the iteration count at
    /// compile time, by value: `sums` plus `NH(K, data)` per iteration.
    /// Inlined into the caller's loop, with no dispatch on the count and no
    /// call frame around the backend's.
    ///
    /// Each path adds into its own copy of `sums`: the one handed to an
    /// out-of-line backend lives in memory, but the inlined SSE2 path's
    /// stays in registers, where a shared array would make it store its
    /// sums and the caller read them back (a store-forwarding stall on
    /// every short message).
    #[inline(always)]
    #[allow(unsafe_code)] // calls into the SIMD backends
    pub(crate) fn sums<const T: usize>(&self, first_block: usize, data: &[u8], sums: [u64; T]) -> [u64; T] {
        // One or two blocks do not fill a wide register, and the 128-bit
        // code has the shortest path for them (`docs/performance.md` section 7,
        // item 2). Choosing it here, before the call into a wider backend,
        // lets it inline into the short-message path: on a Sapphire
        // Rapids-class Xeon that took UMAC-64 of 32 bytes from about 94 to
        // 68 cycles.
        #[cfg(target_arch = "x86_64")]
        if data.len() <= self.backend.small_input() {
            let mut in_registers = sums;
            // SAFETY: SSE2 is part of x86-64; small_input() is 0 for the
            // portable backend.
            unsafe { sse2::nh::<T>(self, first_block, data, &mut in_registers) };
            return in_registers;
        }
        let mut acc = sums;
        match self.backend {
            Backend::Portable => portable::nh::<T>(self, first_block, data, &mut acc),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `NhKey::new` keeps a SIMD backend only after
            // `Backend::is_supported` confirmed it on this CPU.
            Backend::Sse2 => unsafe { sse2::nh::<T>(self, first_block, data, &mut acc) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, AVX2 was detected.
            Backend::Avx2 => unsafe { avx2::nh::<T>(self, first_block, data, &mut acc) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above, AVX-512 F/BW/VL were detected.
            Backend::Avx512 => unsafe { avx512::nh::<T>(self, first_block, data, &mut acc) },
            #[cfg(target_arch = "aarch64")]
            // SAFETY: as above, NEON was detected.
            Backend::Neon => unsafe { neon::nh::<T>(self, first_block, data, &mut acc) },
            #[allow(unreachable_patterns)] // every variant exists on some target only
            _ => unreachable!("a key is only laid out for a supported backend"),
        }
        acc
    }
}

/// Copies the last partial block of `data` (if any) into a zeroed block.
/// Returns the whole blocks of `data` and the padded tail, if there is one.
#[inline]
fn split_tail(data: &[u8]) -> (&[u8], Option<[u8; BLOCK]>) {
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
/// filled it, a store-forwarding stall (`docs/performance.md` section 7,
/// item 3) on every message whose length is not a multiple of 32.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn tail_words(rest: &[u8]) -> [u64; 4] {
    debug_assert!((1..BLOCK).contains(&rest.len()));
    core::array::from_fn(|w| {
        let start = 8 * w;
        if start + 8 <= rest.len() {
            u64::from_le_bytes(rest[start..start + 8].try_into().expect("8 bytes"))
        } else if start < rest.len() {
            partial_word(&rest[start..])
        } else {
            0
        }
    })
}

/// 1 to 7 bytes as a zero-padded little-endian word, from two reads of
/// half the width or less that overlap in the middle (both read the same
/// bytes there, so OR-ing them is exact).
#[cfg(target_arch = "x86_64")]
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

#[cfg(test)]
mod tests;
