//! An independent UMAC written straight from the pseudo-code of RFC 4418,
//! for differential and property tests: byte strings as the RFC's strings,
//! `str2uint`/`uint2str` big-endian, ENDIAN-SWAP on each NH chunk, L2-HASH
//! building its whole input string, POLY with the marker branch, modular
//! arithmetic by `%` or by double-and-add. Slow and simple on purpose; it
//! shares no code with the library (only the `aes` crate as ENCIPHER).
#![allow(clippy::needless_range_loop)] // indexed like the RFC's loops

use aes::Aes128;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};

// --- Section 2.2: notation -------------------------------------------------

/// `uint2str(n, len)`: `n` as a `len`-byte big-endian string.
fn uint2str(n: u128, len: usize) -> Vec<u8> {
    n.to_be_bytes()[16 - len..].to_vec()
}

/// `str2uint(S)`: the big-endian number of a string of at most 16 bytes.
fn str2uint(s: &[u8]) -> u128 {
    s.iter().fold(0, |acc, &b| acc << 8 | u128::from(b))
}

/// `zeroes(n)`.
fn zeroes(n: usize) -> Vec<u8> {
    vec![0; n]
}

/// `zeropad(S, n)`: `S` padded with zero bytes to the nearest *positive*
/// multiple of `n` bytes (so the empty string becomes `n` zero bytes).
fn zeropad(s: &[u8], n: usize) -> Vec<u8> {
    let mut out = s.to_vec();
    out.resize(s.len().div_ceil(n).max(1) * n, 0);
    out
}

/// `ENDIAN-SWAP(S)`: every 4-byte word of `S` reversed.
fn endian_swap(s: &[u8]) -> Vec<u8> {
    s.chunks_exact(4).flat_map(|w| [w[3], w[2], w[1], w[0]]).collect()
}

fn xor(a: &[u8], b: &[u8]) -> Vec<u8> {
    assert_eq!(a.len(), b.len());
    a.iter().zip(b).map(|(x, y)| x ^ y).collect()
}

/// `ENCIPHER(K, T)`: AES-128 of one block.
fn encipher(key: &[u8], block: &[u8]) -> Vec<u8> {
    let cipher = Aes128::new(&Array::try_from(key).expect("16-byte key"));
    let mut b = Array::try_from(block).expect("16-byte block");
    cipher.encrypt_block(&mut b);
    b.to_vec()
}

/// `prime(36)`, `prime(64)`, `prime(128)`.
pub fn prime(bits: u32) -> u128 {
    match bits {
        36 => (1 << 36) - 5,
        64 => (1 << 64) - 59,
        128 => u128::MAX - 158, // 2^128 - 159
        _ => unreachable!("RFC 4418 names three primes"),
    }
}

/// `(a + b) mod p` for `a, b < p`, without overflow for p up to 2^128.
pub fn add_mod(a: u128, b: u128, p: u128) -> u128 {
    if a >= p - b { a - (p - b) } else { a + b }
}

/// `(a * b) mod p` by double-and-add: no 256-bit type needed.
pub fn mul_mod(a: u128, b: u128, p: u128) -> u128 {
    let (mut acc, mut base, mut k) = (0, b % p, a % p);
    while k > 0 {
        if k & 1 == 1 {
            acc = add_mod(acc, base, p);
        }
        base = add_mod(base, base, p);
        k >>= 1;
    }
    acc
}

// --- Section 3: key and pad derivation --------------------------------------

/// KDF(K, index, numbytes) (section 3.2).
pub fn kdf(k: &[u8; 16], index: u64, numbytes: usize) -> Vec<u8> {
    let n = numbytes.div_ceil(16);
    let mut y = Vec::new();
    for i in 1..=n {
        let mut t = uint2str(u128::from(index), 8);
        t.extend(uint2str(i as u128, 8));
        y.extend(encipher(k, &t));
    }
    y.truncate(numbytes);
    y
}

/// PDF(K, Nonce, taglen) (section 3.3).
pub fn pdf(k: &[u8; 16], nonce: &[u8], taglen: usize) -> Vec<u8> {
    assert!((1..=16).contains(&nonce.len()), "nonce of 1 to 16 bytes");
    let index = if taglen == 4 || taglen == 8 { str2uint(nonce) % (16 / taglen as u128) } else { 0 };
    let mut nonce = xor(nonce, &uint2str(index, nonce.len()));
    nonce.extend(zeroes(16 - nonce.len()));
    let k_prime = kdf(k, 0, 16);
    let t = encipher(&k_prime, &nonce);
    let index = index as usize;
    t[index * taglen..taglen + index * taglen].to_vec()
}

// --- Section 4: UMAC ---------------------------------------------------------

/// UMAC(K, M, Nonce, taglen) (section 4.3).
pub fn umac(k: &[u8; 16], m: &[u8], nonce: &[u8], taglen: usize) -> Vec<u8> {
    let hashed_message = uhash(k, m, taglen);
    let pad = pdf(k, nonce, taglen);
    xor(&pad, &hashed_message)
}

// --- Section 5: UHASH --------------------------------------------------------

/// UHASH(K, M, taglen) (section 5.1).
pub fn uhash(k: &[u8; 16], m: &[u8], taglen: usize) -> Vec<u8> {
    assert!([4, 8, 12, 16].contains(&taglen));
    let streams = taglen / 4;
    let l1_key = kdf(k, 1, 1024 + (streams - 1) * 16);
    let l2_key = kdf(k, 2, streams * 24);
    let l3_key1 = kdf(k, 3, streams * 64);
    let l3_key2 = kdf(k, 4, streams * 4);
    let mut y = Vec::new();
    for i in 1..=streams {
        let l1_key_i = &l1_key[(i - 1) * 16..(i - 1) * 16 + 1024];
        let l2_key_i = &l2_key[(i - 1) * 24..i * 24];
        let l3_key1_i = &l3_key1[(i - 1) * 64..i * 64];
        let l3_key2_i = &l3_key2[(i - 1) * 4..i * 4];
        let a = l1_hash(l1_key_i, m);
        let b = if 8 * m.len() <= 8 * l1_key_i.len() {
            let mut b = zeroes(8);
            b.extend(a);
            b
        } else {
            l2_hash(l2_key_i, &a)
        };
        y.extend(l3_hash(l3_key1_i, l3_key2_i, &b));
    }
    y
}

/// L1-HASH(K, M) (section 5.2.1).
pub fn l1_hash(k: &[u8], m: &[u8]) -> Vec<u8> {
    let t = m.len().div_ceil(1024).max(1);
    let chunks: Vec<&[u8]> = (0..t).map(|i| &m[i * 1024..((i + 1) * 1024).min(m.len())]).collect();
    let mut y = Vec::new();
    // Every chunk but the last: endian-adjust, NH, add the bit length.
    let len = uint2str(1024 * 8, 8);
    for m_i in &chunks[..t - 1] {
        y.extend(add64(&nh(k, &endian_swap(m_i)), &len));
    }
    // The last chunk: pad to 32 bytes first.
    let m_t = chunks[t - 1];
    let len = uint2str(8 * m_t.len() as u128, 8);
    let m_t = zeropad(m_t, 32);
    y.extend(add64(&nh(k, &endian_swap(&m_t)), &len));
    y
}

/// `S +_64 T` on 8-byte strings.
fn add64(s: &[u8], t: &[u8]) -> Vec<u8> {
    uint2str(u128::from((str2uint(s) as u64).wrapping_add(str2uint(t) as u64)), 8)
}

/// NH(K, M) (section 5.2.2), for M a multiple of 32 bytes.
pub fn nh(k: &[u8], m: &[u8]) -> Vec<u8> {
    assert_eq!(m.len() % 32, 0);
    let t = m.len() / 4;
    let word = |s: &[u8], i: usize| str2uint(&s[4 * (i - 1)..4 * i]) as u32; // 1-based, as the RFC
    let mut y = 0u64;
    for i in 1..=t / 8 {
        for j in 0..4 {
            let a = word(m, 8 * i - 7 + j).wrapping_add(word(k, 8 * i - 7 + j));
            let b = word(m, 8 * i - 3 + j).wrapping_add(word(k, 8 * i - 3 + j));
            y = y.wrapping_add(u64::from(a) * u64::from(b));
        }
    }
    uint2str(u128::from(y), 8)
}

/// L2-HASH(K, M) (section 5.3.1).
pub fn l2_hash(k: &[u8], m: &[u8]) -> Vec<u8> {
    let mask64 = uint2str(0x01ff_ffff_01ff_ffff, 8);
    let mask128 = uint2str(0x01ff_ffff_01ff_ffff_01ff_ffff_01ff_ffff, 16);
    let k64 = str2uint(&and(&k[0..8], &mask64));
    let k128 = str2uint(&and(&k[8..24], &mask128));
    let y = if m.len() <= 1 << 17 {
        poly(64, (1 << 64) - (1 << 32), k64, m)
    } else {
        let m_1 = &m[..1 << 17];
        let mut m_2 = m[1 << 17..].to_vec();
        m_2.push(0x80);
        let m_2 = zeropad(&m_2, 16);
        let y = poly(64, (1 << 64) - (1 << 32), k64, m_1);
        let mut input = uint2str(y, 16);
        input.extend(m_2);
        poly(128, u128::MAX - ((1 << 96) - 1), k128, &input) // 2^128 - 2^96
    };
    uint2str(y, 16)
}

fn and(a: &[u8], b: &[u8]) -> Vec<u8> {
    a.iter().zip(b).map(|(x, y)| x & y).collect()
}

/// POLY(wordbits, maxwordrange, k, M) (section 5.3.2).
pub fn poly(wordbits: u32, maxwordrange: u128, k: u128, m: &[u8]) -> u128 {
    let wordbytes = wordbits as usize / 8;
    let p = prime(wordbits);
    // offset = 2^wordbits - p (2^128 - p is p's wrapping negation).
    let offset = if wordbits == 128 { p.wrapping_neg() } else { (1 << wordbits) - p };
    let marker = p - 1;
    let n = m.len() / wordbytes;
    let mut y = 1u128;
    for i in 0..n {
        let m_i = str2uint(&m[i * wordbytes..(i + 1) * wordbytes]);
        if m_i >= maxwordrange {
            y = add_mod(mul_mod(k, y, p), marker, p);
            y = add_mod(mul_mod(k, y, p), m_i - offset, p);
        } else {
            y = add_mod(mul_mod(k, y, p), m_i, p);
        }
    }
    y
}

/// L3-HASH(K1, K2, M) (section 5.4).
pub fn l3_hash(k1: &[u8], k2: &[u8], m: &[u8]) -> Vec<u8> {
    assert_eq!((k1.len(), k2.len(), m.len()), (64, 4, 16));
    let mut y = 0u128;
    for i in 0..8 {
        y += str2uint(&m[2 * i..2 * i + 2]) * (str2uint(&k1[8 * i..8 * i + 8]) % prime(36));
    }
    let y = y % prime(36);
    let y = y % (1 << 32);
    xor(&uint2str(y, 4), k2)
}
