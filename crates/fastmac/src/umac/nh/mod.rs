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

#[cfg(target_arch = "x86_64")]
mod avx2;
#[cfg(target_arch = "x86_64")]
mod avx512;
#[cfg(target_arch = "aarch64")]
mod neon;
#[cfg(target_arch = "x86_64")]
mod sse2;

use super::backend::Backend;
pub(crate) use block::BLOCK;
pub(crate) use key::{KEY_WORDS, NhKey};

#[cfg(test)]
use super::iters::with_iters;
use block::CHUNK_BLOCKS;

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
    #[allow(unsafe_code)] // calls into the SIMD backends
    pub(crate) fn sums<const T: usize>(&self, first_block: usize, data: &[u8], sums: [u64; T]) -> [u64; T] {
        debug_assert!(first_block * BLOCK + data.len() <= CHUNK_BLOCKS * BLOCK);
        let kernel = self.kernels.kernel::<T>(data.len());
        #[cfg(target_arch = "x86_64")]
        if kernel == Backend::Sse2 {
            let mut in_registers = sums;
            // SAFETY: SSE2 is part of x86-64.
            unsafe { sse2::nh::<T>(self, first_block, data, &mut in_registers) };
            return in_registers;
        }
        let mut acc = sums;
        match kernel {
            Backend::Portable => portable::nh::<T>(self, first_block, data, &mut acc),
            #[cfg(target_arch = "x86_64")]
            // SAFETY: `kernel` names a backend no wider than the key's, and
            // `NhKey::new` keeps a SIMD backend only after
            // `Backend::is_supported` confirmed it on this CPU (AVX-512 F
            // implies AVX2).
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
