//! ENH (paper section 3, eq. 8 and section 6) and the level-by-level hash of
//! a perfect subtree, the bulk of Badger's work.
//!
//! A perfect subtree of `2^c` blocks is hashed one level at a time: each
//! level is a plain map over pairs of nodes, so several nodes of a level go
//! through one instruction (`vpmuludq` does four or eight 32x32->64
//! products). This portable form is the compiler's to vectorise (AVX2 and
//! baseline builds); [`super::backend`] has the AVX-512 form. Level 1 reads
//! the message directly.

/// Largest subtree hashed level by level: 2^11 blocks = 16 KiB, whose
/// level-1 output (1024 nodes, 8 KiB) stays in L1. Large subtrees amortise
/// the top levels, which are too short to fill a vector
/// (`docs/performance-log.md` section 6).
pub(crate) const MAX_SUBTREE_HEIGHT: u32 = 11;
/// Nodes of level 1 of the largest subtree.
pub(crate) const MAX_LEVEL_ONE: usize = 1 << (MAX_SUBTREE_HEIGHT - 1);

/// `ENH(k, b, a) = (L(a) +32 L(k)) * (U(a) +32 U(k)) +64 b`: the earlier
/// node `a` is keyed, the later node `b` is added.
#[inline(always)]
pub(crate) fn enh(key: u64, later: u64, earlier: u64) -> u64 {
    let low = u64::from((earlier as u32).wrapping_add(key as u32));
    let high = u64::from(((earlier >> 32) as u32).wrapping_add((key >> 32) as u32));
    (low * high).wrapping_add(later)
}

/// The root of the perfect subtree over `blocks` (`8 << height` bytes),
/// keyed by `level_key[0..height]`: figure 3 level by level, each level a
/// map over pairs that the compiler vectorises. Inlined into each
/// instruction-set variant of [`super::backend`].
#[inline(always)]
pub(crate) fn subtree_root(level_key: &[u64], blocks: &[u8], height: u32) -> u64 {
    debug_assert!((1..=MAX_SUBTREE_HEIGHT).contains(&height) && blocks.len() == 8 << height);
    // Scratch sized to the subtree, so that short tails do not clear 8 KiB.
    match height {
        ..=4 => levels::<8>(level_key, blocks, height),
        5..=7 => levels::<64>(level_key, blocks, height),
        8..=9 => levels::<256>(level_key, blocks, height),
        _ => levels::<MAX_LEVEL_ONE>(level_key, blocks, height),
    }
}

#[inline(always)]
fn levels<const PAIRS: usize>(level_key: &[u64], blocks: &[u8], height: u32) -> u64 {
    let mut nodes = [0u64; PAIRS];
    level_one(level_key[0], blocks, &mut nodes);
    upper_levels(&level_key[1..height as usize], &mut nodes[..blocks.len() / 16])
}

/// Level 1, straight from the message: `ENH(k_1, m_{2s}, m_{2s-1})`.
#[inline(always)]
pub(crate) fn level_one(key: u64, blocks: &[u8], nodes: &mut [u64]) {
    for (pair, node) in blocks.chunks_exact(16).zip(nodes) {
        let earlier = u64::from_le_bytes(pair[..8].try_into().expect("8 bytes"));
        let later = u64::from_le_bytes(pair[8..].try_into().expect("8 bytes"));
        *node = enh(key, later, earlier);
    }
}

/// Levels 2 and up, in place: level `j` writes node `s` after reading
/// nodes `2s` and `2s + 1`, which no earlier write touched. Returns the root.
#[inline(always)]
pub(crate) fn upper_levels(level_key: &[u64], nodes: &mut [u64]) -> u64 {
    let mut len = nodes.len();
    for &key in level_key {
        len /= 2;
        for s in 0..len {
            nodes[s] = enh(key, nodes[2 * s + 1], nodes[2 * s]);
        }
    }
    nodes[0]
}
