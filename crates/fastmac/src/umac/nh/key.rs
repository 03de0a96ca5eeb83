//! The NH key (L1Key, RFC 4418 section 5.1) laid out once, at key setup, in
//! the one layout its kernels read: the natural order of its words, or the
//! even/odd quad tables of the X/Y kernels ([`Layout`]). Kept once, so that
//! a connection's key state is as small as its tag length and backend
//! allow (`docs/performance.md`, "Many live keys").

use zeroize::Zeroize;

use super::block::{BLOCK, CHUNK_BLOCKS};
use super::platform::{KernelChoice, Layout};
use crate::umac::backend::Backend;
use crate::umac::iters::MAX_ITERS;

/// L1 key words: 1024 bytes plus 16 more per extra iteration (Toeplitz).
pub(crate) const KEY_WORDS: usize = (CHUNK_BLOCKS * BLOCK + 16 * (MAX_ITERS - 1)) / 4;
/// Quads (16-byte key groups) in each table of the split layout: a
/// chunk's 32 blocks, plus the reach of the widest X/Y load past its last
/// block (AVX-512's four quads from block 31, one quad further for an odd
/// iteration: table entries up to 35).
const TABLE_QUADS: usize = CHUNK_BLOCKS + 4;
/// Quads stored: both tables of the split layout; in the natural layout,
/// the key's 67 quads and zeros after them, so that full-width loads at
/// the last block stay inside.
const KEY_QUADS: usize = 2 * TABLE_QUADS;

/// The NH key (L1Key) in the layout of the kernels that hash with it.
#[derive(Clone, Zeroize)]
#[repr(C)]
pub(crate) struct NhKey {
    quads: [[u32; 4]; KEY_QUADS],
    /// The backend this key was laid out for, the layout, and which
    /// backend's code hashes an input with it.
    #[zeroize(skip)]
    pub(super) kernels: KernelChoice,
}

impl NhKey {
    /// Lays out `words` (L1Key, big-endian words) for `backend` and the
    /// kernels of `iters` iterations ([`NhKey::zero`]).
    #[cfg(test)]
    pub(crate) fn new(words: &[u32; KEY_WORDS], backend: Backend, iters: usize) -> Self {
        let mut key = Self::zero(backend, iters);
        for (q, quad) in words.as_chunks::<4>().0.iter().enumerate() {
            key.set_quad(q, *quad);
        }
        key
    }

    /// An all-zero key laid out for `backend` and the kernels of `iters`
    /// iterations, its quads to be set by [`NhKey::set_quad`]. A backend
    /// this CPU cannot run is replaced by the portable one: the SIMD calls
    /// in [`NhKey::sums`] rely on that check.
    pub(crate) fn zero(backend: Backend, iters: usize) -> Self {
        debug_assert!(backend.is_supported(), "callers check support first");
        let backend = if backend.is_supported() { backend } else { Backend::Portable };
        NhKey { quads: [[0; 4]; KEY_QUADS], kernels: KernelChoice::new(backend, iters) }
    }

    /// Sets key quad `q` (words `4q..4q + 4`, below [`KEY_WORDS`]) where
    /// the layout keeps it.
    #[inline(always)]
    pub(crate) fn set_quad(&mut self, q: usize, quad: [u32; 4]) {
        debug_assert!(q < KEY_WORDS / 4);
        let at = match self.kernels.layout() {
            Layout::Natural => q,
            Layout::Split => q / 2 + (q % 2) * TABLE_QUADS,
        };
        self.quads[at] = quad;
    }

    /// The backend this key was laid out for.
    pub(crate) fn backend(&self) -> Backend {
        self.kernels.backend()
    }

    /// Whether the kernels of `iters` iterations read this key's layout.
    pub(crate) fn serves(&self, iters: usize) -> bool {
        self.kernels.serves(iters)
    }

    /// What a message of `len` bytes reads of this key with `iters`
    /// iterations, as ranges (start, bytes) to ask for ahead of the message
    /// (`NhKey::prefetch`), found without reading the key, so in either
    /// layout: the natural layout's reach, `len` padded to whole blocks (at
    /// least one, as NH hashes an empty message) plus 16 bytes per further
    /// iteration, which covers the split layout's even table too; and what
    /// that leaves of the odd table's half of it.
    #[inline(always)]
    pub(super) fn read_ahead(&self, len: usize, iters: usize) -> [(*const u8, usize); 2] {
        let bytes = len.clamp(1, CHUNK_BLOCKS * BLOCK).next_multiple_of(BLOCK) + 16 * (iters - 1);
        let odd_table = 16 * TABLE_QUADS;
        let odd_start = odd_table.max(bytes);
        let quads = self.quads.as_ptr().cast::<u8>();
        [(quads, bytes), (quads.wrapping_add(odd_start), (odd_table + bytes / 2).saturating_sub(odd_start))]
    }

    /// The key's words in order, zeros past its end (the natural layout).
    pub(super) fn words(&self) -> &[u32] {
        debug_assert_eq!(self.kernels.layout(), Layout::Natural);
        self.quads.as_flattened()
    }

    /// The even and the odd quad table (the split layout).
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    pub(super) fn tables(&self) -> (&[[u32; 4]], &[[u32; 4]]) {
        debug_assert_eq!(self.kernels.layout(), Layout::Split);
        self.quads.split_at(TABLE_QUADS)
    }

    /// Where key quad `q` (words `4q..4q + 4`) starts, in either layout,
    /// `SPLIT` saying which: for the SSE2 kernel, which serves short inputs
    /// under both. The caller keeps `q` below the key's 68 quads.
    #[inline(always)]
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    pub(super) fn quad_ptr<const SPLIT: bool>(&self, q: usize) -> *const u32 {
        debug_assert_eq!(SPLIT, self.kernels.layout() == Layout::Split);
        let at = if SPLIT { q / 2 + (q % 2) * TABLE_QUADS } else { q };
        self.quads.as_ptr().cast::<u32>().wrapping_add(4 * at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What [`NhKey::prefetch`] asks for holds every key quad that NH of
    /// a message reads, in whichever layout the key is in, at every length
    /// class: iteration `t` reads quads `t..t + blocks * 2` (the key
    /// shifted by 16 bytes per iteration, RFC 4418 section 5.1).
    #[test]
    fn prefetch_covers_every_quad_a_message_reads() {
        for backend in Backend::supported() {
            for iters in 1..=MAX_ITERS {
                let key = NhKey::zero(backend, iters);
                let base = key.quads.as_ptr().addr();
                for len in [0, 1, 31, 32, 33, 64, 65, 100, 500, 512, 1000, 1023, 1024, 1025, 1500, 4096] {
                    let blocks = len.clamp(1, CHUNK_BLOCKS * BLOCK).div_ceil(BLOCK);
                    let ranges = key
                        .read_ahead(len, iters)
                        .map(|(start, bytes)| start.addr() - base..start.addr() - base + bytes);
                    for q in 0..blocks * 2 + iters - 1 {
                        let mut marked = key.clone();
                        marked.set_quad(q, [1; 4]);
                        let at = marked.quads.iter().position(|quad| *quad == [1; 4]).expect("the quad is stored");
                        assert!(
                            ranges.iter().any(|r| r.start <= 16 * at && 16 * at + 16 <= r.end),
                            "{backend} {:?} iters {iters} len {len}: quad {q} at byte {} outside {ranges:?}",
                            key.kernels.layout(),
                            16 * at,
                        );
                    }
                }
            }
        }
    }
}
