//! UHASH (RFC 4418 section 5.1): per iteration (one per 32 bits of tag),
//! L1-HASH over the message ([`super::l1`], with NH in [`super::nh`]),
//! L2-HASH over the L1 outputs ([`super::l2`]; skipped for a message of one
//! chunk at most) and L3-HASH to 32 bits ([`super::l3`]).
//!
//! Three paths: the short one-call path (at most one chunk), the long
//! one-call path (the chunks hashed straight from the message) and the
//! streaming state, which hashes input as it arrives and buffers at most one
//! partial 32-byte NH block, so no message is ever copied into a padded
//! buffer. The one-call paths exist once per iteration count and keep
//! everything in registers: up to 16 MiB, L2-HASH is a [`Poly64`] local to
//! the chunk loop. Longer messages, the streaming state and, with the
//! `parallel` feature, the multi-core paths (`super::parallel`) feed whole
//! chunks to an [`L2Hash`] and end in [`l2_tail`]; a message of one chunk
//! at most ends in [`l3_tail_of_64_bit_words`].

use aes::Aes128;
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::l1::{L1_CHUNK, L1Output, l1_key, l1_output, l1_outputs};
use super::l2::{L2Hash, L2Key, POLY64_CHUNKS, Poly64};
use super::l3::{L3Key, l3_hash, l3_hash_short};
use super::nh::{BLOCK, Backend, MAX_ITERS, NhKey};

/// All keys UHASH needs, derived once (section 5.1: L1Key, L2Key, L3Key1,
/// L3Key2).
///
/// Keys are stored for `MAX_ITERS` iterations; a shorter UHASH uses the
/// first ones, which the KDF's prefix property makes identical to the keys a
/// shorter tag would derive.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct UhashKey {
    /// L1Key, laid out for the NH backend that hashes with it.
    pub(crate) l1: NhKey,
    pub(crate) l2: L2Key,
    l3: L3Key,
}

impl UhashKey {
    /// Derives key material for `iters` iterations from the AES key K, with
    /// L1Key laid out for `backend` (which the caller checked is supported).
    pub(crate) fn derive(cipher: &Aes128, iters: usize, backend: Backend) -> Self {
        debug_assert!((1..=MAX_ITERS).contains(&iters));
        UhashKey {
            l1: l1_key(cipher, iters, backend),
            l2: L2Key::derive(cipher, iters),
            l3: L3Key::derive(cipher, iters),
        }
    }
}

/// The end of UHASH (section 5.1) for a message longer than one chunk,
/// once every chunk but the last went through L1-HASH into `l2`: for each
/// iteration, L2-HASH with the last chunk's L1 output `last` absorbed,
/// then L3-HASH (with four terms whenever the L2 output's top half is zero,
/// as POLY64's is). The long one-call path and the streaming state end
/// here; a message of one chunk at most ends in [`l3_tail_of_64_bit_words`].
#[inline(always)]
fn l2_tail(key: &UhashKey, iters: usize, l2: &mut L2Hash, last: &[u64; MAX_ITERS]) -> u128 {
    debug_assert!(!l2.is_empty());
    let mut hash = 0;
    for (i, &last) in last.iter().enumerate().take(iters) {
        let word = if l2.ends_in_poly64() {
            l3_hash_short(&key.l3.k1[i], key.l3.k2[i], l2.finish(&key.l2, i, last) as u64)
        } else {
            l3_hash(&key.l3.k1[i], key.l3.k2[i], l2.finish(&key.l2, i, last))
        };
        hash |= placed(i, word);
    }
    hash
}

/// The tail of UHASH from one 64-bit word per iteration, L3-HASH with four
/// terms: for a message of at most one chunk, its L1 outputs (`B =
/// zeroes(8) || A`, no L2 state built, so the short path keeps only
/// registers); for a longer one in the register path of [`uhash_long`],
/// POLY64's results (an L2 output whose top half is zero).
#[inline(always)]
fn l3_tail_of_64_bit_words(key: &UhashKey, words: &[u64]) -> u128 {
    let mut hash = 0;
    for (i, &word) in words.iter().enumerate() {
        hash |= placed(i, l3_hash_short(&key.l3.k1[i], key.l3.k2[i], word));
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

/// UHASH of a whole message (RFC 4418 section 5.1), `iters` 32-bit words
/// held as one number (see [`placed`]), by the short or the long one-call
/// path.
///
/// One copy of each path per iteration count (a constant for every UMAC
/// tag length), so that no loop or dispatch on the count is left at run
/// time.
#[inline(always)]
pub(crate) fn uhash(key: &UhashKey, iters: usize, msg: &[u8]) -> u128 {
    match iters {
        1 => uhash_iters::<1>(key, msg),
        2 => uhash_iters::<2>(key, msg),
        3 => uhash_iters::<3>(key, msg),
        _ => uhash_iters::<4>(key, msg),
    }
}

/// [`uhash`] for `ITERS` iterations: one call from the MAC, the short path
/// inlined here.
#[inline(never)]
fn uhash_iters<const ITERS: usize>(key: &UhashKey, msg: &[u8]) -> u128 {
    if msg.len() <= L1_CHUNK { uhash_short::<ITERS>(key, msg) } else { uhash_long::<ITERS>(key, msg) }
}

/// UHASH of a message of at most one L1 chunk (1024 bytes), the
/// short-message path: one NH call straight over the message, then the
/// tail. No state, no buffer, no allocation.
#[inline(always)]
fn uhash_short<const ITERS: usize>(key: &UhashKey, msg: &[u8]) -> u128 {
    debug_assert!(msg.len() <= L1_CHUNK);
    l3_tail_of_64_bit_words(key, &l1_outputs::<ITERS>(&key.l1, msg))
}

/// UHASH of a whole message longer than one chunk, in one call: every
/// chunk is NH-hashed straight from `msg` (the last one zero-padded by the
/// backend), with L2 and L3 on the stack. Unlike [`UhashState`] it keeps no
/// buffer and has no state to wipe, which matters for messages of a few
/// KiB; with the `parallel` feature, inputs of 1 MiB and more hash their
/// chunks on all cores. Kept out of line, so that the short path, inlined
/// into its callers, is not shaped by this one's registers and stack.
#[inline(never)]
fn uhash_long<const ITERS: usize>(key: &UhashKey, msg: &[u8]) -> u128 {
    debug_assert!(msg.len() > L1_CHUNK);
    // Every chunk but the last is a full one and goes through L2; the last
    // one goes to the tail.
    let (full, last) = msg.split_at((msg.len() - 1) / L1_CHUNK * L1_CHUNK);
    let mut whole = full.chunks_exact(L1_CHUNK);
    let on_all_cores = on_all_cores(msg.len());
    if !on_all_cores && whole.len() < POLY64_CHUNKS {
        // Up to 16 MiB: L2-HASH is POLY64 alone, and all of UHASH stays in
        // registers.
        let first = l1_outputs(&key.l1, whole.next().expect("a message past one chunk has a whole one"));
        let y = if whole.len() == 0 {
            Poly64::<ITERS>::of_two(&key.l2, &first, &l1_outputs(&key.l1, last))
        } else {
            let mut poly = Poly64::<ITERS>::start(&key.l2, &first);
            for chunk in whole {
                poly.absorb(&key.l2, &l1_outputs(&key.l1, chunk));
            }
            poly.finish(&key.l2, &l1_outputs(&key.l1, last))
        };
        return l3_tail_of_64_bit_words(key, &y);
    }
    let mut l2 = L2Hash::default();
    absorb_whole_chunks::<ITERS>(key, &mut l2, full, on_all_cores);
    let last = l1_outputs::<ITERS>(&key.l1, last);
    l2_tail(key, ITERS, &mut l2, &core::array::from_fn(|i| if i < ITERS { last[i] } else { 0 }))
}

/// Whether an input of `len` bytes hashes its chunks on all cores: with the
/// `parallel` feature, when that pays (`super::parallel::worth_it`).
#[inline(always)]
fn on_all_cores(len: usize) -> bool {
    #[cfg(feature = "parallel")]
    return super::parallel::worth_it(len);
    #[cfg(not(feature = "parallel"))]
    {
        let _ = len;
        false
    }
}

/// L1-HASH of whole chunks (`chunks` a multiple of 1024 bytes, none of
/// them the message's last) absorbed into `l2` in order, with the
/// iteration count a constant: on one core, the chunk loop of
/// [`L2Hash::absorb_chunks`], which keeps POLY64 in registers; with
/// `on_all_cores` (feature `parallel`), `super::parallel::absorb_chunks`.
#[inline(always)]
fn absorb_whole_chunks<const ITERS: usize>(key: &UhashKey, l2: &mut L2Hash, chunks: &[u8], on_all_cores: bool) {
    debug_assert_eq!(chunks.len() % L1_CHUNK, 0);
    #[cfg(feature = "parallel")]
    if on_all_cores {
        return super::parallel::absorb_chunks::<ITERS>(key, l2, chunks);
    }
    debug_assert!(!on_all_cores, "only with the parallel feature");
    l2.absorb_chunks::<ITERS>(&key.l2, chunks.chunks_exact(L1_CHUNK).map(|chunk| l1_outputs::<ITERS>(&key.l1, chunk)));
}

/// [`absorb_whole_chunks`] for a run-time iteration count: the streaming
/// state's path for input that holds whole chunks, one copy per count.
fn absorb_whole_chunks_dyn(key: &UhashKey, iters: usize, l2: &mut L2Hash, chunks: &[u8], on_all_cores: bool) {
    match iters {
        1 => absorb_whole_chunks::<1>(key, l2, chunks, on_all_cores),
        2 => absorb_whole_chunks::<2>(key, l2, chunks, on_all_cores),
        3 => absorb_whole_chunks::<3>(key, l2, chunks, on_all_cores),
        _ => absorb_whole_chunks::<4>(key, l2, chunks, on_all_cores),
    }
}

/// The hash of a message in progress: the current chunk's NH sums and the
/// L2-HASH of the chunks before it.
///
/// Holds no key, so one key serves any number of states. The number of
/// iterations is passed to every call (the tag length of the owner).
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct UhashState {
    /// NH sums of the current chunk so far, one per iteration.
    nh: [u64; MAX_ITERS],
    /// Bytes of the current chunk already NH-hashed (a multiple of 32).
    chunk_len: usize,
    /// A partial NH block waiting for more input.
    buf: [u8; BLOCK],
    buf_len: usize,
    /// L2-HASH of the chunks before the current one.
    l2: L2Hash,
}

impl Default for UhashState {
    fn default() -> Self {
        UhashState { nh: [0; MAX_ITERS], chunk_len: 0, buf: [0; BLOCK], buf_len: 0, l2: L2Hash::default() }
    }
}

impl UhashState {
    /// L1-HASH (section 5.2.1), incrementally: NH-hashes whole
    /// blocks straight from `data`, keeping only a partial block back.
    ///
    /// A full chunk is handed to L2 only when more input arrives, because a
    /// message of at most one chunk skips L2-HASH altogether.
    pub(crate) fn update(&mut self, key: &UhashKey, iters: usize, mut data: &[u8]) {
        while !data.is_empty() {
            if self.chunk_len == L1_CHUNK {
                self.close_chunk(key, iters);
            }
            if self.chunk_len == 0 && self.buf_len == 0 && data.len() > L1_CHUNK {
                // At a chunk boundary with no partial block buffered, and
                // more than a chunk to come: every whole chunk but the last
                // goes through L1 and L2 here, on all cores if that pays.
                // The last one stays for the block path below, in case it
                // ends the message (it then skips the L2 step of
                // close_chunk).
                let whole = (data.len() - 1) / L1_CHUNK * L1_CHUNK;
                let (chunks, rest) = data.split_at(whole);
                absorb_whole_chunks_dyn(key, iters, &mut self.l2, chunks, on_all_cores(data.len()));
                data = rest;
                continue;
            }
            if self.buf_len > 0 || data.len() < BLOCK {
                let take = (BLOCK - self.buf_len).min(data.len());
                self.buf[self.buf_len..self.buf_len + take].copy_from_slice(&data[..take]);
                self.buf_len += take;
                data = &data[take..];
                if self.buf_len == BLOCK {
                    let block = self.buf;
                    self.hash_blocks(key, iters, &block);
                    self.buf_len = 0;
                }
            } else {
                let whole = (L1_CHUNK - self.chunk_len).min(data.len() / BLOCK * BLOCK);
                let (blocks, rest) = data.split_at(whole);
                self.hash_blocks(key, iters, blocks);
                data = rest;
            }
        }
    }

    fn hash_blocks(&mut self, key: &UhashKey, iters: usize, blocks: &[u8]) {
        key.l1.hash(self.chunk_len / BLOCK, blocks, &mut self.nh[..iters]);
        self.chunk_len += blocks.len();
    }

    /// Ends a full 1024-byte chunk: its L1 output goes to L2.
    fn close_chunk(&mut self, key: &UhashKey, iters: usize) {
        let mut out: L1Output = [0; MAX_ITERS];
        for (o, &sum) in out.iter_mut().zip(&self.nh).take(iters) {
            *o = l1_output(sum, L1_CHUNK);
        }
        self.l2.absorb(&key.l2, iters, &[out]);
        self.nh = [0; MAX_ITERS];
        self.chunk_len = 0;
    }

    /// Bytes still to stream before the message so far ends on a chunk
    /// boundary (0 at one).
    #[cfg(feature = "parallel")]
    pub(crate) fn bytes_to_chunk_boundary(&self) -> usize {
        (L1_CHUNK - (self.chunk_len + self.buf_len) % L1_CHUNK) % L1_CHUNK
    }

    /// The L2-HASH of a state on a chunk boundary, its last full chunk
    /// closed, for whole chunks hashed elsewhere (`super::parallel`); `None`
    /// off a boundary. Only for a caller with more input to come: a chunk
    /// that ends the message must not go through L2.
    #[cfg(feature = "parallel")]
    pub(crate) fn l2_on_chunk_boundary(&mut self, key: &UhashKey, iters: usize) -> Option<&mut L2Hash> {
        if self.chunk_len == L1_CHUNK {
            self.close_chunk(key, iters);
        }
        (self.chunk_len == 0 && self.buf_len == 0).then_some(&mut self.l2)
    }

    /// Finishes UHASH (held as one number, see [`placed`]) and resets the
    /// state for the next message.
    pub(crate) fn finalize(&mut self, key: &UhashKey, iters: usize) -> u128 {
        // The last chunk is zero-padded to a positive multiple of 32 bytes:
        // the empty message hashes one block of zeros.
        if self.buf_len > 0 || (self.chunk_len == 0 && self.l2.is_empty()) {
            let mut block = [0u8; BLOCK];
            block[..self.buf_len].copy_from_slice(&self.buf[..self.buf_len]);
            let last_len = self.buf_len;
            self.hash_blocks(key, iters, &block);
            self.chunk_len -= BLOCK - last_len;
        }
        let last = self.nh.map(|sum| l1_output(sum, self.chunk_len));
        let hash = if self.l2.is_empty() {
            l3_tail_of_64_bit_words(key, &last[..iters])
        } else {
            l2_tail(key, iters, &mut self.l2, &last)
        };
        // Assigning drops (and so zeroizes) the finished state.
        *self = UhashState::default();
        hash
    }
}
