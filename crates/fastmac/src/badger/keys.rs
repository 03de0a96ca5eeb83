//! Key setup (paper figure 2; docs/badger.md section 3.3): the F-function keys
//! and the tree level keys, drawn once from the key-only Rabbit stream.

use rabbit::RabbitKeyOnly;
use rabbit::cipher::StreamCipher;
use zeroize::{Zeroize, ZeroizeOnDrop, Zeroizing};

use super::backend::TreeKernels;
use super::finalize::P;
use super::sizes::{MAX_LEVELS, MAX_TREES};
use crate::umac::Backend;

/// A source of PRG bytes, read byte-continuously (`PRG_Nextbit`). Rabbit in
/// production; the tests inject a scripted stream to reach the rare redraw
/// path of the F keys.
pub(crate) trait KeyStream {
    /// Fills `out` with the next bytes of the stream.
    fn read(&mut self, out: &mut [u8]);

    /// `PRG_Nextbit(32)`: the next 4 bytes, least significant first
    /// (docs/badger.md section 3.1).
    fn next_u32(&mut self) -> u32 {
        let mut word = [0u8; 4];
        self.read(&mut word);
        let value = u32::from_le_bytes(word);
        word.zeroize();
        value
    }
}

impl KeyStream for RabbitKeyOnly {
    fn read(&mut self, out: &mut [u8]) {
        self.write_keystream(out);
    }
}

/// The hash keys of up to [`MAX_TREES`] trees, laid out per tree so that one
/// tree's keys are contiguous for the tree hash.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Keys {
    /// `final_key[i][j-1] = K_j^(i+1)`, j = 1..6, each below p.
    pub(crate) final_key: [[u32; 6]; MAX_TREES],
    /// `level_key[i][j-1] = k_j^(i+1)`, j = 1..v; unused entries stay 0.
    pub(crate) level_key: [[u64; MAX_LEVELS]; MAX_TREES],
    /// `v`: the number of level keys, which bounds the message length.
    pub(crate) levels: usize,
    /// The tree kernels of the backend that was the default when the keys
    /// were drawn ([`Backend::detect`]), as an NH key's backend is.
    #[zeroize(skip)]
    pub(crate) trees: &'static TreeKernels,
}

/// Badger's rejection sampling of a final-hash key word (redrawn while
/// `>= P`); returns the number of words drawn. The loop branches on secret
/// key bits by design of the scheme: it runs once per key, and a redraw
/// happens with probability about 2^-30 per key. Kept out of line so that
/// the ctgrind test's suppression (crates/fastmac-c/tests/ct/ct.supp) can
/// name exactly this function and nothing else.
#[inline(never)]
fn redraw_until_below_p(word: &mut u32, stream: &mut impl KeyStream) -> usize {
    let mut drawn = 0;
    while *word >= P {
        *word = stream.next_u32();
        drawn += 1;
    }
    drawn
}

impl Keys {
    /// Figure 2 for `trees` trees (`u`) and `levels` levels (`v`), reading
    /// exactly the bytes figure 2 consumes, so that `stream` is left at `P0`
    /// (where sequential-mode pads start).
    pub(crate) fn setup(stream: &mut impl KeyStream, trees: usize, levels: usize) -> Keys {
        debug_assert!((1..=MAX_TREES).contains(&trees) && (1..=MAX_LEVELS).contains(&levels));
        let mut keys = Keys {
            final_key: [[0; 6]; MAX_TREES],
            level_key: [[0; MAX_LEVELS]; MAX_TREES],
            levels,
            trees: Backend::detect().badger_tree_kernels(),
        };
        // The 6u first draws in one read (the crate then runs whole blocks).
        let mut first = Zeroizing::new([0u8; 4 * 6 * MAX_TREES]);
        stream.read(&mut first[..4 * 6 * trees]);
        let mut words = first.chunks_exact(4).map(|w| u32::from_le_bytes(w.try_into().expect("4 bytes")));
        // j outer, i inner: the key-to-word assignment depends on u.
        for j in 0..6 {
            for tree in &mut keys.final_key[..trees] {
                tree[j] = words.next().expect("6u words");
            }
        }
        let mut words_used = 6 * trees;
        // Redraws come after all 6u first draws, in the same (j, i) order.
        for j in 0..6 {
            for tree in &mut keys.final_key[..trees] {
                words_used += redraw_until_below_p(&mut tree[j], stream);
            }
        }
        // "Empty buffer": level keys start on a 128-bit Rabbit block.
        while !words_used.is_multiple_of(4) {
            stream.next_u32();
            words_used += 1;
        }
        // Level keys through a one-cache-line buffer: bulk reads, and a
        // small buffer to wipe.
        let mut buffer = Zeroizing::new([0u8; 64]);
        let mut used = buffer.len();
        let total = levels * trees;
        for n in 0..total {
            if used == buffer.len() {
                let fill = buffer.len().min(8 * (total - n));
                stream.read(&mut buffer[..fill]);
                used = 0;
            }
            let word = u64::from_le_bytes(buffer[used..used + 8].try_into().expect("8 bytes"));
            // n = j * u + i: j outer, i inner.
            keys.level_key[n % trees][n / trees] = word;
            used += 8;
        }
        keys
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A scripted stream: the given little-endian 32-bit words, in order.
    struct Words {
        bytes: Vec<u8>,
        at: usize,
    }

    impl Words {
        fn new(words: &[u32]) -> Words {
            Words { bytes: words.iter().flat_map(|w| w.to_le_bytes()).collect(), at: 0 }
        }
    }

    impl KeyStream for Words {
        fn read(&mut self, out: &mut [u8]) {
            out.copy_from_slice(&self.bytes[self.at..self.at + out.len()]);
            self.at += out.len();
        }
    }

    /// Words 0, 1, 2, ... except those listed, which are set to the given
    /// values.
    fn script(len: u32, overrides: &[(usize, u32)]) -> Vec<u32> {
        let mut words: Vec<u32> = (0..len).map(|w| 0x1000 + w).collect();
        for &(at, value) in overrides {
            words[at] = value;
        }
        words
    }

    #[test]
    fn without_redraws_keys_follow_the_j_outer_i_inner_order() {
        let words = script(200, &[]);
        let mut stream = Words::new(&words);
        let keys = Keys::setup(&mut stream, 2, 3);
        for j in 0..6 {
            for i in 0..2 {
                assert_eq!(keys.final_key[i][j], words[j * 2 + i]);
            }
        }
        // 12 words used: already aligned, level keys start at word 12.
        let level = |w: usize| u64::from(words[w]) | u64::from(words[w + 1]) << 32;
        assert_eq!(keys.level_key[0][..3], [level(12), level(16), level(20)]);
        assert_eq!(keys.level_key[1][..3], [level(14), level(18), level(22)]);
        assert_eq!(stream.at, 4 * 24, "P0 = 4c + 8uv");
    }

    #[test]
    fn keys_at_or_above_p_are_redrawn_in_j_i_order_then_the_block_is_discarded() {
        // u = 3: 18 first draws (words 0..18). Word 1 (K_1^2) = p, word 9
        // (K_4^1) = 2^32 - 1, and its first redraw (word 19) is p again.
        let words = script(200, &[(1, P), (9, u32::MAX), (19, P + 4)]);
        let mut stream = Words::new(&words);
        let keys = Keys::setup(&mut stream, 3, 2);
        // K_1^2 is redrawn first (j = 1 comes before j = 4): word 18.
        assert_eq!(keys.final_key[1][0], words[18]);
        // K_4^1 takes word 19 (rejected), then word 20.
        assert_eq!(keys.final_key[0][3], words[20]);
        // Everything else is the first draw.
        assert_eq!(keys.final_key[2][5], words[17]);
        assert_eq!(keys.final_key[0][0], words[0]);
        // 21 words used: words 21..24 are discarded, level keys start at 24.
        assert_eq!(keys.level_key[0][0], u64::from(words[24]) | u64::from(words[25]) << 32);
        assert_eq!(keys.level_key[2][1], u64::from(words[34]) | u64::from(words[35]) << 32);
        assert_eq!(stream.at, 4 * 24 + 8 * 3 * 2);
        for tree in &keys.final_key[..3] {
            assert!(tree.iter().all(|&k| k < P));
        }
    }

    #[test]
    fn p_minus_one_is_kept() {
        let words = script(100, &[(0, P - 1)]);
        let keys = Keys::setup(&mut Words::new(&words), 1, 1);
        assert_eq!(keys.final_key[0][0], P - 1);
    }
}
