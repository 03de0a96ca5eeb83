//! L3-HASH (RFC 4418 section 5.4): the 16-byte L2 output as eight 16-bit
//! words, their inner product with L3Key1 mod 2^36 - 5, truncated to 32 bits
//! and XORed with L3Key2.

use aes::Aes128;
use zeroize::Zeroize;

use super::kdf::kdf;

const P36: u64 = (1 << 36) - 5;

/// L3Key1 and L3Key2 (section 5.1) for `ITERS` iterations, L3Key1's eight
/// words already reduced mod 2^36 - 5 as section 5.4 uses them, and split
/// in halves: the last four words multiply the low 64 bits of L2's output,
/// which is all a message of at most one chunk has (section 5.4's
/// `zeroes(8) || A`).
///
/// What such a message reads comes first, L3Key2 then the last four words
/// of each iteration, in the fewest lines, next to the end of L1Key in
/// [`UhashKey`] (`docs/performance.md`, "Many live keys").
///
/// [`UhashKey`]: super::uhash::UhashKey
#[derive(Clone, Zeroize)]
#[repr(C)]
pub(crate) struct L3Key<const ITERS: usize> {
    /// L3Key2 of each iteration.
    k2: [u32; ITERS],
    /// L3Key1's words 4 to 7 of each iteration: for L2's low 64 bits.
    k1_low: [[u64; 4]; ITERS],
    /// L3Key1's words 0 to 3 of each iteration: for L2's high 64 bits.
    k1_high: [[u64; 4]; ITERS],
}

impl<const ITERS: usize> L3Key<ITERS> {
    /// The bytes from the start of the key that `iters` iterations read:
    /// of a message of at most one chunk (`short`), or of a longer one.
    pub(crate) const fn bytes_read(iters: usize, short: bool) -> usize {
        if short {
            core::mem::offset_of!(Self, k1_low) + size_of::<[u64; 4]>() * iters
        } else {
            core::mem::offset_of!(Self, k1_high) + size_of::<[u64; 4]>() * iters
        }
    }

    /// `L3Key1 = KDF(K, 3, ITERS * 64)`, `L3Key2 = KDF(K, 4, ITERS * 4)`.
    pub(crate) fn derive(cipher: &Aes128) -> Self {
        let mut key = L3Key { k2: [0; ITERS], k1_low: [[0; 4]; ITERS], k1_high: [[0; 4]; ITERS] };
        let mut k1_bytes = [[0u8; 64]; ITERS];
        kdf(cipher, 3, k1_bytes.as_flattened_mut());
        for (i, bytes) in k1_bytes.iter().enumerate() {
            let words =
                bytes.chunks_exact(8).map(|word| reduce_p36(u64::from_be_bytes(word.try_into().expect("8 bytes"))));
            for (k, word) in key.k1_high[i].iter_mut().chain(&mut key.k1_low[i]).zip(words) {
                *k = word;
            }
        }
        let mut k2_bytes = [[0u8; 4]; ITERS];
        kdf(cipher, 4, k2_bytes.as_flattened_mut());
        for (k, bytes) in key.k2.iter_mut().zip(k2_bytes) {
            *k = u32::from_be_bytes(bytes);
        }
        k1_bytes.zeroize();
        k2_bytes.zeroize();
        key
    }

    /// L3-HASH of iteration `i` (RFC 4418 section 5.4): the inner product
    /// of the eight 16-bit big-endian words of `b` with L3Key1 mod 2^36 -
    /// 5, taken mod 2^32, then XORed with L3Key2.
    #[inline(always)]
    pub(crate) fn hash(&self, i: usize, b: u128) -> u32 {
        let y = inner_product(&self.k1_high[i], (b >> 64) as u64) + inner_product(&self.k1_low[i], b as u64);
        (reduce_p36_sum(y) as u32) ^ self.k2[i]
    }

    /// [`L3Key::hash`] of `B = zeroes(8) || a` (a message of at most one
    /// chunk): the four top 16-bit words of B are zero, so only four terms
    /// remain.
    #[inline(always)]
    pub(crate) fn hash_short(&self, i: usize, a: u64) -> u32 {
        (reduce_p36_sum(inner_product(&self.k1_low[i], a)) as u32) ^ self.k2[i]
    }
}

/// The inner product of the four 16-bit big-endian words of `x` with `k`
/// (each below 2^36): each term below 2^52, the sum below 2^54.
#[inline(always)]
fn inner_product(k: &[u64; 4], x: u64) -> u64 {
    (x >> 48) * k[0] + ((x >> 32) & 0xffff) * k[1] + ((x >> 16) & 0xffff) * k[2] + (x & 0xffff) * k[3]
}

const MASK36: u64 = (1 << 36) - 1;

/// `x mod (2^36 - 5)` for `x < 2^60` (every L3 sum: eight products of a
/// 16-bit word and a key below 2^36 stay below 2^55): one fold leaves
/// `t < 2^36 + 5 * 2^24 < 2p`, and [`subtract_p_if_above`] finishes.
#[inline(always)]
fn reduce_p36_sum(x: u64) -> u64 {
    debug_assert!(x < 1 << 60);
    subtract_p_if_above((x & MASK36) + 5 * (x >> 36))
}

/// `t mod p` for `t < 2p`, as arithmetic with no comparison, so nothing
/// the compiler could turn into a branch on key-derived data: `t >= p`
/// exactly when `t + 5` reaches 2^36 (bit 36 then is 1, since `t + 5 <
/// 2^37`), and then `(t + 5) mod 2^36 = t - p`; otherwise `t < 2^36` stays
/// as it is. The ctgrind test (crates/fastmac-c/tests/ct) checks the
/// compiled code.
#[inline(always)]
fn subtract_p_if_above(t: u64) -> u64 {
    debug_assert!(t < 2 * P36);
    (t + 5 * ((t + 5) >> 36)) & MASK36
}

/// `x mod (2^36 - 5)` for any 64-bit `x`, without division.
fn reduce_p36(x: u64) -> u64 {
    let t = (x & MASK36) + 5 * (x >> 36); // < 2^37
    let t = (t & MASK36) + 5 * (t >> 36); // < 2^36 + 5 < 2p
    subtract_p_if_above(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// L3-HASH as section 5.4 writes it: the eight 16-bit words of `b`
    /// times L3Key1's words in order.
    fn section_5_4(k1: &[u64; 8], k2: u32, b: u128) -> u32 {
        let y: u64 = k1.iter().enumerate().map(|(i, k)| u64::from((b >> (112 - 16 * i)) as u16) * k).sum();
        ((y % P36) as u32) ^ k2
    }

    #[test]
    fn the_split_key_hashes_as_section_5_4_and_short_equals_full() {
        let k1 = [P36 - 1, 1, 2, 3, P36 - 2, 0x0f_ffff_ffff % P36, 12345, P36 - 1];
        let key = L3Key::<2> {
            k2: [0xdead_beef, 7],
            k1_low: [[9, 8, 7, 6], [P36 - 2, 0x0f_ffff_ffff % P36, 12345, P36 - 1]],
            k1_high: [[1, 2, 3, 4], [P36 - 1, 1, 2, 3]],
        };
        for b in [0, u128::MAX, 0x0123_4567_89ab_cdef_fedc_ba98_7654_3210, 1 << 127, 1 << 63] {
            assert_eq!(key.hash(1, b), section_5_4(&k1, 7, b), "b={b:x}");
            assert_eq!(key.hash(0, b), section_5_4(&[1, 2, 3, 4, 9, 8, 7, 6], 0xdead_beef, b), "b={b:x}");
        }
        for a in [0, u64::MAX, 0x0123_4567_89ab_cdef, 1 << 63] {
            assert_eq!(key.hash_short(1, a), key.hash(1, u128::from(a)), "a={a:x}");
        }
    }

    /// The end of the last byte `hash_short` (`short`) or `hash` reads for
    /// iterations `0..iters`, measured on a key's addresses.
    fn end_of_reads<const ITERS: usize>(key: &L3Key<ITERS>, iters: usize, short: bool) -> usize {
        let i = iters - 1;
        let k2 = key.k2[i..=i].as_ptr_range().end.addr();
        let k1_low = key.k1_low[i].as_ptr_range().end.addr();
        let k1 = if short { k1_low } else { k1_low.max(key.k1_high[i].as_ptr_range().end.addr()) };
        k2.max(k1) - (&raw const *key).addr()
    }

    /// What `UhashKey::prefetch` asks for covers each read of L3 and stops
    /// there: a reordered field would otherwise leave a line to a miss.
    #[test]
    fn bytes_read_ends_at_the_last_word_each_message_reads() {
        fn check<const ITERS: usize>() {
            let key = L3Key::<ITERS> { k2: [0; ITERS], k1_low: [[0; 4]; ITERS], k1_high: [[0; 4]; ITERS] };
            for iters in 1..=ITERS {
                for short in [true, false] {
                    let read = L3Key::<ITERS>::bytes_read(iters, short);
                    assert_eq!(read, end_of_reads(&key, iters, short), "ITERS={ITERS} iters={iters} short={short}");
                    assert!(read <= size_of::<L3Key<ITERS>>());
                }
            }
        }
        check::<1>();
        check::<2>();
        check::<3>();
        check::<4>();
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
}
