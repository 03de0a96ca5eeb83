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

use super::enh::{self, Level, enh};

/// Pending nodes per tree: heights 0..=58 (a message of exactly 2^58 blocks
/// leaves a single node at height 58).
pub(crate) const NODE_SLOTS: usize = super::sizes::MAX_LEVELS + 1;

/// Adds `blocks` (whole 8-byte blocks) to a tree that already holds
/// `count` blocks. `level_key[h]` is `k_{h+1}`: it keys the merge of two
/// nodes of height `h`. `scratch` comes from [`enh::with_scratch`] for at
/// least the blocks added. Called through [`super::backend::TreeKernels`],
/// which compiles it per instruction set.
#[inline(always)]
pub(crate) fn absorb_portable(
    level_key: &[u64],
    nodes: &mut [u64; NODE_SLOTS],
    count: u64,
    blocks: &[u8],
    scratch: &mut [u64],
) {
    absorb_with(level_key, nodes, count, blocks, scratch, &enh::Portable);
}

/// [`absorb_portable`] with another form of one tree level (a vector
/// backend's).
#[inline(always)]
pub(crate) fn absorb_with(
    level_key: &[u64],
    nodes: &mut [u64; NODE_SLOTS],
    mut count: u64,
    mut blocks: &[u8],
    scratch: &mut [u64],
    level: &impl Level,
) {
    debug_assert_eq!(blocks.len() % 8, 0);
    while !blocks.is_empty() {
        // A perfect subtree aligned at `count` where one fits; otherwise the
        // rest of the input, fewer than 2^height blocks, whose subtrees fill
        // heights that `count` leaves clear. Either way each subtree of the
        // run goes in at `count`: only the perfect subtree can meet a
        // pending node of its height and merge.
        let height = count.trailing_zeros().min(enh::MAX_SUBTREE_HEIGHT);
        let (run, rest) = blocks.split_at(blocks.len().min(8 << height));
        enh::run(level_key, run, None, scratch, level, |height, node| insert(level_key, nodes, count, node, height));
        count += (run.len() / 8) as u64;
        blocks = rest;
    }
}

/// Puts a node of height `height` after the `count` blocks already held
/// (`count` is a multiple of `2^height`), merging equal heights as it goes.
#[inline(always)]
fn insert(level_key: &[u64], nodes: &mut [u64; NODE_SLOTS], count: u64, mut node: u64, height: usize) {
    let mut height = height as u32;
    while count >> height & 1 == 1 {
        // The earlier (left) node is keyed; the later one is added.
        node = enh(level_key[height as usize], node, nodes[height as usize]);
        height += 1;
    }
    nodes[height as usize] = node;
}

/// The tree's hash `M^i` of a message (docs/badger.md section 3.5) whose
/// first `count` blocks are in `nodes` (from [`absorb_with`]) and whose
/// remaining blocks are `blocks` (whole 8-byte blocks), then `last` if
/// given (the zero-extended final block): those are hashed as one run,
/// folded as its levels leave their odd nodes, so that its subtrees are
/// never stored, and then the pending nodes are folded in from the
/// smallest tree to the largest (the linear hash of section 4). The run
/// must fit the tree's shape: at most `2^h` blocks after a `count` that is
/// a multiple of `2^h`, for some `h <= MAX_SUBTREE_HEIGHT` (a run of one
/// block fits after any count). Zero for the empty message (figure 3). The
/// ending of both [`hash_with`] and a streamed message
/// (`state::Streaming::finalize_reset`).
#[inline(always)]
pub(crate) fn finish_with(
    level_key: &[u64],
    nodes: &[u64; NODE_SLOTS],
    count: u64,
    blocks: &[u8],
    last: Option<u64>,
    scratch: &mut [u64],
    level: &impl Level,
) -> u64 {
    let mut acc = None;
    enh::run(level_key, blocks, last, scratch, level, |height, node| {
        acc = Some(enh::fold(level_key, acc, height, node))
    });
    // A merge of two nodes of one height is the fold's step too, so the
    // nodes before fold in whatever the height of the run's largest.
    for height in count.trailing_zeros()..u64::BITS - count.leading_zeros() {
        if count >> height & 1 == 1 {
            acc = Some(enh::fold(level_key, acc, height as usize, nodes[height as usize]));
        }
    }
    acc.unwrap_or(0)
}

/// [`finish_with`] with the portable form of a level.
#[inline(always)]
pub(crate) fn finish_portable(
    level_key: &[u64],
    nodes: &[u64; NODE_SLOTS],
    count: u64,
    blocks: &[u8],
    last: Option<u64>,
    scratch: &mut [u64],
) -> u64 {
    finish_with(level_key, nodes, count, blocks, last, scratch, &enh::Portable)
}

/// The tree's hash `M^i` of a whole message: `blocks` (whole 8-byte
/// blocks), then `last` if given (the zero-extended final block). The
/// perfect subtrees before the last run go through [`absorb_with`], the
/// last run through [`finish_with`]. Called through
/// [`super::backend::TreeKernels`], which compiles it per instruction set.
#[inline(always)]
pub(crate) fn hash_with(
    level_key: &[u64],
    blocks: &[u8],
    last: Option<u64>,
    scratch: &mut [u64],
    level: &impl Level,
) -> u64 {
    let count = (blocks.len() / 8) as u64 + u64::from(last.is_some());
    // The blocks of whole runs before the last run (of 1 to
    // 2^MAX_SUBTREE_HEIGHT blocks, or none for the empty message).
    let before = count.saturating_sub(1) >> enh::MAX_SUBTREE_HEIGHT << enh::MAX_SUBTREE_HEIGHT;
    let (head, tail) = blocks.split_at(8 * before as usize);
    if before == 0 {
        // No pending nodes: a short message's tree is its last run.
        return finish_with(level_key, &[0; NODE_SLOTS], 0, tail, last, scratch, level);
    }
    let mut nodes = [0u64; NODE_SLOTS];
    absorb_with(level_key, &mut nodes, 0, head, scratch, level);
    let hash = finish_with(level_key, &nodes, before, tail, last, scratch, level);
    nodes[..(u64::BITS - before.leading_zeros()) as usize].zeroize();
    hash
}

/// [`hash_with`] with the portable form of a level.
#[inline(always)]
pub(crate) fn hash_portable(level_key: &[u64], blocks: &[u8], last: Option<u64>, scratch: &mut [u64]) -> u64 {
    hash_with(level_key, blocks, last, scratch, &enh::Portable)
}
