//! The gear table (docs/gears.md section 6.2): every gear with its tag
//! length, its strength and where it is used. Its costs are measured by the
//! application (`fastmac gears table`), never by this library.

use crate::level::{Level, SampleRate};

/// One gear: a way to authenticate (sender side) and check (receiver side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Gear {
    /// A prefix of the UMAC-128 field checked at this level (U32..U128;
    /// `Level::U128H128` is the pair U128 + H128).
    Umac(Level),
    /// HMAC-SHA-256-128 alone, under its own key.
    H128,
    /// Experimental partial MAC S-L.
    Sample(SampleRate),
    /// The first `trees` (1 to 5) trees of a Badger-160 tag.
    Badger(usize),
}

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

/// The static facts of a gear.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GearInfo {
    /// The gear.
    pub gear: Gear,
    /// Name as in docs/gears.md section 6.2.
    pub name: &'static str,
    /// Tag bytes it needs on the wire.
    pub tag_bytes: usize,
    /// Its strength.
    pub strength: Strength,
    /// Whether it is used by default, opt-in, experimental or test-only.
    pub availability: &'static str,
}

impl Gear {
    /// Every gear of this build, strongest UMAC first.
    pub fn all() -> Vec<Gear> {
        let mut all: Vec<Gear> = [Level::U128, Level::U96, Level::U64, Level::U32].map(Gear::Umac).to_vec();
        all.push(Gear::H128);
        all.extend((1..=5).rev().map(Gear::Badger));
        all.extend(SampleRate::ALL.map(Gear::Sample));
        #[cfg(fastmac_gears_t8)]
        all.push(Gear::Umac(Level::T8));
        all
    }

    /// Its static facts.
    pub fn info(self) -> GearInfo {
        let (name, tag_bytes, strength, availability) = match self {
            Gear::Umac(Level::U128H128) => ("U128+H128", 32, Strength::Forgery(-128.0), "optional high assurance"),
            Gear::Umac(level) => {
                let availability = match level {
                    Level::U32 => "opt-in (light)",
                    Level::U64 => "yes (typical floor)",
                    #[cfg(fastmac_gears_t8)]
                    Level::T8 => "test builds only",
                    _ => "yes",
                };
                (level.name(), level.umac_bytes(), Strength::Forgery(f64::from(level.bound_log2())), availability)
            }
            Gear::H128 => ("H128", 16, Strength::Forgery(-128.0), "optional, own key"),
            Gear::Badger(trees) => {
                let name = ["B32", "B64", "B96", "B128", "B160"][trees.clamp(1, 5) - 1];
                let longest = (crate::wire::HEADER_LEN + crate::wire::MAX_PAYLOAD) as u64;
                let bound = fastmac::badger::forgery_bound_log2(trees, longest);
                (name, 4 * trees, Strength::Forgery((bound * 10.0).round() / 10.0), "optional (profile b160)")
            }
            Gear::Sample(rate) => {
                let name = match rate {
                    SampleRate::L8 => "S-8",
                    SampleRate::L64 => "S-64",
                    SampleRate::L512 => "S-512",
                };
                (name, 8, Strength::Detection { region_words: rate.words_per_region() }, "experimental, off")
            }
        };
        GearInfo { gear: self, name, tag_bytes, strength, availability }
    }
}
