//! L2-HASH (RFC 4418 section 5.3): the L1-HASH outputs of a message longer
//! than one chunk, compressed by POLY (section 5.3.2) with 64-bit words over
//! the first 2^17 bytes of them (16 MiB of message), then with 128-bit words
//! (POLY128) over the rest. Fed one L1 output per chunk as the chunks are
//! hashed, so no L1 output string is ever stored. Arithmetic on
//! key-dependent values is branch-free.

use aes::Aes128;
use zeroize::Zeroize;
#[cfg(feature = "parallel")]
use zeroize::ZeroizeOnDrop;

use super::kdf::kdf;
use super::l1::L1Output;
use super::nh::MAX_ITERS;

/// L1 outputs hashed under POLY64 before L2-HASH moves to POLY128: 2^17 bytes
/// of L1 output, 8 bytes each (section 5.3.1).
const POLY64_WORDS: u64 = 1 << 14;

const P64: u64 = 0u64.wrapping_sub(59); // 2^64 - 59
const P128: u128 = 0u128.wrapping_sub(159); // 2^128 - 159

/// L2Key (section 5.1) split per iteration into `k64` and `k128`, masked
/// as section 5.3.1 restricts them, plus their squares for the
/// one-multiplication marker paths of [`poly64_step`] and [`poly128_step`]
/// and the constants of [`poly64_two`].
#[derive(Clone, Zeroize)]
pub(crate) struct L2Key {
    k64: [u64; MAX_ITERS],
    k64_squared: [u64; MAX_ITERS],
    /// Per iteration, [`poly64_two`]'s `mult2 * d1 mod p64` for each case
    /// of the two words' markers, at index `2 * marked2 + marked1`.
    two_words: [[u64; 4]; MAX_ITERS],
    k128: [u128; MAX_ITERS],
    /// `k128 * k128 mod p128`, for the one-multiplication marker path of
    /// [`poly128_step`].
    k128_squared: [u128; MAX_ITERS],
}

impl L2Key {
    /// `L2Key = KDF(K, 2, iters * 24)`: per iteration 8 bytes of `k64`,
    /// then 16 of `k128`.
    pub(crate) fn derive(cipher: &Aes128, iters: usize) -> Self {
        let mut key = L2Key {
            k64: [0; MAX_ITERS],
            k64_squared: [0; MAX_ITERS],
            two_words: [[0; 4]; MAX_ITERS],
            k128: [0; MAX_ITERS],
            k128_squared: [0; MAX_ITERS],
        };
        let mut buf = [0u8; 24 * MAX_ITERS];
        kdf(cipher, 2, &mut buf[..24 * iters]);
        for (i, bytes) in buf[..24 * iters].chunks_exact(24).enumerate() {
            let k64 = u64::from_be_bytes(bytes[..8].try_into().expect("8 bytes")) & 0x01ff_ffff_01ff_ffff;
            let k64_squared = reduce_p64(u128::from(k64) * u128::from(k64));
            // d1 of poly64_two, unmarked and marked: k and k^2 - 59 - k.
            let first_offset = [k64, reduce_p64(u128::from(k64_squared) + u128::from(P64 - 59 - k64))];
            let mult = [k64, k64_squared];
            key.k64[i] = k64;
            key.k64_squared[i] = k64_squared;
            key.two_words[i] =
                core::array::from_fn(|c| reduce_p64(u128::from(mult[c / 2]) * u128::from(first_offset[c % 2])));
            let k128 = u128::from_be_bytes(bytes[8..24].try_into().expect("16 bytes"))
                & 0x01ff_ffff_01ff_ffff_01ff_ffff_01ff_ffff;
            key.k128[i] = k128;
            key.k128_squared[i] = canonical_p128(mul_add_p128(k128, k128, 0));
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
    /// Absorbs the L1 outputs of whole chunks, in message order (the first
    /// `iters` words of each): [`L2Hash::absorb_chunks`] for the caller's
    /// iteration count.
    #[inline(always)]
    pub(crate) fn absorb(&mut self, key: &L2Key, iters: usize, outputs: &[L1Output]) {
        match iters {
            1 => self.absorb_chunks::<1>(key, outputs.iter().map(|out| [out[0]])),
            2 => self.absorb_chunks::<2>(key, outputs.iter().map(|out| [out[0], out[1]])),
            3 => self.absorb_chunks::<3>(key, outputs.iter().map(|out| [out[0], out[1], out[2]])),
            _ => self.absorb_chunks::<4>(key, outputs.iter().copied()),
        }
    }

    /// Absorbs one chunk's L1 outputs, whatever the word count: the path
    /// past POLY64's range.
    fn absorb_one(&mut self, key: &L2Key, words: &[u64]) {
        for (i, (poly, &word)) in self.poly.iter_mut().zip(words).enumerate() {
            poly.absorb(key, i, self.chunks, word);
        }
        self.chunks += 1;
    }

    /// Absorbs the L1 outputs of whole chunks, in message order, as
    /// [`L2Hash::absorb`] does, for a caller that hashes chunk after chunk
    /// with a fixed iteration count: while the words stay within POLY64's
    /// range, the accumulators are a [`Poly64`] the loop keeps in
    /// registers, with no word count to update and no POLY128 test per
    /// word, so one chunk's POLY64 step overlaps the next chunk's NH.
    #[inline(always)]
    pub(crate) fn absorb_chunks<const ITERS: usize>(
        &mut self,
        key: &L2Key,
        mut outputs: impl ExactSizeIterator<Item = [u64; ITERS]>,
    ) {
        let in_poly64 = outputs.len().min(POLY64_WORDS.saturating_sub(self.chunks) as usize);
        if in_poly64 > 0 {
            let mut run = outputs.by_ref().take(in_poly64);
            let mut poly = if self.chunks == 0 {
                Poly64::start(key, &run.next().expect("in_poly64 > 0"))
            } else {
                Poly64 { y: core::array::from_fn(|i| self.poly[i].y64) }
            };
            for words in run {
                poly.absorb(key, &words);
            }
            for (state, y) in self.poly.iter_mut().zip(poly.y) {
                state.y64 = y;
            }
            self.chunks += in_poly64 as u64;
        }
        for words in outputs {
            self.absorb_one(key, &words);
        }
    }

    /// [`L2Hash::absorb`] for L1 outputs hashed beforehand, many at a time:
    /// the multi-core paths of `super::parallel` (a file's units of 2048
    /// chunks, and batches of a message in memory past 2^14 chunks). With
    /// no NH left to overlap, past POLY64's range the word-by-word path
    /// cost half as much CPU time as NH for UMAC-128
    /// (docs/performance.md section 13); here, once POLY128 has started
    /// and stands between two of its 16-byte words, every pair of outputs
    /// is one word, hashed with the accumulators in registers. Before that
    /// (POLY128's first word, or the second half of a word already begun)
    /// and for an odd output left at the end, the outputs go through
    /// [`Poly`] one by one, which keeps a half word between calls.
    #[cfg(feature = "parallel")]
    pub(crate) fn absorb_hashed(&mut self, key: &L2Key, iters: usize, outputs: &[L1Output]) {
        match iters {
            1 => self.absorb_hashed_iters::<1>(key, outputs),
            2 => self.absorb_hashed_iters::<2>(key, outputs),
            3 => self.absorb_hashed_iters::<3>(key, outputs),
            _ => self.absorb_hashed_iters::<4>(key, outputs),
        }
    }

    /// [`L2Hash::absorb_hashed`] for `ITERS` iterations.
    #[cfg(feature = "parallel")]
    fn absorb_hashed_iters<const ITERS: usize>(&mut self, key: &L2Key, outputs: &[L1Output]) {
        let mut outputs = outputs.iter().map(|out| -> [u64; ITERS] { core::array::from_fn(|i| out[i]) });
        let in_poly64 = outputs.len().min(self.poly64_room());
        self.absorb_chunks::<ITERS>(key, outputs.by_ref().take(in_poly64));
        let between_words = |chunks: u64| chunks > POLY64_WORDS && (chunks - POLY64_WORDS).is_multiple_of(2);
        while outputs.len() > 0 && !between_words(self.chunks) {
            self.absorb_one(key, &outputs.next().expect("outputs left"));
        }
        let pairs = outputs.len() / 2;
        let mut y: [u128; ITERS] = core::array::from_fn(|i| self.poly[i].y128);
        for _ in 0..pairs {
            let (high, low) = (outputs.next().expect("a pair left"), outputs.next().expect("a pair left"));
            y = core::array::from_fn(|i| {
                let word = u128::from(high[i]) << 64 | u128::from(low[i]);
                poly128_step(key.k128[i], key.k128_squared[i], y[i], word)
            });
        }
        for (state, y) in self.poly.iter_mut().zip(y) {
            state.y128 = y;
        }
        self.chunks += 2 * pairs as u64;
        for words in outputs {
            self.absorb_one(key, &words);
        }
    }

    /// L1 outputs that POLY64 still takes before POLY128 does (section
    /// 5.3.1): how long a [`Poly64Run`] may be.
    #[cfg(feature = "parallel")]
    #[inline]
    pub(crate) fn poly64_room(&self) -> usize {
        POLY64_WORDS.saturating_sub(self.chunks) as usize
    }

    /// Absorbs a run of L1 outputs hashed elsewhere (the next ones in
    /// message order), the run within [`L2Hash::poly64_room`]: one
    /// multiply-add per iteration. From the start (`y = 1`) that is the
    /// run's map applied to 1, as POLY's first step is.
    #[cfg(feature = "parallel")]
    pub(crate) fn absorb_run<const ITERS: usize>(&mut self, run: &Poly64Run<ITERS>) {
        debug_assert!(run.chunks <= self.poly64_room() as u64, "a run within POLY64's range");
        for (poly, (&mult, &value)) in self.poly.iter_mut().zip(run.mult.iter().zip(&run.value)) {
            poly.y64 = fold_p64(u128::from(mult) * u128::from(poly.y64) + u128::from(value));
        }
        self.chunks += run.chunks;
    }

    /// True before the first chunk: a message of at most one chunk skips
    /// L2-HASH (section 5.1).
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.chunks == 0
    }

    /// True if the L2-HASH output, once the last L1 output is absorbed, is
    /// POLY64's (every message up to 16 MiB): below 2^64, so L3-HASH has
    /// only four terms (`super::l3::l3_hash_short`).
    #[inline(always)]
    pub(crate) fn ends_in_poly64(&self) -> bool {
        self.chunks < POLY64_WORDS
    }

    /// The L2-HASH output of iteration `i` once `last`, the message's last
    /// L1 output, is absorbed. Each iteration is finished once; the state
    /// is done after that.
    #[inline(always)]
    pub(crate) fn finish(&mut self, key: &L2Key, i: usize, last: u64) -> u128 {
        debug_assert!(!self.is_empty(), "a message of one chunk skips L2-HASH");
        if self.ends_in_poly64() {
            return u128::from(poly64_last(key.k64[i], key.k64_squared[i], self.poly[i].y64, last));
        }
        let poly = &mut self.poly[i];
        poly.absorb(key, i, self.chunks, last);
        poly.finish_poly128(key, i, self.chunks + 1)
    }
}

/// POLY64 (section 5.3.2) of `ITERS` iterations, a few words that stay in
/// registers: the whole L2-HASH of a message whose L1 outputs all fall in
/// POLY64's range (at most [`POLY64_CHUNKS`] of them: a message of up to
/// 16 MiB), and the fast part of [`L2Hash::absorb_chunks`].
#[derive(Clone, Copy)]
pub(crate) struct Poly64<const ITERS: usize> {
    /// Each iteration's accumulator, lazily reduced as [`Poly`]'s `y64`.
    y: [u64; ITERS],
}

/// L1 outputs (chunks) that L2-HASH hashes with POLY64 before POLY128.
pub(crate) const POLY64_CHUNKS: usize = POLY64_WORDS as usize;

impl<const ITERS: usize> Poly64<ITERS> {
    /// POLY64 of the first L1 outputs: from `y = 1`, an addition
    /// ([`poly64_first`]).
    #[inline(always)]
    pub(crate) fn start(key: &L2Key, first: &[u64; ITERS]) -> Self {
        Poly64 { y: core::array::from_fn(|i| poly64_first(key.k64[i], key.k64_squared[i], first[i])) }
    }

    /// Absorbs the next chunk's L1 outputs.
    #[inline(always)]
    pub(crate) fn absorb(&mut self, key: &L2Key, words: &[u64; ITERS]) {
        for (i, y) in self.y.iter_mut().enumerate() {
            *y = poly64_step(key.k64[i], key.k64_squared[i], *y, words[i]);
        }
    }

    /// The L2-HASH output of each iteration for a message of exactly two
    /// chunks, from their L1 outputs ([`poly64_two`]): what [`Poly64::start`]
    /// then [`Poly64::finish`] give, with one multiplication and one
    /// reduction after the first chunk's NH.
    #[inline(always)]
    pub(crate) fn of_two(key: &L2Key, first: &[u64; ITERS], last: &[u64; ITERS]) -> [u64; ITERS] {
        core::array::from_fn(|i| poly64_two(key.k64[i], key.k64_squared[i], &key.two_words[i], first[i], last[i]))
    }

    /// Absorbs the message's last L1 outputs and gives each iteration's
    /// L2-HASH output (section 5.3.1: POLY64's result, below `p64`), the
    /// last step and the canonical residue in one reduction
    /// ([`poly64_last`]).
    #[inline(always)]
    pub(crate) fn finish(self, key: &L2Key, last: &[u64; ITERS]) -> [u64; ITERS] {
        core::array::from_fn(|i| poly64_last(key.k64[i], key.k64_squared[i], self.y[i], last[i]))
    }
}

/// POLY64 over a run of consecutive L1 outputs, as the map it applies to
/// each iteration's accumulator: `y -> mult * y + value (mod p64)`, both
/// lazily reduced. Horner's steps ([`poly64_word`]) compose, so a run is
/// hashed from `mult = 1`, `value = 0` without the accumulator before it,
/// and applied to it later in one multiply-add ([`L2Hash::absorb_run`]):
/// how the multi-core path spreads POLY64, sequential word by word, over
/// its tasks along with NH.
///
/// `mult` is a power of the key (`k^n` times `k` per marked word), from
/// which the key is easily recovered: a run is wiped when dropped.
#[cfg(feature = "parallel")]
#[derive(Clone, Zeroize, ZeroizeOnDrop)]
pub(crate) struct Poly64Run<const ITERS: usize> {
    mult: [u64; ITERS],
    value: [u64; ITERS],
    /// L1 outputs in the run.
    chunks: u64,
}

#[cfg(feature = "parallel")]
impl<const ITERS: usize> Default for Poly64Run<ITERS> {
    fn default() -> Self {
        Poly64Run { mult: [1; ITERS], value: [0; ITERS], chunks: 0 }
    }
}

#[cfg(feature = "parallel")]
impl<const ITERS: usize> Poly64Run<ITERS> {
    /// Extends the run by the next chunk's L1 outputs.
    #[inline(always)]
    pub(crate) fn absorb(&mut self, key: &L2Key, words: &[u64; ITERS]) {
        for (i, &word) in words.iter().enumerate() {
            let (mult, add) = poly64_word(key.k64[i], key.k64_squared[i], word);
            self.value[i] = fold_p64(u128::from(mult) * u128::from(self.value[i]) + u128::from(add));
            self.mult[i] = fold_p64(u128::from(mult) * u128::from(self.mult[i]));
        }
        self.chunks += 1;
    }
}

/// L2-HASH of one iteration (section 5.3.1), fed one 64-bit L1 output at a
/// time: POLY64 over the first 2^14 outputs, then POLY128 over
/// `uint2str(y, 16) || rest || 0x80 || zeros`.
#[derive(Clone, Copy, Zeroize)]
struct Poly {
    /// POLY64's accumulator, reduced lazily: below 2^64 and congruent mod
    /// p64, made canonical ([`canonical_p64`]) only where it leaves POLY64.
    y64: u64,
    /// POLY128's accumulator, reduced lazily as `y64` is (below 2^128),
    /// made canonical ([`canonical_p128`]) once, at the end.
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
    /// Absorbs the L1 output number `index` (0-based) of iteration `i`.
    /// POLY64 (every message up to 16 MiB) is inlined into the chunk loops;
    /// POLY128 stays out of line.
    #[inline(always)]
    fn absorb(&mut self, key: &L2Key, i: usize, index: u64, word: u64) {
        if index == 0 {
            self.y64 = poly64_first(key.k64[i], key.k64_squared[i], word);
        } else if index < POLY64_WORDS {
            self.y64 = poly64_step(key.k64[i], key.k64_squared[i], self.y64, word);
        } else {
            self.absorb_poly128(key, i, index - POLY64_WORDS, word);
        }
    }

    /// Absorbs the L1 output number `offset` after the first 2^14 (out of
    /// line, so that the POLY64 loops it sits in stay small).
    #[inline(never)]
    fn absorb_poly128(&mut self, key: &L2Key, i: usize, offset: u64, word: u64) {
        if offset == 0 {
            // POLY128's first word is uint2str(y64, 16); y64 < p64 is always
            // below POLY128's word range, so no marker is possible.
            self.y128 = mul_add_p128(key.k128[i], 1, u128::from(canonical_p64(self.y64)));
        }
        if offset.is_multiple_of(2) {
            self.high_half = word;
        } else {
            let m = (u128::from(self.high_half) << 64) | u128::from(word);
            self.y128 = poly128_step(key.k128[i], key.k128_squared[i], self.y128, m);
        }
    }

    /// The L2 output of a message past POLY64's range, given how many L1
    /// outputs were absorbed in all.
    #[cold]
    #[inline(never)]
    fn finish_poly128(&self, key: &L2Key, i: usize, count: u64) -> u128 {
        debug_assert!(count > POLY64_WORDS);
        // Append the byte 0x80, then zeros to a whole 16-byte word.
        let m = if (count - POLY64_WORDS) % 2 == 1 { (u128::from(self.high_half) << 64) | (1 << 63) } else { 1 << 127 };
        canonical_p128(poly128_step(key.k128[i], key.k128_squared[i], self.y128, m))
    }
}

/// All-ones when the 64-bit word `m` is in POLY64's top range
/// (`m >= 2^64 - 2^32`, its high half all ones), else zero: adding one to
/// the high half reaches bit 32 only then, and an arithmetic shift spreads
/// that bit over the word, so no comparison exists for LLVM to turn into
/// a jump.
#[inline(always)]
fn top_range_mask(m: u64) -> u64 {
    ((((m >> 32) + 1) << 31) as i64 >> 63) as u64
}

/// One word `m` of POLY (RFC 4418 section 5.3.2) with 64-bit words, as the
/// map `y -> mult * y + add (mod p)` it applies, returned as
/// `(mult, add)`. A word in the top range is hashed as the marker `p - 1`
/// then `m - 59`: `k * (k * y + p - 1) + m - 59 = k^2 * y + (m - 59 - k)`,
/// so both cases are one multiply-add, with the multiplier (`k` or `k^2`)
/// and the addend selected by a mask: no branch on `m`, which depends on
/// the key, and a single multiplication on the chain from one chunk to the
/// next.
#[inline(always)]
fn poly64_word(k: u64, k_squared: u64, m: u64) -> (u64, u64) {
    let top = top_range_mask(m);
    let mult = k ^ ((k ^ k_squared) & top);
    // In the top range m >= 2^64 - 2^32 > 59 + k (k < 2^57): no wrap.
    (mult, m - ((59 + k) & top))
}

/// One step of POLY64 ([`poly64_word`]) on a lazily reduced `y` (below
/// 2^64, congruent mod p).
#[inline(always)]
fn poly64_step(k: u64, k_squared: u64, y: u64, m: u64) -> u64 {
    let (mult, add) = poly64_word(k, k_squared, m);
    fold_p64(u128::from(mult) * u128::from(y) + u128::from(add))
}

/// [`poly64_step`] for the message's last word, giving POLY64's result
/// itself (the canonical residue, [`reduce_p64`]) rather than a lazily
/// reduced value: on the chain from the last chunk's NH to the tag, one
/// reduction where a fold and then [`canonical_p64`] took two.
#[inline(always)]
fn poly64_last(k: u64, k_squared: u64, y: u64, m: u64) -> u64 {
    let (mult, add) = poly64_word(k, k_squared, m);
    reduce_p64(u128::from(mult) * u128::from(y) + u128::from(add))
}

/// POLY64 of exactly two words `m1`, `m2` from `y = 1`, its canonical
/// result. After the first word `y = m1 + d1` (mod p), where `d1` is `k`,
/// or `k^2 - 59 - k` for a marked `m1` ([`poly64_first`]); after the
/// second, `mult2 * m1 + (mult2 * d1 + add2)` with `mult2` and `add2` as in
/// [`poly64_step`]. The product `mult2 * d1` takes one of four values per
/// key, set up in [`L2Key`], so `m1` (the first chunk's NH, the late input
/// when the second chunk is short) meets one multiplication and one
/// reduction on its way to the tag, where [`poly64_first`] then
/// [`poly64_last`] put an addition, a carry fold and the marker selects
/// before the multiplication. The four values are chosen by masks, as the
/// multiplier is.
#[inline(always)]
fn poly64_two(k: u64, k_squared: u64, two_words: &[u64; 4], m1: u64, m2: u64) -> u64 {
    let (top1, top2) = (top_range_mask(m1), top_range_mask(m2));
    let (mult2, add2) = poly64_word(k, k_squared, m2);
    let [plain, first_marked, second_marked, both_marked] = *two_words;
    let if_plain2 = plain ^ ((plain ^ first_marked) & top1);
    let if_marked2 = second_marked ^ ((second_marked ^ both_marked) & top1);
    let offset = if_plain2 ^ ((if_plain2 ^ if_marked2) & top2);
    // Below 2^128: mult2 < p and m1 < 2^64, and the two addends are below 2^65.
    reduce_p64(u128::from(mult2) * u128::from(m1) + u128::from(offset) + u128::from(add2))
}

/// [`poly64_step`] from POLY's initial `y = 1`: `mult + add`, whose sum
/// is below 2^65, so one fold of the carry replaces the three that a
/// product needs (on the chain from the first chunk's NH to the tag). No
/// overflow there: `mult` (`k` or `k^2 mod p`) is below `p`, so a carried
/// sum is below `2^64 - 60`.
#[inline(always)]
fn poly64_first(k: u64, k_squared: u64, m: u64) -> u64 {
    let (mult, add) = poly64_word(k, k_squared, m);
    let (sum, carry) = mult.overflowing_add(add);
    sum + 59 * u64::from(carry)
}

/// A value below 2^64 congruent to `x` mod `2^64 - 59`, for any `x` below
/// 2^128, by folding the high half down (`2^64 = 59 mod p`) three times
/// with plain arithmetic (no carry flag, no select): below 2^70, then
/// below 2^64 + 2^13, then below 2^64, since a third fold carries 59 only
/// when the low half is below 2^13. Past the first fold the high half is
/// below 2^6, so its product with 59 is taken in 64 bits (a widening
/// multiplication on POLY64's chain costs twice the plain one).
#[inline(always)]
fn fold_p64(x: u128) -> u64 {
    let low = u128::from(u64::MAX);
    let small_high_times_59 = |t: u128| u128::from(((t >> 64) as u64) * 59);
    let t = (x >> 64) * 59 + (x & low);
    let t = small_high_times_59(t) + (t & low);
    (small_high_times_59(t) + (t & low)) as u64
}

/// The canonical residue (below `p = 2^64 - 59`) of any `x` below 2^128:
/// one fold as in [`fold_p64`] (below 2^70 + 2^64), then the second fold
/// and the final subtraction of `p` together. After the second fold the
/// value `v` is below `2^64 + 2^12`, so below `2p`; it is at least `p`
/// exactly when `v + 59` reaches 2^64, and its residue is then `v + 59`
/// taken mod 2^64. That carry is used as a number, as in
/// [`canonical_p64`], so there is no select or jump on it (a boolean
/// carry here became a jump in the key setup, which the ctgrind test in
/// crates/fastmac-c/tests/ct flagged).
#[inline(always)]
fn reduce_p64(x: u128) -> u64 {
    let low = u128::from(u64::MAX);
    let t = (x >> 64) * 59 + (x & low);
    // t's high half is below 2^7: its product with 59 taken in 64 bits.
    let v = u128::from(((t >> 64) as u64) * 59) + (t & low);
    let at_least_p = ((v + 59) >> 64) as u64;
    (v as u64).wrapping_add(59 * at_least_p)
}

/// The canonical residue (below `p = 2^64 - 59`) of a lazily reduced `y`,
/// once per message: `y - p` when `y >= p`, that is when `y + 59` carries
/// out of 64 bits. The carry is used as a number (one subtraction of `p`
/// times it), so there is no comparison or select for LLVM to turn into a
/// jump, and the value never leaves the registers (as an opaque bit does).
#[inline]
fn canonical_p64(y: u64) -> u64 {
    let at_least_p = ((u128::from(y) + 59) >> 64) as u64;
    y.wrapping_sub(P64 * at_least_p)
}

/// One word of POLY with 128-bit words (range limit `2^128 - 2^96`), on a
/// lazily reduced `y` (below 2^128, congruent mod p128), as
/// [`poly64_step`] does it: a word in the top range is hashed as the marker
/// `p - 1` then `m - 159`, `k * (k * y + p - 1) + m - 159 = k^2 * y +
/// (m - 159 - k) (mod p)`, so both cases are one multiply-add with the
/// multiplier and the addend selected by a mask, as section 5.3.2's branch
/// would depend on the key.
#[inline(always)]
fn poly128_step(k: u128, k_squared: u128, y: u128, m: u128) -> u128 {
    // All ones when the top 32 bits are (adding one then reaches bit 32),
    // else zero.
    let top = 0u128.wrapping_sub(((m >> 96) + 1) >> 32);
    let mult = k ^ ((k ^ k_squared) & top);
    // In the top range m >= 2^128 - 2^96 > 159 + k (k < 2^121): no wrap.
    let add = m - ((159 + k) & top);
    mul_add_p128(mult, y, add)
}

/// `k * y + a`, lazily reduced mod `p128 = 2^128 - 159` (below 2^128,
/// congruent), for any `k`, `y`, `a` below 2^128: the product's high half
/// folded down (`2^128 = 159 mod p`) twice, every carry summed as a number
/// in 64-bit limbs, so the arithmetic has no select or jump on a
/// key-dependent bit and the chain from one POLY128 word to the next has
/// no final subtraction of `p` ([`canonical_p128`] does it once per
/// message).
#[inline(always)]
fn mul_add_p128(k: u128, y: u128, a: u128) -> u128 {
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
    // Fold s2 (s2 * 159 < 2^17); a carry out of that is folded once more,
    // onto a low limb then below 2^17, which cannot carry again.
    let t0 = (s0 & limb) + s2 * 159;
    let t1 = (s1 & limb) + (t0 >> 64);
    let r0 = (t0 & limb) + (t1 >> 64) * 159;
    let r1 = (t1 & limb) + (r0 >> 64);
    (r1 << 64) | (r0 & limb)
}

/// The canonical residue (below `p128`) of a lazily reduced `y`: `y - p`
/// when `y + 159` carries out of 128 bits, with that carry used as a
/// number (as in [`canonical_p64`]).
fn canonical_p128(y: u128) -> u128 {
    let limb = u128::from(u64::MAX);
    let low = (y & limb) + 159;
    let at_least_p = ((y >> 64) + (low >> 64)) >> 64;
    y.wrapping_sub(P128 * at_least_p)
}

/// `(k * y + a) mod (2^64 - 59)`, lazily reduced (below 2^64, congruent):
/// the tests' reference.
#[cfg(test)]
fn mul_add_mod_p64(k: u64, y: u64, a: u64) -> u64 {
    fold_p64(u128::from(k) * u128::from(y) + u128::from(a))
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
            assert_eq!(canonical_p64(mul_add_mod_p64(k, y, a)), expect, "k={k:x} y={y:x} a={a:x}");
        }
    }

    /// `(k*y + a) mod p128` by repeated doubling, which needs no 256-bit
    /// type: the reference for POLY128's arithmetic.
    fn mul_add_slow_p128(k: u128, y: u128, a: u128) -> u128 {
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

    #[test]
    fn p128_arithmetic_matches_schoolbook() {
        let slow = mul_add_slow_p128;
        let mask = 0x01ff_ffff_01ff_ffff_01ff_ffff_01ff_ffffu128;
        let cases = [
            (mask, P128 - 1, u128::MAX),
            (mask, u128::MAX, u128::MAX),
            (1, 1, P128 - 1),
            (mask, 0, 0),
            (0x0123_4567_0089_abcd_0102_0304_0000_0001, 0xfedc_ba98_7654_3210_0f1e_2d3c_4b5a_6978, 1 << 127),
            // Full-width multipliers, as k^2 mod p is.
            (P128 - 1, u128::MAX, u128::MAX),
            (u128::MAX, u128::MAX, u128::MAX),
            (0xfedc_ba98_7654_3210_0f1e_2d3c_4b5a_6978, P128 - 1, P128),
        ];
        for (k, y, a) in cases {
            assert_eq!(canonical_p128(mul_add_p128(k, y, a)), slow(k, y, a), "k={k:x} y={y:x} a={a:x}");
        }
    }

    #[test]
    fn poly128_marker_path_equals_rfc_branching() {
        let k = 0x01ab_cdef_0123_4567_0089_abcd_0102_0304;
        let k_squared = mul_add_slow_p128(k, k, 0);
        // y lazily reduced too (at or above p), as the word loop leaves it.
        for y in [0, 1, P128 - 1, P128 + 3, u128::MAX, 0xfedc_ba98_7654_3210_0f1e_2d3c_4b5a_6978] {
            for m in [0, 7, (1 << 127) + 5, u128::MAX - (1 << 96), u128::MAX - (1 << 96) + 1, P128 - 1, P128, u128::MAX]
            {
                let expect = if m > u128::MAX - (1 << 96) {
                    mul_add_slow_p128(k, mul_add_slow_p128(k, y, P128 - 1), m - 159)
                } else {
                    mul_add_slow_p128(k, y, m)
                };
                assert_eq!(canonical_p128(poly128_step(k, k_squared, y, m)), expect, "y={y:x} m={m:x}");
            }
        }
    }

    #[test]
    fn l2_hash_past_poly64_equals_the_rfc_with_marked_words() {
        // L2-HASH (section 5.3.1) from its definition, with slow arithmetic:
        // POLY64 over the first 2^14 words, then POLY128 over y64, the rest,
        // 0x80 and zeros. Words in both top ranges come after 2^14 words
        // (an NH output pair with its high half all ones is a POLY128 marker).
        use aes::cipher::KeyInit;
        let key = L2Key::derive(&Aes128::new(&[3u8; 16].into()), 1);
        let (k64, k128) = (u128::from(key.k64[0]), key.k128[0]);
        let poly = |bits: u32, k: u128, words: &[u128]| {
            let (p, offset) = if bits == 64 { (u128::from(P64), 59) } else { (P128, 159) };
            let mul_add = |y: u128, a: u128| if bits == 64 { (k * y + a) % p } else { mul_add_slow_p128(k, y, a) };
            let top = u128::MAX >> (128 - bits) & !(u128::MAX >> (128 - bits + 32));
            words.iter().fold(1, |y, &m| if m >= top { mul_add(mul_add(y, p - 1), m - offset) } else { mul_add(y, m) })
        };
        let head: Vec<u64> = (0..POLY64_WORDS).map(|n| n.wrapping_mul(0x9e37_79b9_7f4a_7c15) | (n & 1) << 63).collect();
        // The longest tail gives marked POLY128 words (high half all ones)
        // after the first pair.
        let tails: [&[u64]; 4] = [
            &[0xffff_ffff_0000_0001, 5, u64::MAX, u64::MAX, 7],
            &[u64::MAX, 0, 1 << 63],
            &[0xffff_ffff_ffff_ffff],
            &[
                3,
                4,
                0xffff_ffff_0000_0000,
                0,
                9,
                u64::MAX,
                0xffff_fffe_ffff_ffff,
                u64::MAX,
                u64::MAX,
                u64::MAX,
                1 << 63,
                42,
            ],
        ];
        for tail in tails {
            let words: Vec<u64> = head.iter().chain(tail).copied().collect();
            let y64 = poly(64, k64, &words[..POLY64_WORDS as usize].iter().map(|&w| u128::from(w)).collect::<Vec<_>>());
            let mut bytes: Vec<u8> = y64.to_be_bytes().to_vec();
            for w in &words[POLY64_WORDS as usize..] {
                bytes.extend_from_slice(&w.to_be_bytes());
            }
            bytes.push(0x80);
            bytes.resize(bytes.len().next_multiple_of(16), 0);
            let m128: Vec<u128> = bytes.chunks_exact(16).map(|b| u128::from_be_bytes(b.try_into().unwrap())).collect();
            let expect = poly(128, k128, &m128);
            let (last, rest) = words.split_last().unwrap();
            let mut l2 = L2Hash::default();
            l2.absorb_chunks::<1>(&key, rest.iter().map(|&w| [w]));
            assert_eq!(l2.finish(&key, 0, *last), expect, "tail {tail:x?}");
            // The same outputs hashed beforehand: POLY128's register loop.
            #[cfg(feature = "parallel")]
            {
                let hashed: Vec<L1Output> = rest.iter().map(|&w| [w, 0, 0, 0]).collect();
                let mut l2 = L2Hash::default();
                l2.absorb_hashed(&key, 1, &hashed);
                assert_eq!(l2.finish(&key, 0, *last), expect, "tail {tail:x?}, hashed beforehand");
            }
        }
    }

    /// Past POLY64's range, absorbing L1 outputs hashed beforehand in one
    /// call (the register loop over POLY128 word pairs), in pieces that
    /// start on either half of a word, or one by one (only `Poly`'s
    /// word-by-word path) gives the same L2 output, for four iterations.
    #[cfg(feature = "parallel")]
    #[test]
    fn poly128_pairs_equal_word_by_word_absorbing_in_any_pieces() {
        use aes::cipher::KeyInit;
        let key = L2Key::derive(&Aes128::new(&[5u8; 16].into()), 4);
        let count = POLY64_WORDS as usize + 23;
        let outputs: Vec<L1Output> = (0..count as u64)
            .map(|n| {
                core::array::from_fn(|i| {
                    let word = n.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(7 * i as u32);
                    // Every fifth word past 2^14 in POLY128's top range.
                    if n >= POLY64_WORDS && n % 5 == i as u64 % 5 { word | 0xffff_ffff_0000_0000 } else { word }
                })
            })
            .collect();
        let finish =
            |mut l2: L2Hash, last: &[u64; 4]| -> [u128; 4] { core::array::from_fn(|i| l2.finish(&key, i, last[i])) };
        let (last, rest) = outputs.split_last().unwrap();
        let mut one_by_one = L2Hash::default();
        for words in rest {
            one_by_one.absorb(&key, 4, core::slice::from_ref(words));
        }
        let expect = finish(one_by_one, last);
        let mut at_once = L2Hash::default();
        at_once.absorb_hashed(&key, 4, rest);
        assert_eq!(finish(at_once, last), expect, "one call");
        for split in
            [POLY64_WORDS as usize - 1, POLY64_WORDS as usize, POLY64_WORDS as usize + 1, POLY64_WORDS as usize + 2]
        {
            for piece in 1..6 {
                let mut pieces = L2Hash::default();
                pieces.absorb_hashed(&key, 4, &rest[..split]);
                for part in rest[split..].chunks(piece) {
                    pieces.absorb_hashed(&key, 4, part);
                }
                assert_eq!(finish(pieces, last), expect, "split at {split}, pieces of {piece}");
            }
        }
    }

    #[test]
    fn canonical_p128_is_the_remainder() {
        for y in [0, 1, P128 - 1, P128, P128 + 1, P128 + 158, u128::MAX, 1 << 127] {
            assert_eq!(canonical_p128(y), y % P128, "y={y:x}");
        }
    }

    #[test]
    fn fold_p64_and_canonical_match_u128_remainder() {
        let near_p = u128::from(P64);
        let cases = [
            0,
            1,
            near_p - 1,
            near_p,
            near_p + 58,
            u128::from(u64::MAX),
            u128::MAX,
            (1 << 70) + 12345,
            near_p * near_p - 1,
        ];
        for x in cases {
            let folded = fold_p64(x);
            assert_eq!(u128::from(folded) % near_p, x % near_p, "x={x:x}");
            assert_eq!(u128::from(canonical_p64(folded)), x % near_p, "x={x:x}");
        }
    }

    #[test]
    fn top_range_mask_marks_exactly_the_top_range() {
        for (m, top) in [
            (0, false),
            (0xffff_fffe_ffff_ffff, false),
            (0xffff_ffff_0000_0000, true),
            (u64::MAX, true),
            (P64 - 1, true),
            (1 << 63, false),
        ] {
            assert_eq!(top_range_mask(m), if top { u64::MAX } else { 0 }, "m={m:x}");
        }
    }

    #[test]
    fn first_step_sum_at_its_largest_reduces() {
        // The largest multiplier (k^2 mod p = p - 1) with the largest
        // addends, marked and not: the carried sum must fold exactly.
        let k = 0x01ff_ffff_01ff_ffff;
        for m in [u64::MAX, P64 - 1, 0xffff_fffe_ffff_ffff, 0] {
            let top = m >= 0xffff_ffff_0000_0000;
            let (mult, add) = if top { (P64 - 1, m - 59 - k) } else { (k, m) };
            let expect = ((u128::from(mult) + u128::from(add)) % u128::from(P64)) as u64;
            assert_eq!(canonical_p64(poly64_first(k, P64 - 1, m)), expect, "m={m:x}");
        }
    }

    #[test]
    fn reduce_p64_matches_u128_remainder() {
        let near_p = u128::from(P64);
        let cases = [
            0,
            1,
            58,
            near_p - 1,
            near_p,
            near_p + 58,
            u128::from(u64::MAX),
            (1 << 64) + 4000,
            u128::MAX,
            u128::MAX - 59,
            (1 << 70) + 12345,
            near_p * near_p - 1,
            near_p * near_p,
        ];
        for x in cases {
            assert_eq!(u128::from(reduce_p64(x)), x % near_p, "x={x:x}");
        }
    }

    #[cfg(feature = "parallel")]
    #[test]
    fn runs_applied_in_order_equal_word_by_word_absorbing() {
        // Runs of several lengths, marked words among them, applied from the
        // start and after other runs, against L2Hash fed the same words.
        use aes::cipher::KeyInit;
        let key = L2Key::derive(&Aes128::new(&[7u8; 16].into()), 3);
        let word = |n: u64| match n % 7 {
            3 => u64::MAX - n,
            5 => 0xffff_ffff_0000_0000 + n,
            _ => n.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        };
        let words: Vec<[u64; 3]> = (0..40).map(|n| [word(n), word(n + 1), word(3 * n)]).collect();
        let mut expect = L2Hash::default();
        expect.absorb_chunks::<3>(&key, words.iter().copied());
        let mut got = L2Hash::default();
        for run_words in [&words[..1], &words[1..9], &words[9..10], &words[10..40]] {
            let mut run = Poly64Run::<3>::default();
            for w in run_words {
                run.absorb(&key, w);
            }
            got.absorb_run(&run);
        }
        assert_eq!(got.chunks, expect.chunks);
        for i in 0..3 {
            assert_eq!(got.clone().finish(&key, i, 12345), expect.clone().finish(&key, i, 12345), "iteration {i}");
        }
    }

    #[test]
    fn two_words_equal_first_then_last_step() {
        // Every case of the markers, with keys whose k^2 mod p is small and
        // large, against the RFC's branching POLY from y = 1.
        let rfc_step = |k: u64, y: u64, m: u64| {
            if m >= 0xffff_ffff_0000_0000 {
                canonical_p64(mul_add_mod_p64(k, canonical_p64(mul_add_mod_p64(k, y, P64 - 1)), m - 59))
            } else {
                canonical_p64(mul_add_mod_p64(k, y, m))
            }
        };
        let words =
            [0, 1, 7, 0xffff_fffe_ffff_ffff, 0xffff_ffff_0000_0000, P64 - 1, P64, u64::MAX, 0x0123_4567_89ab_cdef];
        for k in [0x01ab_cdef_0123_4567, 0x01ff_ffff_01ff_ffff, 1, 0] {
            let k_squared = reduce_p64(u128::from(k) * u128::from(k));
            let offsets = [k, reduce_p64(u128::from(k_squared) + u128::from(P64 - 59 - k))];
            let mult = [k, k_squared];
            let two_words: [u64; 4] =
                core::array::from_fn(|c| reduce_p64(u128::from(mult[c / 2]) * u128::from(offsets[c % 2])));
            for m1 in words {
                for m2 in words {
                    let expect = rfc_step(k, rfc_step(k, 1, m1), m2);
                    assert_eq!(poly64_two(k, k_squared, &two_words, m1, m2), expect, "k={k:x} m1={m1:x} m2={m2:x}");
                    assert_eq!(
                        poly64_last(k, k_squared, poly64_first(k, k_squared, m1), m2),
                        expect,
                        "k={k:x} m1={m1:x} m2={m2:x}"
                    );
                }
            }
        }
    }

    #[test]
    fn poly_marker_path_equals_rfc_branching() {
        let k = 0x01ab_cdef_0123_4567;
        let k_squared = canonical_p64(mul_add_mod_p64(k, k, 0));
        let canon = |y: u64| canonical_p64(y);
        // y also lazily reduced (at or above p), as the chunk loop leaves it.
        for y in [0x1234_5678_9abc_def0, P64 + 3, u64::MAX, 0, 1] {
            for m in [P64 - 1, u64::MAX, 0xffff_ffff_0000_0000, 0xffff_fffe_ffff_ffff, 7, 0] {
                let expect = if m >= 0xffff_ffff_0000_0000 {
                    let y = mul_add_mod_p64(k, y, P64 - 1);
                    mul_add_mod_p64(k, y, m - 59)
                } else {
                    mul_add_mod_p64(k, y, m)
                };
                assert_eq!(canon(poly64_step(k, k_squared, y, m)), canon(expect), "y={y:x} m={m:x}");
                if y == 1 {
                    assert_eq!(canon(poly64_first(k, k_squared, m)), canon(expect), "first step, m={m:x}");
                }
            }
        }
    }
}
