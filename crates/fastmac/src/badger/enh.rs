//! ENH (paper section 3, eq. 8 and section 6) and the level-by-level hash of
//! a run of blocks, the bulk of Badger's work.
//!
//! A run of `r` blocks is hashed one level at a time (figure 3): each level
//! is a plain map over pairs of nodes, so several nodes of a level go
//! through one instruction (`vpmuludq` does four or eight 32x32->64
//! products), and the odd node a level leaves over is set aside as the root
//! of a perfect subtree. The run's result is one node per set bit of `r`,
//! each the root of the perfect subtree of that height, so a run of any
//! length costs what a perfect subtree of that length costs
//! (`docs/performance.md`, "Badger at every length"). A backend supplies the map of one
//! level ([`Level`]); [`Portable`] is the compiler's to vectorise, and
//! [`super::backend`] has the AVX2 and AVX-512 forms.

/// Largest run hashed level by level: 2^11 blocks = 16 KiB, whose
/// level-1 output (1024 nodes, 8 KiB) stays in L1. Large runs amortise
/// the top levels, which are too short to fill a vector
/// (`docs/performance-log.md` section 6).
pub(crate) const MAX_SUBTREE_HEIGHT: u32 = 11;
/// Nodes of level 1 of the largest run.
pub(crate) const MAX_LEVEL_ONE: usize = 1 << (MAX_SUBTREE_HEIGHT - 1);
/// Nodes past `2 * pairs` that [`Level::up`] may read and write: a vector
/// of 8 nodes reads 16, so rounding up reads at most 14 more.
pub(crate) const UP_SLACK: usize = 14;

/// `ENH(k, b, a) = (L(a) +32 L(k)) * (U(a) +32 U(k)) +64 b`: the earlier
/// node `a` is keyed, the later node `b` is added.
#[inline(always)]
pub(crate) fn enh(key: u64, later: u64, earlier: u64) -> u64 {
    let low = u64::from((earlier as u32).wrapping_add(key as u32));
    let high = u64::from(((earlier >> 32) as u32).wrapping_add((key >> 32) as u32));
    (low * high).wrapping_add(later)
}

/// One level of a tree, over as many pairs of nodes as it has: the map an
/// instruction set vectorises.
pub(crate) trait Level {
    /// Level 1, straight from the message: `nodes[s] = ENH(key, m_{2s+2},
    /// m_{2s+1})` for the `pairs = blocks.len() / 16` pairs of `blocks`
    /// (little-endian blocks), then `nodes[pairs] = extra` if given (the
    /// node of the message's last pair, which is not all in `blocks`), with
    /// `pairs + 1 + UP_SLACK <= nodes.len()`. It may also overwrite the nodes
    /// after those, up to `pairs + 8` (a vector form stores whole vectors).
    fn first(&self, key: u64, blocks: &[u8], extra: Option<u64>, nodes: &mut [u64]);
    /// A higher level, in place: `nodes[s] = ENH(key, nodes[2s + 1],
    /// nodes[2s])` for `s < pairs`, with `2 * pairs + UP_SLACK <=
    /// nodes.len()`. It may also overwrite nodes from `pairs` to `2 * pairs +
    /// UP_SLACK` (a vector form rounds `pairs` up to whole vectors, so that
    /// no level ends in scalar code).
    fn up(&self, key: u64, nodes: &mut [u64], pairs: usize);
}

/// [`Level`] as plain loops, vectorised by the compiler where it can.
pub(crate) struct Portable;

impl Level for Portable {
    #[inline(always)]
    fn first(&self, key: u64, blocks: &[u8], extra: Option<u64>, nodes: &mut [u64]) {
        let pairs = blocks.len() / 16;
        level_one(key, blocks, &mut nodes[..pairs]);
        if let Some(node) = extra {
            nodes[pairs] = node;
        }
    }

    #[inline(always)]
    fn up(&self, key: u64, nodes: &mut [u64], pairs: usize) {
        level_up(key, nodes, 0, pairs);
    }
}

/// Level 1 of the nodes `nodes` stands for, scalar (a vector backend's
/// last few).
#[inline(always)]
pub(crate) fn level_one(key: u64, blocks: &[u8], nodes: &mut [u64]) {
    for (pair, node) in blocks.chunks_exact(16).zip(nodes) {
        let earlier = u64::from_le_bytes(pair[..8].try_into().expect("8 bytes"));
        let later = u64::from_le_bytes(pair[8..].try_into().expect("8 bytes"));
        *node = enh(key, later, earlier);
    }
}

/// [`Level::up`] for the pairs `from..pairs`, scalar (a vector backend's
/// last few; all of them for [`Portable`]).
#[inline(always)]
pub(crate) fn level_up(key: u64, nodes: &mut [u64], from: usize, pairs: usize) {
    for s in from..pairs {
        nodes[s] = enh(key, nodes[2 * s + 1], nodes[2 * s]);
    }
}

/// Figure 3 level by level on a run of `r` blocks: the whole blocks of
/// `blocks`, then `last` if given (the zero-extended final block of a
/// message). Calls `subtree(h, node)` for each set bit `h` of `r`, lowest
/// first, with the root of the perfect subtree of `2^h` blocks that bit
/// stands for (the larger subtrees come first in the message): the odd node
/// a level leaves over is that root. `r <= 2^MAX_SUBTREE_HEIGHT` (no calls
/// for `r = 0`),
/// `level_key[h]` keys the merge of two nodes of height `h`, and `scratch`
/// holds at least `r / 2 + UP_SLACK` nodes.
#[inline(always)]
pub(crate) fn run(
    level_key: &[u64],
    blocks: &[u8],
    last: Option<u64>,
    scratch: &mut [u64],
    level: &impl Level,
    mut subtree: impl FnMut(usize, u64),
) {
    debug_assert!(blocks.len().is_multiple_of(8));
    let whole_pairs = blocks.len() / 16;
    // The block after the whole pairs, if the run has an odd number of
    // whole blocks: paired with `last`, or alone the subtree of height 0.
    let odd =
        (blocks.len() % 16 == 8).then(|| u64::from_le_bytes(blocks[16 * whole_pairs..].try_into().expect("one block")));
    let extra = match (odd, last) {
        (Some(earlier), Some(later)) => Some(enh(level_key[0], later, earlier)),
        (Some(block), None) | (None, Some(block)) => {
            subtree(0, block);
            None
        }
        (None, None) => None,
    };
    let mut len = whole_pairs + usize::from(extra.is_some());
    if len > 0 {
        level.first(level_key[0], &blocks[..16 * whole_pairs], extra, scratch);
    }
    // `len` nodes of height `height`.
    let mut height = 1;
    while len > 1 {
        if len % 2 == 1 {
            subtree(height, scratch[len - 1]);
        }
        len /= 2;
        level.up(level_key[height], scratch, len);
        height += 1;
    }
    if len == 1 {
        subtree(height, scratch[0]);
    }
}

/// The fold of the tree's root (docs/badger.md section 3.5), one perfect
/// subtree at a time from the last (smallest) to the first: `acc` holds the
/// hash of the subtrees after `node`, which is the root of a subtree of
/// height `height`.
#[inline(always)]
pub(crate) fn fold(level_key: &[u64], acc: Option<u64>, height: usize, node: u64) -> u64 {
    match acc {
        None => node,
        Some(later) => enh(level_key[height], later, node),
    }
}

/// Calls `hash` with zeroed scratch for runs of up to `blocks` blocks (at
/// least `min(blocks, 2^MAX_SUBTREE_HEIGHT) / 2 + UP_SLACK` nodes); one
/// scratch serves every tree of a message. Its sizes step by a factor of
/// at most 1.5, so that clearing it costs a message little more than its
/// level 1 does, at every length (clearing 4 KiB where 1 KiB serves costs a
/// 2 KiB message about a fifth of Badger-32's time, `docs/performance-log.md`
/// section 23).
#[inline(always)]
pub(crate) fn with_scratch<R>(blocks: u64, hash: impl FnOnce(&mut [u64]) -> R) -> R {
    macro_rules! sized {
        ($($pairs:literal)+) => {
            match blocks / 2 {
                $(..=$pairs => hash(&mut [0; $pairs + UP_SLACK]),)+
                _ => hash(&mut [0; MAX_LEVEL_ONE + UP_SLACK]),
            }
        };
    }
    sized!(8 12 16 24 32 48 64 96 128 192 256 384 512 768)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pending nodes of one run: heights 0 to [`MAX_SUBTREE_HEIGHT`].
    const RUN_SLOTS: usize = MAX_SUBTREE_HEIGHT as usize + 1;

    /// The roots of [`run`]'s perfect subtrees by height; entries of clear
    /// bits of `r` are zero.
    fn run_nodes(
        level_key: &[u64],
        blocks: &[u8],
        last: Option<u64>,
        scratch: &mut [u64],
        level: &impl Level,
    ) -> [u64; RUN_SLOTS] {
        let mut pending = [0u64; RUN_SLOTS];
        run(level_key, blocks, last, scratch, level, |height, node| pending[height] = node);
        pending
    }

    /// Figure 3 on `r` blocks, one level at a time with the odd node passed
    /// up, written out without [`Level`]: the roots of the perfect subtrees
    /// of `r`, by height.
    fn figure_3_subtrees(level_key: &[u64], blocks: &[u64]) -> [u64; RUN_SLOTS] {
        let mut pending = [0; RUN_SLOTS];
        let mut level = blocks.to_vec();
        let mut height = 0;
        while !level.is_empty() {
            if level.len() % 2 == 1 {
                pending[height] = *level.last().expect("odd, so not empty");
            }
            level = level.chunks_exact(2).map(|pair| enh(level_key[height], pair[1], pair[0])).collect();
            height += 1;
        }
        pending
    }

    #[test]
    fn a_run_of_every_length_gives_the_roots_of_its_perfect_subtrees() {
        let keys: Vec<u64> = (1..=12u64).map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (k << 33)).collect();
        let data: Vec<u8> =
            (0..8 << MAX_SUBTREE_HEIGHT).map(|i: u32| (i.wrapping_mul(2_654_435_761) >> 13) as u8).collect();
        let words: Vec<u64> =
            data.chunks_exact(8).map(|b| u64::from_le_bytes(b.try_into().expect("8 bytes"))).collect();
        let mut scratch = [0u64; MAX_LEVEL_ONE + UP_SLACK];
        for r in 1..=1 << MAX_SUBTREE_HEIGHT {
            let expect = figure_3_subtrees(&keys, &words[..r]);
            assert_eq!(run_nodes(&keys, &data[..8 * r], None, &mut scratch, &Portable), expect, "{r} blocks");
            // The same blocks with the last one given apart.
            let last = Some(words[r - 1]);
            assert_eq!(
                run_nodes(&keys, &data[..8 * (r - 1)], last, &mut scratch, &Portable),
                expect,
                "{r}, last apart"
            );
        }
    }

    #[test]
    fn scratch_holds_half_of_every_run() {
        for blocks in 0..=3 << MAX_SUBTREE_HEIGHT {
            let need = (blocks.min(1 << MAX_SUBTREE_HEIGHT) / 2) as usize + UP_SLACK;
            assert!(with_scratch(blocks, |scratch| scratch.len()) >= need, "{blocks} blocks");
        }
    }
}
