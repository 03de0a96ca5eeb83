//! The modified tree hash of one tree (paper section 4 and figure 3), in
//! streaming form (docs/badger.md section 3.5): one pending 64-bit node per level.
//!
//! After `count` blocks, the pending nodes sit exactly at the heights of the
//! set bits of `count` (the "different view" of section 4: one perfect tree
//! per set bit, largest first). Adding a block is a binary increment whose
//! carries are ENH calls; the final hash folds the pending nodes from the
//! smallest tree up. A perfect subtree of `2^c` blocks that starts at a
//! multiple of `2^c` can therefore be hashed level by level on its own (the
//! fast path, see [`super::enh`]) and added as one node of height `c`; so
//! can the last blocks, fewer than `2^c`, as one node per set bit of their
//! number.
//!
//! The control flow depends only on block counts, never on data or keys.

use zeroize::Zeroize;

use super::enh::{self, Level, RUN_SLOTS, enh};

/// Pending nodes per tree: heights 0..=58 (a message of exactly 2^58 blocks
/// leaves a single node at height 58).
pub(crate) const NODE_SLOTS: usize = super::sizes::MAX_LEVELS + 1;

/// Adds `blocks` (whole 8-byte blocks), then `last` if given (the
/// zero-extended final block of a message), to a tree that already holds
/// `count` blocks. `level_key[h]` is `k_{h+1}`: it keys the merge of two
/// nodes of height `h`. `scratch` comes from [`enh::with_scratch`] for at
/// least the blocks added. Called through [`super::backend::absorb`], which
/// compiles it per instruction set.
#[inline(always)]
pub(crate) fn absorb_portable(
    level_key: &[u64],
    nodes: &mut [u64; NODE_SLOTS],
    count: u64,
    blocks: &[u8],
    last: Option<u64>,
    scratch: &mut [u64],
) {
    absorb_with(level_key, nodes, count, blocks, last, scratch, &enh::Portable);
}

/// [`absorb_portable`] with another form of one tree level (a vector
/// backend's).
#[inline(always)]
pub(crate) fn absorb_with(
    level_key: &[u64],
    nodes: &mut [u64; NODE_SLOTS],
    mut count: u64,
    mut blocks: &[u8],
    mut last: Option<u64>,
    scratch: &mut [u64],
    level: &impl Level,
) {
    debug_assert_eq!(blocks.len() % 8, 0);
    loop {
        let available = (blocks.len() / 8) as u64 + u64::from(last.is_some());
        if available == 0 {
            return;
        }
        // A perfect subtree aligned at `count` where one fits; otherwise the
        // rest of the input, fewer than 2^height blocks, whose subtrees fill
        // heights that `count` leaves clear, so that no merge is needed.
        let height = count.trailing_zeros().min(enh::MAX_SUBTREE_HEIGHT);
        let run = available.min(1 << height);
        let (whole, tail) = if run == available { (blocks, last.take()) } else { (&blocks[..8 * run as usize], None) };
        let pending = enh::run_nodes(level_key, whole, tail, scratch, level);
        blocks = &blocks[whole.len()..];
        for height in (0..RUN_SLOTS as u32).rev() {
            if run >> height & 1 == 1 {
                insert(level_key, nodes, count, pending[height as usize], height);
                count += 1 << height;
            }
        }
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
    fold_nodes(level_key, nodes, count, None).unwrap_or(0)
}

/// `acc` (the hash of what follows) folded with the pending nodes of
/// `count` blocks, smallest first.
fn fold_nodes(level_key: &[u64], nodes: &[u64; NODE_SLOTS], count: u64, mut acc: Option<u64>) -> Option<u64> {
    for height in count.trailing_zeros()..u64::BITS - count.leading_zeros() {
        if count >> height & 1 == 1 {
            acc = Some(enh::fold(level_key, acc, height as usize, nodes[height as usize]));
        }
    }
    acc
}

/// The tree's hash `M^i` of a whole message: `blocks` (whole 8-byte
/// blocks), then `last` if given (the zero-extended final block). The last
/// run of up to 2^MAX_SUBTREE_HEIGHT blocks is folded as its levels leave
/// their odd nodes, so that its subtrees are never stored; the perfect
/// subtrees before it go through [`absorb_with`]. Called through
/// [`super::backend::hash`], which compiles it per instruction set.
#[inline(always)]
pub(crate) fn hash_with(
    level_key: &[u64],
    blocks: &[u8],
    last: Option<u64>,
    scratch: &mut [u64],
    level: &impl Level,
) -> u64 {
    let count = (blocks.len() / 8) as u64 + u64::from(last.is_some());
    if count == 0 {
        return 0;
    }
    // The blocks of whole runs before the last run.
    let before = (count - 1) >> enh::MAX_SUBTREE_HEIGHT << enh::MAX_SUBTREE_HEIGHT;
    let (head, tail) = blocks.split_at(8 * before as usize);
    let mut acc = None;
    enh::run(level_key, tail, last, scratch, level, |height, node| acc = Some(enh::fold(level_key, acc, height, node)));
    if before == 0 {
        return acc.expect("at least one block");
    }
    let mut nodes = [0u64; NODE_SLOTS];
    absorb_with(level_key, &mut nodes, 0, head, None, scratch, level);
    // A merge of two nodes of one height is the fold's step too, so the
    // nodes before fold in whatever the height of the last run's largest.
    let hash = fold_nodes(level_key, &nodes, before, acc).expect("at least one block");
    nodes[..(u64::BITS - before.leading_zeros()) as usize].zeroize();
    hash
}

/// [`hash_with`] with the portable form of a level.
#[inline(always)]
pub(crate) fn hash_portable(level_key: &[u64], blocks: &[u8], last: Option<u64>, scratch: &mut [u64]) -> u64 {
    hash_with(level_key, blocks, last, scratch, &enh::Portable)
}
