//! The gears and partial MACs (docs/gears.md section 6.2) as rows of the ACSA table and
//! points of the strength chart, like the slides' UMAC-MMX-xx and PMAC-xx
//! rows: the sender's one-pass field (every strength at once), and the
//! receiver's check at each level and each sample rate.

use std::hint::black_box;

use fastmac_gears::wire::{HEADER_LEN, group_nonce};
use fastmac_gears::{Check, EpochKeys, NonceMode, SampleRate, SessionSecret};
use fastmac::umac::NestedPads;

use crate::bench::Subject;

/// The sender's 16-byte field: every UMAC level in one pass.
pub const FIELD: &str = "gears-field";

/// Receiver levels, by row name.
const LEVELS: &[(&str, Check)] = &[
    ("gear-u32", Check::U32),
    ("gear-u64", Check::U64),
    ("gear-u96", Check::U96),
    ("gear-u128", Check::U128),
    ("gear-u128+h128", Check::U128H128),
];

/// Partial MACs S-L, by row name.
const SAMPLES: &[(&str, SampleRate)] =
    &[("gear-s-8", SampleRate::L8), ("gear-s-64", SampleRate::L64), ("gear-s-512", SampleRate::L512)];

/// Every row name, sender first.
pub fn names() -> Vec<String> {
    std::iter::once(FIELD).chain(LEVELS.iter().map(|l| l.0)).chain(SAMPLES.iter().map(|s| s.0)).map(str::to_owned).collect()
}

/// How a row is printed.
pub fn display(alg: &str) -> Option<String> {
    if alg == FIELD {
        return Some("gears field, all levels (sender)".to_owned());
    }
    let level = LEVELS.iter().find(|l| l.0 == alg).map(|l| l.1.name());
    let sample = SAMPLES.iter().find(|s| s.0 == alg).map(|s| format!("S-{}", s.1.words_per_region()));
    level.map(str::to_owned).or(sample).map(|name| format!("gear {name} (receiver check)"))
}

/// -log2 of the forgery bound: the level's; none for the sender's field
/// (its strength is the receiver's choice) nor for S-L, whose guarantee is
/// a detection rate, not a forgery bound (docs/gears.md section 2.3).
pub fn strength_bits(alg: &str) -> Option<f64> {
    LEVELS.iter().find(|l| l.0 == alg).map(|l| -f64::from(l.1.bound_log2()))
}

/// Why a gear has no strength figure.
pub fn no_strength(alg: &str) -> Option<&'static str> {
    if alg == FIELD {
        Some("receiver's choice")
    } else if SAMPLES.iter().any(|s| s.0 == alg) {
        Some("detection rate only")
    } else {
        None
    }
}

/// The subject timing `alg`, or why there is none.
pub fn subject(alg: &str) -> Result<Box<dyn Subject>, String> {
    let name = std::iter::once(FIELD)
        .chain(LEVELS.iter().map(|l| l.0))
        .chain(SAMPLES.iter().map(|s| s.0))
        .find(|n| *n == alg)
        .ok_or("not a gear of this build")?;
    let secret = SessionSecret::new(b"fastmac bench gears session key!").map_err(|e| e.to_string())?;
    let keys = EpochKeys::derive(&secret, 0);
    Ok(Box::new(Gear { name, pads: keys.pads(NonceMode::Group), keys, received: None }))
}

struct Gear {
    name: &'static str,
    keys: EpochKeys,
    /// The pad cache of the one sender whose packets are tagged or checked.
    pads: NestedPads,
    /// (message length, field, HMAC tag) of the packet being received.
    received: Option<(usize, [u8; 16], [u8; 16])>,
}

impl Subject for Gear {
    fn alg(&self) -> &'static str {
        self.name
    }
    fn implementation(&self) -> String {
        "fastmac".to_owned()
    }
    fn run(&mut self, first: u64, count: u64, msg: &[u8]) -> u8 {
        let (keys, pads) = (&self.keys, &mut self.pads);
        // Packets come in order, as from one sender. Received tags are
        // those of packet 0, computed once per message size; later packets
        // fail to verify after doing all the work, in constant time, so the
        // cost is that of an authentic packet.
        let (_, field, hmac) = *self
            .received
            .get_or_insert_with(|| (msg.len(), keys.field(pads, &group_nonce(0, 0), msg), keys.hmac_tag(msg)));
        if self.received.is_some_and(|r| r.0 != msg.len()) {
            self.received = None;
            return self.run(first, count, msg);
        }
        let (header, payload) = msg.split_at(HEADER_LEN.min(msg.len()));
        let mut sink = 0u8;
        for n in first..first + count {
            let nonce = group_nonce(n, 0);
            if self.name == FIELD {
                sink ^= keys.field(pads, &nonce, black_box(msg))[0];
            } else if let Some(&(_, level)) = LEVELS.iter().find(|l| l.0 == self.name) {
                let hmac = level.checks_hmac().then_some(&hmac[..]);
                sink ^= u8::from(keys.verify_umac(pads, level, &nonce, black_box(msg), &field, hmac).is_ok());
            } else if let Some(&(_, rate)) = SAMPLES.iter().find(|s| s.0 == self.name) {
                let tag = [0u8; 8];
                sink ^= u8::from(keys.verify_sample(rate, &nonce, header, black_box(payload), &tag).is_ok());
            }
        }
        sink
    }
}
