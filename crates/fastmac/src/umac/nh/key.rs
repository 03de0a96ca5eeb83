//! The NH key (L1Key, RFC 4418 section 5.1) laid out once, at key setup,
//! for every backend: the natural words and the even/odd quad tables of
//! the X/Y layout.

use zeroize::Zeroize;

use super::block::{BLOCK, CHUNK_BLOCKS};
use super::platform::KernelChoice;
use crate::umac::backend::Backend;
use crate::umac::iters::MAX_ITERS;

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
    pub(super) words: [u32; KEY_WORDS + 4],
    /// `even[i]` is key quad `2i` (words `8i..8i+4`): for the X/Y layout.
    pub(super) even: [[u32; 4]; TABLE_QUADS],
    /// `odd[i]` is key quad `2i + 1`.
    pub(super) odd: [[u32; 4]; TABLE_QUADS],
    /// The backend this key was laid out for, and which backend's code
    /// hashes an input with it.
    #[zeroize(skip)]
    pub(super) kernels: KernelChoice,
}

impl NhKey {
    /// Lays out `words` (L1Key, big-endian words) for `backend`. A backend
    /// this CPU cannot run is replaced by the portable one: the SIMD calls in
    /// [`NhKey::sums`] rely on that check.
    pub(crate) fn new(words: &[u32; KEY_WORDS], backend: Backend) -> Self {
        debug_assert!(backend.is_supported(), "callers check support first");
        let backend = if backend.is_supported() { backend } else { Backend::Portable };
        let mut key = NhKey {
            words: [0; KEY_WORDS + 4],
            even: [[0; 4]; TABLE_QUADS],
            odd: [[0; 4]; TABLE_QUADS],
            kernels: KernelChoice::new(backend),
        };
        key.words[..KEY_WORDS].copy_from_slice(words);
        for (q, quad) in words.chunks_exact(4).enumerate() {
            let table = if q % 2 == 0 { &mut key.even } else { &mut key.odd };
            table[q / 2].copy_from_slice(quad);
        }
        key
    }

    /// The backend this key was laid out for.
    pub(crate) fn backend(&self) -> Backend {
        self.kernels.backend()
    }
}
