//! [`L2Hash`]: the L2-HASH (RFC 4418 section 5.3.1) of a message in
//! progress, fed the L1 outputs of its chunks in order, `ITERS`
//! iterations at a time. No L1 output string is ever stored.
//!
//! The state's variant says where in section 5.3.1 it is: no word yet,
//! one word, POLY64 with room, and past it ([`Past`]: at the switch to
//! POLY128, on a POLY128 word boundary, or with a word's high half
//! pending). Callers hand over runs of L1 outputs ([`Outputs`]: given
//! words, or chunks NH hashes as they are taken) and L2 cuts each run
//! where its phase changes, so no caller absorbs past POLY64's range or
//! finishes in the wrong form.
//!
//! The state holds `ITERS` iterations; the functions that take the key are
//! generic in `K`, the iterations the key holds (at least `ITERS`, as in
//! `umac/uhash.rs`).

use zeroize::Zeroize;

use super::arith::canonical_p64;
#[cfg(feature = "parallel")]
use super::arith::{fold_p64, mul_add_p128};
use super::key::L2Key;
#[cfg(feature = "parallel")]
use super::map::{Poly64Map, Poly128Map};
use super::poly64::{poly64_first, poly64_last, poly64_step, poly64_two, poly64_two_second_late};
use super::poly128::{poly128_end, poly128_start, poly128_word};

/// L1 outputs hashed under POLY64 before L2-HASH moves to POLY128: 2^17
/// bytes of them, 8 bytes each (section 5.3.1).
const POLY64_WORDS: u64 = 1 << 14;

/// L1 outputs in order, as [`L2Hash::absorb`] takes them: words given, or
/// chunks whose NH runs as their outputs are taken (`nh::ChunkRun`).
pub(crate) trait Outputs<const ITERS: usize>: Sized {
    /// Outputs in the run.
    fn len(&self) -> usize;
    /// The first `mid` outputs, and the rest.
    fn split_at(self, mid: usize) -> (Self, Self);
    /// Each output (one chunk's, per iteration) handed to `take` in order.
    fn each(self, take: impl FnMut([u64; ITERS]));
}

impl<const ITERS: usize> Outputs<ITERS> for &[[u64; ITERS]] {
    fn len(&self) -> usize {
        <[_]>::len(self)
    }

    fn split_at(self, mid: usize) -> (Self, Self) {
        <[_]>::split_at(self, mid)
    }

    #[inline(always)]
    fn each(self, mut take: impl FnMut([u64; ITERS])) {
        for &word in self {
            take(word);
        }
    }
}

/// A run of L1 outputs that can also be hashed elsewhere (on other cores)
/// into the maps of L2-HASH's polynomials (`map.rs`), for
/// [`L2Hash::absorb_mapped`].
#[cfg(feature = "parallel")]
pub(crate) trait MappedOutputs<const ITERS: usize>: Outputs<ITERS> {
    /// The run, within POLY64's range, as POLY64 maps of consecutive
    /// pieces, handed to `absorb` in order.
    fn poly64_maps<const K: usize>(self, key: &L2Key<K>, absorb: impl FnMut(&Poly64Map<ITERS>));
    /// The run (an even count, from a POLY128 word boundary) as POLY128
    /// maps of consecutive pieces of whole words, handed to `absorb` in
    /// order.
    fn poly128_maps<const K: usize>(self, key: &L2Key<K>, absorb: impl FnMut(&Poly128Map<ITERS>));
}

/// The L2-HASH of every iteration over the L1 outputs absorbed so far.
#[derive(Clone, Default, Zeroize)]
pub(crate) enum L2Hash<const ITERS: usize> {
    /// No word: a message of at most one chunk skips L2-HASH (section 5.1).
    #[default]
    Empty,
    /// One word, kept as it came: POLY64's first step waits for the
    /// second, and a message of two chunks ends in the two-word step.
    OneWord([u64; ITERS]),
    /// POLY64 after two words or more, with `room` (at least one) words
    /// left in its range: the accumulator, lazily reduced (below 2^64,
    /// congruent).
    Poly64 { y: [u64; ITERS], room: u64 },
    /// Past POLY64's 2^14 words.
    Past(Past<ITERS>),
}

/// L2-HASH past POLY64's range: POLY128 over `uint2str(y64, 16)` and the
/// words after it, two L1 outputs to a 16-byte word.
#[derive(Clone, Zeroize)]
pub(crate) enum Past<const ITERS: usize> {
    /// At the switch, POLY64's whole range absorbed: its accumulator,
    /// lazily reduced. POLY128 starts with the next word.
    AtSwitch([u64; ITERS]),
    /// On a POLY128 word boundary: the accumulator, lazily reduced.
    Words([u128; ITERS]),
    /// The high half of a word whose low half has not come, and the
    /// accumulator before that word.
    HalfWord { y: [u128; ITERS], high: [u64; ITERS] },
}

/// L2-HASH's output per iteration ([`L2Hash::finish`]).
pub(crate) enum L2Output<const ITERS: usize> {
    /// Below 2^64, so that L3-HASH has four terms only: POLY64's result
    /// (every message up to 16 MiB), or, for a message of one chunk at
    /// most, which skips L2-HASH, its L1 output.
    Short([u64; ITERS]),
    /// POLY128's result (canonical).
    Wide([u128; ITERS]),
}

impl<const ITERS: usize> L2Hash<ITERS> {
    /// True before the first word.
    #[inline(always)]
    pub(crate) fn is_empty(&self) -> bool {
        matches!(self, L2Hash::Empty)
    }

    /// Absorbs `run`, the L1 outputs of the next chunks in order. Within
    /// POLY64's range (every message up to 16 MiB) one multiply-add per
    /// word and iteration, with the accumulators in registers for the whole
    /// run, so that one chunk's step overlaps the next chunk's NH (inside
    /// the backend's chunk loop where it has one); the rest past it out of
    /// line ([`Past::absorb`]). A run of one word into an empty state is
    /// kept as it came ([`L2Hash::OneWord`]).
    #[inline(always)]
    pub(crate) fn absorb<const K: usize>(&mut self, key: &L2Key<K>, run: impl Outputs<ITERS>) {
        let (k, k_squared) = (&key.k64, &key.k64_squared);
        let (y, room) = match self {
            L2Hash::Past(_) => (None, 0),
            L2Hash::Empty if run.len() <= 1 => {
                run.each(|first| *self = L2Hash::OneWord(first));
                return;
            }
            // POLY's `y = 1` (section 5.3.2): the first word is a step too.
            L2Hash::Empty => (Some([1; ITERS]), POLY64_WORDS),
            L2Hash::OneWord(first) => {
                let y = per_iteration(|i| poly64_first(k[i], k_squared[i], first[i]));
                (Some(y), POLY64_WORDS - 1)
            }
            L2Hash::Poly64 { y, room } => (Some(*y), *room),
        };
        let len = run.len() as u64;
        let (in_poly64, past) = run.split_at(room.min(len) as usize);
        if let Some(mut y) = y
            && in_poly64.len() > 0
        {
            let room = room - in_poly64.len() as u64;
            in_poly64.each(
                // Inlined into the backend's run: for four iterations LLVM
                // would otherwise call the steps once per chunk.
                #[inline(always)]
                |word| y = per_iteration(|i| poly64_step(k[i], k_squared[i], y[i], word[i])),
            );
            *self = if room > 0 { L2Hash::Poly64 { y, room } } else { L2Hash::Past(Past::AtSwitch(y)) };
        }
        if past.len() > 0 {
            let L2Hash::Past(state) = self else { unreachable!("POLY64's range is full") };
            // By value, so that no reference to a state the caller keeps in
            // registers leaves the inlined code.
            *state = state.clone().absorb(key, past);
        }
    }

    /// Absorbs `run` with its parts hashed elsewhere as maps (one
    /// multiply-add each): within POLY64's range as POLY64 maps; past it,
    /// a first output here when POLY128 waits for a word's low half, then
    /// whole POLY128 words as POLY128 maps, then an odd last output here.
    #[cfg(feature = "parallel")]
    pub(crate) fn absorb_mapped<const K: usize>(&mut self, key: &L2Key<K>, run: impl MappedOutputs<ITERS>) {
        let room = match self {
            L2Hash::Empty => POLY64_WORDS,
            L2Hash::OneWord(_) => POLY64_WORDS - 1,
            L2Hash::Poly64 { room, .. } => *room,
            L2Hash::Past(_) => 0,
        };
        let len = run.len() as u64;
        let (in_poly64, past) = run.split_at(room.min(len) as usize);
        in_poly64.poly64_maps(key, |map| self.absorb_poly64_map(key, map));
        if past.len() == 0 {
            return;
        }
        let half_word = matches!(self, L2Hash::Past(Past::HalfWord { .. }));
        let (head, past) = past.split_at(usize::from(half_word));
        self.absorb(key, head);
        let pairs = past.len() / 2;
        let (words, last) = past.split_at(2 * pairs);
        let L2Hash::Past(state) = self else { unreachable!("past POLY64's range") };
        words.poly128_maps(key, |map| state.absorb_poly128_map(key, map));
        self.absorb(key, last);
    }

    /// A run within POLY64's range given as its map: the state's
    /// accumulator so far (1 before any word, POLY64's first step after one
    /// word kept as it came) through `mult * y + value`.
    #[cfg(feature = "parallel")]
    fn absorb_poly64_map<const K: usize>(&mut self, key: &L2Key<K>, map: &Poly64Map<ITERS>) {
        let (y, room) = match self {
            L2Hash::Empty if map.words == 1 => {
                *self = L2Hash::OneWord(map.first);
                return;
            }
            L2Hash::Empty => ([1; ITERS], POLY64_WORDS),
            L2Hash::OneWord(first) => {
                (core::array::from_fn(|i| poly64_first(key.k64[i], key.k64_squared[i], first[i])), POLY64_WORDS - 1)
            }
            L2Hash::Poly64 { y, room } => (*y, *room),
            L2Hash::Past(_) => unreachable!("a POLY64 map within POLY64's range"),
        };
        debug_assert!(map.words <= room, "a map within POLY64's range");
        if map.words == 0 {
            return;
        }
        let y =
            core::array::from_fn(|i| fold_p64(u128::from(map.mult[i]) * u128::from(y[i]) + u128::from(map.value[i])));
        let room = room - map.words;
        *self = if room > 0 { L2Hash::Poly64 { y, room } } else { L2Hash::Past(Past::AtSwitch(y)) };
    }

    /// Each iteration's L2-HASH output once `last` (the message's last L1
    /// outputs) is absorbed, in the form the state's range gives it: for an
    /// empty state (a message of one chunk at most) `last` itself; after
    /// one word, the two-word step ([`poly64_two`]) from that word as it
    /// came; within POLY64's range, its last step; past it, POLY128's
    /// result, out of line ([`Past::finish`]).
    #[inline(always)]
    pub(crate) fn finish<const K: usize>(&self, key: &L2Key<K>, last: [u64; ITERS]) -> L2Output<ITERS> {
        let (k, k_squared) = (&key.k64, &key.k64_squared);
        match self {
            L2Hash::Empty => L2Output::Short(last),
            L2Hash::OneWord(first) => L2Output::Short(L2Hash::two_words(key, *first, last, false)),
            L2Hash::Poly64 { y, .. } => {
                L2Output::Short(per_iteration(|i| poly64_last(k[i], k_squared[i], y[i], last[i])))
            }
            L2Hash::Past(state) => L2Output::Wide(state.clone().finish(key, last)),
        }
    }

    /// Each iteration's L2-HASH output for a message of exactly two chunks,
    /// whose L1 outputs are `first` and `last`: POLY64 of two words, no
    /// state needed, in the form that leaves the least work after `last`
    /// ([`poly64_two_second_late`] when `last_is_late`, well after `first`;
    /// else [`poly64_two`]).
    #[inline(always)]
    pub(crate) fn two_words<const K: usize>(
        key: &L2Key<K>,
        first: [u64; ITERS],
        last: [u64; ITERS],
        last_is_late: bool,
    ) -> [u64; ITERS] {
        if last_is_late {
            per_iteration(|i| poly64_two_second_late(key.k64[i], &key.two_words[i], first[i], last[i]))
        } else {
            per_iteration(|i| poly64_two(key.k64[i], &key.two_words[i], first[i], last[i]))
        }
    }
}

impl<const ITERS: usize> Past<ITERS> {
    /// POLY128's accumulators, started at the switch from POLY64's result
    /// (section 5.3.1: its first word is `uint2str(y64, 16)`), and the high
    /// half of a word begun.
    #[inline(always)]
    fn accumulators<const K: usize>(&self, key: &L2Key<K>) -> ([u128; ITERS], Option<[u64; ITERS]>) {
        match self {
            Past::AtSwitch(y64) => (core::array::from_fn(|i| poly128_start(key.k128[i], canonical_p64(y64[i]))), None),
            Past::Words(y) => (*y, None),
            Past::HalfWord { y, high } => (*y, Some(*high)),
        }
    }

    /// The state of POLY128's accumulators `y` and a word's `high` half.
    fn from_accumulators(y: [u128; ITERS], high: Option<[u64; ITERS]>) -> Self {
        match high {
            Some(high) => Past::HalfWord { y, high },
            None => Past::Words(y),
        }
    }

    /// Absorbs `run`: each pair of outputs one POLY128 word
    /// ([`poly128_word`]), an odd output kept as the next word's high half.
    #[inline(never)]
    fn absorb<const K: usize>(self, key: &L2Key<K>, run: impl Outputs<ITERS>) -> Self {
        let (k, k_squared) = (&key.k128, &key.k128_squared);
        let (mut y, mut high) = self.accumulators(key);
        run.each(
            #[inline(always)]
            |outputs| match high.take() {
                Some(high) => poly128_word(k, k_squared, &mut y, &high, &outputs),
                None => high = Some(outputs),
            },
        );
        Past::from_accumulators(y, high)
    }

    /// A run of whole words given as its POLY128 map, from a word boundary:
    /// the accumulator through `mult * y + value`.
    #[cfg(feature = "parallel")]
    fn absorb_poly128_map<const K: usize>(&mut self, key: &L2Key<K>, map: &Poly128Map<ITERS>) {
        let (y, high) = self.accumulators(key);
        debug_assert!(high.is_none(), "on a POLY128 word boundary");
        *self = Past::from_accumulators(core::array::from_fn(|i| mul_add_p128(map.mult[i], y[i], map.value[i])), high);
    }

    /// POLY128's result (canonical) once `last` is absorbed: the string's
    /// end, `0x80` and zeros, as its last word ([`poly128_end`]).
    #[cold]
    #[inline(never)]
    fn finish<const K: usize>(self, key: &L2Key<K>, last: [u64; ITERS]) -> [u128; ITERS] {
        let state = self.absorb(key, &[last][..]);
        let (y, high) = state.accumulators(key);
        core::array::from_fn(|i| poly128_end(key.k128[i], key.k128_squared[i], y[i], high.map(|high| high[i])))
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

#[cfg(test)]
mod tests {
    use aes::Aes128;
    use aes::cipher::KeyInit;

    use super::super::reference;
    use super::*;

    fn key<const ITERS: usize>(seed: u8) -> L2Key<ITERS> {
        L2Key::derive(&Aes128::new(&[seed; 16].into()))
    }

    /// L2-HASH's output through the state: `outputs` but the last absorbed
    /// by `feed`, then the finish for the range the message ends in.
    fn through_state<const ITERS: usize, const K: usize>(
        key: &L2Key<K>,
        outputs: &[[u64; ITERS]],
        feed: impl Fn(&mut L2Hash<ITERS>, &[[u64; ITERS]]),
    ) -> [u128; ITERS] {
        let (last, rest) = outputs.split_last().expect("two words at least");
        let mut l2 = L2Hash::default();
        feed(&mut l2, rest);
        finished(l2.finish(key, *last))
    }

    /// L2-HASH's output in either form, as a number per iteration.
    fn finished<const ITERS: usize>(output: L2Output<ITERS>) -> [u128; ITERS] {
        match output {
            L2Output::Short(words) => words.map(u128::from),
            L2Output::Wide(words) => words,
        }
    }

    /// The same outputs as the RFC's string M of each iteration.
    fn rfc<const ITERS: usize, const K: usize>(key: &L2Key<K>, outputs: &[[u64; ITERS]]) -> [u128; ITERS] {
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
    /// on either side of the switch to POLY128 (a run that crosses it cut
    /// there by the state): one output, for lengths in POLY64's range (the
    /// two-word step among them), at its end and past it by an odd and an
    /// even count.
    fn every_way_of_feeding_equals_the_rfc<const ITERS: usize>() {
        let key = key::<ITERS>(5);
        let n64 = POLY64_WORDS as usize;
        let all = outputs::<ITERS>(n64 + 23);
        for count in [2, 3, 4, 40, n64 - 1, n64, n64 + 1, n64 + 2, n64 + 3, n64 + 4, n64 + 23] {
            let words = &all[..count];
            let expect = rfc(&key, words);
            let one_by_one = through_state(&key, words, |l2, rest| {
                for word in rest {
                    l2.absorb(&key, core::slice::from_ref(word));
                }
            });
            assert_eq!(one_by_one, expect, "{count} words one by one, {ITERS} iterations");
            let one_run = through_state(&key, words, |l2, rest| l2.absorb(&key, rest));
            assert_eq!(one_run, expect, "{count} words in one run, {ITERS} iterations");
            if count < n64 {
                continue;
            }
            for split in [n64 - 1, n64, n64 + 1, n64 + 2] {
                for piece in 1..6 {
                    let pieces = through_state(&key, words, |l2, rest| {
                        let split = split.min(rest.len());
                        l2.absorb(&key, &rest[..split]);
                        for part in rest[split..].chunks(piece) {
                            l2.absorb(&key, part);
                        }
                    });
                    assert_eq!(pieces, expect, "{count} words, split at {split}, pieces of {piece}");
                }
            }
        }
    }

    /// Words whose runs are hashed into maps of `piece` words each (the
    /// last one shorter), as the multi-core path's tasks are; the words
    /// the state takes one by one instead are counted in `serial`.
    #[cfg(feature = "parallel")]
    #[derive(Clone, Copy)]
    struct Pieces<'a, const ITERS: usize> {
        words: &'a [[u64; ITERS]],
        piece: usize,
        serial: &'a core::cell::Cell<usize>,
    }

    #[cfg(feature = "parallel")]
    impl<const ITERS: usize> Outputs<ITERS> for Pieces<'_, ITERS> {
        fn len(&self) -> usize {
            self.words.len()
        }

        fn split_at(self, mid: usize) -> (Self, Self) {
            let (head, tail) = self.words.split_at(mid);
            (Pieces { words: head, ..self }, Pieces { words: tail, ..self })
        }

        fn each(self, take: impl FnMut([u64; ITERS])) {
            self.serial.set(self.serial.get() + self.words.len());
            self.words.each(take);
        }
    }

    #[cfg(feature = "parallel")]
    impl<const ITERS: usize> MappedOutputs<ITERS> for Pieces<'_, ITERS> {
        fn poly64_maps<const K: usize>(self, key: &L2Key<K>, mut absorb: impl FnMut(&Poly64Map<ITERS>)) {
            use super::super::map::{Poly64Run, PolyRun};
            for piece in self.words.chunks(self.piece) {
                let mut run = Poly64Run::<ITERS>::default();
                for &w in piece {
                    run.absorb(key, w);
                }
                absorb(&run.into_map(key));
            }
        }

        fn poly128_maps<const K: usize>(self, key: &L2Key<K>, mut absorb: impl FnMut(&Poly128Map<ITERS>)) {
            use super::super::map::{Poly128Run, PolyRun};
            assert!(self.piece.is_multiple_of(2), "whole POLY128 words");
            for piece in self.words.chunks(self.piece) {
                let mut run = Poly128Run::<ITERS>::default();
                for &w in piece {
                    run.absorb(key, w);
                }
                absorb(&run.into_map(key));
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
        let key = key::<3>(7);
        let word = |n: u64| match n % 7 {
            3 => u64::MAX - n,
            5 => 0xffff_ffff_0000_0000 + n,
            _ => n.wrapping_mul(0x9e37_79b9_7f4a_7c15),
        };
        let words: Vec<[u64; 3]> = (0..41).map(|n| [word(n), word(n + 1), word(3 * n)]).collect();
        let (last, rest) = words.split_last().unwrap();
        let expect = through_state(&key, &words, |l2, rest| {
            for w in rest {
                l2.absorb(&key, core::slice::from_ref(w));
            }
        });
        let serial = core::cell::Cell::new(0);
        let mut got = L2Hash::default();
        for run in [&rest[..1], &rest[1..9], &rest[9..10], &rest[10..40]] {
            got.absorb_mapped(&key, Pieces { words: run, piece: run.len(), serial: &serial });
        }
        assert!(matches!(got, L2Hash::Poly64 { room, .. } if room == POLY64_WORDS - 40));
        assert_eq!(finished(got.finish(&key, *last)), expect, "maps from the start");
        for piece in [1, 3, 8, 40] {
            let mut pieces = L2Hash::default();
            pieces.absorb_mapped(&key, Pieces { words: rest, piece, serial: &serial });
            assert_eq!(finished(pieces.finish(&key, *last)), expect, "maps of {piece} words from the start");
        }
        let mut mixed = L2Hash::default();
        mixed.absorb(&key, &rest[..1]);
        mixed.absorb_mapped(&key, Pieces { words: &rest[1..20], piece: 19, serial: &serial });
        mixed.absorb(&key, &rest[20..]);
        assert_eq!(finished(mixed.finish(&key, *last)), expect, "a word, a map, words");
        let mut two = L2Hash::default();
        two.absorb_mapped(&key, Pieces { words: &rest[..1], piece: 1, serial: &serial });
        assert!(matches!(two, L2Hash::OneWord(_)), "a map of one word is kept as it came");
        assert_eq!(serial.get(), 0, "within POLY64's range every word goes as a map");
        assert_eq!(finished(two.finish(&key, rest[1])), rfc(&key, &rest[..2]), "a map of one word");
    }

    /// Maps across and past the switch to POLY128: runs absorbed as maps
    /// from the start and after one word (POLY64's maps up to the switch,
    /// then POLY128's), from the switch, and from after an odd word and the one that
    /// completes its pair (the state takes a pending word's low half and
    /// an odd last output itself), marked words among them, between words
    /// fed one by one, against the RFC.
    #[cfg(feature = "parallel")]
    #[test]
    fn poly128_maps_absorbed_in_order_equal_the_rfc() {
        fn check<const ITERS: usize>() {
            let key = key::<ITERS>(9);
            let n64 = POLY64_WORDS as usize;
            let all = outputs::<ITERS>(n64 + 309);
            let expect = rfc(&key, &all);
            for head in [0, 1, n64, n64 + 1, n64 + 2] {
                for piece in [2, 40, 158] {
                    let serial = core::cell::Cell::new(0);
                    let got = through_state(&key, &all, |l2, rest| {
                        l2.absorb(&key, &rest[..head]);
                        let end = (head + 301).max(n64 + 301);
                        l2.absorb_mapped(&key, Pieces { words: &rest[head..end], piece, serial: &serial });
                        for w in &rest[end..] {
                            l2.absorb(&key, core::slice::from_ref(w));
                        }
                    });
                    assert_eq!(got, expect, "{ITERS} iterations, maps of {piece} from {head} words");
                    // At most the low half of a word begun, and an odd last
                    // output, go one by one.
                    assert!(serial.get() <= 2, "{} outputs one by one from {head} words", serial.get());
                }
            }
        }
        check::<1>();
        check::<4>();
    }

    /// The state's variant follows section 5.3.1's phases as words come:
    /// an empty run changes nothing, one word into an empty state is kept
    /// as it came (for the two-word step), the 2^14th word leaves the state
    /// at the switch to POLY128, and past it the words alternate between a
    /// pending high half and a word boundary.
    #[test]
    fn the_variant_is_the_phase() {
        let key = key::<2>(11);
        let words = outputs::<2>(POLY64_WORDS as usize + 2);
        let none: &[[u64; 2]] = &[];
        let mut l2 = L2Hash::default();
        l2.absorb(&key, none);
        assert!(matches!(l2, L2Hash::Empty));
        l2.absorb(&key, &words[..1]);
        assert!(matches!(l2, L2Hash::OneWord(first) if first[..2] == words[0]));
        l2.absorb(&key, none);
        assert!(matches!(l2, L2Hash::OneWord(_)), "an empty run leaves one word as it came");
        l2.absorb(&key, &words[1..3]);
        assert!(matches!(l2, L2Hash::Poly64 { room, .. } if room == POLY64_WORDS - 3));
        l2.absorb(&key, none);
        assert!(matches!(l2, L2Hash::Poly64 { room, .. } if room == POLY64_WORDS - 3));
        l2.absorb(&key, &words[3..POLY64_WORDS as usize]);
        assert!(matches!(l2, L2Hash::Past(Past::AtSwitch(_))));
        let past = POLY64_WORDS as usize;
        l2.absorb(&key, &words[past..past + 1]);
        assert!(matches!(l2, L2Hash::Past(Past::HalfWord { high, .. }) if high[..2] == words[past]));
        l2.absorb(&key, &words[past + 1..]);
        assert!(matches!(l2, L2Hash::Past(Past::Words(_))));
        let mut two = L2Hash::default();
        two.absorb(&key, &words[..2]);
        assert!(matches!(two, L2Hash::Poly64 { room, .. } if room == POLY64_WORDS - 2), "a run of two from empty");
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
        let key = key::<1>(3);
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
                for word in rest {
                    l2.absorb(&key, core::slice::from_ref(word));
                }
            });
            assert_eq!(one_by_one, expect, "tail {tail:x?}");
            let one_run = through_state(&key, &words, |l2, rest| l2.absorb(&key, rest));
            assert_eq!(one_run, expect, "tail {tail:x?}, one run");
        }
    }
}
