//! Profiles: what a sender puts on the wire (docs/gears.md section 6.5),
//! and the most a receiver can check of each.

use core::fmt;

use fastmac::badger;

use crate::check::Check;

/// Words per region of the experimental partial-MAC gears S-L (docs/gears.md
/// sections 2.3 and 6.2): one 64-bit word of every `L` is covered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SampleRate {
    /// S-8: one word in 8.
    L8,
    /// S-64: one word in 64.
    L64,
    /// S-512: one word in 512.
    L512,
}

impl SampleRate {
    /// All sample rates, densest first.
    pub const ALL: [SampleRate; 3] = [SampleRate::L8, SampleRate::L64, SampleRate::L512];

    /// `L`, the region size in 64-bit words.
    pub const fn words_per_region(self) -> usize {
        match self {
            SampleRate::L8 => 8,
            SampleRate::L64 => 64,
            SampleRate::L512 => 512,
        }
    }

    const fn log2(self) -> u8 {
        match self {
            SampleRate::L8 => 3,
            SampleRate::L64 => 6,
            SampleRate::L512 => 9,
        }
    }
}

/// The profile byte of a packet: which tags its tag block carries.
///
/// Codes (docs/gears.md section 6.5): 0x10 U128, 0x11 U128+H128, 0x12 U96,
/// 0x13 U64, 0x14 U32, 0x20 + log2(L) for S-L (0x23, 0x26, 0x29), 0x35
/// Badger-160 (0x30 + trees), 0xFE T8 (only in this crate's unit-test
/// build; every other build, a dependent's included, does not know the
/// code).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Profile {
    /// The 16-byte UMAC-128 field.
    U128,
    /// The 16-byte UMAC-128 field, then a 16-byte HMAC-SHA-256-128 under
    /// its own key (algorithm diversity).
    U128H128,
    /// The 12-byte prefix of the field (sender-side gear lowering, 6.4).
    U96,
    /// The 8-byte prefix.
    U64,
    /// The 4-byte prefix.
    U32,
    /// Experimental partial MAC over a keyed sample of the payload.
    Sample(SampleRate),
    /// One Badger-160 tag: five independent 32-bit trees, of which a
    /// receiver checks the first `w` (verifier-selectable assurance).
    Badger160,
    /// Test only (this crate's unit tests): the 1-byte prefix, so that
    /// forgeries succeed often enough to be counted (src/t8_forgery_rate.rs).
    #[cfg(test)]
    T8,
}

impl Profile {
    /// Every profile this build knows.
    pub fn all() -> Vec<Profile> {
        let mut all = vec![Profile::U128, Profile::U128H128, Profile::U96, Profile::U64, Profile::U32];
        all.extend(SampleRate::ALL.map(Profile::Sample));
        all.push(Profile::Badger160);
        #[cfg(test)]
        all.push(Profile::T8);
        all
    }

    /// The byte on the wire.
    pub const fn code(self) -> u8 {
        match self {
            Profile::U128 => 0x10,
            Profile::U128H128 => 0x11,
            Profile::U96 => 0x12,
            Profile::U64 => 0x13,
            Profile::U32 => 0x14,
            Profile::Sample(rate) => 0x20 + rate.log2(),
            Profile::Badger160 => 0x35,
            #[cfg(test)]
            Profile::T8 => 0xFE,
        }
    }

    /// The profile of a wire byte, if this build knows it.
    pub fn from_code(code: u8) -> Option<Profile> {
        Profile::all().into_iter().find(|p| p.code() == code)
    }

    /// Bytes of the UMAC part of the tag block (the field prefix, or the
    /// sample tag).
    pub fn umac_len(self) -> usize {
        match self {
            // Five trees: the longest of the library's Badger tags (a
            // constant, where `Algorithm::info` would compute the bound too).
            Profile::Badger160 => badger::TAG_LENS[badger::MAX_TREES - 1],
            // The field prefix of the full check; a sample's tag is the
            // 8-byte prefix of its own field, the full check U64.
            other => other.full_check().umac_bytes(),
        }
    }

    /// Bytes of the whole tag block: fixed per profile, never taken from
    /// the packet.
    pub fn tag_len(self) -> usize {
        match self {
            Profile::U128H128 => 16 + crate::HMAC_TAG_LEN,
            other => other.umac_len(),
        }
    }

    /// Whether the tag block is (a prefix of) the UMAC-128 field, so that
    /// a receiver may check less of it than the sender sent.
    pub const fn is_umac_prefix(self) -> bool {
        !matches!(self, Profile::Sample(_) | Profile::Badger160)
    }

    /// The most a receiver can check of this profile: its UMAC prefix (and
    /// HMAC), all five trees of Badger-160, the whole 8-byte sample tag
    /// (`U64`) of a partial MAC.
    pub const fn full_check(self) -> Check {
        match self {
            Profile::U128H128 | Profile::Badger160 => Check::U128H128,
            Profile::U128 => Check::U128,
            Profile::U96 => Check::U96,
            Profile::U64 | Profile::Sample(_) => Check::U64,
            Profile::U32 => Check::U32,
            #[cfg(test)]
            Profile::T8 => Check::T8,
        }
    }

    /// What a receiver whose policy asks for `depth` checks of a packet of
    /// this profile: `depth`, capped by [`Profile::full_check`]; a
    /// partial-MAC tag is always checked whole.
    pub fn check_at(self, depth: Check) -> Check {
        match self {
            Profile::Sample(_) => self.full_check(),
            _ => depth.min(self.full_check()),
        }
    }

    /// The UMAC-prefix profile whose tag is exactly `check`'s prefix
    /// (U32 to U128); `None` for checks with no such profile.
    pub const fn of_prefix(check: Check) -> Option<Profile> {
        match check {
            Check::U32 => Some(Profile::U32),
            Check::U64 => Some(Profile::U64),
            Check::U96 => Some(Profile::U96),
            Check::U128 => Some(Profile::U128),
            _ => None,
        }
    }

    /// Lower-case name, as the CLI spells it.
    pub const fn name(self) -> &'static str {
        match self {
            Profile::U128 => "u128",
            Profile::U128H128 => "u128+h128",
            Profile::U96 => "u96",
            Profile::U64 => "u64",
            Profile::U32 => "u32",
            Profile::Sample(SampleRate::L8) => "s-8",
            Profile::Sample(SampleRate::L64) => "s-64",
            Profile::Sample(SampleRate::L512) => "s-512",
            Profile::Badger160 => "b160",
            #[cfg(test)]
            Profile::T8 => "t8",
        }
    }

    /// The profile of a CLI name.
    pub fn from_name(name: &str) -> Option<Profile> {
        Profile::all().into_iter().find(|p| p.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profile_codes_round_trip_and_are_distinct() {
        let all = Profile::all();
        for p in &all {
            assert_eq!(Profile::from_code(p.code()), Some(*p));
            assert_eq!(Profile::from_name(p.name()), Some(*p));
        }
        let mut codes: Vec<u8> = all.iter().map(|p| p.code()).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), all.len());
    }

    #[test]
    fn a_profile_caps_the_check_and_a_sample_is_checked_whole() {
        for depth in Check::all() {
            for profile in Profile::all() {
                let check = profile.check_at(depth);
                assert!(check <= profile.full_check());
                match profile {
                    Profile::Sample(_) => assert_eq!(check, Check::U64),
                    _ => assert_eq!(check, depth.min(profile.full_check())),
                }
            }
            assert_eq!(Profile::Badger160.check_at(depth).badger_trees(), depth.badger_trees());
        }
        for profile in [Profile::U32, Profile::U64, Profile::U96, Profile::U128] {
            assert_eq!(Profile::of_prefix(profile.full_check()), Some(profile));
            assert_eq!(profile.full_check().umac_bytes(), profile.tag_len());
        }
        assert_eq!(Profile::of_prefix(Check::U128H128), None);
    }
}
