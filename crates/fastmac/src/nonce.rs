//! Nonce discipline in the types: a sender-side counter that can neither
//! repeat nor wrap a nonce under one key.
//!
//! A Wegman–Carter MAC such as UMAC is safe only while no nonce repeats under
//! a key: two tags under one (key, nonce) XOR to the difference of two
//! hashes, with the pad cancelled, the first step of the known key-recovery
//! attacks (Handschuh and Preneel 2008; docs/umac.md section 5). Counting
//! is the usual way never to repeat, but a counter that wraps repeats.
//! [`NonceCounter`] stops at a limit instead, with
//! [`Error::NonceExhausted`]: the documented rekey point (as SSH rekeys after
//! 2^31 packets, RFC 4344 section 3.1).
//!
//! Counter nonces are also what UMAC's pad cache is fastest on (one AES call
//! per 12 to 48 messages). The raw `mac(nonce, ...)` calls stay for interop;
//! there the caller owns this duty.
//!
//! ```
//! use fastmac::nonce::NonceCounter;
//!
//! let mut counter = NonceCounter::new(2);
//! assert_eq!(counter.next(), Ok(0));
//! assert_eq!(counter.next(), Ok(1));
//! assert_eq!(counter.next(), Err(fastmac::Error::NonceExhausted { limit: 2 }));
//! assert_eq!(counter.peek(), 2); // it never wraps back to 0
//! ```

use crate::error::Error;

/// Counts `0, 1, ..., limit - 1`, each value once, then refuses.
///
/// There is no way to move it back, and it is not `Clone` (a copy would
/// hand out the same values): a new key gets a new counter.
#[derive(Debug, PartialEq, Eq)]
pub struct NonceCounter {
    next: u64,
    limit: u64,
}

impl NonceCounter {
    /// A counter that hands out `0` to `limit - 1`.
    pub const fn new(limit: u64) -> Self {
        NonceCounter { next: 0, limit }
    }

    /// A counter that hands out `first` to `limit - 1`: for a counter that
    /// continues one kept elsewhere (e.g. persisted before the values were
    /// used). [`Error::NonceExhausted`] if `first` is not below `limit`.
    pub fn starting_at(first: u64, limit: u64) -> Result<Self, Error> {
        if first < limit { Ok(NonceCounter { next: first, limit }) } else { Err(Error::NonceExhausted { limit }) }
    }

    /// The next value, never handed out before by this counter; at the
    /// limit, [`Error::NonceExhausted`] and the counter stays where it is.
    #[allow(clippy::should_implement_trait)] // an Iterator would end silently; this is a typed error
    pub fn next(&mut self) -> Result<u64, Error> {
        if self.next < self.limit {
            self.next += 1;
            Ok(self.next - 1)
        } else {
            Err(Error::NonceExhausted { limit: self.limit })
        }
    }

    /// The value [`NonceCounter::next`] hands out next (the limit once
    /// exhausted); for a counter from 0, how many values were used.
    pub fn peek(&self) -> u64 {
        self.next
    }

    /// The first value the counter refuses.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// How many values are left.
    pub fn remaining(&self) -> u64 {
        self.limit - self.next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_up_to_the_limit_then_refuses_without_moving() {
        let mut counter = NonceCounter::new(3);
        assert_eq!((counter.next(), counter.next(), counter.next()), (Ok(0), Ok(1), Ok(2)));
        for _ in 0..3 {
            assert_eq!(counter.next(), Err(Error::NonceExhausted { limit: 3 }));
            assert_eq!((counter.peek(), counter.remaining()), (3, 0));
        }
    }

    #[test]
    fn never_wraps_at_the_top_of_u64() {
        let mut counter = NonceCounter::starting_at(u64::MAX - 1, u64::MAX).unwrap();
        assert_eq!(counter.remaining(), 1);
        assert_eq!(counter.next(), Ok(u64::MAX - 1));
        assert_eq!(counter.next(), Err(Error::NonceExhausted { limit: u64::MAX }));
        assert_eq!(counter.peek(), u64::MAX);
    }

    #[test]
    fn starting_at_or_past_the_limit_is_an_error() {
        assert_eq!(NonceCounter::starting_at(5, 5), Err(Error::NonceExhausted { limit: 5 }));
        assert_eq!(NonceCounter::starting_at(6, 5), Err(Error::NonceExhausted { limit: 5 }));
        assert_eq!(NonceCounter::new(0).next(), Err(Error::NonceExhausted { limit: 0 }));
        let counter = NonceCounter::starting_at(4, 5).unwrap();
        assert_eq!((counter.peek(), counter.limit(), counter.remaining()), (4, 5, 1));
    }
}
