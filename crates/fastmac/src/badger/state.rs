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
    let (blocks, last) = final_block(msg);
    let mut out = [0u32; MAX_TREES];
    enh::with_scratch(msg.len().div_ceil(8) as u64, |scratch| {
        for (tree, s) in out[..trees].iter_mut().enumerate() {
            let hash = keys.trees.hash(&keys.level_key[tree][..keys.levels], blocks, last, scratch);
            *s = finalize::f(&keys.final_key[tree], 8 * msg.len() as u64, hash);
        }
    });
    Ok(out)
}

/// The whole blocks of a message's end and its zero-extended final block,
/// which goes through the same run as the blocks before it
/// (docs/performance.md, "Badger at every length"): the last 8 bytes
/// shifted down, or for fewer than 8 bytes, a copy. `None` when the
/// message ends on a block boundary.
fn final_block(msg: &[u8]) -> (&[u8], Option<u64>) {
    let whole = msg.len() & !7;
    let last = match msg.len() - whole {
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
    (&msg[..whole], last)
}

/// A message being streamed, for up to [`MAX_TREES`] trees at once: one
/// node per level per tree, and the message's partial last block.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Streaming {
    /// Pending nodes, per tree, of the whole blocks seen.
    nodes: [[u64; NODE_SLOTS]; MAX_TREES],
    /// Message bytes seen.
    len: u64,
    /// The partial last block (its `len % 8` bytes), zero-extended: the
    /// final block if the message ends here.
    partial: u64,
    /// More than the maximum length was streamed; reported at finalization.
    too_long: bool,
}

impl Default for Streaming {
    fn default() -> Self {
        Streaming { nodes: [[0; NODE_SLOTS]; MAX_TREES], len: 0, partial: 0, too_long: false }
    }
}

impl Streaming {
    /// Streams more of the message into trees `0..trees`. Every whole
    /// block goes into the trees at once, a piece's blocks as one run, as
    /// the one-shot call takes them; only a partial last block waits, as
    /// its padding is known at the end.
    pub(crate) fn update(&mut self, keys: &Keys, trees: usize, mut data: &[u8]) {
        if self.too_long || data.len() as u64 > max_message_len(keys.levels) - self.len {
            self.too_long = true;
            return;
        }
        let have = (self.len % 8) as usize;
        let count = self.len / 8;
        self.len += data.len() as u64;
        // The partial block, continued from `data`, and taken out of the
        // state if `data` completes it.
        let mut completed = [0u8; 8];
        if have > 0 {
            completed = self.partial.to_le_bytes();
            let take = data.len().min(8 - have);
            completed[have..have + take].copy_from_slice(&data[..take]);
            data = &data[take..];
            if have + take < 8 {
                self.partial = u64::from_le_bytes(completed);
                completed.zeroize();
                return;
            }
        }
        let first: &[u8] = if have > 0 { &completed } else { &[] };
        let (blocks, last) = final_block(data);
        if first.len() + blocks.len() > 0 {
            enh::with_scratch(((first.len() + blocks.len()) / 8) as u64, |scratch| {
                for (tree, nodes) in self.nodes[..trees].iter_mut().enumerate() {
                    let level_key = &keys.level_key[tree][..keys.levels];
                    if !first.is_empty() {
                        keys.trees.absorb(level_key, nodes, count, first, scratch);
                    }
                    if !blocks.is_empty() {
                        keys.trees.absorb(level_key, nodes, count + (first.len() / 8) as u64, blocks, scratch);
                    }
                }
            });
        }
        if have > 0 {
            completed.zeroize();
        }
        self.partial = last.unwrap_or(0);
    }

    /// `S^i` of trees `0..trees` for the streamed message; resets the state
    /// for the next message either way.
    pub(crate) fn finalize_reset(&mut self, keys: &Keys, trees: usize) -> Result<[u32; MAX_TREES], Error> {
        if self.too_long {
            self.reset();
            return Err(Error::MessageTooLong { max: max_message_len(keys.levels) });
        }
        // The message's end as the one-shot call hashes it: the partial
        // block, if any, is the last run, of one block, folded with the
        // pending nodes. Such a run takes no level of a tree, so the
        // portable form is the whole of it (and no scratch).
        let last = (!self.len.is_multiple_of(8)).then_some(self.partial);
        let mut out = [0u32; MAX_TREES];
        for (tree, s) in out[..trees].iter_mut().enumerate() {
            let level_key = &keys.level_key[tree][..keys.levels];
            let hash = tree::finish_portable(level_key, &self.nodes[tree], self.len / 8, &[], last, &mut []);
            *s = finalize::f(&keys.final_key[tree], 8 * self.len, hash);
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
