//! The gears and partial MACs as subjects, like the ACSA slides'
//! UMAC-MMX-xx and PMAC-xx rows: the sender's one-pass field (every
//! strength at once), and the receiver's check at each level and each
//! sample rate.

use fastmac_gears::table::Gear;
use fastmac_gears::wire::{HEADER_LEN, group_nonce};
use fastmac_gears::{Check, EpochKeys, NonceMode, Profile, SampleRate, SessionSecret};

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
pub const GEAR_NAMES: &[&str] =
    &[FIELD, "gear-u32", "gear-u64", "gear-u96", "gear-u128", "gear-u128+h128", "gear-s-8", "gear-s-64", "gear-s-512"];

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

/// What a gear subject times: the sender's field, or a receiver's check of
/// one gear of the table (`fastmac_gears::table::gears`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Work {
    /// The sender's 16-byte field: every UMAC level in one pass.
    Field,
    /// The check of a UMAC-prefix profile (with the HMAC for U128+H128).
    Umac(Check),
    /// H128 alone: HMAC-SHA-256-128 under its own key.
    Hmac,
    /// The check of a Badger-160 tag with `check.badger_trees()` trees.
    Badger(Check),
    /// The partial MAC S-L.
    Sample(SampleRate),
}

impl Work {
    /// The receiver's work for one gear of the table.
    pub fn of(gear: &Gear) -> Work {
        match (gear.profile, gear.check) {
            (_, None) => Work::Hmac,
            (Profile::Badger160, Some(check)) => Work::Badger(check),
            (Profile::Sample(rate), Some(_)) => Work::Sample(rate),
            (_, Some(check)) => Work::Umac(check),
        }
    }

    /// The work of a report row, by its name ([`GEAR_NAMES`]).
    fn by_name(name: &str) -> Option<Work> {
        if name == FIELD {
            return Some(Work::Field);
        }
        let level = LEVELS.iter().find(|l| l.0 == name).map(|l| Work::Umac(l.1));
        level.or_else(|| SAMPLES.iter().find(|s| s.0 == name).map(|s| Work::Sample(s.1)))
    }
}

/// The subject timing the report row `name`, or why there is none.
pub fn subject(name: &'static str) -> Result<Subject, String> {
    let work = Work::by_name(name).ok_or_else(|| "not a gear of this build".to_owned())?;
    work_subject(name, work)
}

/// `value` for messages of `msg`'s length: made once per length, so the
/// timed work is the receiver's alone.
fn per_length<T: Copy>(cache: &mut Option<(usize, T)>, msg: &[u8], make: impl FnOnce() -> T) -> T {
    match *cache {
        Some((len, value)) if len == msg.len() => value,
        _ => {
            let value = make();
            *cache = Some((msg.len(), value));
            value
        }
    }
}

/// The subject `alg` timing `work` on datagrams of the message's length
/// (header included), as one receiver sees them: in order, from one sender.
/// The received tags are those of packet 0, so later packets fail to verify
/// after doing all the work, in constant time: the cost of an authentic
/// packet.
pub fn work_subject(alg: &str, work: Work) -> Result<Subject, String> {
    let secret = SessionSecret::new(b"fastmac bench gears session key!").map_err(|e| e.to_string())?;
    let keys = EpochKeys::derive(&secret, 0);
    let mut pads = keys.pads(NonceMode::Group);
    let mut n = 0u64;
    Ok(match work {
        Work::Field => Subject::per_message(alg, Imp::Fastmac, move |msg| {
            n += 1;
            keys.field(&mut pads, &group_nonce(n, 0), msg)[0]
        }),
        Work::Umac(check) => {
            let mut received = None;
            Subject::per_message(alg, Imp::Fastmac, move |msg| {
                let (field, hmac) = per_length(&mut received, msg, || {
                    (keys.field(&mut pads, &group_nonce(0, 0), msg), keys.hmac_tag(msg))
                });
                n += 1;
                let hmac = check.checks_hmac().then_some(&hmac[..]);
                u8::from(keys.verify_umac(&mut pads, check, &group_nonce(n, 0), msg, &field, hmac).is_ok())
            })
        }
        Work::Hmac => Subject::per_message(alg, Imp::Fastmac, move |msg| keys.hmac_tag(msg)[0]),
        Work::Badger(check) => {
            // Badger's nonce must not be zero; one fixed nonce, as the
            // cost does not depend on it.
            let nonce = 1u64.to_be_bytes();
            let mut received = None;
            Subject::per_message(alg, Imp::Fastmac, move |msg| {
                let tag = per_length(&mut received, msg, || keys.badger_tag(&nonce, msg).unwrap_or([0; 20]));
                u8::from(keys.verify_badger(check.badger_trees(), &nonce, msg, &tag).is_ok())
            })
        }
        Work::Sample(rate) => Subject::per_message(alg, Imp::Fastmac, move |msg| {
            n += 1;
            // The header is always covered by S-L tags.
            let (header, payload) = msg.split_at(HEADER_LEN.min(msg.len()));
            u8::from(keys.verify_sample(rate, &group_nonce(n, 0), header, payload, &[0u8; 8]).is_ok())
        }),
    })
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

    #[test]
    fn every_row_name_has_its_work_and_every_table_gear_its_own() {
        assert!(GEAR_NAMES.iter().all(|name| Work::by_name(name).is_some()));
        assert_eq!(Work::by_name("gear-u64"), Some(Work::Umac(Check::U64)));
        assert_eq!(Work::by_name("gear-s-64"), Some(Work::Sample(SampleRate::L64)));
        assert!(subject("gear-nope").is_err());
        let works: Vec<Work> = fastmac_gears::table::gears().iter().map(Work::of).collect();
        assert!(works.contains(&Work::Hmac) && works.contains(&Work::Umac(Check::U32)));
        assert!(works.contains(&Work::Badger(Check::U128H128)) && works.contains(&Work::Sample(SampleRate::L512)));
        for (i, work) in works.iter().enumerate() {
            assert!(!works[i + 1..].contains(work), "{work:?} twice");
        }
    }

    #[test]
    fn per_length_makes_once_per_length() {
        let (mut cache, mut made) = (None, 0);
        for msg in [&[0u8; 3][..], &[1u8; 3], &[0u8; 5]] {
            per_length(&mut cache, msg, || {
                made += 1;
                msg.len()
            });
        }
        assert_eq!((made, cache), (2, Some((5, 5))));
    }
}
