//! Badger's sizes: the key, the nonce, and how many trees and levels a key
//! can have.

/// Badger key length in bytes (a Rabbit key).
pub const KEY_LEN: usize = 16;
/// Nonce length in bytes (a Rabbit IV), in Rabbit's reference byte order.
pub const NONCE_LEN: usize = 8;
/// Most parallel trees (`u`): 5 trees, 160-bit tags.
pub const MAX_TREES: usize = 5;
/// Most tree levels (`v`), the default: covers messages up to 2^61 - 1 bytes.
pub const MAX_LEVELS: usize = 58;

/// `u` for a tag length; evaluating it rejects other lengths at compile time.
pub(super) const fn trees_for(tag_len: usize) -> usize {
    assert!(tag_len.is_multiple_of(4) && tag_len >= 4 && tag_len <= 4 * MAX_TREES);
    tag_len / 4
}
