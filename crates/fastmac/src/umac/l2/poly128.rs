//! POLY with 128-bit words (RFC 4418 section 5.3.2, `wordbits` = 128): the
//! part of L2-HASH past the first 2^14 L1 outputs (16 MiB of message),
//! over `uint2str(y64, 16) || the rest || 0x80 || zeros` (section 5.3.1).
//! Each 16-byte word is two consecutive L1 outputs, the first one its high
//! half. As in `poly64.rs`, each function is tested against `reference.rs`.

use super::arith::{canonical_p128, mul_add_p128, top_range_mask_128};

/// One 16-byte word `m` on a lazily reduced `y` (below 2^128, congruent mod
/// p128), as `poly64_step` does it: a word in the top range is the marker
/// `p - 1` then `m - 159`, `k * (k * y + p - 1) + m - 159 = k^2 * y + (m -
/// 159 - k)`, so every word is one multiply-add with the multiplier and the
/// addend chosen by a mask.
#[inline(always)]
pub(super) fn poly128_step(k: u128, k_squared: u128, y: u128, m: u128) -> u128 {
    let top = top_range_mask_128(m);
    let mult = k ^ ((k ^ k_squared) & top);
    // In the top range m >= 2^128 - 2^96 > 159 + k (k < 2^121): no wrap.
    let add = m - ((159 + k) & top);
    mul_add_p128(mult, y, add)
}

/// POLY128's first step, over its first word `uint2str(y64, 16)` from `y =
/// 1`: `k + y64`. A canonical `y64` is below p64, far below the marker
/// range, so the word is never marked.
#[inline]
pub(super) fn poly128_start(k: u128, y64: u64) -> u128 {
    mul_add_p128(k, 1, u128::from(y64))
}

/// The 16-byte word of two consecutive L1 outputs.
#[inline(always)]
pub(super) fn pair_word(high: u64, low: u64) -> u128 {
    u128::from(high) << 64 | u128::from(low)
}

/// One 16-byte word per iteration, iteration `i`'s from its L1 outputs
/// `high[i]` and `low[i]`: one [`poly128_step`] on each accumulator.
#[inline(always)]
pub(super) fn poly128_word<const ITERS: usize>(
    k: &[u128],
    k_squared: &[u128],
    y: &mut [u128; ITERS],
    high: &[u64],
    low: &[u64; ITERS],
) {
    for i in 0..ITERS {
        y[i] = poly128_step(k[i], k_squared[i], y[i], pair_word(high[i], low[i]));
    }
}

/// POLY128's result once every L1 output is in: the string ends with the
/// byte 0x80 and zeros to a 16-byte multiple, so the last word is
/// `high_half || 0x80 00..00` when an output is left over (`half`), else
/// `0x80 00..00` alone. Neither is ever marked. Canonical (below p128).
#[inline]
pub(super) fn poly128_end(k: u128, k_squared: u128, y: u128, half: Option<u64>) -> u128 {
    let m = match half {
        Some(high) => pair_word(high, 1 << 63),
        None => 1 << 127,
    };
    canonical_p128(poly128_step(k, k_squared, y, m))
}

#[cfg(test)]
mod tests {
    use super::super::arith::P128;
    use super::super::reference::{mul_add, poly, poly_from};
    use super::*;

    const K: u128 = 0x01ab_cdef_0123_4567_0089_abcd_0102_0304;
    const MARKER_EDGE: u128 = 0u128.wrapping_sub(1 << 96);

    fn square(k: u128) -> u128 {
        mul_add(128, k, k, 0)
    }

    #[test]
    fn a_step_equals_the_rfc_marker_branch() {
        for k in [K, 0x01ff_ffff_01ff_ffff_01ff_ffff_01ff_ffff, 1] {
            // y lazily reduced too (at or above p), as the loops leave it.
            for y in [0, 1, P128 - 1, P128, P128 + 3, u128::MAX, 0xfedc_ba98_7654_3210_0f1e_2d3c_4b5a_6978] {
                for m in
                    [0, 7, (1 << 127) + 5, MARKER_EDGE - 1, MARKER_EDGE, MARKER_EDGE + 1, P128 - 1, P128, u128::MAX]
                {
                    let got = canonical_p128(poly128_step(k, square(k), y, m));
                    assert_eq!(got, poly_from(128, k, y, &[m]), "k={k:x} y={y:x} m={m:x}");
                }
            }
        }
    }

    #[test]
    fn the_start_is_the_first_word_from_one() {
        for y64 in [0, 1, u64::MAX - 59, 0x0123_4567_89ab_cdef] {
            assert_eq!(canonical_p128(poly128_start(K, y64)), poly(128, K, &[u128::from(y64)]), "y64={y64:x}");
        }
    }

    /// Pairs with their high half on both sides of the marker boundary,
    /// an odd output left over or not, then the end word, against the RFC
    /// over the same 16-byte words.
    #[test]
    fn pairs_and_the_end_equal_the_rfc() {
        let outputs: [u64; 9] =
            [0xffff_ffff_0000_0000, 0, 0xffff_fffe_ffff_ffff, u64::MAX, u64::MAX, u64::MAX, 3, 1 << 63, 42];
        for count in 0..=outputs.len() {
            let start = 0x0123_4567_89ab_cdef_u128;
            let mut y = [poly128_start(K, start as u64)];
            let mut pairs = outputs[..count].chunks_exact(2);
            for pair in &mut pairs {
                poly128_word(&[K], &[square(K)], &mut y, &[pair[0]], &[pair[1]]);
            }
            let got = poly128_end(K, square(K), y[0], pairs.remainder().first().copied());
            let mut bytes = start.to_be_bytes().to_vec();
            for w in &outputs[..count] {
                bytes.extend_from_slice(&w.to_be_bytes());
            }
            bytes.push(0x80);
            bytes.resize(bytes.len().next_multiple_of(16), 0);
            let words: Vec<u128> = bytes.chunks_exact(16).map(|b| u128::from_be_bytes(b.try_into().unwrap())).collect();
            assert_eq!(got, poly(128, K, &words), "{count} outputs");
        }
    }
}
