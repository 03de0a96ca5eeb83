//! UMAC that owns its nonces: a [`Umac`] and a [`NonceCounter`] under one
//! key, so a sender cannot repeat or wrap a nonce (docs/umac.md
//! section 5: a repeated nonce reveals a hash difference).

use super::kdf::KEY_LEN;
use super::mac::{TagLen, Umac, UmacTagLen};
use super::nh::prefetch_lines;
use crate::error::Error;
use crate::nonce::NonceCounter;

/// The nonce of counter value `n`, as a [`SequencedUmac`] uses it and a
/// receiver passes it to [`Umac::verify`]: 8 big-endian bytes, as SSH forms
/// its UMAC nonce from the sequence number. Consecutive values share pad
/// blocks (RFC 4418 section 3.3), the pad cache's fastest case.
pub fn counter_nonce(n: u64) -> [u8; 8] {
    n.to_be_bytes()
}

/// A sender's UMAC: tags each message under the next counter nonce (0, 1,
/// 2, ...) and returns the nonce with the tag; at the counter's limit it
/// returns [`Error::NonceExhausted`] instead of tagging: rekey then.
///
/// Not `Clone`: two copies would hand out the same nonces.
///
/// ```
/// use fastmac::umac::{SequencedUmac, Umac64, counter_nonce};
///
/// let key = b"abcdefghijklmnop";
/// let mut sender = SequencedUmac::<8>::new(key);
/// let (nonce, tag) = sender.tag(b"first message")?;
/// assert_eq!(nonce, 0);
///
/// // The receiver gets the nonce with the message (or counts too).
/// Umac64::new(key).verify(&counter_nonce(nonce), b"first message", &tag)?;
/// assert_eq!(sender.tag(b"second message")?.0, 1);
/// # Ok::<(), fastmac::Error>(())
/// ```
pub struct SequencedUmac<const TAG_LEN: usize>
where
    TagLen<TAG_LEN>: UmacTagLen,
{
    umac: Umac<TAG_LEN>,
    counter: NonceCounter,
}

impl<const TAG_LEN: usize> SequencedUmac<TAG_LEN>
where
    TagLen<TAG_LEN>: UmacTagLen,
{
    /// Keys UMAC; nonces count from 0 and stop below 2^64 - 1 (never wrap).
    pub fn new(key: &[u8; KEY_LEN]) -> Self {
        Self::with_counter(key, NonceCounter::new(u64::MAX))
    }

    /// Keys UMAC with nonces from `counter`, e.g. a lower limit (a rekey
    /// policy) or a counter continued from one persisted before use.
    pub fn with_counter(key: &[u8; KEY_LEN], counter: NonceCounter) -> Self {
        SequencedUmac { umac: Umac::new(key), counter }
    }

    /// Tags `msg` under the next nonce: `(nonce, tag)`, where the nonce
    /// bytes are [`counter_nonce`]`(nonce)`.
    pub fn tag(&mut self, msg: &[u8]) -> Result<(u64, [u8; TAG_LEN]), Error> {
        let n = self.counter.next()?;
        let tag = self.umac.mac(&counter_nonce(n), msg)?;
        Ok((n, tag))
    }

    /// Asks for the lines of this sender's state that tagging a message of
    /// `len` bytes reads, its counter's too, and returns at once: a server
    /// calls it for the next packet's connection before tagging the current
    /// one ([`Umac::prefetch`]).
    #[inline]
    pub fn prefetch(&self, len: usize) {
        self.umac.prefetch(len);
        prefetch_lines((&raw const self.counter).cast(), size_of::<NonceCounter>());
    }

    /// Streams more of a message.
    pub fn update(&mut self, data: &[u8]) {
        self.umac.update(data);
    }

    /// Tags the streamed message under the next nonce and resets for the
    /// next message. At the limit the streamed input is kept.
    pub fn finalize_reset(&mut self) -> Result<(u64, [u8; TAG_LEN]), Error> {
        let n = self.counter.next()?;
        let tag = self.umac.finalize_reset(&counter_nonce(n))?;
        Ok((n, tag))
    }

    /// The nonce the next message gets.
    pub fn next_nonce(&self) -> u64 {
        self.counter.peek()
    }

    /// Messages left before the limit.
    pub fn remaining(&self) -> u64 {
        self.counter.remaining()
    }
}

impl<const TAG_LEN: usize> core::fmt::Debug for SequencedUmac<TAG_LEN>
where
    TagLen<TAG_LEN>: UmacTagLen,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SequencedUmac")
            .field("tag_bits", &(TAG_LEN * 8))
            .field("next_nonce", &self.counter.peek())
            .field("limit", &self.counter.limit())
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8; 16] = b"abcdefghijklmnop";

    /// Asking for a sender's lines ahead of a message takes no nonce and
    /// changes no tag.
    #[test]
    fn prefetch_takes_no_nonce() {
        let mut sender = SequencedUmac::<8>::new(KEY);
        for len in [0, 64, 1500, usize::MAX] {
            sender.prefetch(len);
        }
        assert_eq!(sender.next_nonce(), 0);
        let (nonce, tag) = sender.tag(b"abc").unwrap();
        assert_eq!((nonce, tag), (0, Umac::<8>::new(KEY).mac(&counter_nonce(0), b"abc").unwrap()));
    }

    fn tags_equal_umac_with_the_explicit_nonce<const N: usize>()
    where
        TagLen<N>: UmacTagLen,
    {
        let mut sender = SequencedUmac::<N>::new(KEY);
        let mut plain = Umac::<N>::new(KEY);
        for i in 0u64..100 {
            let msg = vec![i as u8; (i as usize * 37) % 2100];
            let (nonce, tag) = if i % 2 == 0 {
                sender.tag(&msg).unwrap()
            } else {
                sender.update(&msg[..msg.len() / 2]);
                sender.update(&msg[msg.len() / 2..]);
                sender.finalize_reset().unwrap()
            };
            assert_eq!(nonce, i);
            assert_eq!(tag, plain.mac(&i.to_be_bytes(), &msg).unwrap(), "UMAC-{} message {i}", 8 * N);
        }
        assert_eq!(sender.next_nonce(), 100);
    }

    #[test]
    fn tags_equal_umac_with_counter_nonces() {
        tags_equal_umac_with_the_explicit_nonce::<4>();
        tags_equal_umac_with_the_explicit_nonce::<8>();
        tags_equal_umac_with_the_explicit_nonce::<12>();
        tags_equal_umac_with_the_explicit_nonce::<16>();
    }

    /// The RFC 4418 vector "abc" (nonce "bcdefghi") through a counter that
    /// starts at that nonce read as a number.
    #[test]
    fn rfc4418_vector_through_the_counter() {
        let n = u64::from_be_bytes(*b"bcdefghi");
        let mut sender = SequencedUmac::<8>::with_counter(KEY, NonceCounter::starting_at(n, u64::MAX).unwrap());
        assert_eq!(sender.tag(b"abc").unwrap(), (n, [0xd4, 0xd7, 0xb9, 0xf6, 0xbd, 0x4f, 0xbf, 0xcf]));
    }

    #[test]
    fn refuses_at_the_limit_and_keeps_refusing() {
        for limit in [1u64, 1 << 31, u64::MAX] {
            let mut sender =
                SequencedUmac::<16>::with_counter(KEY, NonceCounter::starting_at(limit - 1, limit).unwrap());
            let (nonce, tag) = sender.tag(b"last").unwrap();
            assert_eq!(
                (nonce, tag),
                (limit - 1, Umac::<16>::new(KEY).mac(&counter_nonce(limit - 1), b"last").unwrap())
            );
            assert_eq!(sender.tag(b"one more"), Err(Error::NonceExhausted { limit }));
            sender.update(b"streamed");
            assert_eq!(sender.finalize_reset(), Err(Error::NonceExhausted { limit }));
            assert_eq!((sender.next_nonce(), sender.remaining()), (limit, 0));
        }
    }
}
