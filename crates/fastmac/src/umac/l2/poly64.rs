//! POLY with 64-bit words (RFC 4418 section 5.3.2, `wordbits` = 64), one
//! multiply-add per word whether the word is marked or not, with the first
//! step, the last step and the whole of a two-word message in their own
//! shortest forms. Each function's result is congruent to the RFC's
//! (`reference.rs`); the tests below check it at the marker boundaries,
//! next to p64 and at every carry.

use zeroize::Zeroize;

use super::arith::{P64, canonical_p64, fold_p64, reduce_p64, top_range_mask_64};

/// One word `m` as the map `y -> mult * y + add (mod p64)` that POLY applies
/// for it, `(mult, add)`. A word in the top range is hashed as the marker
/// `p - 1`, then `m - 59`:
/// `k * (k * y + p - 1) + m - 59 = k^2 * y + (m - 59 - k)`. So a marked word
/// is one multiply-add too, with `k^2` and `m - 59 - k` chosen by a mask
/// instead of a branch on `m`, which depends on the key.
#[inline(always)]
pub(super) fn poly64_word(k: u64, k_squared: u64, m: u64) -> (u64, u64) {
    let top = top_range_mask_64(m);
    let mult = k ^ ((k ^ k_squared) & top);
    // In the top range m >= 2^64 - 2^32 > 59 + k (k < 2^57): no wrap.
    (mult, m - ((59 + k) & top))
}

/// One POLY64 step ([`poly64_word`]) on a lazily reduced `y` (below 2^64,
/// congruent mod p64), the result lazily reduced too.
#[inline(always)]
pub(super) fn poly64_step(k: u64, k_squared: u64, y: u64, m: u64) -> u64 {
    let (mult, add) = poly64_word(k, k_squared, m);
    fold_p64(u128::from(mult) * u128::from(y) + u128::from(add))
}

/// The first step, from POLY's `y = 1`: `mult + add`. That sum is below
/// 2^65 (`mult` is below p), so one fold of its carry replaces the three a
/// product needs, and a carried sum is below `2^64 - 60`: no second carry.
#[inline(always)]
pub(super) fn poly64_first(k: u64, k_squared: u64, m: u64) -> u64 {
    let (mult, add) = poly64_word(k, k_squared, m);
    let (sum, carry) = mult.overflowing_add(add);
    sum + 59 * u64::from(carry)
}

/// The last step, giving POLY64's result itself (the canonical residue,
/// below p64) in one reduction ([`reduce_p64`]), where a lazy step and then
/// the canonical form would take two.
#[inline(always)]
pub(super) fn poly64_last(k: u64, k_squared: u64, y: u64, m: u64) -> u64 {
    let (mult, add) = poly64_word(k, k_squared, m);
    reduce_p64(u128::from(mult) * u128::from(y) + u128::from(add))
}

/// What POLY64's two-word step ([`poly64_two`]) needs of one key, derived
/// once. From `y = 1`, a first word `m1` leaves `m1 + d1`, where `d1` is
/// `k` (`m1` plain) or `k^2 - 59 - k` (`m1` marked); a second word `m2`
/// then leaves `mult2 * (m1 + d1) + m2 - s2`, where `mult2` is `k` and `s2`
/// is 0 (`m2` plain) or `k^2` and `59 + k` (`m2` marked). So the result is
/// `mult2 * m1 + m2 + c`, with `c = mult2 * d1 - s2 mod p64` one of four
/// values per key, stored so that the markers select them with a mask each
/// (`a ^ (flip & mask)`).
#[derive(Clone, Copy, Default, Zeroize)]
pub(super) struct TwoWordKey {
    /// `k ^ (k^2 mod p64)`: XORed into `k`, a marked second word's multiplier.
    marked_multiplier_flip: u64,
    /// `c` for both words plain.
    plain: u64,
    /// XORed into `plain`: `c` for the first word marked.
    first_marked_flip: u64,
    /// `c` for the second word marked.
    second_marked: u64,
    /// XORed into `second_marked`: `c` for both words marked.
    both_marked_flip: u64,
}

impl TwoWordKey {
    pub(super) fn new(k: u64, k_squared: u64) -> Self {
        let d1 = [k, reduce_p64(u128::from(k_squared) + u128::from(P64 - 59 - k))];
        let c = |mult2: u64, s2: u64, d1: u64| reduce_p64(u128::from(mult2) * u128::from(d1) + u128::from(P64 - s2));
        let (plain, first_marked) = (c(k, 0, d1[0]), c(k, 0, d1[1]));
        let (second_marked, both_marked) = (c(k_squared, 59 + k, d1[0]), c(k_squared, 59 + k, d1[1]));
        TwoWordKey {
            marked_multiplier_flip: k ^ k_squared,
            plain,
            first_marked_flip: plain ^ first_marked,
            second_marked,
            both_marked_flip: second_marked ^ both_marked,
        }
    }

    /// `c` for a plain and for a marked second word, the first word's
    /// marker given as its mask.
    #[inline(always)]
    fn constants(&self, first_marked: u64) -> (u64, u64) {
        (
            self.plain ^ (self.first_marked_flip & first_marked),
            self.second_marked ^ (self.both_marked_flip & first_marked),
        )
    }
}

/// POLY64 under the key `k` of exactly two words, the canonical result:
/// the two-chunk step, one multiplication and one reduction ([`TwoWordKey`]
/// says how).
#[inline(always)]
pub(super) fn poly64_two(k: u64, key: &TwoWordKey, m1: u64, m2: u64) -> u64 {
    let (top1, top2) = (top_range_mask_64(m1), top_range_mask_64(m2));
    let mult2 = k ^ (key.marked_multiplier_flip & top2);
    let (if_plain2, if_marked2) = key.constants(top1);
    let c = if_plain2 ^ ((if_plain2 ^ if_marked2) & top2);
    // Below 2^128: mult2 < p and m1 < 2^64, and the two addends are below 2^65.
    reduce_p64(u128::from(mult2) * u128::from(m1) + u128::from(c) + u128::from(m2))
}

/// [`poly64_two`] for a second word that is ready well after the first (a
/// second chunk longer than a block or two, whose NH runs after the
/// first's). Both of the second word's cases, `mult2 * m1 + c` with `m2`
/// plain and marked, are multiplied and reduced from the first word alone;
/// what waits for the second word is a select, an addition and the
/// canonical residue, where [`poly64_two`] has a multiplication and a
/// reduction wait for it.
#[inline(always)]
pub(super) fn poly64_two_second_late(k: u64, key: &TwoWordKey, m1: u64, m2: u64) -> u64 {
    let k_squared = k ^ key.marked_multiplier_flip;
    let (c_if_plain2, c_if_marked2) = key.constants(top_range_mask_64(m1));
    let if_plain2 = reduce_p64(u128::from(k) * u128::from(m1) + u128::from(c_if_plain2));
    let if_marked2 = reduce_p64(u128::from(k_squared) * u128::from(m1) + u128::from(c_if_marked2));
    let before_m2 = if_plain2 ^ ((if_plain2 ^ if_marked2) & top_range_mask_64(m2));
    // Below p, so a carried sum is below p too, and adding 59 cannot carry.
    let (sum, carry) = before_m2.overflowing_add(m2);
    canonical_p64(sum + 59 * u64::from(carry))
}

#[cfg(test)]
mod tests {
    use super::super::arith::P64;
    use super::super::reference::{mul_add, poly, poly_from};
    use super::*;

    /// Keys whose square mod p is small and large, the largest masked key,
    /// and the degenerate 1 and 0.
    const KEYS: [u64; 5] = [0x01ab_cdef_0123_4567, 0x01ff_ffff_01ff_ffff, 0x0000_0001_0000_0003, 1, 0];
    /// Words on both sides of the marker boundary (2^64 - 2^32), next to
    /// p64, and the extremes.
    const WORDS: [u64; 10] = [
        0,
        1,
        7,
        0x0123_4567_89ab_cdef,
        0xffff_fffe_ffff_ffff,
        0xffff_ffff_0000_0000,
        0xffff_ffff_0000_0001,
        P64 - 1,
        P64,
        u64::MAX,
    ];
    /// Lazily reduced accumulators: below, at and above p64.
    const ACCUMULATORS: [u64; 7] = [0, 1, 0x1234_5678_9abc_def0, P64 - 1, P64, P64 + 3, u64::MAX];

    fn square(k: u64) -> u64 {
        mul_add(64, k.into(), k.into(), 0) as u64
    }

    fn rfc(k: u64, y: u64, words: &[u64]) -> u64 {
        poly_from(64, k.into(), y.into(), &words.iter().map(|&w| u128::from(w)).collect::<Vec<_>>()) as u64
    }

    #[test]
    fn a_step_equals_the_rfc_marker_branch() {
        for k in KEYS {
            for y in ACCUMULATORS {
                for m in WORDS {
                    let got = canonical_p64(poly64_step(k, square(k), y, m));
                    assert_eq!(got, rfc(k, y, &[m]), "k={k:x} y={y:x} m={m:x}");
                }
            }
        }
    }

    #[test]
    fn the_first_and_last_steps_equal_the_rfc() {
        for k in KEYS {
            for m in WORDS {
                let first = poly64_first(k, square(k), m);
                assert_eq!(canonical_p64(first), rfc(k, 1, &[m]), "first: k={k:x} m={m:x}");
                for y in ACCUMULATORS {
                    // Already canonical: no further reduction.
                    assert_eq!(poly64_last(k, square(k), y, m), rfc(k, y, &[m]), "last: k={k:x} y={y:x} m={m:x}");
                }
            }
        }
    }

    #[test]
    fn the_first_steps_largest_sum_carries_once() {
        // The largest multiplier a marked word can have (k^2 mod p = p - 1)
        // with the largest addends, marked and not: the carried sum must
        // fold exactly.
        let k = 0x01ff_ffff_01ff_ffff;
        for m in [u64::MAX, P64 - 1, 0xffff_fffe_ffff_ffff, 0] {
            let top = m >= 0xffff_ffff_0000_0000;
            let (mult, add) = if top { (P64 - 1, m - 59 - k) } else { (k, m) };
            let expect = ((u128::from(mult) + u128::from(add)) % u128::from(P64)) as u64;
            assert_eq!(canonical_p64(poly64_first(k, P64 - 1, m)), expect, "m={m:x}");
        }
    }

    #[test]
    fn the_two_word_step_equals_the_rfc_for_every_pair_of_markers() {
        for k in KEYS {
            let two = TwoWordKey::new(k, square(k));
            for m1 in WORDS {
                for m2 in WORDS {
                    let expect = poly(64, k.into(), &[m1.into(), m2.into()]) as u64;
                    let got = poly64_two(k, &two, m1, m2);
                    assert_eq!(got, expect, "k={k:x} m1={m1:x} m2={m2:x}");
                    let got = poly64_two_second_late(k, &two, m1, m2);
                    assert_eq!(got, expect, "second word late: k={k:x} m1={m1:x} m2={m2:x}");
                    let stepwise = poly64_last(k, square(k), poly64_first(k, square(k), m1), m2);
                    assert_eq!(stepwise, expect, "first then last: k={k:x} m1={m1:x} m2={m2:x}");
                }
            }
        }
    }
}
