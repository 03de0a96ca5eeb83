//! [`DynMac`]: the interface of a keyed MAC whose algorithm is chosen at
//! run time (by [`crate::Algorithm`], the CLI and the bindings), which every
//! MAC type of the crate implements.

use crate::error::Error;

/// A keyed streaming MAC whose algorithm is chosen at run time.
pub trait DynMac: Send {
    /// Tag length in bytes.
    fn tag_len(&self) -> usize;
    /// Streams more of the message.
    fn update(&mut self, data: &[u8]);
    /// Writes the tag of the streamed message into `tag` (exactly
    /// [`DynMac::tag_len`] bytes) and resets for the next message.
    fn finalize_reset_into(&mut self, nonce: &[u8], tag: &mut [u8]) -> Result<(), Error>;
    /// Verifies the streamed message in constant time and resets.
    fn verify_reset(&mut self, nonce: &[u8], tag: &[u8]) -> Result<(), Error>;
    /// Discards the streamed message, keeping the key.
    fn reset(&mut self);

    /// Streams `file` from its current position to its end (feature
    /// `std`) and returns the number of bytes read; the position ends there.
    ///
    /// Reads go into a page-aligned buffer that stays in the core's cache.
    /// With the `parallel` feature, UMAC hashes a regular file of at least
    /// [`crate::umac::PARALLEL_MIN`] bytes on up to `threads` threads, each reading
    /// its own ranges with positioned reads; every other input, and every
    /// other MAC, is read on the calling thread. A file that shrinks while
    /// being read may give an error of kind `UnexpectedEof`; bytes appended
    /// while it is read are hashed up to the end the last read finds. After
    /// an error the streamed message is discarded, as by [`DynMac::reset`].
    #[cfg(feature = "std")]
    fn update_from_file(&mut self, file: &mut std::fs::File, threads: core::num::NonZeroUsize) -> std::io::Result<u64> {
        let _ = threads;
        let read = crate::file::read_to_end(file, &mut crate::file::ReadBuf::new(), |piece| self.update(piece));
        if read.is_err() {
            self.reset();
        }
        read
    }
}

/// For MACs without a nonce (HMAC, SSH packets): only an empty one.
pub(crate) fn check_no_nonce(nonce: &[u8]) -> Result<(), Error> {
    if nonce.is_empty() { Ok(()) } else { Err(Error::NonceLength { min: 0, max: 0, got: nonce.len() }) }
}
