//! ENH (paper section 3, eq. 8 and section 6) and the level-by-level hash of
//! a perfect subtree, the bulk of Badger's work.
//!
//! A perfect subtree of `2^c` blocks is hashed one level at a time: each
//! level is a plain map over pairs of nodes, which the compiler vectorises
//! (several nodes of a level per instruction: `vpmuludq` does the 32x32->64
//! products, four or eight at once). Level 1 reads the message directly.

/// Largest subtree hashed level by level: 2^7 blocks = 1 KiB, whose level-1
/// output (64 nodes, 512 bytes) stays in registers and L1.
pub(crate) const MAX_SUBTREE_HEIGHT: u32 = 7;
const MAX_SUBTREE_BLOCKS: usize = 1 << MAX_SUBTREE_HEIGHT;

/// `ENH(k, b, a) = (L(a) +32 L(k)) * (U(a) +32 U(k)) +64 b`: the earlier
/// node `a` is keyed, the later node `b` is added.
#[inline(always)]
pub(crate) fn enh(key: u64, later: u64, earlier: u64) -> u64 {
    let low = u64::from((earlier as u32).wrapping_add(key as u32));
    let high = u64::from(((earlier >> 32) as u32).wrapping_add((key >> 32) as u32));
    (low * high).wrapping_add(later)
}

/// The root of the perfect subtree over `blocks` (`8 << height` bytes),
/// keyed by `level_key[0..height]`. Inlined into each instruction-set
/// variant of [`super::backend`].
#[inline(always)]
pub(crate) fn subtree_root(level_key: &[u64], blocks: &[u8], height: u32) -> u64 {
    debug_assert!(height >= 1 && height <= MAX_SUBTREE_HEIGHT && blocks.len() == 8 << height);
    let mut nodes = [0u64; MAX_SUBTREE_BLOCKS / 2];
    let mut len = blocks.len() / 16;
    // Level 1, straight from the message: pairs (m_{2s-1}, m_{2s}).
    let key = level_key[0];
    for (pair, node) in blocks.chunks_exact(16).zip(&mut nodes[..len]) {
        let earlier = u64::from_le_bytes(pair[..8].try_into().expect("8 bytes"));
        let later = u64::from_le_bytes(pair[8..].try_into().expect("8 bytes"));
        *node = enh(key, later, earlier);
    }
    for &key in &level_key[1..height as usize] {
        len /= 2;
        for s in 0..len {
            nodes[s] = enh(key, nodes[2 * s + 1], nodes[2 * s]);
        }
    }
    nodes[0]
}
