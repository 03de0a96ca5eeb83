//! UHASH (RFC 4418 section 5.1), the chunk engine every UMAC path drives:
//! per iteration, L1-HASH over the message ([`super::l1`], NH in
//! [`super::nh`]), L2-HASH over the L1 outputs ([`super::l2`]; skipped for
//! a message of one chunk at most) and L3-HASH to 32 bits ([`super::l3`]).
//!
//! Three steps make every path, each generic in the iteration count:
//!
//! * [`L2Hash::absorb`] of [`l1_chunks`]: whole 1024-byte chunks, none of
//!   them the message's last, through NH and into the L2 state, L2's step
//!   for one chunk overlapping the next chunks' NH;
//! * [`l1_hash`] of the last chunk (at most 1024 bytes, maybe empty);
//! * [`tail`]: L2-HASH's last step on it (or none, for one chunk) and
//!   L3-HASH.
//!
//! [`uhash`] is a whole message in one call (a message of two chunks in a
//! shorter form of these steps). [`UhashState`] is the same steps on a message that arrives in pieces: it NH-hashes input as it
//! comes, straight from the caller's buffer (a trailing partial block
//! zero-padded, as the one-shot path's last chunk), so no message is ever
//! copied into a padded buffer. The multi-core drivers (`super::parallel`,
//! `super::parallel_file`) sit above this module and feed a state's L2
//! whole chunks hashed elsewhere.
//!
//! The functions that take a key are generic in `K` too, the iterations
//! the key holds: at least `ITERS`, and more where a shorter UHASH is
//! computed with a longer tag's key (`super::nested`, by the KDF's prefix
//! property).

use aes::Aes128;
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::backend::Backend;
use super::l1::{L1_CHUNK, add_bit_length, l1_chunks, l1_hash, l1_key};
use super::l2::{L2Hash, L2Key, L2Output};
use super::l3::L3Key;
use super::nh::{BLOCK, NhKey, prefetch_lines};

/// All keys UHASH needs, derived once (section 5.1: L1Key, L2Key, L3Key1,
/// L3Key2).
///
/// Keys are stored for `ITERS` iterations, as a tag of `4 * ITERS` bytes
/// reads them; a shorter UHASH may use the first ones, which the KDF's
/// prefix property makes identical to the keys a shorter tag would derive.
///
/// Laid out for a server's many keys (`docs/performance.md`, "Many live keys"):
/// the fields a message of up to one chunk reads (the start of L1Key, the
/// kernel choice at its end, L3Key) in consecutive lines from a line
/// boundary, L2Key, which only longer messages read, last.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
#[repr(C, align(64))]
pub(crate) struct UhashKey<const ITERS: usize> {
    /// L1Key, laid out for the NH backend that hashes with it.
    pub(crate) l1: NhKey,
    l3: L3Key<ITERS>,
    pub(crate) l2: L2Key<ITERS>,
}

impl<const ITERS: usize> UhashKey<ITERS> {
    /// Derives key material for `ITERS` iterations from the AES key K, with
    /// L1Key laid out for `backend` (which the caller checked is supported)
    /// and `ITERS` iterations.
    pub(crate) fn derive(cipher: &Aes128, backend: Backend) -> Self {
        Self::derive_laid_out_for(cipher, ITERS, backend)
    }

    /// [`UhashKey::derive`] with L1Key laid out for the kernels of
    /// `layout_iters` iterations (at most `ITERS`): a key hashed with
    /// several counts needs one layout per kind of kernel they run.
    pub(crate) fn derive_laid_out_for(cipher: &Aes128, layout_iters: usize, backend: Backend) -> Self {
        UhashKey {
            l1: l1_key(cipher, ITERS, layout_iters, backend),
            l3: L3Key::derive(cipher),
            l2: L2Key::derive(cipher),
        }
    }

    /// The NH backend the key was laid out for.
    pub(crate) fn backend(&self) -> Backend {
        self.l1.backend()
    }

    /// Asks for the key lines UHASH reads for a message of `len` bytes
    /// with `ITERS` iterations that the hardware's prefetchers would not
    /// find ahead of their use (`docs/performance.md`, "Many live keys"): the
    /// L3Key words the key's iterations read at that length, and L2Key past
    /// one chunk. L1Key is read
    /// from its first line on, in order, which the hardware follows.
    #[inline(always)]
    pub(crate) fn prefetch(&self, len: usize) {
        prefetch_lines((&raw const self.l3).cast(), L3Key::<ITERS>::bytes_read(ITERS, len <= L1_CHUNK));
        if len > L1_CHUNK {
            prefetch_lines((&raw const self.l2).cast(), size_of::<L2Key<ITERS>>());
        }
    }

    /// Asks for every line of the key that a message of `len` bytes reads
    /// with `ITERS` iterations, L1Key's too, reading none of them: for a
    /// key whose message has not started (`Umac::prefetch`).
    #[inline(always)]
    pub(crate) fn prefetch_ahead(&self, len: usize) {
        self.l1.prefetch(len, ITERS);
        self.prefetch(len);
    }

    /// Whether the key hashes `iters` iterations (its layout is the one the
    /// NH kernels of that count read).
    pub(crate) fn serves(&self, iters: usize) -> bool {
        self.l1.serves(iters)
    }
}

/// The end of UHASH (section 5.1) from the L1 outputs of the message's last
/// chunk, `last`, with `l2` holding the chunks before it: none (a message of
/// one chunk at most: L3-HASH of `zeroes(8) || last`), or L2-HASH's last
/// step, then L3-HASH (with four terms when L2's output is POLY64's, below
/// 2^64). Iteration `i`'s 32 bits are placed as [`placed`] says.
#[inline(always)]
fn tail<const ITERS: usize, const K: usize>(key: &UhashKey<K>, l2: &L2Hash<ITERS>, last: [u64; ITERS]) -> u128 {
    const { assert!(ITERS <= K, "a key of K iterations hashes at most K") };
    match l2.finish(&key.l2, last) {
        L2Output::Short(words) => l3_short::<ITERS, K>(key, words),
        L2Output::Wide(wide) => (0..ITERS).fold(0, |hash, i| hash | placed(i, key.l3.hash(i, wide[i]))),
    }
}

/// L3-HASH (section 5.4) of each iteration's L2-HASH output below 2^64
/// (POLY64's, or the zero-extended L1 output of a message of one chunk at
/// most), placed as [`placed`] says.
#[inline(always)]
fn l3_short<const ITERS: usize, const K: usize>(key: &UhashKey<K>, words: [u64; ITERS]) -> u128 {
    const { assert!(ITERS <= K, "a key of K iterations hashes at most K") };
    // A loop, not a `fold`: LLVM leaves a `fold` over four iterations out of
    // line, a call per message with the words handed over through memory.
    let mut hash = 0;
    for (i, &word) in words.iter().enumerate() {
        hash |= placed(i, key.l3.hash_short(i, word));
    }
    hash
}

/// Iteration `i`'s 32-bit word at its place in UHASH's output held as one
/// number: the output's bytes read big-endian, so iteration 0 is the top
/// word and the bits past the last iteration are zero. The output stays in
/// registers from L3-HASH to the tag (four 4-byte stores read back by a
/// wider load, as a byte array invites, stall on store forwarding).
#[inline(always)]
fn placed(i: usize, word: u32) -> u128 {
    u128::from(word) << (96 - 32 * i)
}

/// The first `N` bytes of UHASH's output held as one number (see
/// [`placed`]): the tag of `4 * iters` bytes.
#[inline(always)]
pub(crate) fn output_bytes<const N: usize>(hash: u128) -> [u8; N] {
    let bytes = hash.to_be_bytes();
    core::array::from_fn(|i| bytes[i])
}

/// UHASH of a whole message with `ITERS` iterations, held as one number
/// (see [`placed`]): one call from the MAC, in which a message of one chunk
/// at most takes the short path, inlined here (NH straight over the
/// message, then L3-HASH: no state, no buffer).
#[inline(never)]
pub(crate) fn uhash<const ITERS: usize, const K: usize>(key: &UhashKey<K>, msg: &[u8]) -> u128 {
    if msg.len() <= L1_CHUNK {
        l3_short::<ITERS, K>(key, l1_hash(&key.l1, msg))
    } else if msg.len() <= 2 * L1_CHUNK {
        uhash_two_chunks::<ITERS, K>(key, msg)
    } else {
        uhash_long::<ITERS, K>(key, msg)
    }
}

/// [`uhash`] of a message of two chunks (1025 to 2048 bytes, a common
/// packet size): both chunks' NH, POLY64 of the two words, L3-HASH, with
/// no L2 state between them (whose bookkeeping cost a UMAC-64 message of
/// this size about 3 ns: `docs/performance-log.md` section 16). POLY64 takes
/// the form that leaves the least work after the later of the two words:
/// the last chunk's, unless that chunk is a block or two (section 17).
#[inline(never)]
fn uhash_two_chunks<const ITERS: usize, const K: usize>(key: &UhashKey<K>, msg: &[u8]) -> u128 {
    debug_assert!(msg.len() > L1_CHUNK && msg.len() <= 2 * L1_CHUNK);
    let (first, last) = msg.split_at(L1_CHUNK);
    let last_is_late = last.len() > LAST_CHUNK_READY_FIRST;
    // L1-HASH of each chunk (neither is empty): NH from the length term.
    let first = key.l1.sums::<ITERS, 0>(0, first, [add_bit_length(0, L1_CHUNK); ITERS]);
    let last = key.l1.sums::<ITERS, 0>(0, last, [add_bit_length(0, last.len()); ITERS]);
    l3_short::<ITERS, K>(key, L2Hash::two_words(&key.l2, first, last, last_is_late))
}

/// The longest last chunk whose NH ends before the whole first chunk's:
/// two blocks (measured, `docs/performance-log.md` section 17).
const LAST_CHUNK_READY_FIRST: usize = 2 * BLOCK;

/// [`uhash`] of a message longer than two chunks: every chunk NH-hashed
/// straight from `msg` (the last one zero-padded by the backend), the L2
/// state on the stack. The whole chunks before the last are one run
/// ([`l1_chunks`]), NH's backend chosen once for it, L2's steps taken
/// between its chunks. Kept out of line, so that the short path, inlined
/// into its callers, is not shaped by this one's registers and stack.
#[inline(never)]
fn uhash_long<const ITERS: usize, const K: usize>(key: &UhashKey<K>, msg: &[u8]) -> u128 {
    debug_assert!(msg.len() > L1_CHUNK);
    let (whole, last) = msg.split_at((msg.len() - 1) / L1_CHUNK * L1_CHUNK);
    let mut l2 = L2Hash::default();
    l2.absorb(&key.l2, l1_chunks(&key.l1, whole.as_chunks::<L1_CHUNK>().0));
    tail::<ITERS, K>(key, &l2, l1_hash(&key.l1, last))
}

/// The hash of a message in progress: the current chunk's NH sums, and the
/// L2-HASH of the chunks before it.
///
/// The sums always cover all of the current chunk so far, its partial last
/// block zero-padded, as the one-shot path hashes a message's last chunk:
/// so a message streamed in one piece costs the NH calls of the one-shot
/// path, and finishing it adds none. The partial block's bytes are kept;
/// when more input arrives, its padded contribution is subtracted from the
/// sums (NH is a sum over blocks mod 2^64) and the block hashed again, whole
/// or longer.
///
/// Holds no key, so one key serves any number of states; every call names
/// the iteration count. Between messages only what the next one needs is
/// reset (the sums, the length, and the L2 accumulators, which are as
/// secret as the key); the partial block's bytes stay until they are
/// overwritten or the state is dropped, which wipes all of it.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct UhashState<const ITERS: usize> {
    /// NH sums of the current chunk, one per iteration.
    nh: [u64; ITERS],
    /// Bytes of the current chunk so far (at most 1024).
    len: usize,
    /// The current chunk's partial last block: `block[..len % 32]`.
    block: [u8; BLOCK],
    /// L2-HASH of the chunks before the current one.
    l2: L2Hash<ITERS>,
}

impl<const ITERS: usize> Default for UhashState<ITERS> {
    fn default() -> Self {
        UhashState { nh: [0; ITERS], len: 0, block: [0; BLOCK], l2: L2Hash::default() }
    }
}

impl<const ITERS: usize> UhashState<ITERS> {
    /// Adds `data` to the message: L1-HASH (section 5.2.1) as the input
    /// arrives, straight from `data`. Input that fits the current chunk and
    /// starts on a block boundary (every first piece of a message of up to
    /// one chunk) is one NH call; anything else takes
    /// [`UhashState::update_across`]. Inlined into the MAC's call, the
    /// NH backend's own code out of line (as in the one-shot path).
    #[inline(always)]
    pub(crate) fn update<const K: usize>(&mut self, key: &UhashKey<K>, data: &[u8]) {
        if self.len.is_multiple_of(BLOCK) && data.len() <= L1_CHUNK - self.len {
            self.extend_chunk(key, data);
        } else {
            self.update_across(key, data);
        }
    }

    /// Hashes `data`, which fits the current chunk, onto its sums from a
    /// block boundary, a partial last block zero-padded and kept.
    #[inline(always)]
    fn extend_chunk<const K: usize>(&mut self, key: &UhashKey<K>, data: &[u8]) {
        debug_assert!(self.len.is_multiple_of(BLOCK) && self.len + data.len() <= L1_CHUNK);
        if data.is_empty() {
            return;
        }
        self.nh = key.l1.sums::<ITERS, 0>(self.len / BLOCK, data, self.nh);
        let partial = data.len() % BLOCK;
        if partial > 0 {
            copy_short(&mut self.block, &data[data.len() - partial..]);
        }
        self.len += data.len();
    }

    /// [`UhashState::update`] for input that completes a partial block or
    /// crosses chunks: the partial block's padded contribution taken back
    /// out and the block hashed again with the input's first bytes; then,
    /// chunk by chunk, whole chunks that more input follows into L2 (as one
    /// run when several come at once), the rest onto the sums.
    #[inline(never)]
    fn update_across<const K: usize>(&mut self, key: &UhashKey<K>, mut data: &[u8]) {
        if data.is_empty() {
            return;
        }
        let partial = self.len % BLOCK;
        if partial > 0 {
            let start = self.len - partial;
            let padded = key.l1.sums::<ITERS, 0>(start / BLOCK, &self.block[..partial], [0; ITERS]);
            for (sum, taken) in self.nh.iter_mut().zip(padded) {
                *sum = sum.wrapping_sub(taken);
            }
            let take = (BLOCK - partial).min(data.len());
            let mut block = self.block;
            block[partial..partial + take].copy_from_slice(&data[..take]);
            self.len = start;
            self.extend_chunk(key, &block[..partial + take]);
            block.zeroize();
            data = &data[take..];
        }
        while !data.is_empty() {
            if self.len == L1_CHUNK {
                self.close_chunk(key);
            }
            if self.len == 0 && data.len() > L1_CHUNK {
                let (chunks, rest) = data.split_at((data.len() - 1) / L1_CHUNK * L1_CHUNK);
                self.l2.absorb(&key.l2, l1_chunks(&key.l1, chunks.as_chunks::<L1_CHUNK>().0));
                data = rest;
            }
            let (piece, rest) = data.split_at((L1_CHUNK - self.len).min(data.len()));
            self.extend_chunk(key, piece);
            data = rest;
        }
    }

    /// Ends a full chunk that more input follows: its L1 outputs go to L2.
    fn close_chunk<const K: usize>(&mut self, key: &UhashKey<K>) {
        debug_assert_eq!(self.len, L1_CHUNK);
        let outputs = core::array::from_fn(|i| add_bit_length(self.nh[i], L1_CHUNK));
        self.l2.absorb(&key.l2, &[outputs][..]);
        self.nh = [0; ITERS];
        self.len = 0;
    }

    /// Bytes still to stream before the message so far ends on a chunk
    /// boundary (0 at one).
    #[cfg(feature = "parallel")]
    pub(crate) fn bytes_to_chunk_boundary(&self) -> usize {
        (L1_CHUNK - self.len % L1_CHUNK) % L1_CHUNK
    }

    /// The L2-HASH of a state on a chunk boundary, its last full chunk
    /// closed, for whole chunks hashed elsewhere (the multi-core drivers);
    /// `None` off a boundary. Only for a caller with more input to come: a
    /// chunk that ends the message must not go through L2.
    #[cfg(feature = "parallel")]
    pub(crate) fn l2_at_chunk_boundary<const K: usize>(&mut self, key: &UhashKey<K>) -> Option<&mut L2Hash<ITERS>> {
        if self.len == L1_CHUNK {
            self.close_chunk(key);
        }
        (self.len == 0).then_some(&mut self.l2)
    }

    /// Finishes UHASH (held as one number, see [`placed`]) and resets the
    /// state for the next message. The sums already cover the last chunk,
    /// zero-padded, so no NH is left to do; inlined into the MAC's call.
    #[inline(always)]
    pub(crate) fn finalize<const K: usize>(&mut self, key: &UhashKey<K>) -> u128 {
        let last = if self.len == 0 {
            // The empty message, one block of zeros: every other message
            // leaves a byte for its last chunk.
            debug_assert!(self.l2.is_empty());
            l1_hash(&key.l1, &[])
        } else {
            core::array::from_fn(|i| add_bit_length(self.nh[i], self.len))
        };
        let hash = tail(key, &self.l2, last);
        self.reset();
        hash
    }

    /// Discards the message in progress.
    #[inline]
    pub(crate) fn reset(&mut self) {
        self.nh = [0; ITERS];
        self.len = 0;
        if !self.l2.is_empty() {
            self.l2 = L2Hash::default();
        }
    }
}

/// `src` (1 to 31 bytes) into the start of `dst` by fixed-width moves: two
/// overlapping copies of the widest power of two that fits, so that the
/// partial block of every update is kept without a call to `memcpy`.
#[inline(always)]
fn copy_short(dst: &mut [u8; BLOCK], src: &[u8]) {
    #[inline(always)]
    fn overlapping<const W: usize>(dst: &mut [u8; BLOCK], src: &[u8]) {
        let n = src.len();
        let head: [u8; W] = src[..W].try_into().expect("W bytes");
        let tail: [u8; W] = src[n - W..].try_into().expect("W bytes");
        dst[..W].copy_from_slice(&head);
        dst[n - W..n].copy_from_slice(&tail);
    }
    debug_assert!((1..BLOCK).contains(&src.len()));
    match src.len() {
        16.. => overlapping::<16>(dst, src),
        8.. => overlapping::<8>(dst, src),
        4.. => overlapping::<4>(dst, src),
        2.. => overlapping::<2>(dst, src),
        _ => dst[0] = src[0],
    }
}

#[cfg(test)]
mod tests {
    use aes::cipher::KeyInit;

    use super::super::AnyUmac;
    use super::*;

    /// RFC 4418's `'a'` vectors (tests/vectors/rfc4418.txt), the longest
    /// of which (2^25 bytes) runs past the 16 MiB where L2-HASH moves from
    /// POLY64 to POLY128 (section 5.3.2), so its end is [`tail`]'s POLY128
    /// branch; each one-shot and streamed in pieces of 1000 bytes.
    #[test]
    fn the_rfc_vectors_one_shot_and_streamed() {
        let vectors = include_str!("../../tests/vectors/rfc4418.txt");
        for row in vectors.lines().filter(|line| line.starts_with("a ")) {
            let mut fields = row.split_whitespace().skip(1);
            let len: usize = fields.next().unwrap().parse().unwrap();
            let msg = vec![b'a'; len];
            for (tag_len, tag) in [4, 8, 12, 16].into_iter().zip(fields) {
                let mut mac = AnyUmac::new(b"abcdefghijklmnop", tag_len).unwrap();
                let one_shot = mac.mac(b"bcdefghi", &msg).unwrap();
                assert_eq!(hex::encode_upper(one_shot.as_slice()), tag, "{len} bytes, {tag_len}-byte tag");
                for piece in msg.chunks(1000) {
                    mac.update(piece);
                }
                assert_eq!(mac.finalize_reset(b"bcdefghi").unwrap(), one_shot, "{len} bytes streamed");
            }
        }
    }

    /// Runs of whole chunks that NH hashes in one call (two and more under
    /// AVX2, 32 and more under AVX-512, in batches), one-shot and streamed,
    /// equal the portable backend, called once per chunk, under every
    /// backend this CPU runs.
    #[test]
    fn long_runs_equal_the_portable_backend_one_shot_and_streamed() {
        // Runs started after zero, one and two L2 words, with chunks left
        // over after the last whole batch or none.
        fn check<const ITERS: usize>(msg: &[u8]) {
            let cipher = Aes128::new(&[0x5e; 16].into());
            let portable = UhashKey::<ITERS>::derive(&cipher, Backend::Portable);
            for backend in Backend::supported() {
                let key = UhashKey::<ITERS>::derive(&cipher, backend);
                for len in [
                    3 * L1_CHUNK + 7,
                    4 * L1_CHUNK,
                    34 * L1_CHUNK,
                    35 * L1_CHUNK + 1,
                    41 * L1_CHUNK + 500,
                    97 * L1_CHUNK,
                ] {
                    let msg = &msg[..len];
                    let expect = uhash::<ITERS, ITERS>(&portable, msg);
                    assert_eq!(uhash::<ITERS, ITERS>(&key, msg), expect, "{backend}, {ITERS} iterations, {len} bytes");
                    for head in [1, L1_CHUNK, L1_CHUNK + 1, 2 * L1_CHUNK] {
                        let mut state = UhashState::<ITERS>::default();
                        state.update(&key, &msg[..head]);
                        state.update(&key, &msg[head..]);
                        let streamed = state.finalize(&key);
                        assert_eq!(streamed, expect, "{backend}, {ITERS} iterations, {len} bytes, head {head}");
                    }
                }
            }
        }
        let msg: Vec<u8> = (0..97 * L1_CHUNK as u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
        check::<1>(&msg);
        check::<2>(&msg);
        check::<3>(&msg);
        check::<4>(&msg);
    }

    /// The streaming state equals the one-shot UHASH however a message is
    /// cut: lengths at and next to block (32 bytes) and chunk (1024 bytes)
    /// boundaries, in equal pieces of 1 byte to past two chunks, and in a
    /// short first piece followed by long ones (a partial block, then
    /// input that crosses chunks).
    #[test]
    fn streaming_equals_one_shot_however_the_message_is_cut() {
        let key = UhashKey::<2>::derive(&Aes128::new(&[0x3c; 16].into()), Backend::detect());
        let msg: Vec<u8> = (0..5000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8).collect();
        for len in [0, 1, 31, 32, 33, 1023, 1024, 1025, 2047, 2048, 2049, 3072, 3073, 4100] {
            let msg = &msg[..len];
            let expect = uhash::<2, 2>(&key, msg);
            for first in [0, 5, 32] {
                for piece in [1, 7, 31, 32, 33, 500, 1023, 1024, 1025, 2049] {
                    let (head, rest) = msg.split_at(first.min(len));
                    let mut state = UhashState::<2>::default();
                    state.update(&key, head);
                    for part in rest.chunks(piece) {
                        state.update(&key, part);
                    }
                    assert_eq!(state.finalize(&key), expect, "{len} bytes: {first}, then pieces of {piece}");
                }
            }
        }
    }
}
