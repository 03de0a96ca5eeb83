//! RustCrypto's key traits (`crypto-common`, the version the `aes` crate
//! implements) for every MAC type keyed by a fixed-size key, so that code
//! generic over [`KeyInit`] builds fastmac's types.
//!
//! Not implemented: `digest::Mac`, whose `finalize` takes no nonce (the
//! crate docs explain the idiom instead), and `KeyInit` for
//! `hmac::Hmac` and [`crate::ssh::SshMac`], whose key length depends
//! on a hash or a name chosen at run time (generic HMAC code uses
//! RustCrypto's `hmac::Hmac<D>`, which fastmac's HMAC wraps).

use crypto_common::typenum::U16;
use crypto_common::{Key, KeyInit, KeySizeUser};

use crate::badger::{Badger, BadgerReceiver, BadgerSender};
use crate::umac::{NestedUmac, SequencedUmac, TagLen, Umac, UmacTagLen};

/// `KeySizeUser` and `KeyInit` for a type whose `new` takes a 16-byte key.
macro_rules! key_init_16 {
    ($(impl$(<const $n:ident: usize>)? for $ty:ty $(where $bound:ty: $trait:path)?;)+) => {$(
        impl$(<const $n: usize>)? KeySizeUser for $ty $(where $bound: $trait)? {
            type KeySize = U16;
        }

        impl$(<const $n: usize>)? KeyInit for $ty $(where $bound: $trait)? {
            fn new(key: &Key<Self>) -> Self {
                <$ty>::new(key.as_ref())
            }
        }
    )+};
}

key_init_16! {
    impl<const TAG_LEN: usize> for Umac<TAG_LEN> where TagLen<TAG_LEN>: UmacTagLen;
    impl<const TAG_LEN: usize> for SequencedUmac<TAG_LEN> where TagLen<TAG_LEN>: UmacTagLen;
    impl for NestedUmac;
    impl<const TAG_LEN: usize> for Badger<TAG_LEN>;
    impl<const TAG_LEN: usize> for BadgerSender<TAG_LEN>;
    impl<const TAG_LEN: usize> for BadgerReceiver<TAG_LEN>;
}

// The key lengths the traits announce are the ones the constructors take.
const _: () = assert!(crate::umac::KEY_LEN == 16 && crate::badger::KEY_LEN == 16);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::umac::Umac64;

    fn generic<M: KeyInit>(key: &[u8]) -> Result<M, crypto_common::InvalidLength> {
        M::new_from_slice(key)
    }

    #[test]
    fn trait_keying_equals_the_inherent_constructor() {
        let key = *b"abcdefghijklmnop";
        let mut by_trait: Umac64 = generic(&key).unwrap();
        let tag = by_trait.mac(b"bcdefghi", b"abc").unwrap();
        assert_eq!(tag, [0xd4, 0xd7, 0xb9, 0xf6, 0xbd, 0x4f, 0xbf, 0xcf], "RFC 4418 appendix row");
        let by_trait: Badger<8> = generic(&key).unwrap();
        assert_eq!(
            by_trait.mac(&7u64.to_le_bytes(), b"m").unwrap(),
            Badger::<8>::new(&key).mac(&7u64.to_le_bytes(), b"m").unwrap()
        );
    }

    #[test]
    fn wrong_key_lengths_are_refused() {
        assert!(generic::<Umac64>(&[0; 15]).is_err());
        assert!(generic::<Badger<4>>(&[0; 17]).is_err());
        assert!(generic::<SequencedUmac<8>>(&[]).is_err());
    }
}
