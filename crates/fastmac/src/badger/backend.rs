//! Instruction-set dispatch for the tree hash: [`super::tree::absorb_portable`]
//! is compiled three times (AVX-512, AVX2, baseline x86-64) and the widest
//! one the CPU supports is picked once per process. The vector code itself is
//! the compiler's: the level maps of [`super::enh::subtree_root`] vectorise
//! into `vpmuludq` over several nodes at once.

#![allow(unsafe_code)]

use super::tree::{NODE_SLOTS, absorb_portable};

type AbsorbFn = fn(&[u64], &mut [u64; NODE_SLOTS], u64, &[u8]);

/// Adds whole blocks to one tree; see [`absorb_portable`].
#[inline]
pub(crate) fn absorb(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, blocks: &[u8]) {
    chosen()(level_key, nodes, count, blocks)
}

#[cfg(target_arch = "x86_64")]
fn chosen() -> AbsorbFn {
    use std::sync::OnceLock;
    static CHOSEN: OnceLock<AbsorbFn> = OnceLock::new();
    *CHOSEN.get_or_init(|| {
        if std::is_x86_feature_detected!("avx512f")
            && std::is_x86_feature_detected!("avx512bw")
            && std::is_x86_feature_detected!("avx512vl")
            && std::is_x86_feature_detected!("avx2")
        {
            x86::avx512_checked
        } else if std::is_x86_feature_detected!("avx2") {
            x86::avx2_checked
        } else {
            absorb_portable
        }
    })
}

#[cfg(not(target_arch = "x86_64"))]
fn chosen() -> AbsorbFn {
    absorb_portable
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::{NODE_SLOTS, absorb_portable};

    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx2")]
    fn avx512(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, blocks: &[u8]) {
        absorb_portable(level_key, nodes, count, blocks)
    }

    #[target_feature(enable = "avx2")]
    fn avx2(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, blocks: &[u8]) {
        absorb_portable(level_key, nodes, count, blocks)
    }

    pub(super) fn avx512_checked(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, blocks: &[u8]) {
        // SAFETY: `chosen` returns this only after runtime detection of
        // AVX-512 F/BW/VL and AVX2.
        unsafe { avx512(level_key, nodes, count, blocks) }
    }

    pub(super) fn avx2_checked(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, blocks: &[u8]) {
        // SAFETY: `chosen` returns this only after runtime detection of AVX2.
        unsafe { avx2(level_key, nodes, count, blocks) }
    }
}
