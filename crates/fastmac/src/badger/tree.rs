//! The modified tree hash of one tree (paper section 4 and figure 3), in
//! streaming form (docs/badger.md section 3.5): one pending 64-bit node per level.
//!
//! After `count` blocks, the pending nodes sit exactly at the heights of the
//! set bits of `count` (the "different view" of section 4: one perfect tree
//! per set bit, largest first). Adding a block is a binary increment whose
//! carries are ENH calls; the final hash folds the pending nodes from the
//! smallest tree up. A perfect subtree of `2^c` blocks that starts at a
//! multiple of `2^c` can therefore be hashed level by level on its own (the
//! fast path, see [`super::enh`]) and added as one node of height `c`.
//!
//! The control flow depends only on block counts, never on data or keys.

use super::enh::{self, enh};

/// Pending nodes per tree: heights 0..=58 (a message of exactly 2^58 blocks
/// leaves a single node at height 58).
pub(crate) const NODE_SLOTS: usize = super::sizes::MAX_LEVELS + 1;

/// Adds `blocks` (whole 8-byte blocks) to a tree that already holds `count`
/// blocks. `level_key[h]` is `k_{h+1}`: it keys the merge of two nodes of
/// height `h`. Called through [`super::backend::absorb`], which compiles it
/// per instruction set.
#[inline(always)]
pub(crate) fn absorb_portable(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, blocks: &[u8]) {
    absorb_with(level_key, nodes, count, blocks, enh::subtree_root);
}

/// [`absorb_portable`] with another form of [`enh::subtree_root`] (a
/// vector backend's).
#[inline(always)]
pub(crate) fn absorb_with(
    level_key: &[u64],
    nodes: &mut [u64; NODE_SLOTS],
    mut count: u64,
    mut blocks: &[u8],
    subtree_root: impl Fn(&[u64], &[u8], u32) -> u64,
) {
    debug_assert_eq!(blocks.len() % 8, 0);
    while !blocks.is_empty() {
        let available = (blocks.len() / 8) as u64;
        // The largest aligned perfect subtree that fits.
        let height = count.trailing_zeros().min(available.ilog2()).min(enh::MAX_SUBTREE_HEIGHT);
        let size = 8usize << height;
        let node = if height == 0 {
            u64::from_le_bytes(blocks[..8].try_into().expect("8 bytes"))
        } else {
            subtree_root(level_key, &blocks[..size], height)
        };
        insert(level_key, nodes, count, node, height);
        count += 1 << height;
        blocks = &blocks[size..];
    }
}

/// Puts a node of height `height` after the `count` blocks already held
/// (`count` is a multiple of `2^height`), merging equal heights as it goes.
#[inline]
fn insert(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, mut node: u64, mut height: u32) {
    while count >> height & 1 == 1 {
        // The earlier (left) node is keyed; the later one is added.
        node = enh(level_key[height as usize], node, nodes[height as usize]);
        height += 1;
    }
    nodes[height as usize] = node;
}

/// The tree's hash `M^i` of `count` blocks: the pending nodes folded from
/// the smallest tree to the largest (the linear hash of section 4). Zero for
/// the empty message (figure 3).
pub(crate) fn root(level_key: &[u64], nodes: &[u64; NODE_SLOTS], count: u64) -> u64 {
    if count == 0 {
        return 0;
    }
    let lowest = count.trailing_zeros();
    let mut acc = nodes[lowest as usize];
    for height in lowest + 1..u64::BITS - count.leading_zeros() {
        if count >> height & 1 == 1 {
            acc = enh(level_key[height as usize], acc, nodes[height as usize]);
        }
    }
    acc
}
