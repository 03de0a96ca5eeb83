//! Differential: fastmac's UMAC against GNU Nettle's (libnettle) on
//! fuzzer-chosen keys, nonces (1 to 16 bytes), tag lengths and messages.
#![no_main]

#[path = "../../crates/fastmac/tests/common/nettle.rs"]
mod nettle;

use fastmac::umac::{Umac32, Umac64, Umac96, Umac128};
use libfuzzer_sys::fuzz_target;
use nettle::NettleUmac;

fuzz_target!(|data: &[u8]| {
    if data.len() < 18 {
        return;
    }
    let key: [u8; 16] = data[..16].try_into().unwrap();
    let tag_len = 4 * (1 + data[16] as usize % 4);
    let nonce_len = 1 + data[17] as usize % 16;
    let rest = &data[18..];
    if rest.len() < nonce_len {
        return;
    }
    let (nonce, msg) = rest.split_at(nonce_len);
    let ours = match tag_len {
        4 => Umac32::new(&key).mac(nonce, msg).unwrap().to_vec(),
        8 => Umac64::new(&key).mac(nonce, msg).unwrap().to_vec(),
        12 => Umac96::new(&key).mac(nonce, msg).unwrap().to_vec(),
        _ => Umac128::new(&key).mac(nonce, msg).unwrap().to_vec(),
    };
    assert_eq!(ours, NettleUmac::new(tag_len, &key).mac(nonce, msg), "differs from Nettle");
});
