//! The gears and partial MACs as subjects, like the ACSA slides'
//! UMAC-MMX-xx and PMAC-xx rows: the sender's one-pass field (every
//! strength at once), and the receiver's check at each level and each
//! sample rate.

use fastmac_gears::wire::{HEADER_LEN, group_nonce};
use fastmac_gears::{Check, EpochKeys, NonceMode, SampleRate, SessionSecret};

use super::{Imp, Subject};

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

/// Every gear subject's name, sender first.
pub const GEAR_NAMES: &[&str] = &[
    FIELD,
    "gear-u32",
    "gear-u64",
    "gear-u96",
    "gear-u128",
    "gear-u128+h128",
    "gear-s-8",
    "gear-s-64",
    "gear-s-512",
];

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

/// The subject timing `name`, or why there is none.
pub fn subject(name: &'static str) -> Result<Subject, String> {
    let secret = SessionSecret::new(b"fastmac bench gears session key!").map_err(|e| e.to_string())?;
    let keys = EpochKeys::derive(&secret, 0);
    let mut pads = keys.pads(NonceMode::Group);
    // Received tags: those of packet 0, computed once per message size.
    // Later packets fail to verify after doing all the work, in constant
    // time, so the cost is that of an authentic packet.
    let mut received: Option<(usize, [u8; 16], [u8; 16])> = None;
    let mut n = 0u64;
    let level = LEVELS.iter().find(|l| l.0 == name).map(|l| l.1);
    let rate = SAMPLES.iter().find(|s| s.0 == name).map(|s| s.1);
    if name != FIELD && level.is_none() && rate.is_none() {
        return Err("not a gear of this build".to_owned());
    }
    Ok(Subject::per_message(name, Imp::Fastmac, move |msg| {
        if received.is_none_or(|r| r.0 != msg.len()) {
            received = Some((msg.len(), keys.field(&mut pads, &group_nonce(0, 0), msg), keys.hmac_tag(msg)));
        }
        let Some((_, field, hmac)) = received else { return 0 };
        // Packets come in order, as from one sender.
        n += 1;
        let nonce = group_nonce(n, 0);
        if let Some(level) = level {
            let hmac = level.checks_hmac().then_some(&hmac[..]);
            u8::from(keys.verify_umac(&mut pads, level, &nonce, msg, &field, hmac).is_ok())
        } else if let Some(rate) = rate {
            // The header is always covered by S-L tags.
            let (header, payload) = msg.split_at(HEADER_LEN.min(msg.len()));
            u8::from(keys.verify_sample(rate, &nonce, header, payload, &[0u8; 8]).is_ok())
        } else {
            keys.field(&mut pads, &nonce, msg)[0]
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_name_list_is_the_field_then_the_levels_then_the_samples() {
        let expected: Vec<&str> =
            std::iter::once(FIELD).chain(LEVELS.iter().map(|l| l.0)).chain(SAMPLES.iter().map(|s| s.0)).collect();
        assert_eq!(GEAR_NAMES, expected);
    }
}
