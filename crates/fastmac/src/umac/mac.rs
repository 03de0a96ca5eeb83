//! UMAC itself (RFC 4418 section 4): `Tag = UHASH_K(M) xor PDF_K(Nonce)`,
//! with UHASH from the chunk engine (`uhash.rs`), on all cores for large
//! inputs (`parallel.rs`, `parallel_file.rs`), and the pad from `pdf.rs`.

use aes::Aes128;
use aes::cipher::{Array, KeyInit};
use zeroize::Zeroize;

use super::backend::Backend;
use super::kdf::KEY_LEN;
#[cfg(feature = "parallel")]
use super::parallel;
#[cfg(feature = "parallel")]
use super::parallel_file;
use super::pdf::{Pdf, check_nonce};
use super::uhash::{self, UhashKey, UhashState, output_bytes};
use crate::error::{BackendError, Error};
use crate::tag::verify_tag;
use sealed::KeyedUhash;

/// UMAC with a `TAG_LEN`-byte tag: 4, 8, 12 or 16. Use the aliases
/// [`Umac32`], [`Umac64`], [`Umac96`] and [`Umac128`].
///
/// [`Umac::mac`] and [`Umac::verify`] take `&mut self`: they keep a cache
/// of PDF pads (one AES call per 12 to 48 counter nonces), and the
/// streaming methods keep the message in progress. [`Umac::mac_shared`]
/// and [`Umac::verify_shared`] take `&self` and compute the pad with one
/// AES block per call instead, so one keyed object behind an `Arc` (or a
/// plain reference) tags and verifies from any number of threads at once;
/// the type is `Send` and `Sync`.
///
/// ```
/// use std::sync::Arc;
/// use fastmac::umac::{Umac64, counter_nonce};
///
/// let mac = Arc::new(Umac64::new(b"abcdefghijklmnop"));
/// let workers: Vec<_> = (0..4u64)
///     .map(|thread| {
///         let mac = Arc::clone(&mac);
///         std::thread::spawn(move || -> Result<(), fastmac::Error> {
///             // Each thread its own nonces: a nonce never repeats under a key.
///             let nonce = counter_nonce(thread << 32);
///             let tag = mac.mac_shared(&nonce, b"message")?;
///             mac.verify_shared(&nonce, b"message", &tag)
///         })
///     })
///     .collect();
/// for worker in workers {
///     worker.join().expect("the worker does not panic")?;
/// }
/// # Ok::<(), fastmac::Error>(())
/// ```
#[derive(Clone)]
pub struct Umac<const TAG_LEN: usize>
where
    TagLen<TAG_LEN>: UmacTagLen,
{
    keyed: <TagLen<TAG_LEN> as UmacTagLen>::Keyed,
}

/// A tag length as a type, for [`Umac`]'s bound [`UmacTagLen`].
pub struct TagLen<const TAG_LEN: usize>;

/// The tag lengths UMAC is defined for, 4, 8, 12 and 16 bytes (one UHASH
/// iteration per 32 bits: RFC 4418 section 5.1), and for each the state a
/// [`Umac`] of that length keeps: keys for its own iterations only.
/// Implemented for those four [`TagLen`]s alone.
///
/// Code generic over the tag length repeats the bound:
///
/// ```
/// use fastmac::umac::{TagLen, Umac, UmacTagLen};
///
/// fn tag<const N: usize>(mac: &mut Umac<N>, seq: u64, packet: &[u8]) -> Result<[u8; N], fastmac::Error>
/// where
///     TagLen<N>: UmacTagLen,
/// {
///     mac.mac(&seq.to_be_bytes(), packet)
/// }
/// # let mut mac = fastmac::umac::Umac64::new(b"abcdefghijklmnop");
/// # assert_eq!(tag(&mut mac, 0, b"abc")?.len(), 8);
/// # Ok::<(), fastmac::Error>(())
/// ```
pub trait UmacTagLen: sealed::Sealed {
    /// What the [`Umac`] of this tag length keeps.
    #[doc(hidden)]
    type Keyed: sealed::KeyedUhash;
}

impl UmacTagLen for TagLen<4> {
    type Keyed = Keyed<1>;
}
impl UmacTagLen for TagLen<8> {
    type Keyed = Keyed<2>;
}
impl UmacTagLen for TagLen<12> {
    type Keyed = Keyed<3>;
}
impl UmacTagLen for TagLen<16> {
    type Keyed = Keyed<4>;
}

mod sealed {
    use super::*;

    pub trait Sealed {}
    impl Sealed for TagLen<4> {}
    impl Sealed for TagLen<8> {}
    impl Sealed for TagLen<12> {}
    impl Sealed for TagLen<16> {}

    /// The operations of [`Keyed`] that [`Umac`] calls, named apart from
    /// its iteration count.
    pub trait KeyedUhash: Clone + Send + Sync {
        /// Expands a key for `backend`, which the caller checked is supported.
        fn expand(key: &[u8; KEY_LEN], backend: Backend) -> Self;
        fn backend(&self) -> Backend;
        /// UHASH of `msg` in one call, held as one number
        /// (`uhash::output_bytes`).
        fn uhash(&self, msg: &[u8]) -> u128;
        fn update(&mut self, data: &[u8]);
        /// UHASH of the streamed message; resets the stream.
        fn finalize(&mut self) -> u128;
        fn reset(&mut self);
        /// Asks for the pad cache's first line, before a message is hashed.
        fn prefetch_pad(&self);
        /// Asks for every line a message of `len` bytes reads, reading none.
        fn prefetch_ahead(&self, len: usize);
        /// The pad for `nonce` and a tag of `tag_len` bytes, from the cache.
        fn pad(&mut self, nonce: &[u8], tag_len: usize) -> u128;
        /// [`KeyedUhash::pad`] by one AES block, through a shared reference.
        fn pad_shared(&self, nonce: &[u8], tag_len: usize) -> u128;
        #[cfg(feature = "parallel")]
        fn update_from_file(
            &mut self,
            file: &mut std::fs::File,
            threads: core::num::NonZeroUsize,
        ) -> std::io::Result<u64>;
    }
}

/// The state of a UMAC of `ITERS` iterations, in the order a short message
/// reads it, the streaming state, which a one-shot call never touches, last
/// (`docs/performance.md`, "Many live keys").
#[doc(hidden)]
#[derive(Clone)]
#[repr(C)]
pub struct Keyed<const ITERS: usize> {
    key: UhashKey<ITERS>,
    pdf: Pdf,
    stream: UhashState<ITERS>,
}

impl<const ITERS: usize> sealed::KeyedUhash for Keyed<ITERS> {
    fn expand(key: &[u8; KEY_LEN], backend: Backend) -> Self {
        let mut key_bytes = Array::from(*key);
        let cipher = Aes128::new(&key_bytes);
        key_bytes.zeroize();
        Keyed { key: UhashKey::derive(&cipher, backend), pdf: Pdf::new(&cipher), stream: UhashState::default() }
    }

    fn backend(&self) -> Backend {
        self.key.backend()
    }

    /// On all cores when that pays (feature `parallel`).
    #[inline(always)]
    fn uhash(&self, msg: &[u8]) -> u128 {
        self.key.prefetch(msg.len());
        #[cfg(feature = "parallel")]
        if parallel::worth_it::<ITERS>(msg.len()) {
            return parallel::uhash::<ITERS, ITERS>(&self.key, msg);
        }
        uhash::uhash::<ITERS, ITERS>(&self.key, msg)
    }

    #[inline(always)]
    fn update(&mut self, data: &[u8]) {
        #[cfg(feature = "parallel")]
        if parallel::worth_it::<ITERS>(data.len()) {
            return parallel::update::<ITERS, ITERS>(&self.key, &mut self.stream, data);
        }
        self.stream.update(&self.key, data)
    }

    #[inline(always)]
    fn finalize(&mut self) -> u128 {
        self.stream.finalize(&self.key)
    }

    fn reset(&mut self) {
        self.stream.reset();
    }

    #[inline(always)]
    fn prefetch_ahead(&self, len: usize) {
        self.key.prefetch_ahead(len);
        self.pdf.prefetch_ahead();
    }

    #[inline(always)]
    fn prefetch_pad(&self) {
        self.pdf.prefetch();
    }

    #[inline(always)]
    fn pad(&mut self, nonce: &[u8], tag_len: usize) -> u128 {
        self.pdf.pad(nonce, tag_len)
    }

    #[inline(always)]
    fn pad_shared(&self, nonce: &[u8], tag_len: usize) -> u128 {
        self.pdf.pad_uncached(nonce, tag_len)
    }

    #[cfg(feature = "parallel")]
    fn update_from_file(&mut self, file: &mut std::fs::File, threads: core::num::NonZeroUsize) -> std::io::Result<u64> {
        parallel_file::update_from_file::<ITERS, ITERS>(&self.key, &mut self.stream, file, threads)
    }
}

// Shared across threads by reference (`Umac::mac_shared`): a field that is
// not `Send + Sync` fails the build here.
const _: () = {
    const fn send_sync<T: Send + Sync>() {}
    send_sync::<Umac32>();
    send_sync::<Umac64>();
    send_sync::<Umac96>();
    send_sync::<Umac128>();
};

/// UMAC-32: 4-byte tags, forgery probability about 2^-30 per attempt.
pub type Umac32 = Umac<4>;
/// UMAC-64: 8-byte tags, about 2^-60 (OpenSSH's `umac-64@openssh.com`).
pub type Umac64 = Umac<8>;
/// UMAC-96: 12-byte tags, about 2^-90.
pub type Umac96 = Umac<12>;
/// UMAC-128: 16-byte tags, about 2^-120 (OpenSSH's `umac-128@openssh.com`).
pub type Umac128 = Umac<16>;

impl<const TAG_LEN: usize> Umac<TAG_LEN>
where
    TagLen<TAG_LEN>: UmacTagLen,
{
    /// Expands a 16-byte key (all key derivation happens here, once), for
    /// the NH backend [`Backend::detect`] picks.
    pub fn new(key: &[u8; KEY_LEN]) -> Self {
        Self::expand(key, Backend::detect())
    }

    /// Like [`Umac::new`] with a chosen NH backend, for tests and
    /// benchmarks; an error if this CPU cannot run it.
    pub fn with_backend(key: &[u8; KEY_LEN], backend: Backend) -> Result<Self, Error> {
        if !backend.is_supported() {
            return Err(Error::Backend(BackendError::Unsupported(backend)));
        }
        Ok(Self::expand(key, backend))
    }

    /// The NH backend this object hashes with.
    pub fn backend(&self) -> Backend {
        self.keyed.backend()
    }

    fn expand(key: &[u8; KEY_LEN], backend: Backend) -> Self {
        Umac { keyed: KeyedUhash::expand(key, backend) }
    }

    /// Like [`Umac::new`], for a key of unchecked length.
    pub fn new_from_slice(key: &[u8]) -> Result<Self, Error> {
        let key: &[u8; KEY_LEN] = key.try_into().map_err(|_| Error::KeyLength { expected: KEY_LEN, got: key.len() })?;
        Ok(Self::new(key))
    }

    /// Asks the memory system for the lines of this key's state that a
    /// message of `len` bytes reads, and returns without waiting for them.
    ///
    /// For a server that holds more connections than its caches do and
    /// handles packets in batches: asking for the next packet's key before
    /// tagging or checking the current one overlaps the two packets' misses
    /// (`docs/performance.md`, "Asking ahead"). It reads nothing of the
    /// state, not even to choose what to ask for (a read that missed would
    /// hold the core until its line came), so it asks for the lines of
    /// either NH key layout, every pad of the cache, and not the AES schedule,
    /// which one message in 12 to 48 reads. A hint: it changes nothing and
    /// costs a few cycles per line on a key already cached; on other
    /// architectures than x86-64 it does nothing.
    #[inline]
    pub fn prefetch(&self, len: usize) {
        self.keyed.prefetch_ahead(len);
    }

    /// The tag of `msg` under `nonce` (1 to 16 bytes), in one call.
    ///
    /// The nonce is the caller's responsibility: it must never repeat under
    /// this key (kept for interop, e.g. OpenSSH drives its own sequence
    /// numbers); [`SequencedUmac`](crate::umac::SequencedUmac) owns a counter instead.
    ///
    /// Leaves any streamed input (see [`Umac::update`]) untouched.
    #[inline]
    pub fn mac(&mut self, nonce: &[u8], msg: &[u8]) -> Result<[u8; TAG_LEN], Error> {
        check_nonce(nonce)?;
        self.keyed.prefetch_pad();
        let hash = self.keyed.uhash(msg);
        Ok(output_bytes(hash ^ self.keyed.pad(nonce, TAG_LEN)))
    }

    /// [`Umac::mac`] through a shared reference, for one key used by
    /// several threads at once: the same tag, its pad computed by one AES
    /// block per call instead of taken from the cache `mac` keeps (which
    /// makes `mac` the faster choice for short messages from one thread).
    ///
    /// The nonce rule is unchanged: threads sharing a key must never use
    /// the same nonce (give each thread its own range of counter values).
    #[inline]
    pub fn mac_shared(&self, nonce: &[u8], msg: &[u8]) -> Result<[u8; TAG_LEN], Error> {
        check_nonce(nonce)?;
        let hash = self.keyed.uhash(msg);
        Ok(output_bytes(hash ^ self.keyed.pad_shared(nonce, TAG_LEN)))
    }

    /// Checks `tag` against `msg` and `nonce` in constant time.
    pub fn verify(&mut self, nonce: &[u8], msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        check_tag_len(tag, TAG_LEN)?;
        let mut expected = self.mac(nonce, msg)?;
        verify_tag(&mut expected[..], tag)
    }

    /// [`Umac::verify`] through a shared reference (see
    /// [`Umac::mac_shared`]), in constant time.
    pub fn verify_shared(&self, nonce: &[u8], msg: &[u8], tag: &[u8]) -> Result<(), Error> {
        check_tag_len(tag, TAG_LEN)?;
        let mut expected = self.mac_shared(nonce, msg)?;
        verify_tag(&mut expected[..], tag)
    }

    /// UHASH alone (RFC 4418 section 5.1): the tag before the pad is XORed
    /// in. It is not a MAC; it is exposed for constructions such as the
    /// one in crates/fastmac-gears that pad it themselves.
    #[inline]
    pub fn uhash(&self, msg: &[u8]) -> [u8; TAG_LEN] {
        output_bytes(self.keyed.uhash(msg))
    }

    /// Streams more of the message.
    ///
    /// Inlined into the caller (as [`Umac::finalize_reset`] is), so that a
    /// message streamed in one piece costs the calls of [`Umac::mac`]: the
    /// NH backend's and the pad's.
    #[inline(always)]
    pub fn update(&mut self, data: &[u8]) {
        self.keyed.update(data);
    }

    /// Tags the streamed message and resets for the next one, keeping the key
    /// (OpenSSH's `umac_final`). On a bad nonce the streamed input is kept.
    /// As with [`Umac::mac`], a nonce that never repeats under this key is
    /// the caller's responsibility.
    #[inline(always)]
    pub fn finalize_reset(&mut self, nonce: &[u8]) -> Result<[u8; TAG_LEN], Error> {
        check_nonce(nonce)?;
        let hash = self.keyed.finalize();
        Ok(output_bytes(hash ^ self.keyed.pad(nonce, TAG_LEN)))
    }

    /// Tags the streamed message, consuming the object.
    pub fn finalize(mut self, nonce: &[u8]) -> Result<[u8; TAG_LEN], Error> {
        self.finalize_reset(nonce)
    }

    /// Verifies the streamed message in constant time and resets for the next.
    pub fn verify_reset(&mut self, nonce: &[u8], tag: &[u8]) -> Result<(), Error> {
        check_tag_len(tag, TAG_LEN)?;
        let mut expected = self.finalize_reset(nonce)?;
        verify_tag(&mut expected[..], tag)
    }

    /// Discards streamed input, keeping the key.
    pub fn reset(&mut self) {
        self.keyed.reset();
    }

    /// [`DynMac::update_from_file`](crate::DynMac::update_from_file) for UMAC: a large regular file
    /// on up to `threads` threads (`parallel_file.rs`); on an error the
    /// streamed input is discarded.
    #[cfg(feature = "parallel")]
    pub(crate) fn update_from_file(
        &mut self,
        file: &mut std::fs::File,
        threads: core::num::NonZeroUsize,
    ) -> std::io::Result<u64> {
        let read = self.keyed.update_from_file(file, threads);
        if read.is_err() {
            self.reset();
        }
        read
    }
}

impl<const TAG_LEN: usize> core::fmt::Debug for Umac<TAG_LEN>
where
    TagLen<TAG_LEN>: UmacTagLen,
{
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Umac{} {{ .. }}", TAG_LEN * 8)
    }
}

fn check_tag_len(tag: &[u8], expected: usize) -> Result<(), Error> {
    if tag.len() == expected { Ok(()) } else { Err(Error::TagLength { expected, got: tag.len() }) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A server keeps one keyed object per connection, and each packet pulls
    /// the lines it reads from memory (`docs/performance.md`, "Many live keys"):
    /// every tag length's state fits 40 cache lines and starts at a line, so
    /// that its layout decides which lines a packet reads; a shorter tag
    /// keeps the keys of its own iterations only, and so less.
    #[test]
    fn the_state_fits_forty_cache_lines_and_starts_at_a_line() {
        let sizes = [size_of::<Umac32>(), size_of::<Umac64>(), size_of::<Umac96>(), size_of::<Umac128>()];
        for (tag_len, size) in [4, 8, 12, 16].into_iter().zip(sizes) {
            assert!(size <= 40 * 64, "UMAC-{}: {size} bytes", 8 * tag_len);
        }
        assert!(sizes.is_sorted_by(|shorter, longer| shorter < longer), "{sizes:?}");
        // With AES-NI's key schedule (176 bytes; a portable one is larger):
        // UMAC-64 in 32 lines.
        #[cfg(target_arch = "x86_64")]
        assert!(sizes[1] <= 32 * 64, "UMAC-64: {} bytes", sizes[1]);
        assert_eq!(align_of::<Umac64>(), 64);
        assert_eq!(core::mem::offset_of!(Keyed<2>, key), 0, "the key's first line is the message's first");
    }
}
