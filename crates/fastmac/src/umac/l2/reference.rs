//! L2-HASH exactly as RFC 4418 section 5.3 states it (see `mod.rs`): POLY
//! word by word with the marker branch, L2-HASH over the L1 output string
//! with the 0x80 padding, and arithmetic done the slow, obvious way. The
//! oracle of the tests of `arith.rs`, `poly64.rs`, `poly128.rs` and
//! `state.rs`; never used to compute a tag.

/// `prime(64)`.
pub(super) const P64: u128 = (1 << 64) - 59;
/// `prime(128)`.
pub(super) const P128: u128 = 0u128.wrapping_sub(159);

/// `(a + b) mod p128` for `a`, `b` below p128.
fn add_p128(a: u128, b: u128) -> u128 {
    let (sum, carry) = a.overflowing_add(b);
    // 2^128 = 159 (mod p128).
    let sum = if carry { sum + 159 } else { sum };
    if sum >= P128 { sum - P128 } else { sum }
}

/// `(k * y + a) mod p` for the prime of `wordbits`, by schoolbook
/// arithmetic: `u128` for p64, doubling and adding for p128 (no 256-bit
/// type needed).
pub(super) fn mul_add(wordbits: u32, k: u128, y: u128, a: u128) -> u128 {
    if wordbits == 64 {
        let (k, y, a) = (k % P64, y % P64, a % P64);
        return (k * y % P64 + a) % P64;
    }
    let mut acc = a % P128;
    let mut base = y % P128;
    let mut k = k;
    while k > 0 {
        if k & 1 == 1 {
            acc = add_p128(acc, base);
        }
        base = add_p128(base, base);
        k >>= 1;
    }
    acc
}

/// POLY (section 5.3.2) over `words` (each below `2^wordbits`) with key `k`.
pub(super) fn poly(wordbits: u32, k: u128, words: &[u128]) -> u128 {
    poly_from(wordbits, k, 1, words)
}

/// POLY's loop over `words` from the accumulator `y` instead of 1: the
/// steps after some words already hashed.
pub(super) fn poly_from(wordbits: u32, k: u128, y: u128, words: &[u128]) -> u128 {
    let (p, maxwordrange) =
        if wordbits == 64 { (P64, (1 << 64) - (1 << 32)) } else { (P128, 0u128.wrapping_sub(1 << 96)) };
    let offset = if wordbits == 64 { 59 } else { 159 };
    let marker = p - 1;
    let mut y = y;
    for &m in words {
        if m >= maxwordrange {
            y = mul_add(wordbits, k, y, marker);
            y = mul_add(wordbits, k, y, m - offset);
        } else {
            y = mul_add(wordbits, k, y, m);
        }
    }
    y
}

/// L2-HASH (section 5.3.1) of one iteration over its L1 outputs `outputs`
/// (the string M, one 8-byte word per chunk), with the masked keys `k64`
/// and `k128`.
pub(super) fn l2_hash(k64: u64, k128: u128, outputs: &[u64]) -> u128 {
    const POLY64_BYTES: usize = 1 << 17;
    let words64 = POLY64_BYTES / 8;
    if outputs.len() <= words64 {
        return poly(64, u128::from(k64), &outputs.iter().map(|&w| u128::from(w)).collect::<Vec<_>>());
    }
    let y = poly(64, u128::from(k64), &outputs[..words64].iter().map(|&w| u128::from(w)).collect::<Vec<_>>());
    let mut m2: Vec<u8> = y.to_be_bytes().to_vec();
    for w in &outputs[words64..] {
        m2.extend_from_slice(&w.to_be_bytes());
    }
    m2.push(0x80);
    while !m2.len().is_multiple_of(16) {
        m2.push(0);
    }
    let words: Vec<u128> = m2.chunks_exact(16).map(|b| u128::from_be_bytes(b.try_into().expect("16 bytes"))).collect();
    poly(128, k128, &words)
}
