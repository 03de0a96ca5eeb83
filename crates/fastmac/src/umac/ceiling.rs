//! The NH ceiling of a tag length, for `fastmac bench`: a bare NH pass
//! (RFC 4418 section 5.2.2) of one backend over a message, 1024-byte chunk
//! by chunk with all of a tag length's Toeplitz iterations, and nothing
//! else: no L2, no L3, no pad. UMAC with that many iterations does all of
//! this work and more, so its time over the ceiling's says how close it is
//! to its NH kernel (`docs/performance.md`, "The NH ceiling").
//! Not a MAC and not part of the API: hidden from the docs, for the
//! benchmark only.

use aes::Aes128;
use aes::cipher::{Array, KeyInit};
use zeroize::Zeroize;

use super::any::TAG_LENS;
use super::backend::Backend;
use super::iters::{iters_for, with_iters};
use super::kdf::KEY_LEN;
use super::l1::{L1_CHUNK, l1_key};
use super::l2::Outputs;
use super::nh::{ChunkRun, NhKey};
use crate::error::Error;

/// A bare NH pass at the iteration count of one UMAC tag length.
#[derive(Clone)]
pub struct NhCeiling {
    key: NhKey,
    iters: usize,
}

impl NhCeiling {
    /// The L1 key of `key` for `tag_len` (4, 8, 12 or 16 bytes: 1 to 4
    /// iterations), laid out for `backend`; an error for another tag length
    /// or a backend this CPU cannot run.
    pub fn new(key: &[u8; KEY_LEN], tag_len: usize, backend: Backend) -> Result<Self, Error> {
        if !TAG_LENS.contains(&tag_len) {
            return Err(Error::UnsupportedTagLength { supported: &TAG_LENS, got: tag_len });
        }
        let iters = iters_for(tag_len);
        let backend = backend.check_supported()?;
        let mut key_bytes = Array::from(*key);
        let cipher = Aes128::new(&key_bytes);
        key_bytes.zeroize();
        Ok(NhCeiling { key: l1_key(&cipher, iters, iters, backend), iters })
    }

    /// The NH sums of every chunk of `msg`, added up per iteration and
    /// folded to one word (so the work cannot be optimized away). Each
    /// chunk's sums start from zero, as UMAC's start from the chunk's
    /// length, and the chunks before the last are hashed as UMAC hashes
    /// such a run: in one call to the backend where it does that for a run
    /// this long, the lines of the chunks ahead asked for.
    pub fn pass(&self, msg: &[u8]) -> u64 {
        with_iters!(self.iters, ITERS => self.pass_iters::<ITERS>(msg))
    }

    fn pass_iters<const ITERS: usize>(&self, msg: &[u8]) -> u64 {
        // The last chunk, whole or not, apart: UMAC hashes it outside the run.
        let (whole, last) = msg.split_at(msg.len().saturating_sub(1) / L1_CHUNK * L1_CHUNK);
        let (whole, _) = whole.as_chunks::<L1_CHUNK>();
        let mut sums = if whole.is_empty() { [0; ITERS] } else { self.run::<ITERS>(whole) };
        if !last.is_empty() {
            sums = added(sums, self.key.sums::<ITERS, 0>(0, last, [0; ITERS]));
        }
        sums.iter().fold(0, |a, &s| a ^ s)
    }

    /// The sums of a run of whole chunks, NH's backend chosen once for the
    /// run ([`ChunkRun`]). Out of line, so that a short message pays
    /// nothing for it.
    #[inline(never)]
    fn run<const ITERS: usize>(&self, whole: &[[u8; L1_CHUNK]]) -> [u64; ITERS] {
        let mut sums = [0u64; ITERS];
        ChunkRun::new(&self.key, whole, 0).each(|chunk| sums = added(sums, chunk));
        sums
    }
}

/// Two sets of sums added per iteration.
#[inline(always)]
fn added<const ITERS: usize>(a: [u64; ITERS], b: [u64; ITERS]) -> [u64; ITERS] {
    core::array::from_fn(|t| a[t].wrapping_add(b[t]))
}

impl core::fmt::Debug for NhCeiling {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "NhCeiling {{ iters: {}, backend: {} }}", self.iters, self.key.backend())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pass_is_the_nh_of_each_chunk_summed() {
        let key = b"abcdefghijklmnop";
        let ceiling = NhCeiling::new(key, 8, Backend::Portable).expect("portable");
        let best = NhCeiling::new(key, 8, Backend::best()).expect("the best backend runs here");
        // Past 32 chunks, which AVX-512 hashes several per call; the last
        // chunk partial and whole.
        for len in [40 * L1_CHUNK + 452, 40 * L1_CHUNK] {
            let msg: Vec<u8> = (0..len).map(|i| (i * 7 + 3) as u8).collect();
            let mut sums = [0u64; 2];
            for chunk in msg.chunks(L1_CHUNK) {
                let mut one = [0u64; 2];
                ceiling.key.hash(0, chunk, &mut one);
                sums[0] = sums[0].wrapping_add(one[0]);
                sums[1] = sums[1].wrapping_add(one[1]);
            }
            assert_eq!(ceiling.pass(&msg), sums[0] ^ sums[1], "{len} bytes");
            assert_eq!(best.pass(&msg), ceiling.pass(&msg), "{len} bytes");
        }
    }

    #[test]
    fn other_tag_lengths_are_refused() {
        for bad in [0, 5, 20] {
            assert!(matches!(
                NhCeiling::new(b"abcdefghijklmnop", bad, Backend::Portable),
                Err(Error::UnsupportedTagLength { got, .. }) if got == bad
            ));
        }
    }
}
