//! POLY64 over a run of words as the map it applies to the accumulator:
//! Horner's steps compose, so a run hashed apart from the state is one
//! multiply-add when it is absorbed. How the multi-core path spreads POLY64
//! over its tasks with NH (`crates/fastmac/src/umac/parallel.rs`).

use zeroize::{Zeroize, ZeroizeOnDrop};

use super::arith::fold_p64;
use super::key::L2Key;
use super::poly64::poly64_word;

/// POLY64 over a run of consecutive words, per iteration the map `y ->
/// mult * y + value (mod p64)` (both lazily reduced): each word's own map is
/// `(k, m)`, or `(k^2, m - 59 - k)` when marked ([`poly64_word`]), and two
/// maps compose as `(m2 * m1, m2 * v1 + v2)`. A run starts as the identity
/// `(1, 0)`; the run's first word is kept as it came too, for a message
/// whose whole POLY64 input is that word and the last one (the two-word
/// step). `mult` is a power of the key, from which the key is easily
/// recovered: a map is wiped when dropped.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Poly64Map<const ITERS: usize> {
    pub(super) mult: [u64; ITERS],
    pub(super) value: [u64; ITERS],
    pub(super) first: [u64; ITERS],
    /// Words in the run.
    pub(super) words: u64,
}

impl<const ITERS: usize> Default for Poly64Map<ITERS> {
    fn default() -> Self {
        Poly64Map { mult: [1; ITERS], value: [0; ITERS], first: [0; ITERS], words: 0 }
    }
}

impl<const ITERS: usize> Poly64Map<ITERS> {
    /// Extends the run by the next word (the next chunk's L1 outputs).
    #[inline(always)]
    pub(crate) fn absorb(&mut self, key: &L2Key, word: [u64; ITERS]) {
        if self.words == 0 {
            self.first = word;
        }
        for (i, &m) in word.iter().enumerate() {
            let (mult, add) = poly64_word(key.k64[i], key.k64_squared[i], m);
            self.value[i] = fold_p64(u128::from(mult) * u128::from(self.value[i]) + u128::from(add));
            self.mult[i] = fold_p64(u128::from(mult) * u128::from(self.mult[i]));
        }
        self.words += 1;
    }
}
