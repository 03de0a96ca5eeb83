//! UMAC streamed at fuzzer-chosen split points equals one-shot, for every
//! tag length; verify accepts the tag and rejects it with one bit flipped.
#![no_main]

use fastmac::umac::{TagLen, Umac, Umac32, Umac64, Umac96, Umac128, UmacTagLen};
use libfuzzer_sys::fuzz_target;

/// Input: 16 key bytes, 1 byte tag-length selector, 1 byte nonce length,
/// 4 split-point bytes, then nonce and message.
fn run<const N: usize>(mut mac: Umac<N>, nonce: &[u8], msg: &[u8], splits: &[u8])
where
    TagLen<N>: UmacTagLen,
{
    let one_shot = mac.mac(nonce, msg).unwrap();
    let mut cuts: Vec<usize> = splits.iter().map(|&s| s as usize * msg.len() / 255).collect();
    cuts.sort_unstable();
    let mut start = 0;
    for cut in cuts.into_iter().chain([msg.len()]) {
        mac.update(&msg[start..cut]);
        start = cut;
    }
    assert_eq!(mac.finalize_reset(nonce).unwrap(), one_shot, "streamed != one-shot");
    mac.verify(nonce, msg, &one_shot).unwrap();
    let mut forged = one_shot;
    forged[msg.len() % N] ^= 1 << (msg.len() % 8);
    assert!(mac.verify(nonce, msg, &forged).is_err());
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 22 {
        return;
    }
    let key: [u8; 16] = data[..16].try_into().unwrap();
    let nonce_len = 1 + data[17] as usize % 16;
    let splits = &data[18..22];
    let rest = &data[22..];
    if rest.len() < nonce_len {
        return;
    }
    let (nonce, msg) = rest.split_at(nonce_len);
    match data[16] % 4 {
        0 => run(Umac32::new(&key), nonce, msg, splits),
        1 => run(Umac64::new(&key), nonce, msg, splits),
        2 => run(Umac96::new(&key), nonce, msg, splits),
        _ => run(Umac128::new(&key), nonce, msg, splits),
    }
});
