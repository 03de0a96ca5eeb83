//! L2Key (RFC 4418 section 5.1), masked as section 5.3.1 uses it, with
//! the values the fast POLY steps derive from it once per key.

use aes::Aes128;
use zeroize::Zeroize;

use super::arith::{canonical_p128, mul_add_p128, reduce_p64};
use super::poly64::TwoWordKey;
use crate::umac::kdf::kdf;

/// L2Key for `ITERS` iterations, split per iteration into `k64` and
/// `k128`, and what the fast steps need from them.
#[derive(Clone, Zeroize)]
pub(crate) struct L2Key<const ITERS: usize> {
    /// POLY64's key, `k64` of section 5.3.1 (below 2^57).
    pub(super) k64: [u64; ITERS],
    /// `k64^2 mod p64`: the multiplier of a marked word.
    pub(super) k64_squared: [u64; ITERS],
    /// The two-word step's constants (`super::poly64::poly64_two`).
    pub(super) two_words: [TwoWordKey; ITERS],
    /// POLY128's key, `k128` of section 5.3.1 (below 2^121).
    pub(super) k128: [u128; ITERS],
    /// `k128^2 mod p128`: the multiplier of a marked 16-byte word.
    pub(super) k128_squared: [u128; ITERS],
}

impl<const ITERS: usize> L2Key<ITERS> {
    /// `L2Key = KDF(K, 2, ITERS * 24)`: per iteration 8 bytes of `k64`,
    /// then 16 of `k128`, each ANDed with its mask (section 5.3.1).
    pub(crate) fn derive(cipher: &Aes128) -> Self {
        let mut key = L2Key {
            k64: [0; ITERS],
            k64_squared: [0; ITERS],
            two_words: [TwoWordKey::default(); ITERS],
            k128: [0; ITERS],
            k128_squared: [0; ITERS],
        };
        let mut buf = [[0u8; 24]; ITERS];
        kdf(cipher, 2, buf.as_flattened_mut());
        for (i, bytes) in buf.iter().enumerate() {
            let k64 = u64::from_be_bytes(bytes[..8].try_into().expect("8 bytes")) & 0x01ff_ffff_01ff_ffff;
            let k64_squared = reduce_p64(u128::from(k64) * u128::from(k64));
            key.k64[i] = k64;
            key.k64_squared[i] = k64_squared;
            key.two_words[i] = TwoWordKey::new(k64, k64_squared);
            let k128 = u128::from_be_bytes(bytes[8..24].try_into().expect("16 bytes"))
                & 0x01ff_ffff_01ff_ffff_01ff_ffff_01ff_ffff;
            key.k128[i] = k128;
            key.k128_squared[i] = canonical_p128(mul_add_p128(k128, k128, 0));
        }
        buf.zeroize();
        key
    }
}
