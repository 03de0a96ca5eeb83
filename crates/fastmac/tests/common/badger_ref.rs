//! An independent Badger written literally from the paper's figures 2-4 and
//! docs/badger.md section 3, for differential tests: keys indexed straight from
//! the key-only keystream, the tree hashed level by level (figure 3, whole
//! levels in vectors), F over a 128-bit Q with `%`. Slow and simple on
//! purpose; it shares no code with the library.
#![allow(clippy::needless_range_loop)] // indexed like the paper's figures

use rabbit::cipher::{KeyInit, KeyIvInit, StreamCipher};
use rabbit::{Rabbit, RabbitKeyOnly};

pub const P: u64 = 0xFFFF_FFFB;

/// The first `len` bytes of the key-only Rabbit stream `KS`.
pub fn key_only_stream(key: &[u8; 16], len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    RabbitKeyOnly::new(&(*key).into()).write_keystream(&mut out);
    out
}

/// The first `len` bytes of the IV stream `IS(N)`.
pub fn iv_stream(key: &[u8; 16], nonce: &[u8; 8], len: usize) -> Vec<u8> {
    let mut out = vec![0u8; len];
    Rabbit::new(&(*key).into(), &(*nonce).into()).write_keystream(&mut out);
    out
}

/// Figure 2's output: `fk[j][i]` (j = 0..6), `lk[j][i]` (j = 0..v), and
/// `p0`, the keystream bytes consumed.
pub struct RefKeys {
    pub u: usize,
    pub fk: Vec<Vec<u64>>,
    pub lk: Vec<Vec<u64>>,
    pub p0: usize,
}

pub fn key_setup(key: &[u8; 16], u: usize, v: usize) -> RefKeys {
    let ks = key_only_stream(key, 4096);
    let word = |n: usize| u64::from(u32::from_le_bytes(ks[4 * n..4 * n + 4].try_into().unwrap()));
    let mut c = 0;
    let mut fk = vec![vec![0u64; u]; 6];
    for row in fk.iter_mut() {
        for k in row.iter_mut() {
            *k = word(c);
            c += 1;
        }
    }
    for j in 0..6 {
        for i in 0..u {
            while fk[j][i] >= P {
                fk[j][i] = word(c);
                c += 1;
            }
        }
    }
    let c = 4 * c.div_ceil(4);
    let lk = (0..v)
        .map(|j| {
            (0..u)
                .map(|i| {
                    let at = 4 * c + 8 * (j * u + i);
                    u64::from_le_bytes(ks[at..at + 8].try_into().unwrap())
                })
                .collect()
        })
        .collect();
    RefKeys { u, fk, lk, p0: 4 * c + 8 * u * v }
}

fn enh(k: u64, m2: u64, m1: u64) -> u64 {
    let l = (m1 as u32).wrapping_add(k as u32) as u64;
    let h = ((m1 >> 32) as u32).wrapping_add((k >> 32) as u32) as u64;
    l.wrapping_mul(h).wrapping_add(m2)
}

/// Figure 3 for tree `i`: `M^i`.
pub fn tree_hash(keys: &RefKeys, i: usize, msg: &[u8]) -> u64 {
    if msg.is_empty() {
        return 0;
    }
    let mut padded = msg.to_vec();
    padded.resize(msg.len().div_ceil(8) * 8, 0);
    let mut m: Vec<u64> = padded.chunks(8).map(|b| u64::from_le_bytes(b.try_into().unwrap())).collect();
    let bits = 8 * msg.len() as u64;
    // v' = max(1, ceil(log2 L) - 6)
    let ceil_log2 = 64 - (bits - 1).leading_zeros() as usize;
    let levels = ceil_log2.saturating_sub(6).max(1);
    assert!(levels <= keys.lk.len(), "message needs {levels} levels");
    for j in 0..levels {
        let mut next: Vec<u64> = m.chunks_exact(2).map(|pair| enh(keys.lk[j][i], pair[1], pair[0])).collect();
        if m.len() % 2 == 1 {
            next.push(*m.last().unwrap());
        }
        m = next;
    }
    assert_eq!(m.len(), 1);
    m[0]
}

/// Figure 4's `S^i` from `M^i`.
pub fn f(keys: &RefKeys, i: usize, bits: u64, hash: u64) -> u64 {
    let q = (bits as u128) << 64 | hash as u128;
    let mut sum: u128 = keys.fk[5][i] as u128;
    for r in 0..5 {
        sum += (q >> (27 * r) & ((1 << 27) - 1)) * keys.fk[r][i] as u128;
    }
    (sum % P as u128) as u64
}

/// `LE32(S^1) || ... || LE32(S^u)` before the pad.
pub fn hash(keys: &RefKeys, msg: &[u8]) -> Vec<u8> {
    (0..keys.u).flat_map(|i| (f(keys, i, 8 * msg.len() as u64, tree_hash(keys, i, msg)) as u32).to_le_bytes()).collect()
}

fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

/// Nonce-mode tag.
pub fn tag_nonce(key: &[u8; 16], u: usize, nonce: &[u8; 8], msg: &[u8]) -> Vec<u8> {
    let keys = key_setup(key, u, 58);
    xor(&hash(&keys, msg), &iv_stream(key, nonce, 4 * u))
}

/// Sequential-mode tags of `msgs`, in order, with `v` levels.
pub fn tags_sequential(key: &[u8; 16], u: usize, v: usize, msgs: &[&[u8]]) -> Vec<Vec<u8>> {
    let keys = key_setup(key, u, v);
    let ks = key_only_stream(key, keys.p0 + 4 * u * msgs.len());
    msgs.iter().enumerate().map(|(s, msg)| xor(&hash(&keys, msg), &ks[keys.p0 + 4 * u * s..])).collect()
}
