//! Anti-replay window of RFC 6479: a ring of 64-bit blocks, so moving the
//! right edge clears whole blocks instead of shifting the bitmap.
//!
//! [`ReplayWindow::check`] only reads: the receiver pre-checks before any
//! MAC work and calls [`ReplayWindow::accept`] only after the MAC verifies
//! (RFC 4303 section 3.4.3), so a forgery can never move the window.

/// Bits per ring block.
const BLOCK_BITS: u64 = 64;
/// Default window: 2048 packets (docs/gears.md section 6.6).
pub const DEFAULT_WINDOW: u64 = 2048;

/// Why a sequence number is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplayError {
    /// Seen before.
    Duplicate,
    /// Left of the window: too old to tell.
    TooOld,
}

/// One replay window, for one (epoch, sender).
#[derive(Clone, Debug)]
pub struct ReplayWindow {
    /// `window / 64 + 1` blocks: one more than the window, so the block
    /// holding the right edge can be partly ahead of it (RFC 6479 section 2).
    ring: Vec<u64>,
    /// Highest sequence number accepted (0 before any: sequence numbers
    /// start at 0, and bit 0 is then still clear).
    last: u64,
    window: u64,
}

impl ReplayWindow {
    /// A window of `window` packets, rounded up to a multiple of 64 (at
    /// least 64).
    pub fn new(window: u64) -> Self {
        let window = window.max(BLOCK_BITS).div_ceil(BLOCK_BITS) * BLOCK_BITS;
        let blocks = (window / BLOCK_BITS + 1) as usize;
        ReplayWindow { ring: vec![0; blocks], last: 0, window }
    }

    /// The window size in packets.
    pub fn size(&self) -> u64 {
        self.window
    }

    /// The right edge: the highest sequence number accepted.
    pub fn right_edge(&self) -> u64 {
        self.last
    }

    /// How far `seq` would move the right edge (0 if it would not).
    pub fn jump(&self, seq: u64) -> u64 {
        seq.saturating_sub(self.last)
    }

    fn slot(&self, seq: u64) -> (usize, u64) {
        let block = (seq / BLOCK_BITS) % self.ring.len() as u64;
        (block as usize, 1 << (seq % BLOCK_BITS))
    }

    /// Would `seq` be accepted? Changes nothing.
    pub fn check(&self, seq: u64) -> Result<(), ReplayError> {
        if seq > self.last {
            return Ok(());
        }
        if self.last - seq >= self.window {
            return Err(ReplayError::TooOld);
        }
        let (block, bit) = self.slot(seq);
        if self.ring[block] & bit != 0 { Err(ReplayError::Duplicate) } else { Ok(()) }
    }

    /// Records `seq` as received; call only after its MAC verified.
    pub fn accept(&mut self, seq: u64) -> Result<(), ReplayError> {
        self.check(seq)?;
        if seq > self.last {
            // Clear the blocks the right edge moves into (all of them, at
            // most, for a large jump).
            let old_block = self.last / BLOCK_BITS;
            let new_block = seq / BLOCK_BITS;
            let to_clear = (new_block - old_block).min(self.ring.len() as u64);
            for i in 1..=to_clear {
                let b = ((old_block + i) % self.ring.len() as u64) as usize;
                self.ring[b] = 0;
            }
            self.last = seq;
        }
        let (block, bit) = self.slot(seq);
        self.ring[block] |= bit;
        Ok(())
    }
}

impl Default for ReplayWindow {
    fn default() -> Self {
        ReplayWindow::new(DEFAULT_WINDOW)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::*;

    #[test]
    fn duplicates_and_old_packets_are_refused() {
        let mut w = ReplayWindow::new(128);
        assert_eq!(w.accept(0), Ok(()));
        assert_eq!(w.accept(0), Err(ReplayError::Duplicate));
        assert_eq!(w.accept(5), Ok(()));
        assert_eq!(w.accept(3), Ok(()));
        assert_eq!(w.check(3), Err(ReplayError::Duplicate));
        assert_eq!(w.accept(1000), Ok(()));
        assert_eq!(w.check(1000 - 128), Err(ReplayError::TooOld));
        assert_eq!(w.check(1000 - 127), Ok(()));
        assert_eq!(w.check(5), Err(ReplayError::TooOld));
    }

    #[test]
    fn check_does_not_change_the_window() {
        let mut w = ReplayWindow::new(64);
        w.accept(10).unwrap();
        assert_eq!(w.check(500), Ok(()));
        assert_eq!(w.right_edge(), 10);
        assert_eq!(w.check(9), Ok(()));
        assert_eq!(w.jump(500), 490);
    }

    proptest! {
        /// Against a model that remembers every accepted number: the
        /// window accepts exactly the numbers the model accepts within the
        /// window, and never one twice.
        #[test]
        fn matches_a_set_model(seqs in proptest::collection::vec(0u64..3000, 1..400)) {
            let mut w = ReplayWindow::new(256);
            let mut seen = BTreeSet::new();
            let mut last = 0u64;
            for seq in seqs {
                let model = if seq > last || (last - seq < 256 && !seen.contains(&seq)) {
                    Ok(())
                } else if last - seq >= 256 {
                    Err(ReplayError::TooOld)
                } else {
                    Err(ReplayError::Duplicate)
                };
                prop_assert_eq!(w.accept(seq), model);
                if model.is_ok() {
                    seen.insert(seq);
                    last = last.max(seq);
                }
            }
        }
    }
}
