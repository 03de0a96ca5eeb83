//! POLY64 and POLY128 over a run of words as the map it applies to the
//! accumulator: Horner's steps compose, so a run hashed apart from the
//! state is one multiply-add when it is absorbed. How the multi-core path
//! spreads L2-HASH over its tasks with NH
//! (`crates/fastmac/src/umac/parallel.rs`).

use zeroize::{Zeroize, ZeroizeOnDrop};

use super::arith::{fold_p64, mul_add_p128, top_range_mask_64, top_range_mask_128};
use super::key::L2Key;
use super::poly64::poly64_word;
use super::poly128::{pair_word, poly128_step};

/// A run of L1 outputs being hashed into the map of L2-HASH's polynomial
/// over it ([`Poly64Run`], [`Poly128Run`]): what a task of the multi-core
/// path computes beside its NH.
pub(crate) trait PolyRun<const ITERS: usize>: Default {
    /// The run's map, which `L2Hash::absorb_mapped` takes.
    type Map;
    /// Extends the run by the next chunk's L1 outputs.
    fn absorb<const K: usize>(&mut self, key: &L2Key<K>, outputs: [u64; ITERS]);
    /// The run's map.
    fn into_map<const K: usize>(self, key: &L2Key<K>) -> Self::Map;
}

/// POLY64 over a run of consecutive words, per iteration the map `y ->
/// mult * y + value (mod p64)` (both lazily reduced): each word's own map is
/// `(k, m)`, or `(k^2, m - 59 - k)` when marked ([`poly64_word`]), and two
/// maps compose as `(m2 * m1, m2 * v1 + v2)`. So `mult` is `k` raised to
/// the run's words plus its marked words, which a [`Poly64Run`] counts and
/// raises once, at its end, where one multiplication per word would share
/// the scalar ports with NH. The run's first word is kept as it came too,
/// for a message whose whole POLY64 input is that word and the last one
/// (the two-word step). `mult` is a power of the key, from which the key is
/// easily recovered: a map is wiped when dropped.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Poly64Map<const ITERS: usize> {
    pub(super) mult: [u64; ITERS],
    pub(super) value: [u64; ITERS],
    pub(super) first: [u64; ITERS],
    /// Words in the run.
    pub(super) words: u64,
}

/// A run being hashed into its [`Poly64Map`]: the map's `value`, and the
/// marked words, from which [`Poly64Run::into_map`] derives `mult`.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Poly64Run<const ITERS: usize> {
    value: [u64; ITERS],
    marked: MarkedCounts,
    first: [u64; ITERS],
    words: u64,
}

impl<const ITERS: usize> Default for Poly64Run<ITERS> {
    fn default() -> Self {
        Poly64Run { value: [0; ITERS], marked: MarkedCounts::default(), first: [0; ITERS], words: 0 }
    }
}

/// A run's marked words, counted per iteration in one integer,
/// [`MARKED_BITS`] bits each: kept apart from the run's values, they are
/// not stored with them as one vector, which LLVM built from scalar halves
/// on the ports NH's vector operations need.
#[derive(Clone, Copy, Default, Zeroize)]
struct MarkedCounts(u64);

/// Bits of [`MarkedCounts`] per iteration: a run has fewer than 2^16 words
/// (POLY64's whole range is 2^14, a task at most 512 chunks).
const MARKED_BITS: usize = 16;

impl MarkedCounts {
    /// Counts iteration `i`'s word if `top`, its marker mask (all ones or
    /// zero), says it is marked.
    #[inline(always)]
    fn count(&mut self, i: usize, top: u64) {
        self.0 += (top & 1) << (MARKED_BITS * i);
    }

    /// The exponent of `k` in the map of iteration `i` of a run of `words`
    /// words: the words plus the marked ones.
    fn exponent(self, i: usize, words: u64) -> u64 {
        debug_assert!(words < 1 << MARKED_BITS, "the counts fit their bits");
        words + ((self.0 >> (MARKED_BITS * i)) & ((1 << MARKED_BITS) - 1))
    }
}

/// The bit length within which every [`MarkedCounts::exponent`] of a run
/// of `words` words lies (at most twice the words): public, so the power
/// takes the same time whatever the marked count.
fn exponent_bits(words: u64) -> u32 {
    u64::BITS - (2 * words).leading_zeros()
}

impl<const ITERS: usize> PolyRun<ITERS> for Poly64Run<ITERS> {
    type Map = Poly64Map<ITERS>;

    /// Extends the run by the next word (the next chunk's L1 outputs).
    #[inline(always)]
    fn absorb<const K: usize>(&mut self, key: &L2Key<K>, word: [u64; ITERS]) {
        if self.words == 0 {
            self.first = word;
        }
        for (i, &m) in word.iter().enumerate() {
            let (mult, add) = poly64_word(key.k64[i], key.k64_squared[i], m);
            self.value[i] = fold_p64(u128::from(mult) * u128::from(self.value[i]) + u128::from(add));
            self.marked.count(i, top_range_mask_64(m));
        }
        self.words += 1;
    }

    /// The run's map: `mult` is `k^(words + marked)`, raised in constant
    /// time in the marked count, which depends on the message.
    fn into_map<const K: usize>(self, key: &L2Key<K>) -> Poly64Map<ITERS> {
        let bits = exponent_bits(self.words);
        let mult = core::array::from_fn(|i| power_p64(key.k64[i], self.marked.exponent(i, self.words), bits));
        Poly64Map { mult, value: self.value, first: self.first, words: self.words }
    }
}

/// `base^exponent`, lazily reduced mod p64, for an `exponent` below
/// `2^bits`: a square and a multiplication for every one of the `bits`
/// bits, the product kept or not by a mask, so that the time depends on
/// `bits` alone.
fn power_p64(base: u64, exponent: u64, bits: u32) -> u64 {
    let mut power = 1u64;
    for bit in (0..bits).rev() {
        power = fold_p64(u128::from(power) * u128::from(power));
        let times_base = fold_p64(u128::from(power) * u128::from(base));
        let keep = 0u64.wrapping_sub((exponent >> bit) & 1);
        power ^= (power ^ times_base) & keep;
    }
    power
}

/// POLY128 over a run of L1 outputs taken two at a time (each pair one
/// 16-byte word, RFC 4418 section 5.3.1), per iteration the map `y -> mult
/// * y + value (mod p128)`, both lazily reduced: as [`Poly64Map`], `mult`
/// is `k` raised to the run's words plus its marked words. A run is whole
/// words: an even count of outputs, from a word boundary of POLY128. Wiped
/// when dropped, as `mult` gives the key away.
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Poly128Map<const ITERS: usize> {
    pub(super) mult: [u128; ITERS],
    pub(super) value: [u128; ITERS],
    /// L1 outputs in the run: twice its words.
    pub(super) outputs: u64,
}

/// A run being hashed into its [`Poly128Map`], as [`Poly64Run`] does it
/// for POLY64: the map's `value`, the marked words, and the high half of a
/// word whose low half has not come.
#[derive(Zeroize, ZeroizeOnDrop)]
pub(crate) struct Poly128Run<const ITERS: usize> {
    value: [u128; ITERS],
    marked: MarkedCounts,
    high_half: [u64; ITERS],
    outputs: u64,
}

impl<const ITERS: usize> Default for Poly128Run<ITERS> {
    fn default() -> Self {
        Poly128Run { value: [0; ITERS], marked: MarkedCounts::default(), high_half: [0; ITERS], outputs: 0 }
    }
}

impl<const ITERS: usize> PolyRun<ITERS> for Poly128Run<ITERS> {
    type Map = Poly128Map<ITERS>;

    /// Extends the run by the next L1 outputs (the next chunk's): a word's
    /// high half, or its low half and with it the word.
    #[inline(always)]
    fn absorb<const K: usize>(&mut self, key: &L2Key<K>, outputs: [u64; ITERS]) {
        if self.outputs.is_multiple_of(2) {
            self.high_half = outputs;
        } else {
            for (i, &low) in outputs.iter().enumerate() {
                let m = pair_word(self.high_half[i], low);
                self.value[i] = poly128_step(key.k128[i], key.k128_squared[i], self.value[i], m);
                // The mask's low half is all ones or zero, as the whole.
                self.marked.count(i, top_range_mask_128(m) as u64);
            }
        }
        self.outputs += 1;
    }

    /// The run's map: `mult` is `k^(words + marked)`, raised in constant
    /// time in the marked count, which depends on the message.
    fn into_map<const K: usize>(self, key: &L2Key<K>) -> Poly128Map<ITERS> {
        debug_assert!(self.outputs.is_multiple_of(2), "a run of whole words");
        let words = self.outputs / 2;
        let bits = exponent_bits(words);
        let mult = core::array::from_fn(|i| power_p128(key.k128[i], self.marked.exponent(i, words), bits));
        Poly128Map { mult, value: self.value, outputs: self.outputs }
    }
}

/// [`power_p64`] mod p128.
fn power_p128(base: u128, exponent: u64, bits: u32) -> u128 {
    let mut power = 1u128;
    for bit in (0..bits).rev() {
        power = mul_add_p128(power, power, 0);
        let times_base = mul_add_p128(power, base, 0);
        let keep = 0u128.wrapping_sub(u128::from((exponent >> bit) & 1));
        power ^= (power ^ times_base) & keep;
    }
    power
}

#[cfg(test)]
mod tests {
    use super::super::arith::{canonical_p64, canonical_p128};
    use super::super::reference;
    use super::*;

    #[test]
    fn powers_equal_repeated_multiplication() {
        let base = 0x01ab_cdef_0123_4567;
        let mut expected = 1u128;
        for exponent in 0..300u64 {
            let bits = u64::BITS - exponent.leading_zeros();
            for extra in [0, 3] {
                let got = canonical_p64(power_p64(base, exponent, bits + extra));
                assert_eq!(u128::from(got), expected, "{exponent} in {} bits", bits + extra);
            }
            expected = expected * u128::from(base) % reference::P64;
        }
    }

    #[test]
    fn powers_mod_p128_equal_repeated_multiplication() {
        let base = 0x01ab_cdef_0123_4567_0089_abcd_0102_0304;
        let mut expected = 1u128;
        for exponent in 0..300u64 {
            let bits = u64::BITS - exponent.leading_zeros();
            for extra in [0, 3] {
                let got = canonical_p128(power_p128(base, exponent, bits + extra));
                assert_eq!(got, expected, "{exponent} in {} bits", bits + extra);
            }
            expected = reference::mul_add(128, expected, base, 0);
        }
    }
}
