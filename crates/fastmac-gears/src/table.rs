//! The gear table (docs/gears.md section 6.2): every gear with its tag
//! length, its strength and where it is used. A gear is plain data: the
//! profile a sender puts on the wire and the receiver's check of it. Its
//! costs are measured by the application (`fastmac gears table`), never by
//! this library.

use fastmac::badger::forgery_bound_log2;

use crate::wire::{HEADER_LEN, MAX_PAYLOAD};
use crate::{Check, Profile, SampleRate};

/// How strong a gear is.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Strength {
    /// log2 of the forgery probability per attempt (for Badger, at the
    /// longest datagram).
    Forgery(f64),
    /// A detection probability, not a forgery bound: a change confined to
    /// `w` regions of `L` words escapes with probability `(1 - 1/L)^w`.
    Detection {
        /// Region size `L` in 64-bit words.
        region_words: usize,
    },
}

impl Strength {
    /// The table's wording.
    pub fn describe(&self) -> String {
        match self {
            Strength::Forgery(log2) if log2.fract() == 0.0 => format!("2^{log2} per forgery"),
            Strength::Forgery(log2) => format!("2^{log2:.1} per forgery (64 KiB datagram)"),
            Strength::Detection { region_words } => {
                format!("detect 1/{region_words} per changed word (not a forgery bound)")
            }
        }
    }
}

/// One row of the gear table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gear {
    /// Name as in docs/gears.md section 6.2.
    pub name: &'static str,
    /// The shortest profile that carries it.
    pub profile: Profile,
    /// The receiver's check of that profile; `None` for H128
    /// (HMAC-SHA-256-128 under its own key), which no receiver checks
    /// alone: it is listed for its cost, the HMAC half of U128+H128.
    pub check: Option<Check>,
    /// Tag bytes it needs on the wire.
    pub tag_bytes: usize,
    /// Its strength.
    pub strength: Strength,
    /// Whether it is used by default, opt-in, experimental or test-only.
    pub availability: &'static str,
}

/// Every gear of this build: the UMAC prefixes strongest first, H128, the
/// Badger trees, the partial MACs (and T8 in this crate's unit tests).
pub fn gears() -> Vec<Gear> {
    let mut all: Vec<Gear> = [Check::U128, Check::U96, Check::U64, Check::U32].into_iter().map(umac_prefix).collect();
    all.push(Gear {
        name: "H128",
        profile: Profile::U128H128,
        check: None,
        tag_bytes: crate::HMAC_TAG_LEN,
        strength: Strength::Forgery(-128.0),
        availability: "optional, own key",
    });
    all.extend([Check::U128H128, Check::U128, Check::U96, Check::U64, Check::U32].map(badger_trees));
    all.extend(SampleRate::ALL.map(sample));
    #[cfg(test)]
    all.push(Gear {
        name: "T8",
        profile: Profile::T8,
        check: Some(Check::T8),
        tag_bytes: Check::T8.umac_bytes(),
        strength: Strength::Forgery(f64::from(Check::T8.bound_log2())),
        availability: "test builds only",
    });
    all
}

/// The `check.umac_bytes()` prefix of the field, on the profile that
/// carries just that prefix.
fn umac_prefix(check: Check) -> Gear {
    let availability = match check {
        Check::U32 => "opt-in (light)",
        Check::U64 => "yes (typical floor)",
        _ => "yes",
    };
    Gear {
        name: check.name(),
        profile: Profile::of_prefix(check).expect("U32 to U128 have prefix profiles"),
        check: Some(check),
        tag_bytes: check.umac_bytes(),
        strength: Strength::Forgery(f64::from(check.bound_log2())),
        availability,
    }
}

/// The first `check.badger_trees()` trees of a Badger-160 tag; the bound
/// is Badger's at the longest datagram, to one decimal.
fn badger_trees(check: Check) -> Gear {
    let trees = check.badger_trees();
    let longest = (HEADER_LEN + MAX_PAYLOAD) as u64;
    let bound = forgery_bound_log2(trees, longest);
    Gear {
        name: ["B32", "B64", "B96", "B128", "B160"][trees - 1],
        profile: Profile::Badger160,
        check: Some(check),
        tag_bytes: 4 * trees,
        strength: Strength::Forgery((bound * 10.0).round() / 10.0),
        availability: "optional (profile b160)",
    }
}

/// The partial MAC S-L, whose 8-byte tag is always checked whole.
fn sample(rate: SampleRate) -> Gear {
    let profile = Profile::Sample(rate);
    Gear {
        name: match rate {
            SampleRate::L8 => "S-8",
            SampleRate::L64 => "S-64",
            SampleRate::L512 => "S-512",
        },
        profile,
        check: Some(profile.full_check()),
        tag_bytes: profile.tag_len(),
        strength: Strength::Detection { region_words: rate.words_per_region() },
        availability: "experimental, off",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_gear_fits_its_profile() {
        let all = gears();
        // ... and T8: this unit-test build is the one that has it.
        assert_eq!(all.len(), 4 + 1 + 5 + 3 + 1);
        for gear in &all {
            assert!(gear.tag_bytes <= gear.profile.tag_len(), "{}", gear.name);
            if let Some(check) = gear.check {
                assert_eq!(gear.profile.check_at(check), check, "{}", gear.name);
            }
            if let (Some(check), true) = (gear.check, gear.profile.is_umac_prefix()) {
                assert_eq!((gear.tag_bytes, gear.name), (check.umac_bytes(), check.name()));
                assert_eq!(gear.strength, Strength::Forgery(f64::from(check.bound_log2())));
            }
        }
        let names: Vec<&str> = all.iter().map(|g| g.name).collect();
        assert_eq!(
            &names[..13],
            ["U128", "U96", "U64", "U32", "H128", "B160", "B128", "B96", "B64", "B32", "S-8", "S-64", "S-512"]
        );
        // Badger: more trees, a stronger bound.
        let badger: Vec<f64> = all
            .iter()
            .filter_map(|g| match (g.profile, g.strength) {
                (Profile::Badger160, Strength::Forgery(log2)) => Some(log2),
                _ => None,
            })
            .collect();
        assert!(badger.windows(2).all(|w| w[0] < w[1]), "{badger:?}");
    }
}
