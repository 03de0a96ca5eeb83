//! UHASH's iteration count (RFC 4418 section 5.1): one iteration per 32
//! bits of tag, each with its own keys and its own Toeplitz shift of the NH
//! key. Every layer below UHASH takes the count as a const generic
//! `ITERS`, so its loops over iterations unroll and no dispatch on the
//! count is left at run time; [`with_iters!`](with_iters) is the one place
//! where a count known only at run time becomes that constant.

/// Most UHASH iterations: UMAC-128 has 4. The width of every per-iteration
/// array, of which a shorter UHASH uses the first entries.
pub(crate) const MAX_ITERS: usize = 4;

/// The iteration count for a tag (or tag prefix) of `tag_len` bytes:
/// one per started 32 bits.
pub(crate) const fn iters_for(tag_len: usize) -> usize {
    tag_len.div_ceil(4)
}

/// Evaluates `$body` with `$ITERS` a `const` equal to `$iters`, a run-time
/// count from 1 to [`MAX_ITERS`]: one copy of `$body` per count. A count
/// that is a constant where the macro is used (a tag length's) leaves no
/// branch after inlining.
macro_rules! with_iters {
    ($iters:expr, $ITERS:ident => $body:expr) => {{
        let iters: usize = $iters;
        debug_assert!((1..=$crate::umac::iters::MAX_ITERS).contains(&iters), "1 to 4 iterations, not {iters}");
        match iters {
            1 => {
                const $ITERS: usize = 1;
                $body
            }
            2 => {
                const $ITERS: usize = 2;
                $body
            }
            3 => {
                const $ITERS: usize = 3;
                $body
            }
            _ => {
                const $ITERS: usize = 4;
                $body
            }
        }
    }};
}
pub(crate) use with_iters;

#[cfg(test)]
mod tests {
    use super::*;

    fn count<const ITERS: usize>() -> usize {
        ITERS
    }

    #[test]
    fn the_constant_is_the_run_time_count() {
        for iters in 1..=MAX_ITERS {
            assert_eq!(with_iters!(iters, ITERS => count::<ITERS>()), iters);
        }
    }

    #[test]
    fn one_iteration_per_started_32_bits_of_tag() {
        assert_eq!([4, 8, 12, 16].map(iters_for), [1, 2, 3, 4]);
        assert_eq!([1, 5, 9, 13].map(iters_for), [1, 2, 3, 4]);
    }
}
