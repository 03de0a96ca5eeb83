//! AEGIS used as a MAC (AEGISMAC, section 8 of the AEGIS specification,
//! draft-irtf-cfrg-aegis-aead, published as RFC 10032) through the `aegis`
//! crate, whose C backend (libaegis) picks AES-NI or VAES at run time: the
//! MAC a protocol designer would weigh against UMAC today.
//!
//! Each variant is measured keyed two ways, both with 128-bit tags:
//! * keyed: one state initialized from the key (and the all-zero nonce)
//!   once, cloned per message. Section 8 makes the MAC the one AEGIS
//!   function that may reuse a (key, nonce) pair, so this is the cheapest
//!   correct use.
//! * nonce: a fresh state per message from the key and the message
//!   counter as the nonce, which pays the 10 (AEGIS-128L, -128X) or 16
//!   (AEGIS-256) initialization rounds every time.

use ::aegis::aegis128l::Aegis128LMac;
use ::aegis::aegis128x2::Aegis128X2Mac;
use ::aegis::aegis128x4::Aegis128X4Mac;
use ::aegis::aegis256::Aegis256Mac;

use super::Imp;
use super::subjects::{Subject, first_byte_of};

/// The `aegis` crate's version (Cargo.lock's, recorded by build.rs).
pub const VERSION: &str = env!("FASTMAC_AEGIS_VERSION");

/// A 128-bit tag, the length every AEGIS row uses.
const TAG_BYTES: usize = 16;

/// AEGIS-128L as a MAC (AEGISMAC-128L).
pub const AEGIS_128L: &str = "aegismac-128l";
/// AEGIS-128X2 as a MAC: two AEGIS-128L states in 256-bit registers.
pub const AEGIS_128X2: &str = "aegismac-128x2";
/// AEGIS-128X4 as a MAC: four states in 512-bit registers (or two pairs
/// of 256-bit ones where AVX-512 is absent).
pub const AEGIS_128X4: &str = "aegismac-128x4";
/// AEGIS-256 as a MAC, with a 256-bit key.
pub const AEGIS_256: &str = "aegismac-256";
/// The suffix of the rows that start from the key and a fresh nonce per
/// message.
pub const NONCE_SUFFIX: &str = "/nonce";
/// AEGISMAC-128L with a nonce per message.
pub const AEGIS_128L_NONCE: &str = "aegismac-128l/nonce";
/// AEGISMAC-128X2 with a nonce per message.
pub const AEGIS_128X2_NONCE: &str = "aegismac-128x2/nonce";
/// AEGISMAC-128X4 with a nonce per message.
pub const AEGIS_128X4_NONCE: &str = "aegismac-128x4/nonce";
/// AEGISMAC-256 with a nonce per message.
pub const AEGIS_256_NONCE: &str = "aegismac-256/nonce";
/// Builds a row's subject: its name, whether it takes a nonce per
/// message, and the key (its first 16 or 32 bytes are used).
type MakeSubject = fn(&'static str, bool, &[u8; 32]) -> Subject;

/// The rows: each variant's keyed name, nonce name and subject.
pub const ROWS: &[(&str, &str, MakeSubject)] = &[
    (AEGIS_128L, AEGIS_128L_NONCE, subject::<Aegis128LMac<TAG_BYTES>>),
    (AEGIS_128X2, AEGIS_128X2_NONCE, subject::<Aegis128X2Mac<TAG_BYTES>>),
    (AEGIS_128X4, AEGIS_128X4_NONCE, subject::<Aegis128X4Mac<TAG_BYTES>>),
    (AEGIS_256, AEGIS_256_NONCE, subject::<Aegis256Mac<TAG_BYTES>>),
];

/// The subject `alg` of variant `V` under `key`: a keyed state cloned per
/// message, or (`per_nonce`) a state from the key and the counter nonce per
/// message; it records the size of `V`'s state.
fn subject<V: Variant>(alg: &'static str, per_nonce: bool, key: &[u8; 32]) -> Subject {
    let subject = if per_nonce {
        let mut mac = with_nonce::<V>(key);
        Subject::per_message(alg, Imp::Aegis, move |msg| first_byte_of(&mac(msg)))
    } else {
        let mut mac = keyed::<V>(key);
        Subject::per_message(alg, Imp::Aegis, move |msg| first_byte_of(&mac(msg)))
    };
    subject.keeps::<V>()
}

/// How the keyed rows are keyed, printed beside them.
pub const KEYED: &str = "one key; a state initialized once from the key and the all-zero nonce, cloned per message (the MAC is the one AEGIS function that may reuse a key and nonce, section 8 of the AEGIS specification); 128-bit tag";
/// How the nonce rows are keyed, printed beside them.
pub const NONCE: &str = "one key; a fresh state per message from the key and the message counter as the nonce, so every message pays AEGIS's initialization; 128-bit tag";

/// An AEGISMAC variant of the `aegis` crate with 128-bit tags.
trait Variant: Clone + Send + 'static {
    /// Key and nonce length in bytes (16, or 32 for AEGIS-256).
    const KEY_LEN: usize;
    /// A state initialized from `key` and `nonce`, their first
    /// [`Self::KEY_LEN`] bytes.
    fn init(key: &[u8; 32], nonce: &[u8; 32]) -> Self;
    /// Absorbs `msg` and returns the 128-bit tag.
    fn tag(self, msg: &[u8]) -> [u8; TAG_BYTES];
}

/// The first `N` bytes of `bytes`.
fn first<const N: usize>(bytes: &[u8; 32]) -> [u8; N] {
    std::array::from_fn(|i| bytes[i])
}

macro_rules! variant {
    ($mac:ident, $key_len:expr) => {
        impl Variant for $mac<TAG_BYTES> {
            const KEY_LEN: usize = $key_len;
            fn init(key: &[u8; 32], nonce: &[u8; 32]) -> Self {
                $mac::new_with_nonce(&first::<$key_len>(key), &first::<$key_len>(nonce))
            }
            fn tag(mut self, msg: &[u8]) -> [u8; TAG_BYTES] {
                self.update(msg);
                self.finalize()
            }
        }
    };
}

variant!(Aegis128LMac, 16);
variant!(Aegis128X2Mac, 16);
variant!(Aegis128X4Mac, 16);
variant!(Aegis256Mac, 32);

/// The nonce of message `n`: `n` big-endian in the last 8 of the
/// variant's nonce bytes, zeros before.
fn nonce<V: Variant>(n: u64) -> [u8; 32] {
    let mut nonce = [0u8; 32];
    nonce[V::KEY_LEN - 8..V::KEY_LEN].copy_from_slice(&n.to_be_bytes());
    nonce
}

/// A MAC of message `msg` from a state cloned from `keyed`.
fn keyed<V: Variant>(key: &[u8; 32]) -> impl FnMut(&[u8]) -> [u8; TAG_BYTES] + Send + 'static {
    let keyed = V::init(key, &[0u8; 32]);
    move |msg| keyed.clone().tag(msg)
}

/// A MAC of each message from a fresh state under the next counter nonce.
fn with_nonce<V: Variant>(key: &[u8; 32]) -> impl FnMut(&[u8]) -> [u8; TAG_BYTES] + Send + 'static {
    let key = *key;
    let mut n = 0u64;
    move |msg| {
        n += 1;
        V::init(&key, &nonce::<V>(n)).tag(msg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keyed_rows_equal_a_fresh_state_under_the_zero_nonce() {
        let key: [u8; 32] = std::array::from_fn(|i| i as u8 * 7);
        let mut mac = keyed::<Aegis128X4Mac<TAG_BYTES>>(&key);
        for len in [0usize, 1, 31, 32, 33, 127, 128, 129, 1500] {
            let msg: Vec<u8> = (0..len).map(|i| i as u8).collect();
            let fresh = Aegis128X4Mac::<TAG_BYTES>::init(&key, &[0; 32]).tag(&msg);
            assert_eq!(mac(&msg), fresh, "{len} bytes");
            // A cloned state is not changed by the message it tagged.
            assert_eq!(mac(&msg), fresh, "{len} bytes, again");
        }
    }

    #[test]
    fn the_nonce_rows_take_a_new_nonce_per_message() {
        let key = [9u8; 32];
        let mut mac = with_nonce::<Aegis256Mac<TAG_BYTES>>(&key);
        let (first, second) = (mac(b"same message"), mac(b"same message"));
        assert_ne!(first, second);
        assert_eq!(
            first,
            Aegis256Mac::<TAG_BYTES>::init(&key, &nonce::<Aegis256Mac<TAG_BYTES>>(1)).tag(b"same message")
        );
        assert_eq!(nonce::<Aegis128LMac<TAG_BYTES>>(0x0102)[14..16], [1, 2]);
        assert_eq!(nonce::<Aegis128LMac<TAG_BYTES>>(1)[16..], [0; 16]);
    }

    #[test]
    fn every_nonce_row_is_its_keyed_row_with_the_suffix() {
        for &(keyed, nonce, _) in ROWS {
            assert_eq!(nonce, format!("{keyed}{NONCE_SUFFIX}"));
        }
    }

    /// The tag of `V` for one vector line's key, nonce and data.
    fn tag_of<V: Variant>(key: &[u8], nonce: &[u8], data: &[u8]) -> [u8; TAG_BYTES] {
        assert_eq!((key.len(), nonce.len()), (V::KEY_LEN, V::KEY_LEN));
        let pad = |bytes: &[u8]| -> [u8; 32] { std::array::from_fn(|i| bytes.get(i).copied().unwrap_or(0)) };
        V::init(&pad(key), &pad(nonce)).tag(data)
    }

    /// The known answers of tests/vectors/aegismac.txt (the AEGIS
    /// specification's appendix A.8), through the code the rows time.
    #[test]
    fn the_variants_match_the_aegismac_vectors() {
        let text = include_str!("../../tests/vectors/aegismac.txt");
        let mut seen = Vec::new();
        for line in text.lines().filter(|l| !l.starts_with('#') && !l.trim().is_empty()) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [name, key, nonce, data, tag] = fields[..] else { panic!("5 fields: {line}") };
            let [key, nonce, data, tag] = [key, nonce, data, tag].map(|h| hex::decode(h).expect("hex"));
            let ours = match name {
                AEGIS_128L => tag_of::<Aegis128LMac<TAG_BYTES>>(&key, &nonce, &data),
                AEGIS_128X2 => tag_of::<Aegis128X2Mac<TAG_BYTES>>(&key, &nonce, &data),
                AEGIS_128X4 => tag_of::<Aegis128X4Mac<TAG_BYTES>>(&key, &nonce, &data),
                AEGIS_256 => tag_of::<Aegis256Mac<TAG_BYTES>>(&key, &nonce, &data),
                other => panic!("unknown variant {other}"),
            };
            assert_eq!(hex::encode(ours), hex::encode(tag), "{name}");
            seen.push(name);
        }
        let rows: Vec<&str> = ROWS.iter().map(|r| r.0).collect();
        assert_eq!(seen, rows, "one vector per variant");
    }
}
