//! The gears wire-format parser on arbitrary datagrams (never panics; a
//! parsed packet re-encodes to the same header), and the replay window
//! against a model (a set of accepted sequence numbers).
#![no_main]

use fastmac_gears::wire;
use fastmac_gears::{ReplayError, ReplayWindow};
use libfuzzer_sys::fuzz_target;
use std::collections::BTreeSet;

fuzz_target!(|data: &[u8]| {
    if let Ok(packet) = wire::parse(data) {
        assert_eq!(&packet.header.encode()[..], &data[..wire::HEADER_LEN]);
    }

    // Replay window: first byte the size, then 3-byte sequence deltas.
    let Some((&size, ops)) = data.split_first() else { return };
    let mut window = ReplayWindow::new(u64::from(size) * 8);
    let mut accepted = BTreeSet::new();
    let mut last = 0u64;
    let mut seq = 0u64;
    for op in ops.chunks_exact(3) {
        let delta = u64::from(u16::from_le_bytes([op[1], op[2]]));
        seq = if op[0] & 1 == 0 { seq.saturating_add(delta) } else { seq.saturating_sub(delta) };
        let expected = if seq > last {
            Ok(())
        } else if last - seq >= window.size() {
            Err(ReplayError::TooOld)
        } else if accepted.contains(&seq) {
            Err(ReplayError::Duplicate)
        } else {
            Ok(())
        };
        assert_eq!(window.check(seq), expected, "check({seq}) last {last}");
        assert_eq!(window.accept(seq), expected, "accept({seq})");
        if expected.is_ok() {
            accepted.insert(seq);
            last = last.max(seq);
        }
        assert_eq!(window.right_edge(), last);
    }
});
