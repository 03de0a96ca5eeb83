//! The keyed hash `S^1..S^u` (tree hash then F) shared by both modes: a
//! one-shot form and a streaming state that keeps one node per level per
//! tree and at most 7 message bytes (the last partial block, whose padding is
//! known only at the end).

use zeroize::{Zeroize, ZeroizeOnDrop};

use super::keys::Keys;
use super::sizes::MAX_TREES;
use super::tree::{self, NODE_SLOTS};
use super::{enh, finalize};
use crate::error::Error;

/// Longest message `levels` level keys can hash: `2^levels` blocks, and
/// `L = 8n` must fit in 64 bits (docs/badger.md section 3.9).
pub(crate) fn max_message_len(levels: usize) -> u64 {
    (8u64 << levels).min((1 << 61) - 1)
}

/// `S^i` (before the pad) of trees `0..trees` for a whole message.
pub(crate) fn hash_once(keys: &Keys, trees: usize, msg: &[u8]) -> Result<[u32; MAX_TREES], Error> {
    let max = max_message_len(keys.levels);
    if msg.len() as u64 > max {
        return Err(Error::MessageTooLong { max });
    }
    let whole = msg.len() & !7;
    // The zero-extended final block, which goes through the same run as the
    // blocks before it (docs/performance.md, "Badger at every length"): the message's last
    // 8 bytes shifted down, or for a message of under 8 bytes, a copy.
    let final_block = match msg.len() - whole {
        0 => None,
        rest if whole > 0 => {
            let tail: [u8; 8] = msg[msg.len() - 8..].try_into().expect("8 bytes");
            Some(u64::from_le_bytes(tail) >> (64 - 8 * rest))
        }
        rest => {
            let mut last = [0u8; 8];
            last[..rest].copy_from_slice(msg);
            let block = u64::from_le_bytes(last);
            last.zeroize();
            Some(block)
        }
    };
    let count = msg.len().div_ceil(8) as u64;
    let mut out = [0u32; MAX_TREES];
    enh::with_scratch(count, |scratch| {
        for (tree, s) in out[..trees].iter_mut().enumerate() {
            let level_key = &keys.level_key[tree][..keys.levels];
            let hash = keys.trees.hash(level_key, &msg[..whole], final_block, scratch);
            *s = finalize::f(&keys.final_key[tree], 8 * msg.len() as u64, hash);
        }
    });
    Ok(out)
}

/// A message being streamed, for up to [`MAX_TREES`] trees at once.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Streaming {
    /// Pending nodes, per tree.
    nodes: [[u64; NODE_SLOTS]; MAX_TREES],
    /// Message bytes seen.
    len: u64,
    /// The bytes of the last partial block (`len % 8` of them).
    partial: [u8; 8],
    /// More than the maximum length was streamed; reported at finalization.
    too_long: bool,
}

impl Default for Streaming {
    fn default() -> Self {
        Streaming { nodes: [[0; NODE_SLOTS]; MAX_TREES], len: 0, partial: [0; 8], too_long: false }
    }
}

impl Streaming {
    /// Streams more of the message into trees `0..trees`.
    pub(crate) fn update(&mut self, keys: &Keys, trees: usize, mut data: &[u8]) {
        if self.too_long || data.len() as u64 > max_message_len(keys.levels) - self.len {
            self.too_long = true;
            return;
        }
        let have = (self.len % 8) as usize;
        if have > 0 {
            let take = data.len().min(8 - have);
            self.partial[have..have + take].copy_from_slice(&data[..take]);
            self.len += take as u64;
            data = &data[take..];
            if have + take < 8 {
                return;
            }
            let block = u64::from_le_bytes(self.partial);
            self.absorb(keys, trees, self.len / 8 - 1, &[], Some(block));
        }
        let whole = data.len() & !7;
        self.absorb(keys, trees, self.len / 8, &data[..whole], None);
        self.len += whole as u64;
        let rest = data.len() - whole;
        self.partial[..rest].copy_from_slice(&data[whole..]);
        self.len += rest as u64;
    }

    /// Adds whole blocks, then `last` if given, to trees `0..trees` after
    /// `count` blocks.
    fn absorb(&mut self, keys: &Keys, trees: usize, count: u64, blocks: &[u8], last: Option<u64>) {
        let added = (blocks.len() / 8) as u64 + u64::from(last.is_some());
        if added == 0 {
            return;
        }
        enh::with_scratch(added, |scratch| {
            for (tree, nodes) in self.nodes[..trees].iter_mut().enumerate() {
                keys.trees.absorb(&keys.level_key[tree][..keys.levels], nodes, count, blocks, last, scratch);
            }
        });
    }

    /// `S^i` of trees `0..trees` for the streamed message; resets the state
    /// for the next message either way.
    pub(crate) fn finalize_reset(&mut self, keys: &Keys, trees: usize) -> Result<[u32; MAX_TREES], Error> {
        if self.too_long {
            self.reset();
            return Err(Error::MessageTooLong { max: max_message_len(keys.levels) });
        }
        let have = (self.len % 8) as usize;
        if have > 0 {
            let mut block = [0u8; 8];
            block[..have].copy_from_slice(&self.partial[..have]);
            self.absorb(keys, trees, self.len / 8, &[], Some(u64::from_le_bytes(block)));
            block.zeroize();
        }
        let count = self.len.div_ceil(8);
        let mut out = [0u32; MAX_TREES];
        for (tree, s) in out[..trees].iter_mut().enumerate() {
            let root = tree::root(&keys.level_key[tree][..keys.levels], &self.nodes[tree], count);
            *s = finalize::f(&keys.final_key[tree], 8 * self.len, root);
        }
        self.reset();
        Ok(out)
    }

    /// Forgets the streamed message.
    pub(crate) fn reset(&mut self) {
        // Only the nodes below the pending count are live; the rest are
        // overwritten before use, so wiping the partial block is enough for
        // the data, and the nodes are wiped on drop.
        self.partial.zeroize();
        self.len = 0;
        self.too_long = false;
    }
}

/// `LE32(S^1) || ... || LE32(S^u)` XOR `pad`, into a tag of `4u` bytes.
pub(crate) fn write_tag(s: &[u32; MAX_TREES], pad: &[u8], tag: &mut [u8]) {
    for ((chunk, s), pad) in tag.chunks_exact_mut(4).zip(s).zip(pad.chunks_exact(4)) {
        for ((out, byte), pad) in chunk.iter_mut().zip(s.to_le_bytes()).zip(pad) {
            *out = byte ^ pad;
        }
    }
}
