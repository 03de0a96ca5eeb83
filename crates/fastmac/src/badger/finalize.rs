//! The F function (paper section 5, figure 4, appendix A; docs/badger.md section
//! 3.6): `S = q1*K1 + ... + q5*K5 + K6 mod p`, p = 2^32 - 5, over the five
//! 27-bit pieces of `Q = L * 2^64 + M`.

/// The prime of the F function, 2^32 - 5.
pub(super) const P: u32 = 0xFFFF_FFFB;

const PIECE: u64 = (1 << 27) - 1;

/// `S^i` for a tree hash `hash` (`M^i`) of a message of `bit_len` bits,
/// under that tree's six F keys (each below p). Constant time.
#[inline]
pub(crate) fn f(final_key: &[u32; 6], bit_len: u64, hash: u64) -> u32 {
    // Q's 27-bit pieces, q1 least significant (docs/badger.md section 3.6).
    let q = [
        hash & PIECE,
        hash >> 27 & PIECE,
        hash >> 54 | (bit_len & 0x1_FFFF) << 10,
        bit_len >> 17 & PIECE,
        bit_len >> 44,
    ];
    // Each term is below 2^27 * 2^32; five of them plus K6 stay below 2^62.
    let mut sum = u64::from(final_key[5]);
    for (piece, key) in q.iter().zip(final_key) {
        sum += piece * u64::from(*key);
    }
    reduce(sum)
}

/// `t mod p` for `t < 2^62`, without branches: 2^32 = 5 (mod p), folded
/// twice, then one masked subtraction. (The paper's figure 5 does one fold
/// with branches; its constants are misprinted, docs/badger.md section 3.6.)
#[inline(always)]
pub(crate) fn reduce(t: u64) -> u32 {
    let t = 5 * (t >> 32) + (t & 0xFFFF_FFFF); // < 5 * 2^30 + 2^32 < 2^35
    let t = 5 * (t >> 32) + (t & 0xFFFF_FFFF); // < 5 * 7 + 2^32 < 2p
    let minus_p = t.wrapping_sub(u64::from(P));
    // All ones when t < p (the subtraction wrapped), else all zeros.
    let keep = 0u64.wrapping_sub(minus_p >> 63);
    ((t & keep) | (minus_p & !keep)) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng, rngs::StdRng};

    #[test]
    fn reduce_matches_remainder() {
        let p = u64::from(P);
        let edges = [0, 1, p - 1, p, p + 1, 2 * p - 1, 2 * p, 1 << 32, (1 << 32) - 1, (1 << 62) - 1, (1 << 62) - p];
        for t in edges {
            assert_eq!(u64::from(reduce(t)), t % p, "t = {t:#x}");
        }
        let mut rng = StdRng::seed_from_u64(1);
        for _ in 0..200_000 {
            let t = rng.random::<u64>() >> rng.random_range(2..64);
            assert_eq!(u64::from(reduce(t)), t % p, "t = {t:#x}");
        }
    }

    #[test]
    fn f_matches_the_wide_formula() {
        let mut rng = StdRng::seed_from_u64(2);
        for _ in 0..20_000 {
            let key: [u32; 6] = core::array::from_fn(|_| rng.random_range(0..P));
            let bit_len = rng.random::<u64>() >> rng.random_range(0..64);
            let hash = rng.random::<u64>();
            // Q as one 128-bit number, split by shifting: an independent form.
            let q = u128::from(bit_len) << 64 | u128::from(hash);
            let mut sum = u128::from(key[5]);
            for (r, key) in key[..5].iter().enumerate() {
                sum += (q >> (27 * r) & u128::from(PIECE as u32)) * u128::from(*key);
            }
            assert_eq!(u128::from(f(&key, bit_len, hash)), sum % u128::from(P));
        }
    }
}
