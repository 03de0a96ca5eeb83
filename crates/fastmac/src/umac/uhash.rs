//! UHASH (RFC 4418 section 5): the keyed universal hash under UMAC, in the
//! order of the RFC's subsections.
//!
//! * 5.1 UHASH: key material per iteration ([`UhashKey::derive`]) and the
//!   iteration loop ([`UhashState::finalize`]);
//! * 5.2 L1-HASH: 1024-byte chunks, each NH-hashed plus its bit length
//!   ([`UhashState::update`], with NH itself in [`super::nh`]);
//! * 5.3 L2-HASH and POLY: POLY64 over the L1 output, switching to POLY128
//!   past 2^17 bytes of it, i.e. past 16 MiB of message ([`L2Hash`]);
//! * 5.4 L3-HASH: an inner product mod 2^36 - 5 ([`l3_hash`]).
//!
//! The state hashes input as it arrives and buffers at most one partial
//! 32-byte NH block, so no message is ever copied into a padded buffer.
//! Arithmetic on key-dependent values is branch-free.

use aes::Aes128;
use subtle::{Choice, ConditionallySelectable};
use zeroize::{Zeroize, ZeroizeOnDrop};

use super::kdf::kdf;
use super::nh::{self, BLOCK, Backend, NhKey};

/// Most UHASH iterations (UMAC-128 has 4; one per 32 bits of tag).
pub(crate) const MAX_ITERS: usize = 4;
/// L1-HASH chunk: 1024 bytes of message.
pub(crate) const L1_CHUNK: usize = 1024;
/// L1 key words: 1024 bytes plus 16 more per extra iteration (Toeplitz shift).
const L1_KEY_WORDS: usize = nh::KEY_WORDS;

/// L1 outputs hashed under POLY64 before L2-HASH moves to POLY128: 2^17 bytes
/// of L1 output, 8 bytes each (RFC 4418 section 5.3.1).
const POLY64_WORDS: u64 = 1 << 14;

const P36: u64 = (1 << 36) - 5;
const P64: u64 = 0u64.wrapping_sub(59); // 2^64 - 59
const P128: u128 = 0u128.wrapping_sub(159); // 2^128 - 159

/// All keys UHASH needs, derived once (RFC 4418 section 5.1, step 1).
///
/// Keys are stored for `MAX_ITERS` iterations; a shorter UHASH uses the
/// first ones, which the KDF's prefix property makes identical to the keys a
/// shorter tag would derive.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct UhashKey {
    /// L1Key, laid out for the NH backend that hashes with it.
    pub(crate) l1: NhKey,
    /// Per iteration: k64 of L2-HASH, masked with 0x01ffffff01ffffff.
    l2_64: [u64; MAX_ITERS],
    /// Per iteration: k128 of L2-HASH, masked likewise.
    l2_128: [u128; MAX_ITERS],
    /// Per iteration: the eight L3Key1 words, each reduced mod 2^36 - 5.
    l3_1: [[u64; 8]; MAX_ITERS],
    /// Per iteration: L3Key2.
    l3_2: [u32; MAX_ITERS],
}

impl UhashKey {
    /// Derives key material for `iters` iterations from the AES key K, with
    /// L1Key laid out for `backend` (which the caller checked is supported).
    pub(crate) fn derive(cipher: &Aes128, iters: usize, backend: Backend) -> Self {
        debug_assert!((1..=MAX_ITERS).contains(&iters));
        let mut l1_words = [0u32; L1_KEY_WORDS];
        let mut key = UhashKey {
            l1: NhKey::new(&l1_words, backend),
            l2_64: [0; MAX_ITERS],
            l2_128: [0; MAX_ITERS],
            l3_1: [[0; 8]; MAX_ITERS],
            l3_2: [0; MAX_ITERS],
        };
        let mut buf = [0u8; L1_CHUNK + 16 * (MAX_ITERS - 1)];

        // L1Key = KDF(K, 1, 1024 + (iters - 1) * 16)
        let l1_len = L1_CHUNK + 16 * (iters - 1);
        kdf(cipher, 1, &mut buf[..l1_len]);
        for (word, bytes) in l1_words.iter_mut().zip(buf[..l1_len].chunks_exact(4)) {
            *word = u32::from_be_bytes(bytes.try_into().expect("4 bytes"));
        }
        key.l1 = NhKey::new(&l1_words, backend);
        l1_words.zeroize();

        // L2Key = KDF(K, 2, iters * 24): per iteration k64 then k128, masked.
        kdf(cipher, 2, &mut buf[..24 * iters]);
        for (i, bytes) in buf[..24 * iters].chunks_exact(24).enumerate() {
            key.l2_64[i] = be_u64(&bytes[..8]) & 0x01ff_ffff_01ff_ffff;
            key.l2_128[i] = u128::from_be_bytes(bytes[8..24].try_into().expect("16 bytes"))
                & 0x01ff_ffff_01ff_ffff_01ff_ffff_01ff_ffff;
        }

        // L3Key1 = KDF(K, 3, iters * 64), L3Key2 = KDF(K, 4, iters * 4).
        kdf(cipher, 3, &mut buf[..64 * iters]);
        for (i, bytes) in buf[..64 * iters].chunks_exact(64).enumerate() {
            for (k, word) in key.l3_1[i].iter_mut().zip(bytes.chunks_exact(8)) {
                *k = reduce_p36(be_u64(word));
            }
        }
        kdf(cipher, 4, &mut buf[..4 * iters]);
        for (k, bytes) in key.l3_2.iter_mut().zip(buf[..4 * iters].chunks_exact(4)) {
            *k = u32::from_be_bytes(bytes.try_into().expect("4 bytes"));
        }
        buf.zeroize();
        key
    }
}

fn be_u64(bytes: &[u8]) -> u64 {
    u64::from_be_bytes(bytes.try_into().expect("8 bytes"))
}

/// The hash of a message in progress: L1 partial sums and L2 accumulators.
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
    /// L2-HASH of the chunks before the current one, one per iteration.
    l2: [L2Hash; MAX_ITERS],
    /// Chunks already fed to L2-HASH.
    chunks: u64,
}

impl Default for UhashState {
    fn default() -> Self {
        UhashState {
            nh: [0; MAX_ITERS],
            chunk_len: 0,
            buf: [0; BLOCK],
            buf_len: 0,
            l2: [L2Hash::default(); MAX_ITERS],
            chunks: 0,
        }
    }
}

impl UhashState {
    /// L1-HASH (RFC 4418 section 5.2.1), incrementally: NH-hashes whole
    /// blocks straight from `data`, keeping only a partial block back.
    ///
    /// A full chunk is handed to L2 only when more input arrives, because a
    /// message of at most one chunk skips L2-HASH altogether.
    pub(crate) fn update(&mut self, key: &UhashKey, iters: usize, mut data: &[u8]) {
        while !data.is_empty() {
            if self.chunk_len == L1_CHUNK {
                self.close_chunk(key, iters);
            }
            #[cfg(feature = "parallel")]
            if self.chunk_len == 0 && self.buf_len == 0 && super::parallel::worth_it(data.len()) {
                // At a chunk boundary with no partial block buffered:
                // hash every whole chunk but the last on all cores. The last
                // one stays for the sequential path, in case it ends the
                // message (it then skips the L2 step of close_chunk).
                let whole = (data.len() - 1) / L1_CHUNK * L1_CHUNK;
                let (chunks, rest) = data.split_at(whole);
                super::parallel::l1_in_batches(key, iters, chunks, |outputs| self.absorb_l1(key, iters, outputs));
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

    /// Feeds the L1 outputs of whole chunks (hashed elsewhere) to L2.
    #[cfg(feature = "parallel")]
    fn absorb_l1(&mut self, key: &UhashKey, iters: usize, outputs: &[super::parallel::L1Output]) {
        debug_assert!(self.chunk_len == 0 && self.buf_len == 0);
        for out in outputs {
            for (i, (l2, &word)) in self.l2.iter_mut().zip(out).take(iters).enumerate() {
                l2.absorb(key.l2_64[i], key.l2_128[i], self.chunks, word);
            }
            self.chunks += 1;
        }
    }

    /// Ends a full 1024-byte chunk: its L1 output `NH + 8192` goes to L2.
    fn close_chunk(&mut self, key: &UhashKey, iters: usize) {
        for i in 0..iters {
            let l1_out = self.nh[i].wrapping_add(8 * L1_CHUNK as u64);
            self.l2[i].absorb(key.l2_64[i], key.l2_128[i], self.chunks, l1_out);
            self.nh[i] = 0;
        }
        self.chunks += 1;
        self.chunk_len = 0;
    }

    /// Finishes UHASH (RFC 4418 section 5.1, step 2) into `out`
    /// (`4 * iters` bytes) and resets the state for the next message.
    pub(crate) fn finalize(&mut self, key: &UhashKey, iters: usize, out: &mut [u8]) {
        debug_assert_eq!(out.len(), 4 * iters);
        // The last chunk is zero-padded to a positive multiple of 32 bytes:
        // the empty message hashes one block of zeros.
        if self.buf_len > 0 || (self.chunk_len == 0 && self.chunks == 0) {
            let mut block = [0u8; BLOCK];
            block[..self.buf_len].copy_from_slice(&self.buf[..self.buf_len]);
            let last_len = self.buf_len;
            self.hash_blocks(key, iters, &block);
            self.chunk_len -= BLOCK - last_len;
        }
        let bit_len = 8 * self.chunk_len as u64;
        for (i, c) in out.chunks_exact_mut(4).enumerate() {
            let a = self.nh[i].wrapping_add(bit_len);
            // Messages of at most 1024 bytes skip L2: B = zeroes(8) || A.
            let b = if self.chunks == 0 {
                u128::from(a)
            } else {
                self.l2[i].absorb(key.l2_64[i], key.l2_128[i], self.chunks, a);
                self.l2[i].finish(key.l2_128[i], self.chunks + 1)
            };
            c.copy_from_slice(&l3_hash(&key.l3_1[i], key.l3_2[i], b).to_be_bytes());
        }
        // Assigning drops (and so zeroizes) the finished state.
        *self = UhashState::default();
    }
}

/// UHASH of a whole message (RFC 4418 section 5.1) into `out`
/// (`4 * iters` bytes), by the short or the long one-call path.
#[inline]
pub(crate) fn uhash(key: &UhashKey, iters: usize, msg: &[u8], out: &mut [u8]) {
    debug_assert_eq!(out.len(), 4 * iters);
    for (c, word) in out.chunks_exact_mut(4).zip(uhash_words(key, iters, msg)) {
        c.copy_from_slice(&word.to_be_bytes());
    }
}

/// UHASH of a whole message as its first `iters` 32-bit words (the rest
/// zero), for callers that keep the tag in registers.
#[inline]
pub(crate) fn uhash_words(key: &UhashKey, iters: usize, msg: &[u8]) -> [u32; MAX_ITERS] {
    if msg.len() <= L1_CHUNK {
        return uhash_short(key, iters, msg);
    }
    // One copy per iteration count, so the per-chunk loops unroll.
    match iters {
        1 => uhash_long::<1>(key, msg),
        2 => uhash_long::<2>(key, msg),
        3 => uhash_long::<3>(key, msg),
        _ => uhash_long::<4>(key, msg),
    }
}

/// UHASH of a message of at most one L1 chunk (1024 bytes), the short-message
/// path: one NH call straight over the message (the backend zero-pads the
/// last block without a copy), then L3 on `NH + bit length`, since such a
/// message skips L2-HASH (section 5.3.1: B = zeroes(8) || A). No state, no
/// buffer, no allocation.
#[inline]
fn uhash_short(key: &UhashKey, iters: usize, msg: &[u8]) -> [u32; MAX_ITERS] {
    debug_assert!(msg.len() <= L1_CHUNK);
    let mut nh = [0u64; MAX_ITERS];
    // The empty message is hashed as one block of zeros (section 5.2.1).
    let data = if msg.is_empty() { &[0u8; BLOCK][..] } else { msg };
    key.l1.hash(0, data, &mut nh[..iters]);
    let bit_len = 8 * msg.len() as u64;
    let mut out = [0u32; MAX_ITERS];
    for (i, word) in out.iter_mut().enumerate().take(iters) {
        *word = l3_hash_short(&key.l3_1[i], key.l3_2[i], nh[i].wrapping_add(bit_len));
    }
    out
}

/// L2-HASH of one iteration (RFC 4418 section 5.3), fed one 64-bit L1
/// output at a time: POLY64 over the first 2^14 outputs, then POLY128 over
/// `uint2str(y, 16) || rest || 0x80 || zeros`.
#[derive(Clone, Copy, Zeroize)]
struct L2Hash {
    y64: u64,
    y128: u128,
    /// The high half of a POLY128 word whose low half has not arrived.
    high_half: u64,
}

impl Default for L2Hash {
    fn default() -> Self {
        L2Hash { y64: 1, y128: 1, high_half: 0 }
    }
}

impl L2Hash {
    /// Absorbs the L1 output number `index` (0-based).
    fn absorb(&mut self, k64: u64, k128: u128, index: u64, word: u64) {
        if index < POLY64_WORDS {
            self.y64 = poly64_step(k64, self.y64, word);
            return;
        }
        let offset = index - POLY64_WORDS;
        if offset == 0 {
            // POLY128's first word is uint2str(y64, 16); y64 < p64 is always
            // below POLY128's word range, so no marker is possible.
            self.y128 = mul_add_mod_p128(k128, 1, u128::from(self.y64));
        }
        if offset % 2 == 0 {
            self.high_half = word;
        } else {
            let m = (u128::from(self.high_half) << 64) | u128::from(word);
            self.y128 = poly128_step(k128, self.y128, m);
        }
    }

    /// The L2 output, given how many L1 outputs were absorbed in all.
    fn finish(&self, k128: u128, count: u64) -> u128 {
        if count <= POLY64_WORDS {
            return u128::from(self.y64);
        }
        // Append the byte 0x80, then zeros to a whole 16-byte word.
        let m = if (count - POLY64_WORDS) % 2 == 1 {
            (u128::from(self.high_half) << 64) | (1 << 63)
        } else {
            1 << 127
        };
        poly128_step(k128, self.y128, m)
    }
}

/// All-ones when `cond` is 1, zero when it is 0.
fn mask64(cond: u64) -> u64 {
    0u64.wrapping_sub(cond)
}

/// One word of POLY (RFC 4418 section 5.3.2) with 64-bit words. A word in
/// the top range (`m >= 2^64 - 2^32`) is hashed as the marker `p - 1` then
/// `m - offset`. Both paths are computed and one is selected without a
/// branch, since `m` depends on the key. They share one multiplication:
/// with `u = k * y + (p - 1)`, the plain result `k * y + m` is `u + m + 1`,
/// and the marked one is `k * u + (m - 59)`.
fn poly64_step(k: u64, y: u64, m: u64) -> u64 {
    let in_top_range = mask64(((m >> 32) + 1) >> 32);
    let u = mul_add_mod_p64(k, y, P64 - 1);
    // Only used when m < 2^64 - 2^32, so m + 1 does not wrap.
    let plain = add_mod_p64(u, m.wrapping_add(1));
    let marked = mul_add_mod_p64(k, u, m.wrapping_sub(59));
    (marked & in_top_range) | (plain & !in_top_range)
}

/// `(a + b) mod (2^64 - 59)` for `a < p` and any 64-bit `b`.
fn add_mod_p64(a: u64, b: u64) -> u64 {
    let (sum, carry) = a.overflowing_add(b);
    // 2^64 = 59 (mod p); with a carry, sum < a < p, so this cannot wrap.
    let t = sum + 59 * u64::from(carry);
    let (reduced, borrow) = t.overflowing_sub(P64);
    let keep = mask64(u64::from(borrow));
    (t & keep) | (reduced & !keep)
}

/// One word of POLY with 128-bit words (range limit `2^128 - 2^96`).
fn poly128_step(k: u128, y: u128, m: u128) -> u128 {
    let top = (m >> 96) as u64;
    let in_top_range = u128::from(mask64((top + 1) >> 32)) * u128::MAX;
    let plain = mul_add_mod_p128(k, y, m);
    let marked = mul_add_mod_p128(k, mul_add_mod_p128(k, y, P128 - 1), m.wrapping_sub(159));
    (marked & in_top_range) | (plain & !in_top_range)
}

/// `(k * y + a) mod (2^64 - 59)` for `k < 2^57`, `y < 2^64`, `a < 2^64`.
fn mul_add_mod_p64(k: u64, y: u64, a: u64) -> u64 {
    let x = u128::from(k) * u128::from(y) + u128::from(a); // < 2^122
    // 2^64 = 59 (mod p): fold the high half down twice.
    let t = (x >> 64) * 59 + u128::from(x as u64); // < 2^65
    let t = ((t >> 64) * 59 + u128::from(t as u64)) as u64; // fits: see below
    // After the first fold the high half is 0 or 1; when it is 1 the low
    // half is below 2^63, so the second fold cannot carry. t < 2p now.
    let (reduced, borrow) = t.overflowing_sub(P64);
    let keep = mask64(u64::from(borrow));
    (t & keep) | (reduced & !keep)
}

/// `(k * y + a) mod (2^128 - 159)` for `k < 2^121`, `y, a < 2^128`.
fn mul_add_mod_p128(k: u128, y: u128, a: u128) -> u128 {
    let (k0, k1) = (u128::from(k as u64), k >> 64);
    let (y0, y1) = (u128::from(y as u64), y >> 64);
    // 256-bit product as hi * 2^128 + lo.
    let p00 = k0 * y0;
    let p01 = k0 * y1;
    let p10 = k1 * y0;
    let mid = (p00 >> 64) + (p01 & u128::from(u64::MAX)) + (p10 & u128::from(u64::MAX));
    let lo = (mid << 64) | (p00 & u128::from(u64::MAX));
    let hi = (mid >> 64) + (p01 >> 64) + (p10 >> 64) + k1 * y1; // < 2^121
    // 2^128 = 159 (mod p): x = hi * 159 + lo + a, summed in 64-bit limbs.
    let h0 = u128::from(hi as u64) * 159; // < 2^72
    let h1 = (hi >> 64) * 159; // < 2^65
    let s0 = u128::from(lo as u64) + u128::from(a as u64) + (h0 & u128::from(u64::MAX));
    let s1 = (lo >> 64) + (a >> 64) + (h0 >> 64) + (h1 & u128::from(u64::MAX)) + (s0 >> 64);
    let s2 = (h1 >> 64) + (s1 >> 64); // a few units
    let low = (s1 << 64) | (s0 & u128::from(u64::MAX));
    let (t, carry) = low.overflowing_add(s2 * 159);
    let t = t + u128::from(carry) * 159; // cannot carry again: t is tiny here
    // t < 2p: subtract p once if t >= p, i.e. if t + 159 overflows.
    let (plus, over) = t.overflowing_add(159);
    let take = u128::from(over) * u128::MAX;
    (plus & take) | (t & !take)
}

/// `x mod (2^36 - 5)` for `x < 2^60` (every L3 sum: eight products of a
/// 16-bit word and a key below 2^36 stay below 2^55): one fold leaves
/// `t < 2^36 + 5 * 2^24 < 2p`, so one conditional subtraction finishes.
fn reduce_p36_sum(x: u64) -> u64 {
    debug_assert!(x < 1 << 60);
    const MASK: u64 = (1 << 36) - 1;
    let t = (x & MASK) + 5 * (x >> 36);
    select_unless_borrow(t, P36)
}

/// `t - p` if that does not borrow, else `t`, for key-derived `t`. Through
/// `subtle`'s select: with the plain mask form (`mask64`) rustc emitted a
/// conditional jump here, which the ctgrind test (crates/fastmac-c/tests/ct)
/// flagged in key setup (L3Key1 reduction, RFC 4418 section 5.4).
fn select_unless_borrow(t: u64, p: u64) -> u64 {
    let (reduced, borrow) = t.overflowing_sub(p);
    u64::conditional_select(&reduced, &t, Choice::from(u8::from(borrow)))
}

/// `x mod (2^36 - 5)` for any 64-bit `x`, without division.
fn reduce_p36(x: u64) -> u64 {
    const MASK: u64 = (1 << 36) - 1;
    let t = (x & MASK) + 5 * (x >> 36); // < 2^37
    let t = (t & MASK) + 5 * (t >> 36); // < 2^36 + 5 < 2p
    select_unless_borrow(t, P36)
}

/// L3-HASH (RFC 4418 section 5.4): the inner product of the eight 16-bit
/// big-endian words of `b` with the L3Key1 words mod 2^36 - 5, taken mod
/// 2^32, then XORed with L3Key2.
fn l3_hash(k1: &[u64; 8], k2: u32, b: u128) -> u32 {
    let mut y = 0u64;
    for (i, k) in k1.iter().enumerate() {
        let m = u64::from((b >> (112 - 16 * i)) as u16);
        y += m * k; // each term < 2^52, the sum < 2^55
    }
    (reduce_p36_sum(y) as u32) ^ k2
}

/// UHASH of a whole message longer than one chunk, in one call: every
/// chunk is NH-hashed straight from `msg` (the last one zero-padded by the
/// backend), with L2 and L3 on the stack. Unlike [`UhashState`] it keeps no
/// buffer and has no state to wipe, which matters for messages of a few
/// KiB; with the `parallel` feature, inputs of 1 MiB and more hash their
/// chunks on all cores.
fn uhash_long<const ITERS: usize>(key: &UhashKey, msg: &[u8]) -> [u32; MAX_ITERS] {
    let iters = ITERS;
    debug_assert!(msg.len() > L1_CHUNK);
    let mut l2 = [L2Hash::default(); MAX_ITERS];
    let mut chunks = 0u64;
    // Every chunk but the last is a full one and goes through L2 with the
    // bit length 8192; the last one carries the real length.
    let (full, last) = msg.split_at((msg.len() - 1) / L1_CHUNK * L1_CHUNK);
    let mut absorb = |outputs: &[[u64; MAX_ITERS]]| {
        for out in outputs {
            for i in 0..iters {
                l2[i].absorb(key.l2_64[i], key.l2_128[i], chunks, out[i]);
            }
            chunks += 1;
        }
    };
    #[cfg(feature = "parallel")]
    let sequential = !super::parallel::worth_it(msg.len());
    #[cfg(not(feature = "parallel"))]
    let sequential = true;
    if sequential {
        for chunk in full.chunks_exact(L1_CHUNK) {
            let mut nh = [0u64; MAX_ITERS];
            key.l1.hash(0, chunk, &mut nh[..iters]);
            for sum in &mut nh[..iters] {
                *sum = sum.wrapping_add(8 * L1_CHUNK as u64);
            }
            absorb(core::slice::from_ref(&nh));
        }
    } else {
        #[cfg(feature = "parallel")]
        super::parallel::l1_in_batches(key, iters, full, absorb);
    }
    let mut nh = [0u64; MAX_ITERS];
    key.l1.hash(0, last, &mut nh[..iters]);
    let bit_len = 8 * last.len() as u64;
    let mut out = [0u32; MAX_ITERS];
    for (i, word) in out.iter_mut().enumerate().take(iters) {
        l2[i].absorb(key.l2_64[i], key.l2_128[i], chunks, nh[i].wrapping_add(bit_len));
        let b = l2[i].finish(key.l2_128[i], chunks + 1);
        *word = l3_hash(&key.l3_1[i], key.l3_2[i], b);
    }
    out
}

/// L3-HASH of `B = zeroes(8) || A` (a message of at most one chunk): the
/// four top 16-bit words of B are zero, so only four terms remain.
#[inline]
fn l3_hash_short(k1: &[u64; 8], k2: u32, a: u64) -> u32 {
    let y = (a >> 48) * k1[4] + ((a >> 32) & 0xffff) * k1[5] + ((a >> 16) & 0xffff) * k1[6] + (a & 0xffff) * k1[7];
    (reduce_p36_sum(y) as u32) ^ k2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p64_arithmetic_matches_u128_remainder() {
        let cases = [
            (0x01ff_ffff_01ff_ffff, P64 - 1, u64::MAX),
            (0x01ff_ffff_01ff_ffff, u64::MAX, u64::MAX),
            (1, 1, P64 - 1),
            (0, 0, u64::MAX),
            (12345, 0xdead_beef_cafe_f00d, 59),
        ];
        for (k, y, a) in cases {
            let expect = ((u128::from(k) * u128::from(y) + u128::from(a)) % u128::from(P64)) as u64;
            assert_eq!(mul_add_mod_p64(k, y, a), expect, "k={k:x} y={y:x} a={a:x}");
        }
    }

    #[test]
    fn p128_arithmetic_matches_schoolbook() {
        // Check (k*y + a) mod p against repeated doubling, which needs no
        // 256-bit type.
        fn slow(k: u128, y: u128, a: u128) -> u128 {
            let add = |x: u128, z: u128| {
                let (s, c) = x.overflowing_add(z);
                let s = if c { s + 159 } else { s };
                if s >= P128 { s - P128 } else { s }
            };
            let mut acc = a % P128;
            let mut base = y % P128;
            let mut k = k;
            while k > 0 {
                if k & 1 == 1 {
                    acc = add(acc, base);
                }
                base = add(base, base);
                k >>= 1;
            }
            acc
        }
        let mask = 0x01ff_ffff_01ff_ffff_01ff_ffff_01ff_ffffu128;
        let cases = [
            (mask, P128 - 1, u128::MAX),
            (mask, u128::MAX, u128::MAX),
            (1, 1, P128 - 1),
            (mask, 0, 0),
            (0x0123_4567_0089_abcd_0102_0304_0000_0001, 0xfedc_ba98_7654_3210_0f1e_2d3c_4b5a_6978, 1 << 127),
        ];
        for (k, y, a) in cases {
            assert_eq!(mul_add_mod_p128(k, y, a), slow(k, y, a), "k={k:x} y={y:x} a={a:x}");
        }
    }

    #[test]
    fn short_l3_equals_full_l3() {
        let k1 = [P36 - 1, 1, 2, 3, P36 - 2, 0x0f_ffff_ffff % P36, 12345, P36 - 1];
        for a in [0, u64::MAX, 0x0123_4567_89ab_cdef, 1 << 63] {
            assert_eq!(l3_hash_short(&k1, 0xdead_beef, a), l3_hash(&k1, 0xdead_beef, u128::from(a)));
        }
    }

    #[test]
    fn p36_reduction_matches_remainder() {
        for x in [0, P36 - 1, P36, P36 + 1, u64::MAX, 1 << 36, (1 << 55) - 1, 0x0123_4567_89ab_cdef] {
            assert_eq!(reduce_p36(x), x % P36, "x={x:x}");
        }
        for x in [0, P36 - 1, P36, P36 + 1, 2 * P36 - 1, 2 * P36, (1 << 55) - 1, (1 << 60) - 1, 0x0123_4567_89ab_cdef] {
            assert_eq!(reduce_p36_sum(x), x % P36, "x={x:x}");
        }
    }

    #[test]
    fn add_mod_p64_matches_u128_remainder() {
        for (a, b) in [(P64 - 1, u64::MAX), (0, u64::MAX), (P64 - 1, 59), (12, 34), (P64 - 1, 0)] {
            let expect = ((u128::from(a) + u128::from(b)) % u128::from(P64)) as u64;
            assert_eq!(add_mod_p64(a, b), expect, "a={a:x} b={b:x}");
        }
    }

    #[test]
    fn poly_marker_path_equals_rfc_branching() {
        let k = 0x01ab_cdef_0123_4567;
        for m in [P64 - 1, u64::MAX, 0xffff_ffff_0000_0000, 0xffff_fffe_ffff_ffff, 7] {
            let y = 0x1234_5678_9abc_def0;
            let expect = if m >= 0xffff_ffff_0000_0000 {
                let y = mul_add_mod_p64(k, y, P64 - 1);
                mul_add_mod_p64(k, y, m - 59)
            } else {
                mul_add_mod_p64(k, y, m)
            };
            assert_eq!(poly64_step(k, y, m), expect);
        }
    }
}
