//! BLAKE3's keyed hash (the `blake3` crate, BLAKE3's own implementation
//! with its SIMD backends) as a MAC: one 256-bit key, each message's 64-bit
//! counter nonce hashed with it (as SSH's MACs take the sequence number),
//! the output truncated to a 128-bit tag.
//!
//! The nonce goes after the message, not before: a fixed-length suffix is
//! as unambiguous, and it keeps the message on BLAKE3's 1 KiB chunk
//! boundaries, so whole chunks are hashed in parallel SIMD lanes from the
//! first byte (an 8-byte prefix made 16 and 64 KiB messages about 1.5x
//! slower in this benchmark).

/// How the row is keyed per message (the report prints it).
pub const KEYING: &str = "one 256-bit key for every message (keyed_hash mode is a PRF, no per-message key); the 8-byte big-endian counter nonce is hashed after the message (keeping the message on BLAKE3's chunk boundaries); the tag is the first 128 bits of the output; single-threaded (no rayon feature)";

/// The version of the `blake3` crate this binary was built with, from
/// Cargo.lock (the build script reads it).
pub const VERSION: &str = env!("FASTMAC_BLAKE3_VERSION");

/// Keyed BLAKE3 with a 128-bit tag.
pub struct KeyedBlake3 {
    key: [u8; 32],
}

impl Drop for KeyedBlake3 {
    fn drop(&mut self) {
        zeroize::Zeroize::zeroize(&mut self.key);
    }
}

impl KeyedBlake3 {
    /// A MAC under `key`.
    pub fn new(key: &[u8; 32]) -> KeyedBlake3 {
        KeyedBlake3 { key: *key }
    }

    /// The tag of `msg` under `nonce`.
    pub fn mac(&self, nonce: u64, msg: &[u8]) -> [u8; 16] {
        let mut hasher = blake3::Hasher::new_keyed(&self.key);
        hasher.update(msg);
        hasher.update(&nonce.to_be_bytes());
        let mut tag = [0u8; 16];
        hasher.finalize_xof().fill(&mut tag);
        tag
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tag_is_the_keyed_hash_of_message_and_nonce_truncated() {
        let key: [u8; 32] = std::array::from_fn(|i| i as u8 * 7 + 1);
        let mac = KeyedBlake3::new(&key);
        // Lengths around BLAKE3's 64-byte block and 1 KiB chunk.
        for len in [0usize, 1, 55, 56, 64, 1015, 1016, 1024, 4096, 65_536] {
            let msg: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
            let nonce = 0x0102_0304_0506_0708u64 ^ len as u64;
            let mut input = msg.clone();
            input.extend_from_slice(&nonce.to_be_bytes());
            let expected = blake3::keyed_hash(&key, &input);
            assert_eq!(mac.mac(nonce, &msg), expected.as_bytes()[..16], "{len} bytes");
        }
    }

    #[test]
    fn the_version_is_a_release_number() {
        assert!(VERSION.starts_with("1.") && VERSION.split('.').count() == 3, "{VERSION}");
    }
}
