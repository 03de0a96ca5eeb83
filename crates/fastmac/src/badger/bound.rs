//! Forgery bounds (paper section 6 and table 2; docs/badger.md section 3.9).

/// log2 of the forgery probability per attempt for `trees` trees and
/// messages of at most `max_len` bytes (at least 1):
/// `eps = eps_F + (1 - eps_F) * (1 - (1 - 2^-32)^v')` per tree, with
/// `eps_F = 1/p` and `v' = max(1, ceil(log2(8 * max_len)) - 6)` levels, and
/// `eps^trees` overall (theorem 2 and section 6).
///
/// Per tree this ranges from about -31 (up to 8 bytes) to -26.12 (2^61 - 1
/// bytes); for 2 trees it gives table 2's -57.7, -56.6, -54.2 and -52.2.
pub fn forgery_bound_log2(trees: usize, max_len: u64) -> f64 {
    let bits = 8 * u128::from(max_len.max(1));
    let ceil_log2 = 128 - (bits - 1).leading_zeros();
    let levels = ceil_log2.saturating_sub(6).max(1);
    let eps_f = 1.0 / f64::from(super::finalize::P);
    // 1 - (1 - 2^-32)^v' without cancellation: -expm1(v' * ln(1 - 2^-32)).
    // `libm` rather than f64's methods: they need `std`.
    let eps_tree = -libm::expm1(f64::from(levels) * libm::log1p(-1.0 / 4_294_967_296.0));
    let eps = eps_f + (1.0 - eps_f) * eps_tree;
    trees as f64 * libm::log2(eps)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rounded(x: f64) -> f64 {
        (x * 10.0).round() / 10.0
    }

    #[test]
    fn table_2_for_two_trees() {
        assert_eq!(rounded(forgery_bound_log2(2, 1 << 11)), -57.7);
        assert_eq!(rounded(forgery_bound_log2(2, 1 << 15)), -56.6);
        assert_eq!(rounded(forgery_bound_log2(2, 1 << 32)), -54.2);
        assert_eq!(rounded(forgery_bound_log2(2, (1 << 61) - 1)), -52.2);
    }

    #[test]
    fn section_6_range_per_tree_and_for_five_trees() {
        assert_eq!(rounded(forgery_bound_log2(1, 8)), -31.0);
        assert_eq!((forgery_bound_log2(1, (1 << 61) - 1) * 100.0).round() / 100.0, -26.12);
        assert_eq!(rounded(forgery_bound_log2(5, 8)), -155.0);
        assert_eq!(rounded(forgery_bound_log2(5, (1 << 61) - 1)), -130.6);
    }

    /// `v'` counts `ceil(log2(8 * max_len))`: a length whose bit count is
    /// a power of two needs no more levels than one byte less, and one
    /// byte more needs one more level, so a larger bound (2^-32 more per
    /// tree).
    #[test]
    fn levels_step_just_past_each_power_of_two() {
        for log2_len in 4..61 {
            let len = 1u64 << log2_len;
            let at = forgery_bound_log2(1, len);
            assert_eq!(at, forgery_bound_log2(1, len - 1), "{len} bytes");
            assert!(forgery_bound_log2(1, len + 1) > at, "{len} + 1 bytes");
        }
    }
}
