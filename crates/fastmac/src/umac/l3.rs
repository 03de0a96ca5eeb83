//! L3-HASH (RFC 4418 section 5.4): the 16-byte L2 output as eight 16-bit
//! words, their inner product with L3Key1 mod 2^36 - 5, truncated to 32 bits
//! and XORed with L3Key2.

use aes::Aes128;
use zeroize::Zeroize;

use super::kdf::kdf;

const P36: u64 = (1 << 36) - 5;

/// L3Key1 and L3Key2 (section 5.1) for `ITERS` iterations, L3Key1's eight
/// words already reduced mod 2^36 - 5 as section 5.4 uses them.
///
/// L3Key2 first: a short tag's L3Key1 words then follow it in the same
/// lines, and both lie next to the end of L1Key in [`UhashKey`].
///
/// [`UhashKey`]: super::uhash::UhashKey
#[derive(Clone, Zeroize)]
#[repr(C)]
pub(crate) struct L3Key<const ITERS: usize> {
    pub(crate) k2: [u32; ITERS],
    pub(crate) k1: [[u64; 8]; ITERS],
}

impl<const ITERS: usize> L3Key<ITERS> {
    /// The bytes from the start of the key that `iters` iterations read.
    pub(crate) const fn bytes_read(iters: usize) -> usize {
        size_of::<[u32; ITERS]>() + size_of::<[u64; 8]>() * iters
    }

    /// `L3Key1 = KDF(K, 3, ITERS * 64)`, `L3Key2 = KDF(K, 4, ITERS * 4)`.
    pub(crate) fn derive(cipher: &Aes128) -> Self {
        let mut key = L3Key { k1: [[0; 8]; ITERS], k2: [0; ITERS] };
        let mut k1_bytes = [[0u8; 64]; ITERS];
        kdf(cipher, 3, k1_bytes.as_flattened_mut());
        for (k1, bytes) in key.k1.iter_mut().zip(&k1_bytes) {
            for (k, word) in k1.iter_mut().zip(bytes.chunks_exact(8)) {
                *k = reduce_p36(u64::from_be_bytes(word.try_into().expect("8 bytes")));
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

/// L3-HASH (RFC 4418 section 5.4): the inner product of the eight 16-bit
/// big-endian words of `b` with the L3Key1 words mod 2^36 - 5, taken mod
/// 2^32, then XORed with L3Key2.
pub(crate) fn l3_hash(k1: &[u64; 8], k2: u32, b: u128) -> u32 {
    let mut y = 0u64;
    for (i, k) in k1.iter().enumerate() {
        let m = u64::from((b >> (112 - 16 * i)) as u16);
        y += m * k; // each term < 2^52, the sum < 2^55
    }
    (reduce_p36_sum(y) as u32) ^ k2
}

/// L3-HASH of `B = zeroes(8) || A` (a message of at most one chunk): the
/// four top 16-bit words of B are zero, so only four terms remain.
#[inline]
pub(crate) fn l3_hash_short(k1: &[u64; 8], k2: u32, a: u64) -> u32 {
    let y = (a >> 48) * k1[4] + ((a >> 32) & 0xffff) * k1[5] + ((a >> 16) & 0xffff) * k1[6] + (a & 0xffff) * k1[7];
    (reduce_p36_sum(y) as u32) ^ k2
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
