//! [`L2Hash`]: the L2-HASH (RFC 4418 section 5.3.1) of a message in
//! progress, fed the L1 outputs of its chunks in order, `ITERS`
//! iterations at a time, one word (one chunk) or a run of words at a
//! time.
//! No L1 output string is ever stored.

use zeroize::Zeroize;

use super::arith::canonical_p64;
#[cfg(feature = "parallel")]
use super::arith::{fold_p64, mul_add_p128};
use super::key::L2Key;
#[cfg(feature = "parallel")]
use super::map::{Poly64Map, Poly128Map};
use super::poly64::{poly64_first, poly64_last, poly64_step, poly64_two, poly64_two_second_late};
use super::poly128::{poly128_end, poly128_pairs, poly128_start, poly128_word};
use crate::umac::iters::MAX_ITERS;

/// L1 outputs hashed under POLY64 before L2-HASH moves to POLY128: 2^17
/// bytes of them, 8 bytes each (section 5.3.1).
const POLY64_WORDS: u64 = 1 << 14;

/// The L2-HASH of every iteration over the L1 outputs absorbed so far.
#[derive(Clone, Zeroize)]
pub(crate) struct L2Hash {
    /// POLY64's accumulator from the second word on, lazily reduced (below
    /// 2^64, congruent).
    y64: [u64; MAX_ITERS],
    /// The first word as it came: POLY64's first step waits for the second,
    /// and a message of two chunks ends in the two-word step.
    first: [u64; MAX_ITERS],
    /// L1 outputs absorbed, per iteration.
    words: u64,
    /// POLY128's part, past 2^14 words.
    poly128: Option<Poly128>,
}

/// POLY128's state: the accumulator, lazily reduced, and the high half of a
/// word whose low half has not come.
#[derive(Clone, Zeroize)]
struct Poly128 {
    y: [u128; MAX_ITERS],
    high_half: [u64; MAX_ITERS],
}

impl Poly128 {
    /// The state in `slot`, started at the switch if it is not yet: from
    /// POLY128's first word, POLY64's result `y64` (section 5.3.1).
    fn started<'s, const ITERS: usize>(
        slot: &'s mut Option<Poly128>,
        key: &L2Key,
        y64: &[u64; MAX_ITERS],
    ) -> &'s mut Poly128 {
        slot.get_or_insert_with(|| Poly128 {
            y: core::array::from_fn(|i| if i < ITERS { poly128_start(key.k128[i], canonical_p64(y64[i])) } else { 0 }),
            high_half: [0; MAX_ITERS],
        })
    }
}

impl Default for L2Hash {
    /// No word absorbed.
    #[inline(always)]
    fn default() -> Self {
        L2Hash { y64: [0; MAX_ITERS], first: [0; MAX_ITERS], words: 0, poly128: None }
    }
}

impl L2Hash {
    /// True before the first word: a message of at most one chunk skips
    /// L2-HASH (section 5.1).
    #[inline(always)]
    pub(crate) fn is_empty(&self) -> bool {
        self.words == 0
    }

    /// True if L2-HASH's output, once one more word (the message's last L1
    /// output) is absorbed, is POLY64's (every message up to 16 MiB): below
    /// 2^64, so that L3-HASH has four terms only.
    #[inline(always)]
    pub(crate) fn ends_in_poly64(&self) -> bool {
        self.words < POLY64_WORDS
    }

    /// L1 outputs (per iteration) that POLY64 still takes before POLY128
    /// does (section 5.3.1).
    #[inline(always)]
    pub(crate) fn poly64_room(&self) -> usize {
        POLY64_WORDS.saturating_sub(self.words) as usize
    }

    /// Absorbs one word: the L1 outputs of the next chunk.
    #[inline(always)]
    pub(crate) fn absorb<const ITERS: usize>(&mut self, key: &L2Key, word: [u64; ITERS]) {
        self.absorb_run(key, core::iter::once(word));
    }

    /// Absorbs a run of words, the L1 outputs of the next chunks in order:
    /// the words themselves ([`L2Hash::absorb_words`]), or, within POLY64's
    /// range, their `Poly64Map` computed on another core (`absorb_map`,
    /// feature `parallel`).
    #[inline(always)]
    pub(crate) fn absorb_run<const ITERS: usize>(&mut self, key: &L2Key, run: impl Run<ITERS>) {
        run.absorb_into(self, key);
    }

    /// A run given as its words, which `words` may compute as they are
    /// taken (each chunk's NH). Within POLY64's range (every message up to
    /// 16 MiB) one multiply-add per word and iteration with the accumulators
    /// in registers for the whole run, so that one chunk's step overlaps the
    /// next chunk's NH; past it, POLY128 out of line ([`poly128_pairs`]).
    #[inline(always)]
    fn absorb_words<const ITERS: usize>(
        &mut self,
        key: &L2Key,
        mut words: impl ExactSizeIterator<Item = [u64; ITERS]>,
    ) {
        let in_poly64 = words.len().min(self.poly64_room());
        if in_poly64 > 0 {
            let (k, k_squared) = (&key.k64, &key.k64_squared);
            let mut steps = in_poly64;
            if self.words == 0 {
                // Kept as it came: POLY64's first step waits for a second
                // word (a message of two chunks ends in the two-word step).
                let first = words.next().expect("a word in the run");
                self.first[..ITERS].copy_from_slice(&first);
                steps -= 1;
            }
            let mut y: [u64; ITERS] = core::array::from_fn(|i| self.y64[i]);
            if self.words <= 1 && steps > 0 {
                let second = words.next().expect("a word in the run");
                y = per_iteration(|i| {
                    poly64_step(k[i], k_squared[i], poly64_first(k[i], k_squared[i], self.first[i]), second[i])
                });
                steps -= 1;
            }
            for word in words.by_ref().take(steps) {
                y = per_iteration(|i| poly64_step(k[i], k_squared[i], y[i], word[i]));
            }
            self.y64[..ITERS].copy_from_slice(&y);
            self.words += in_poly64 as u64;
        }
        if words.len() > 0 {
            // By value, so that no reference to a state the caller keeps in
            // registers leaves the inlined code.
            *self = self.clone().absorb_poly128(key, words);
        }
    }

    /// Words the state takes one at a time before [`L2Hash::poly64_steps`]
    /// can: POLY64's first two (its first step waits for the second).
    #[inline(always)]
    pub(crate) fn words_before_steps(&self) -> usize {
        2usize.saturating_sub(self.words as usize)
    }

    /// POLY64's accumulators, for a loop that absorbs words one at a time
    /// between other work ([`Poly64Steps::step`]) and then hands them back
    /// ([`L2Hash::end_poly64_steps`]): for a state past its first two words
    /// ([`L2Hash::words_before_steps`]), stepped at most
    /// [`L2Hash::poly64_room`] times.
    #[inline(always)]
    pub(crate) fn poly64_steps<'k, const ITERS: usize>(&self, key: &'k L2Key) -> Poly64Steps<'k, ITERS> {
        debug_assert!(self.words >= 2 && self.ends_in_poly64());
        Poly64Steps { key, y: core::array::from_fn(|i| self.y64[i]) }
    }

    /// Takes back the accumulators of [`L2Hash::poly64_steps`], stepped
    /// once for each of `words` words.
    #[inline(always)]
    pub(crate) fn end_poly64_steps<const ITERS: usize>(&mut self, steps: Poly64Steps<'_, ITERS>, words: usize) {
        debug_assert!(words <= self.poly64_room());
        self.y64[..ITERS].copy_from_slice(&steps.y);
        self.words += words as u64;
    }

    /// POLY128's accumulators, for a loop that absorbs words one at a time
    /// between other work ([`Poly128Steps::step`]) and then hands them back
    /// ([`L2Hash::end_poly128_steps`]): for a state past POLY64's range,
    /// started at the switch if it is not yet, with the high half of a
    /// word begun.
    #[inline(always)]
    pub(crate) fn poly128_steps<'k, const ITERS: usize>(&mut self, key: &'k L2Key) -> Poly128Steps<'k, ITERS> {
        debug_assert!(self.words >= POLY64_WORDS);
        let half_pending = self.poly128_half_pending();
        let poly128 = Poly128::started::<ITERS>(&mut self.poly128, key, &self.y64);
        Poly128Steps {
            key,
            y: core::array::from_fn(|i| poly128.y[i]),
            high_half: half_pending.then(|| core::array::from_fn(|i| poly128.high_half[i])),
        }
    }

    /// Takes back the accumulators of [`L2Hash::poly128_steps`], stepped
    /// once for each of `words` words.
    #[inline(always)]
    pub(crate) fn end_poly128_steps<const ITERS: usize>(&mut self, steps: Poly128Steps<'_, ITERS>, words: usize) {
        let poly128 = self.poly128.as_mut().expect("started by poly128_steps");
        poly128.y[..ITERS].copy_from_slice(&steps.y);
        if let Some(high) = &steps.high_half {
            poly128.high_half[..ITERS].copy_from_slice(high);
        }
        self.words += words as u64;
    }

    /// A run given as its POLY64 map (within POLY64's range): the state's
    /// accumulator so far (1 before any word, POLY64's first step after one
    /// word kept as it came) through `mult * y + value`.
    #[cfg(feature = "parallel")]
    fn absorb_map<const ITERS: usize>(&mut self, key: &L2Key, map: &Poly64Map<ITERS>) {
        debug_assert!(map.words <= self.poly64_room() as u64, "a map within POLY64's range");
        if map.words == 0 {
            return;
        }
        for i in 0..ITERS {
            let y = match self.words {
                0 => 1,
                1 => poly64_first(key.k64[i], key.k64_squared[i], self.first[i]),
                _ => self.y64[i],
            };
            self.y64[i] = fold_p64(u128::from(map.mult[i]) * u128::from(y) + u128::from(map.value[i]));
        }
        if self.words == 0 {
            self.first[..ITERS].copy_from_slice(&map.first);
        }
        self.words += map.words;
    }

    /// True when POLY128 holds the high half of a word whose low half has
    /// not come (an odd count of words past POLY64's range): a
    /// `Poly128Map` is absorbed on a word boundary only.
    pub(crate) fn poly128_half_pending(&self) -> bool {
        self.words > POLY64_WORDS && !(self.words - POLY64_WORDS).is_multiple_of(2)
    }

    /// A run past POLY64's range given as its POLY128 map, from a word
    /// boundary: the accumulator through `mult * y + value`.
    #[cfg(feature = "parallel")]
    fn absorb_poly128_map<const ITERS: usize>(&mut self, key: &L2Key, map: &Poly128Map<ITERS>) {
        debug_assert!(self.words >= POLY64_WORDS && !self.poly128_half_pending(), "on a POLY128 word boundary");
        let poly128 = Poly128::started::<ITERS>(&mut self.poly128, key, &self.y64);
        for i in 0..ITERS {
            poly128.y[i] = mul_add_p128(map.mult[i], poly128.y[i], map.value[i]);
        }
        self.words += map.outputs;
    }

    /// Absorbs words past POLY64's range: POLY128's first word from
    /// POLY64's result when the state is at the switch, the low half of a
    /// word begun, then [`poly128_pairs`], keeping an odd word's high half.
    #[inline(never)]
    fn absorb_poly128<const ITERS: usize>(
        mut self,
        key: &L2Key,
        mut run: impl ExactSizeIterator<Item = [u64; ITERS]>,
    ) -> Self {
        debug_assert!(self.words >= POLY64_WORDS);
        let (k, k_squared) = (&key.k128[..ITERS], &key.k128_squared[..ITERS]);
        let half_pending = self.poly128_half_pending();
        let poly128 = Poly128::started::<ITERS>(&mut self.poly128, key, &self.y64);
        let mut y: [u128; ITERS] = core::array::from_fn(|i| poly128.y[i]);
        let words = self.words + run.len() as u64;
        if half_pending && let Some(low) = run.next() {
            poly128_word(k, k_squared, &mut y, &poly128.high_half, &low);
        }
        if let Some(high) = poly128_pairs(k, k_squared, &mut y, run) {
            poly128.high_half[..ITERS].copy_from_slice(&high);
        }
        poly128.y[..ITERS].copy_from_slice(&y);
        self.words = words;
        self
    }

    /// Each iteration's L2-HASH output, POLY64's result, once `last` (the
    /// message's last L1 outputs) is absorbed: for a state that is not
    /// empty and [ends in POLY64](L2Hash::ends_in_poly64). After one word,
    /// the two-word step ([`poly64_two`]) from that word as it came; after
    /// more, the last step.
    #[inline(always)]
    pub(crate) fn finish_poly64<const ITERS: usize>(&self, key: &L2Key, last: [u64; ITERS]) -> [u64; ITERS] {
        debug_assert!(!self.is_empty() && self.ends_in_poly64());
        let (k, k_squared) = (&key.k64, &key.k64_squared);
        if self.words == 1 {
            L2Hash::two_words(key, core::array::from_fn(|i| self.first[i]), last)
        } else {
            per_iteration(|i| poly64_last(k[i], k_squared[i], self.y64[i], last[i]))
        }
    }

    /// Each iteration's L2-HASH output for a message of exactly two chunks,
    /// whose L1 outputs are `first` and `last`: POLY64 of two words
    /// ([`poly64_two`]), no state needed.
    #[inline(always)]
    pub(crate) fn two_words<const ITERS: usize>(key: &L2Key, first: [u64; ITERS], last: [u64; ITERS]) -> [u64; ITERS] {
        per_iteration(|i| poly64_two(key.k64[i], &key.two_words[i], first[i], last[i]))
    }

    /// [`L2Hash::two_words`] for `last` ready well after `first`
    /// ([`poly64_two_second_late`]).
    #[inline(always)]
    pub(crate) fn two_words_last_late<const ITERS: usize>(
        key: &L2Key,
        first: [u64; ITERS],
        last: [u64; ITERS],
    ) -> [u64; ITERS] {
        per_iteration(|i| poly64_two_second_late(key.k64[i], &key.two_words[i], first[i], last[i]))
    }

    /// Each iteration's L2-HASH output, POLY128's result (canonical), once
    /// `last` is absorbed: for a state past POLY64's range. Takes a copy of
    /// the state, as [`L2Hash::absorb_run`] hands its out-of-line part one.
    #[cold]
    #[inline(never)]
    pub(crate) fn finish_poly128<const ITERS: usize>(self, key: &L2Key, last: [u64; ITERS]) -> [u128; ITERS] {
        debug_assert!(!self.ends_in_poly64());
        let state = self.absorb_poly128(key, core::iter::once(last));
        let half_word_left = state.poly128_half_pending();
        let poly128 = state.poly128.as_ref().expect("past POLY64's range");
        core::array::from_fn(|i| {
            let half = half_word_left.then_some(poly128.high_half[i]);
            poly128_end(key.k128[i], key.k128_squared[i], poly128.y[i], half)
        })
    }
}

/// POLY64's accumulators taken out of an [`L2Hash`] (see
/// [`L2Hash::poly64_steps`]), one multiply-add per word and iteration.
pub(crate) struct Poly64Steps<'k, const ITERS: usize> {
    key: &'k L2Key,
    y: [u64; ITERS],
}

impl<const ITERS: usize> Poly64Steps<'_, ITERS> {
    /// Absorbs the next word: one chunk's L1 outputs.
    #[inline(always)]
    pub(crate) fn step(&mut self, word: [u64; ITERS]) {
        let (k, k_squared) = (&self.key.k64, &self.key.k64_squared);
        self.y = per_iteration(|i| poly64_step(k[i], k_squared[i], self.y[i], word[i]));
    }
}

impl<const ITERS: usize> Drop for Poly64Steps<'_, ITERS> {
    /// The accumulators are as secret as the key.
    fn drop(&mut self) {
        self.y.zeroize();
    }
}

/// POLY128's accumulators taken out of an [`L2Hash`] (see
/// [`L2Hash::poly128_steps`]): each word is two L1 outputs, the first its
/// high half, then one multiply-add per word and iteration.
pub(crate) struct Poly128Steps<'k, const ITERS: usize> {
    key: &'k L2Key,
    y: [u128; ITERS],
    /// The high half of a word whose low half has not come.
    high_half: Option<[u64; ITERS]>,
}

impl<const ITERS: usize> Poly128Steps<'_, ITERS> {
    /// Absorbs the next L1 outputs: kept as a word's high half, or with
    /// the high half before them, one word.
    #[inline(always)]
    pub(crate) fn step(&mut self, outputs: [u64; ITERS]) {
        let Some(high) = self.high_half.take() else {
            self.high_half = Some(outputs);
            return;
        };
        poly128_word(&self.key.k128, &self.key.k128_squared, &mut self.y, &high, &outputs);
    }
}

impl<const ITERS: usize> Drop for Poly128Steps<'_, ITERS> {
    /// The accumulators and the half word are as secret as the key.
    fn drop(&mut self) {
        self.y.zeroize();
        self.high_half.zeroize();
    }
}

/// One POLY64 value per iteration, `f(i)` for iteration `i`: a loop, where
/// `core::array::from_fn` over four POLY64 steps can be left out of line
/// by LLVM (a call per chunk, the words handed over through memory).
#[inline(always)]
fn per_iteration<const ITERS: usize>(mut f: impl FnMut(usize) -> u64) -> [u64; ITERS] {
    let mut words = [0; ITERS];
    for (i, word) in words.iter_mut().enumerate() {
        *word = f(i);
    }
    words
}

/// A run of words that [`L2Hash::absorb_run`] takes: any exact-size
/// iterator of words, or (feature `parallel`) a `Poly64Map` of words hashed
/// elsewhere.
pub(crate) trait Run<const ITERS: usize> {
    /// Absorbs the run into `l2`.
    fn absorb_into(self, l2: &mut L2Hash, key: &L2Key);
}

impl<I: ExactSizeIterator<Item = [u64; ITERS]>, const ITERS: usize> Run<ITERS> for I {
    #[inline(always)]
    fn absorb_into(self, l2: &mut L2Hash, key: &L2Key) {
        l2.absorb_words(key, self);
    }
}

#[cfg(feature = "parallel")]
impl<const ITERS: usize> Run<ITERS> for &Poly64Map<ITERS> {
    fn absorb_into(self, l2: &mut L2Hash, key: &L2Key) {
        l2.absorb_map(key, self);
    }
}

#[cfg(feature = "parallel")]
impl<const ITERS: usize> Run<ITERS> for &Poly128Map<ITERS> {
    fn absorb_into(self, l2: &mut L2Hash, key: &L2Key) {
        l2.absorb_poly128_map(key, self);
    }
}

#[cfg(test)]
mod tests {
    use aes::Aes128;
    use aes::cipher::KeyInit;

    use super::super::reference;
    use super::*;

    fn key(seed: u8, iters: usize) -> L2Key {
        L2Key::derive(&Aes128::new(&[seed; 16].into()), iters)
    }

    /// L2-HASH's output through the state: `outputs` but the last absorbed
    /// by `feed`, then the finish for the range the message ends in.
    fn through_state<const ITERS: usize>(
        key: &L2Key,
        outputs: &[[u64; ITERS]],
        feed: impl Fn(&mut L2Hash, &[[u64; ITERS]]),
    ) -> [u128; ITERS] {
        let (last, rest) = outputs.split_last().expect("two words at least");
        let mut l2 = L2Hash::default();
        feed(&mut l2, rest);
        if l2.ends_in_poly64() { l2.finish_poly64(key, *last).map(u128::from) } else { l2.finish_poly128(key, *last) }
    }

    /// The same outputs as the RFC's string M of each iteration.
    fn rfc<const ITERS: usize>(key: &L2Key, outputs: &[[u64; ITERS]]) -> [u128; ITERS] {
        core::array::from_fn(|i| {
            let m: Vec<u64> = outputs.iter().map(|w| w[i]).collect();
            reference::l2_hash(key.k64[i], key.k128[i], &m)
        })
    }

    /// Pseudo-random outputs with marked words in both ranges: every fifth
    /// output of an iteration in POLY64's top range, and past 2^14 outputs
    /// some pairs whose high half makes a marked POLY128 word.
    fn outputs<const ITERS: usize>(count: usize) -> Vec<[u64; ITERS]> {
        (0..count as u64)
            .map(|n| {
                core::array::from_fn(|i| {
                    let word = n.wrapping_mul(0x9e37_79b9_7f4a_7c15).rotate_left(7 * i as u32) | (n & 1) << 63;
                    if n % 5 == i as u64 % 5 { word | 0xffff_ffff_0000_0000 } else { word }
                })
            })
            .collect()
    }

    /// Word by word, one run, and runs of every length from 1 to 5 split
    /// on either side of the switch to POLY128 (and past it, as POLY128's
    /// steps too): one output, for lengths in POLY64's range (the two-word
    /// step among them), at its end and past it by an odd and an even
    /// count.
    fn every_way_of_feeding_equals_the_rfc<const ITERS: usize>() {
        let key = key(5, ITERS);
        let n64 = POLY64_WORDS as usize;
        let all = outputs::<ITERS>(n64 + 23);
        for count in [2, 3, 4, 40, n64 - 1, n64, n64 + 1, n64 + 2, n64 + 3, n64 + 4, n64 + 23] {
            let words = &all[..count];
            let expect = rfc(&key, words);
            let one_by_one = through_state(&key, words, |l2, rest| {
                for &word in rest {
                    l2.absorb(&key, word);
                }
            });
            assert_eq!(one_by_one, expect, "{count} words one by one, {ITERS} iterations");
            let one_run = through_state(&key, words, |l2, rest| l2.absorb_run(&key, rest.iter().copied()));
            assert_eq!(one_run, expect, "{count} words in one run, {ITERS} iterations");
            if count < n64 {
                continue;
            }
            for split in [n64 - 1, n64, n64 + 1, n64 + 2] {
                for piece in 1..6 {
                    let pieces = through_state(&key, words, |l2, rest| {
                        let split = split.min(rest.len());
                        l2.absorb_run(&key, rest[..split].iter().copied());
                        for part in rest[split..].chunks(piece) {
                            l2.absorb_run(&key, part.iter().copied());
                        }
                    });
                    assert_eq!(pieces, expect, "{count} words, split at {split}, pieces of {piece}");
                    if split < n64 {
                        continue;
                    }
                    let stepped = through_state(&key, words, |l2, rest| {
                        let split = split.min(rest.len());
                        l2.absorb_run(&key, rest[..split].iter().copied());
                        for part in rest[split..].chunks(piece) {
                            let mut steps = l2.poly128_steps::<ITERS>(&key);
                            for &outputs in part {
                                steps.step(outputs);
                            }
                            l2.end_poly128_steps(steps, part.len());
                        }
                    });
                    assert_eq!(stepped, expect, "{count} words, POLY128 steps from {split} in pieces of {piece}");
                }
            }
        }
    }

    /// Runs of several lengths, marked words among them, absorbed as maps
    /// from the start and after other runs and words, against the state fed
    /// the same words one by one; and a map of one word then the last word
    /// (the two-word step from the map's first word).
    #[cfg(feature = "parallel")]
    #[test]
    fn maps_absorbed_in_order_equal_word_by_word_absorbing() {
        use super::super::map::{Poly64Run, PolyRun};
        let key = key(7, 3);
        let word = |n: u64| match n % 7 {
            3 => u64::MAX - n,
            5 => 0xffff_ffff_0000_0000 + n,
            _ => n.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        };
        let words: Vec<[u64; 3]> = (0..41).map(|n| [word(n), word(n + 1), word(3 * n)]).collect();
        let (last, rest) = words.split_last().unwrap();
        let expect = through_state(&key, &words, |l2, rest| {
            for &w in rest {
                l2.absorb(&key, w);
            }
        });
        let map_of = |run: &[[u64; 3]]| {
            let mut run_map = Poly64Run::<3>::default();
            for &w in run {
                run_map.absorb(&key, w);
            }
            run_map.into_map(&key)
        };
        let mut got = L2Hash::default();
        for run in [&rest[..1], &rest[1..9], &rest[9..10], &rest[10..40]] {
            got.absorb_run(&key, &map_of(run));
        }
        assert_eq!(got.words, 40);
        assert_eq!(got.finish_poly64(&key, *last).map(u128::from), expect, "maps from the start");
        let mut mixed = L2Hash::default();
        mixed.absorb(&key, rest[0]);
        mixed.absorb_run(&key, &map_of(&rest[1..20]));
        mixed.absorb_run(&key, rest[20..].iter().copied());
        assert_eq!(mixed.finish_poly64(&key, *last).map(u128::from), expect, "a word, a map, words");
        let mut two = L2Hash::default();
        two.absorb_run(&key, &map_of(&rest[..1]));
        assert_eq!(two.finish_poly64(&key, rest[1]).map(u128::from), rfc(&key, &rest[..2]), "a map of one word");
    }

    /// Past POLY64's range: runs of whole POLY128 words, marked words
    /// among them, absorbed as maps from the switch and from a later word
    /// boundary (after an odd word and the one that completes its pair),
    /// between words fed one by one, against the RFC.
    #[cfg(feature = "parallel")]
    #[test]
    fn poly128_maps_absorbed_in_order_equal_the_rfc() {
        use super::super::map::{Poly128Run, PolyRun};
        fn check<const ITERS: usize>() {
            let key = key(9, ITERS);
            let n64 = POLY64_WORDS as usize;
            let all = outputs::<ITERS>(n64 + 309);
            let expect = rfc(&key, &all);
            let map_of = |run: &[[u64; ITERS]]| {
                let mut run_map = Poly128Run::<ITERS>::default();
                for &w in run {
                    run_map.absorb(&key, w);
                }
                run_map.into_map(&key)
            };
            for head in [n64, n64 + 1, n64 + 2] {
                let got = through_state(&key, &all, |l2, rest| {
                    l2.absorb_run(&key, rest[..head].iter().copied());
                    let mut at = head;
                    if l2.poly128_half_pending() {
                        l2.absorb(&key, rest[at]);
                        at += 1;
                    }
                    for len in [2, 40, 100, 158] {
                        l2.absorb_run(&key, &map_of(&rest[at..at + len]));
                        at += len;
                    }
                    for &w in &rest[at..] {
                        l2.absorb(&key, w);
                    }
                });
                assert_eq!(got, expect, "{ITERS} iterations, maps from {head} words");
            }
        }
        check::<1>();
        check::<4>();
    }

    #[test]
    fn every_way_of_feeding_equals_the_rfc_for_one_and_four_iterations() {
        every_way_of_feeding_equals_the_rfc::<1>();
        every_way_of_feeding_equals_the_rfc::<4>();
    }

    /// The tails of the first RFC-literal test of POLY128: words in both
    /// top ranges after 2^14 words (an output pair whose high half is all
    /// ones is a POLY128 marker), fed one by one and as one run.
    #[test]
    fn past_poly64_marked_words_equal_the_rfc() {
        let key = key(3, 1);
        let head: Vec<u64> = (0..POLY64_WORDS).map(|n| n.wrapping_mul(0x9e37_79b9_7f4a_7c15) | (n & 1) << 63).collect();
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
            let words: Vec<[u64; 1]> = head.iter().chain(tail).map(|&w| [w]).collect();
            let expect = rfc(&key, &words);
            let one_by_one = through_state(&key, &words, |l2, rest| {
                for &word in rest {
                    l2.absorb(&key, word);
                }
            });
            assert_eq!(one_by_one, expect, "tail {tail:x?}");
            let one_run = through_state(&key, &words, |l2, rest| l2.absorb_run(&key, rest.iter().copied()));
            assert_eq!(one_run, expect, "tail {tail:x?}, one run");
        }
    }
}
