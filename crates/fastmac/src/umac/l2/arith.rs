//! Arithmetic mod `p64 = 2^64 - 59` and `p128 = 2^128 - 159` for POLY
//! (RFC 4418 section 5.3.2), without a branch or select on any value.
//!
//! **Lazy reduction.** POLY's accumulator is kept below 2^64 (2^128) and
//! congruent mod p, not below p: a step folds the high half of its product
//! down (`2^64 = 59 mod p64`, `2^128 = 159 mod p128`) until the value fits
//! the word, and skips the final comparison with p. The canonical residue
//! is taken once per message ([`canonical_p64`], [`canonical_p128`]), or
//! together with the last step ([`reduce_p64`]).

/// `p64 = 2^64 - 59`.
pub(super) const P64: u64 = 0u64.wrapping_sub(59);
/// `p128 = 2^128 - 159`.
pub(super) const P128: u128 = 0u128.wrapping_sub(159);

/// All ones when the 64-bit word `m` is in POLY64's top range
/// (`m >= 2^64 - 2^32`, its high half all ones), else zero. Adding one to
/// the high half reaches bit 32 only then, and an arithmetic shift spreads
/// that bit over the word: no comparison for LLVM to turn into a jump.
#[inline(always)]
pub(super) fn top_range_mask_64(m: u64) -> u64 {
    ((((m >> 32) + 1) << 31) as i64 >> 63) as u64
}

/// All ones when the 128-bit word `m` is in POLY128's top range (`m >=
/// 2^128 - 2^96`, its top 32 bits all ones), else zero, as
/// [`top_range_mask_64`] builds it (in 128 bits, so that every bit is set).
#[inline(always)]
pub(super) fn top_range_mask_128(m: u128) -> u128 {
    0u128.wrapping_sub(((m >> 96) + 1) >> 32)
}

/// A value below 2^64 congruent to `x` mod p64, for any `x` below 2^128:
/// the lazy reduction of every POLY64 step. `x = h * 2^64 + l` is congruent
/// to `59 * h + l`; three such folds bring any `x` below 2^70, then below
/// 2^64 + 2^13, then below 2^64 (a third fold carries 59 only when the low
/// half is below 2^13). Past the first fold the high half is below 2^6, so
/// its product with 59 is taken in 64 bits (a widening multiplication on
/// POLY64's chain costs twice the plain one).
#[inline(always)]
pub(super) fn fold_p64(x: u128) -> u64 {
    let low = u128::from(u64::MAX);
    let small_high_times_59 = |t: u128| u128::from(((t >> 64) as u64) * 59);
    let t = (x >> 64) * 59 + (x & low);
    let t = small_high_times_59(t) + (t & low);
    (small_high_times_59(t) + (t & low)) as u64
}

/// The canonical residue mod p64 of any `x` below 2^128, in one reduction:
/// two folds as in [`fold_p64`] leave `v < 2^64 + 2^12 < 2p`, and `v >= p`
/// exactly when `v + 59` reaches 2^64, in which case `v - p` is `v + 59`
/// mod 2^64. The carry is used as a number (a boolean carry here became a
/// jump in the key setup, which the ctgrind test in crates/fastmac-c/tests/ct
/// flagged).
#[inline(always)]
pub(super) fn reduce_p64(x: u128) -> u64 {
    let low = u128::from(u64::MAX);
    let t = (x >> 64) * 59 + (x & low);
    // t's high half is below 2^7: its product with 59 taken in 64 bits.
    let v = u128::from(((t >> 64) as u64) * 59) + (t & low);
    let at_least_p = ((v + 59) >> 64) as u64;
    (v as u64).wrapping_add(59 * at_least_p)
}

/// The canonical residue mod p64 of a lazily reduced `y`: `y - p` when
/// `y >= p`, that is when `y + 59` carries out of 64 bits; the carry is used
/// as a number (one subtraction of p times it), with no comparison or
/// select.
#[inline]
pub(super) fn canonical_p64(y: u64) -> u64 {
    let at_least_p = ((u128::from(y) + 59) >> 64) as u64;
    y.wrapping_sub(P64 * at_least_p)
}

/// `k * y + a`, lazily reduced mod p128 (below 2^128, congruent), for any
/// `k`, `y`, `a` below 2^128: the 256-bit product's high half folded down
/// (`2^128 = 159 mod p`) twice, every carry summed as a number in 64-bit
/// limbs, and no final subtraction of p ([`canonical_p128`] does it once).
#[inline(always)]
pub(super) fn mul_add_p128(k: u128, y: u128, a: u128) -> u128 {
    let limb = u128::from(u64::MAX);
    let (k0, k1) = (k & limb, k >> 64);
    let (y0, y1) = (y & limb, y >> 64);
    // 256-bit product as hi * 2^128 + lo, lo's high limb in `mid`.
    let p00 = k0 * y0;
    let p01 = k0 * y1;
    let p10 = k1 * y0;
    let mid = (p00 >> 64) + (p01 & limb) + (p10 & limb);
    let hi = (mid >> 64) + (p01 >> 64) + (p10 >> 64) + k1 * y1;
    // hi * 159 + lo + a, in limbs: s0 + s1 * 2^64 + s2 * 2^128.
    let h0 = (hi & limb) * 159; // < 2^72
    let h1 = (hi >> 64) * 159; // < 2^72
    let s0 = (p00 & limb) + (a & limb) + (h0 & limb);
    let s1 = (mid & limb) + (a >> 64) + (h0 >> 64) + (h1 & limb) + (s0 >> 64);
    let s2 = (h1 >> 64) + (s1 >> 64); // below 2^9
    // Fold s2 (s2 * 159 < 2^17); a carry out of that is folded once more.
    // t1 carries only when t0 did, which leaves t0's low limb below 2^17:
    // r0 is then below 2^17 + 159, and otherwise below 2^64, so it never
    // carries into the high limb.
    let t0 = (s0 & limb) + s2 * 159;
    let t1 = (s1 & limb) + (t0 >> 64);
    let r0 = (t0 & limb) + (t1 >> 64) * 159;
    debug_assert!(r0 <= limb);
    ((t1 & limb) << 64) + r0
}

/// The canonical residue mod p128 of a lazily reduced `y`: `y - p` when `y
/// + 159` carries out of 128 bits, with that carry used as a number (as in
/// [`canonical_p64`]).
#[inline]
pub(super) fn canonical_p128(y: u128) -> u128 {
    let limb = u128::from(u64::MAX);
    let low = (y & limb) + 159;
    let at_least_p = ((y >> 64) + (low >> 64)) >> 64;
    y.wrapping_sub(P128 * at_least_p)
}

#[cfg(test)]
mod tests {
    use super::super::reference::{self, mul_add};
    use super::*;

    const MASK64: u64 = 0x01ff_ffff_01ff_ffff;
    const MASK128: u128 = 0x01ff_ffff_01ff_ffff_01ff_ffff_01ff_ffff;

    #[test]
    fn the_primes_are_the_references() {
        assert_eq!((u128::from(P64), P128), (reference::P64, reference::P128));
    }

    #[test]
    fn p64_multiply_add_matches_the_reference() {
        let cases = [
            (MASK64, P64 - 1, u64::MAX),
            (MASK64, u64::MAX, u64::MAX),
            (1, 1, P64 - 1),
            (0, 0, u64::MAX),
            (12345, 0xdead_beef_cafe_f00d, 59),
        ];
        for (k, y, a) in cases {
            let expect = mul_add(64, k.into(), y.into(), a.into()) as u64;
            let lazy = fold_p64(u128::from(k) * u128::from(y) + u128::from(a));
            assert_eq!(canonical_p64(lazy), expect, "k={k:x} y={y:x} a={a:x}");
        }
    }

    /// Every fold and its carry: values at and next to p64, 2^64, the
    /// largest product of two words below 2^64, and 2^128 - 1.
    #[test]
    fn p64_reductions_match_the_remainder_next_to_every_carry() {
        let p = u128::from(P64);
        let cases = [
            0,
            1,
            58,
            p - 1,
            p,
            p + 58,
            u128::from(u64::MAX),
            1 << 64,
            (1 << 64) + 4000,
            (1 << 70) - 1,
            (1 << 70) + 12345,
            p * p - 1,
            p * p,
            u128::from(u64::MAX) * u128::from(u64::MAX),
            u128::MAX - 59,
            u128::MAX,
        ];
        for x in cases {
            let folded = fold_p64(x);
            assert_eq!(u128::from(folded) % p, x % p, "fold x={x:x}");
            assert_eq!(u128::from(canonical_p64(folded)), x % p, "canonical x={x:x}");
            assert_eq!(u128::from(reduce_p64(x)), x % p, "reduce x={x:x}");
        }
    }

    #[test]
    fn p128_multiply_add_matches_the_reference() {
        let cases = [
            (MASK128, P128 - 1, u128::MAX),
            (MASK128, u128::MAX, u128::MAX),
            (1, 1, P128 - 1),
            (MASK128, 0, 0),
            (0x0123_4567_0089_abcd_0102_0304_0000_0001, 0xfedc_ba98_7654_3210_0f1e_2d3c_4b5a_6978, 1 << 127),
            // Full-width multipliers, as k^2 mod p is.
            (P128 - 1, u128::MAX, u128::MAX),
            (u128::MAX, u128::MAX, u128::MAX),
            (0xfedc_ba98_7654_3210_0f1e_2d3c_4b5a_6978, P128 - 1, P128),
        ];
        for (k, y, a) in cases {
            assert_eq!(canonical_p128(mul_add_p128(k, y, a)), mul_add(128, k, y, a), "k={k:x} y={y:x} a={a:x}");
        }
    }

    #[test]
    fn canonical_p128_is_the_remainder() {
        for y in [0, 1, P128 - 1, P128, P128 + 1, P128 + 158, u128::MAX, 1 << 127] {
            assert_eq!(canonical_p128(y), y % P128, "y={y:x}");
        }
    }

    #[test]
    fn top_range_masks_mark_exactly_the_top_ranges() {
        for (m, top) in [
            (0, false),
            (0xffff_fffe_ffff_ffff, false),
            (0xffff_ffff_0000_0000, true),
            (u64::MAX, true),
            (P64 - 1, true),
            (1 << 63, false),
        ] {
            assert_eq!(top_range_mask_64(m), if top { u64::MAX } else { 0 }, "m={m:x}");
        }
        let edge = 0u128.wrapping_sub(1 << 96);
        for (m, top) in [(0, false), (edge - 1, false), (edge, true), (P128 - 1, true), (u128::MAX, true)] {
            assert_eq!(top_range_mask_128(m), if top { u128::MAX } else { 0 }, "m={m:x}");
        }
    }
}
