//! L2-HASH (RFC 4418 section 5.3): the L1-HASH outputs of a message longer
//! than one chunk, compressed by POLY (section 5.3.2) with 64-bit words over
//! the first 2^17 bytes of them (16 MiB of message), then with 128-bit words
//! (POLY128) over the rest. Fed one L1 output per chunk as the chunks are
//! hashed, so no L1 output string is ever stored. Arithmetic on
//! key-dependent values is branch-free.

use aes::Aes128;
use zeroize::Zeroize;

use super::kdf::kdf;
use super::l1::L1Output;
use super::nh::MAX_ITERS;

/// L1 outputs hashed under POLY64 before L2-HASH moves to POLY128: 2^17 bytes
/// of L1 output, 8 bytes each (section 5.3.1).
const POLY64_WORDS: u64 = 1 << 14;

const P64: u64 = 0u64.wrapping_sub(59); // 2^64 - 59
const P128: u128 = 0u128.wrapping_sub(159); // 2^128 - 159

/// L2Key (section 5.1) split per iteration into `k64` and `k128`, masked
/// as section 5.3.1 restricts them.
#[derive(Clone, Zeroize)]
pub(crate) struct L2Key {
    k64: [u64; MAX_ITERS],
    k128: [u128; MAX_ITERS],
}

impl L2Key {
    /// `L2Key = KDF(K, 2, iters * 24)`: per iteration 8 bytes of `k64`,
    /// then 16 of `k128`.
    pub(crate) fn derive(cipher: &Aes128, iters: usize) -> Self {
        let mut key = L2Key { k64: [0; MAX_ITERS], k128: [0; MAX_ITERS] };
        let mut buf = [0u8; 24 * MAX_ITERS];
        kdf(cipher, 2, &mut buf[..24 * iters]);
        for (i, bytes) in buf[..24 * iters].chunks_exact(24).enumerate() {
            key.k64[i] = u64::from_be_bytes(bytes[..8].try_into().expect("8 bytes")) & 0x01ff_ffff_01ff_ffff;
            key.k128[i] = u128::from_be_bytes(bytes[8..24].try_into().expect("16 bytes"))
                & 0x01ff_ffff_01ff_ffff_01ff_ffff_01ff_ffff;
        }
        buf.zeroize();
        key
    }
}

/// L2-HASH (section 5.3.1) of every UHASH iteration, over the L1 outputs
/// of one message's whole chunks, absorbed in order.
#[derive(Clone, Copy, Zeroize)]
pub(crate) struct L2Hash {
    poly: [Poly; MAX_ITERS],
    /// L1 outputs absorbed so far.
    chunks: u64,
}

impl Default for L2Hash {
    fn default() -> Self {
        L2Hash { poly: [Poly::default(); MAX_ITERS], chunks: 0 }
    }
}

impl L2Hash {
    /// Absorbs the L1 outputs of whole chunks, in message order.
    #[inline]
    pub(crate) fn absorb(&mut self, key: &L2Key, iters: usize, outputs: &[L1Output]) {
        for out in outputs {
            for (i, (poly, &word)) in self.poly.iter_mut().zip(out).take(iters).enumerate() {
                poly.absorb(key.k64[i], key.k128[i], self.chunks, word);
            }
            self.chunks += 1;
        }
    }

    /// True before the first chunk: a message of at most one chunk skips
    /// L2-HASH (section 5.1).
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.chunks == 0
    }

    /// The L2-HASH output of iteration `i` once `last`, the message's last
    /// L1 output, is absorbed. Each iteration is finished once; the state
    /// is done after that.
    #[inline]
    pub(crate) fn finish(&mut self, key: &L2Key, i: usize, last: u64) -> u128 {
        self.poly[i].absorb(key.k64[i], key.k128[i], self.chunks, last);
        self.poly[i].finish(key.k128[i], self.chunks + 1)
    }
}

/// L2-HASH of one iteration (section 5.3.1), fed one 64-bit L1 output at a
/// time: POLY64 over the first 2^14 outputs, then POLY128 over
/// `uint2str(y, 16) || rest || 0x80 || zeros`.
#[derive(Clone, Copy, Zeroize)]
struct Poly {
    y64: u64,
    y128: u128,
    /// The high half of a POLY128 word whose low half has not arrived.
    high_half: u64,
}

impl Default for Poly {
    fn default() -> Self {
        Poly { y64: 1, y128: 1, high_half: 0 }
    }
}

impl Poly {
    /// Absorbs the L1 output number `index` (0-based).
    fn absorb(&mut self, k64: u64, k128: u128, index: u64, word: u64) {
        if index < POLY64_WORDS {
            self.y64 = poly64_step(k64, self.y64, word);
            return;
        }
        let offset = index - POLY64_WORDS;
        if offset == 0 {
            // POLY128's first word is uint2str(y64, 16); y64 < p64 is always
            // below POLY128's word range, so no marker is possible.
            self.y128 = mul_add_mod_p128(k128, 1, u128::from(self.y64));
        }
        if offset % 2 == 0 {
            self.high_half = word;
        } else {
            let m = (u128::from(self.high_half) << 64) | u128::from(word);
            self.y128 = poly128_step(k128, self.y128, m);
        }
    }

    /// The L2 output, given how many L1 outputs were absorbed in all.
    fn finish(&self, k128: u128, count: u64) -> u128 {
        if count <= POLY64_WORDS {
            return u128::from(self.y64);
        }
        // Append the byte 0x80, then zeros to a whole 16-byte word.
        let m = if (count - POLY64_WORDS) % 2 == 1 {
            (u128::from(self.high_half) << 64) | (1 << 63)
        } else {
            1 << 127
        };
        poly128_step(k128, self.y128, m)
    }
}

/// All-ones when `cond` is 1, zero when it is 0.
fn mask64(cond: u64) -> u64 {
    0u64.wrapping_sub(cond)
}

/// A carry or borrow (0 or 1) hidden from the optimizer, so that the
/// arithmetic on it stays arithmetic: knowing it is a bool, LLVM turned
/// these key-dependent selects into conditional jumps inside the L2 loop,
/// which the ctgrind test (crates/fastmac-c/tests/ct) flagged.
#[inline(always)]
fn opaque_bit(bit: bool) -> u64 {
    core::hint::black_box(u64::from(bit))
}

/// One word of POLY (RFC 4418 section 5.3.2) with 64-bit words. A word in
/// the top range (`m >= 2^64 - 2^32`) is hashed as the marker `p - 1` then
/// `m - offset`. Both paths are computed and one is selected without a
/// branch, since `m` depends on the key. They share one multiplication:
/// with `u = k * y + (p - 1)`, the plain result `k * y + m` is `u + m + 1`,
/// and the marked one is `k * u + (m - 59)`.
fn poly64_step(k: u64, y: u64, m: u64) -> u64 {
    let in_top_range = mask64(((m >> 32) + 1) >> 32);
    let u = mul_add_mod_p64(k, y, P64 - 1);
    // Only used when m < 2^64 - 2^32, so m + 1 does not wrap.
    let plain = add_mod_p64(u, m.wrapping_add(1));
    let marked = mul_add_mod_p64(k, u, m.wrapping_sub(59));
    (marked & in_top_range) | (plain & !in_top_range)
}

/// `(a + b) mod (2^64 - 59)` for `a < p` and any 64-bit `b`.
fn add_mod_p64(a: u64, b: u64) -> u64 {
    let (sum, carry) = a.overflowing_add(b);
    // 2^64 = 59 (mod p); with a carry, sum < a < p, so this cannot wrap.
    let t = sum + 59 * u64::from(carry);
    let (reduced, borrow) = t.overflowing_sub(P64);
    let keep = mask64(opaque_bit(borrow));
    (t & keep) | (reduced & !keep)
}

/// One word of POLY with 128-bit words (range limit `2^128 - 2^96`).
fn poly128_step(k: u128, y: u128, m: u128) -> u128 {
    let top = (m >> 96) as u64;
    let in_top_range = u128::from(mask64((top + 1) >> 32)) * u128::MAX;
    let plain = mul_add_mod_p128(k, y, m);
    let marked = mul_add_mod_p128(k, mul_add_mod_p128(k, y, P128 - 1), m.wrapping_sub(159));
    (marked & in_top_range) | (plain & !in_top_range)
}

/// `(k * y + a) mod (2^64 - 59)` for `k < 2^57`, `y < 2^64`, `a < 2^64`.
fn mul_add_mod_p64(k: u64, y: u64, a: u64) -> u64 {
    let x = u128::from(k) * u128::from(y) + u128::from(a); // < 2^122
    // 2^64 = 59 (mod p): fold the high half down twice.
    let t = (x >> 64) * 59 + u128::from(x as u64); // < 2^65
    let t = ((t >> 64) * 59 + u128::from(t as u64)) as u64; // fits: see below
    // After the first fold the high half is 0 or 1; when it is 1 the low
    // half is below 2^63, so the second fold cannot carry. t < 2p now.
    let (reduced, borrow) = t.overflowing_sub(P64);
    let keep = mask64(opaque_bit(borrow));
    (t & keep) | (reduced & !keep)
}

/// `(k * y + a) mod (2^128 - 159)` for `k < 2^121`, `y, a < 2^128`.
fn mul_add_mod_p128(k: u128, y: u128, a: u128) -> u128 {
    let (k0, k1) = (u128::from(k as u64), k >> 64);
    let (y0, y1) = (u128::from(y as u64), y >> 64);
    // 256-bit product as hi * 2^128 + lo.
    let p00 = k0 * y0;
    let p01 = k0 * y1;
    let p10 = k1 * y0;
    let mid = (p00 >> 64) + (p01 & u128::from(u64::MAX)) + (p10 & u128::from(u64::MAX));
    let lo = (mid << 64) | (p00 & u128::from(u64::MAX));
    let hi = (mid >> 64) + (p01 >> 64) + (p10 >> 64) + k1 * y1; // < 2^121
    // 2^128 = 159 (mod p): x = hi * 159 + lo + a, summed in 64-bit limbs.
    let h0 = u128::from(hi as u64) * 159; // < 2^72
    let h1 = (hi >> 64) * 159; // < 2^65
    let s0 = u128::from(lo as u64) + u128::from(a as u64) + (h0 & u128::from(u64::MAX));
    let s1 = (lo >> 64) + (a >> 64) + (h0 >> 64) + (h1 & u128::from(u64::MAX)) + (s0 >> 64);
    let s2 = (h1 >> 64) + (s1 >> 64); // a few units
    let low = (s1 << 64) | (s0 & u128::from(u64::MAX));
    let (t, carry) = low.overflowing_add(s2 * 159);
    let t = t + u128::from(opaque_bit(carry)) * 159; // cannot carry again: t is tiny here
    // t < 2p: subtract p once if t >= p, i.e. if t + 159 overflows.
    let (plus, over) = t.overflowing_add(159);
    let take = u128::from(opaque_bit(over)) * u128::MAX;
    (plus & take) | (t & !take)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn p64_arithmetic_matches_u128_remainder() {
        let cases = [
            (0x01ff_ffff_01ff_ffff, P64 - 1, u64::MAX),
            (0x01ff_ffff_01ff_ffff, u64::MAX, u64::MAX),
            (1, 1, P64 - 1),
            (0, 0, u64::MAX),
            (12345, 0xdead_beef_cafe_f00d, 59),
        ];
        for (k, y, a) in cases {
            let expect = ((u128::from(k) * u128::from(y) + u128::from(a)) % u128::from(P64)) as u64;
            assert_eq!(mul_add_mod_p64(k, y, a), expect, "k={k:x} y={y:x} a={a:x}");
        }
    }

    #[test]
    fn p128_arithmetic_matches_schoolbook() {
        // Check (k*y + a) mod p against repeated doubling, which needs no
        // 256-bit type.
        fn slow(k: u128, y: u128, a: u128) -> u128 {
            let add = |x: u128, z: u128| {
                let (s, c) = x.overflowing_add(z);
                let s = if c { s + 159 } else { s };
                if s >= P128 { s - P128 } else { s }
            };
            let mut acc = a % P128;
            let mut base = y % P128;
            let mut k = k;
            while k > 0 {
                if k & 1 == 1 {
                    acc = add(acc, base);
                }
                base = add(base, base);
                k >>= 1;
            }
            acc
        }
        let mask = 0x01ff_ffff_01ff_ffff_01ff_ffff_01ff_ffffu128;
        let cases = [
            (mask, P128 - 1, u128::MAX),
            (mask, u128::MAX, u128::MAX),
            (1, 1, P128 - 1),
            (mask, 0, 0),
            (0x0123_4567_0089_abcd_0102_0304_0000_0001, 0xfedc_ba98_7654_3210_0f1e_2d3c_4b5a_6978, 1 << 127),
        ];
        for (k, y, a) in cases {
            assert_eq!(mul_add_mod_p128(k, y, a), slow(k, y, a), "k={k:x} y={y:x} a={a:x}");
        }
    }

    #[test]
    fn add_mod_p64_matches_u128_remainder() {
        for (a, b) in [(P64 - 1, u64::MAX), (0, u64::MAX), (P64 - 1, 59), (12, 34), (P64 - 1, 0)] {
            let expect = ((u128::from(a) + u128::from(b)) % u128::from(P64)) as u64;
            assert_eq!(add_mod_p64(a, b), expect, "a={a:x} b={b:x}");
        }
    }

    #[test]
    fn poly_marker_path_equals_rfc_branching() {
        let k = 0x01ab_cdef_0123_4567;
        for m in [P64 - 1, u64::MAX, 0xffff_ffff_0000_0000, 0xffff_fffe_ffff_ffff, 7] {
            let y = 0x1234_5678_9abc_def0;
            let expect = if m >= 0xffff_ffff_0000_0000 {
                let y = mul_add_mod_p64(k, y, P64 - 1);
                mul_add_mod_p64(k, y, m - 59)
            } else {
                mul_add_mod_p64(k, y, m)
            };
            assert_eq!(poly64_step(k, y, m), expect);
        }
    }
}
