//! Badger streamed at fuzzer-chosen split points equals the one-shot tree
//! hash, for every tag length; verify and prefix verify accept it.
#![no_main]

use fastmac::badger::{Badger, Badger32, Badger64, Badger96, Badger128, Badger160};
use libfuzzer_sys::fuzz_target;

fn run<const N: usize>(mut mac: Badger<N>, nonce: &[u8; 8], msg: &[u8], splits: &[u8]) {
    let one_shot = match mac.mac(nonce, msg) {
        Ok(tag) => tag,
        Err(fastmac::Error::ZeroNonce) => return assert_eq!(nonce, &[0; 8]),
        Err(e) => panic!("unexpected {e}"),
    };
    let mut cuts: Vec<usize> = splits.iter().map(|&s| s as usize * msg.len() / 255).collect();
    cuts.sort_unstable();
    let mut start = 0;
    for cut in cuts.into_iter().chain([msg.len()]) {
        mac.update(&msg[start..cut]);
        start = cut;
    }
    assert_eq!(mac.finalize_reset(nonce).unwrap(), one_shot, "streamed != one-shot");
    mac.verify(nonce, msg, &one_shot).unwrap();
    mac.verify_prefix(nonce, msg, &one_shot[..4], 1).unwrap();
    let mut forged = one_shot;
    forged[N - 1] ^= 0x80;
    assert!(mac.verify(nonce, msg, &forged).is_err());
}

fuzz_target!(|data: &[u8]| {
    if data.len() < 29 {
        return;
    }
    let key: [u8; 16] = data[..16].try_into().unwrap();
    let nonce: [u8; 8] = data[17..25].try_into().unwrap();
    let (splits, msg) = data[25..].split_at(4);
    match data[16] % 5 {
        0 => run(Badger32::new(&key), &nonce, msg, splits),
        1 => run(Badger64::new(&key), &nonce, msg, splits),
        2 => run(Badger96::new(&key), &nonce, msg, splits),
        3 => run(Badger128::new(&key), &nonce, msg, splits),
        _ => run(Badger160::new(&key), &nonce, msg, splits),
    }
});
