//! Profiles (what a sender puts on the wire, docs/gears.md section 6.5) and
//! levels (how much of it a receiver checks, section 6.6).

use core::fmt;

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
/// Badger-160 (0x30 + trees), 0xFE T8 (only in test builds with the cfg
/// `fastmac_gears_t8`; without it the code is unknown).
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
    /// Test only: the 1-byte prefix, so that forgeries succeed often enough
    /// to be counted.
    #[cfg(fastmac_gears_t8)]
    T8,
}

impl Profile {
    /// Every profile this build knows.
    pub fn all() -> Vec<Profile> {
        let mut all = vec![Profile::U128, Profile::U128H128, Profile::U96, Profile::U64, Profile::U32];
        all.extend(SampleRate::ALL.map(Profile::Sample));
        all.push(Profile::Badger160);
        #[cfg(fastmac_gears_t8)]
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
            #[cfg(fastmac_gears_t8)]
            Profile::T8 => 0xFE,
        }
    }

    /// The profile of a wire byte, if this build knows it.
    pub fn from_code(code: u8) -> Option<Profile> {
        Profile::all().into_iter().find(|p| p.code() == code)
    }

    /// Bytes of the UMAC part of the tag block (the field prefix, or the
    /// sample tag).
    pub const fn umac_len(self) -> usize {
        match self {
            Profile::U128 | Profile::U128H128 => 16,
            Profile::U96 => 12,
            Profile::U64 | Profile::Sample(_) => 8,
            Profile::U32 => 4,
            Profile::Badger160 => 20,
            #[cfg(fastmac_gears_t8)]
            Profile::T8 => 1,
        }
    }

    /// Bytes of the whole tag block: fixed per profile, never taken from
    /// the packet.
    pub const fn tag_len(self) -> usize {
        match self {
            Profile::U128H128 => 16 + crate::HMAC_TAG_LEN,
            other => other.umac_len(),
        }
    }

    /// The strongest UMAC level a receiver can check on this profile;
    /// `None` for the partial-MAC and Badger profiles.
    pub const fn max_level(self) -> Option<Level> {
        match self {
            Profile::U128H128 => Some(Level::U128H128),
            Profile::U128 => Some(Level::U128),
            Profile::U96 => Some(Level::U96),
            Profile::U64 => Some(Level::U64),
            Profile::U32 => Some(Level::U32),
            Profile::Sample(_) | Profile::Badger160 => None,
            #[cfg(fastmac_gears_t8)]
            Profile::T8 => Some(Level::T8),
        }
    }

    /// The UMAC-prefix profile whose tag is exactly `level`'s prefix
    /// (U32 to U128); `None` for levels with no such profile.
    pub const fn of_prefix_level(level: Level) -> Option<Profile> {
        match level {
            Level::U32 => Some(Profile::U32),
            Level::U64 => Some(Profile::U64),
            Level::U96 => Some(Profile::U96),
            Level::U128 => Some(Profile::U128),
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
            #[cfg(fastmac_gears_t8)]
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

/// How much of a UMAC-prefix profile a receiver verifies, weakest first.
/// `U32`..`U128` check 1..4 UHASH iterations; `U128H128` adds the HMAC.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Level {
    /// Test only: the first byte of the field (one iteration).
    #[cfg(fastmac_gears_t8)]
    T8,
    /// 4 bytes, one iteration: about 2^-30 per forgery attempt.
    U32,
    /// 8 bytes, two iterations: about 2^-60.
    U64,
    /// 12 bytes, three iterations: about 2^-90.
    U96,
    /// 16 bytes, four iterations: about 2^-120.
    U128,
    /// The UMAC-128 field and HMAC-SHA-256-128.
    U128H128,
}

impl Level {
    /// Every level of this build, weakest first.
    pub fn all() -> Vec<Level> {
        let mut all = Vec::new();
        #[cfg(fastmac_gears_t8)]
        all.push(Level::T8);
        all.extend([Level::U32, Level::U64, Level::U96, Level::U128, Level::U128H128]);
        all
    }

    /// Bytes of the UMAC field checked at this level.
    pub const fn umac_bytes(self) -> usize {
        match self {
            #[cfg(fastmac_gears_t8)]
            Level::T8 => 1,
            Level::U32 => 4,
            Level::U64 => 8,
            Level::U96 => 12,
            Level::U128 | Level::U128H128 => 16,
        }
    }

    /// Badger trees checked at this level on a Badger-160 packet: one per
    /// 32-bit word of the UMAC level, all five at U128+H128.
    pub const fn badger_trees(self) -> usize {
        match self {
            Level::U128H128 => 5,
            other => other.umac_bytes().div_ceil(4),
        }
    }

    /// Whether the HMAC is checked too.
    pub const fn checks_hmac(self) -> bool {
        matches!(self, Level::U128H128)
    }

    /// log2 of the forgery probability per attempt: 2^-30 per UHASH
    /// iteration (RFC 4418 section 1), 2^-8 for one byte, and the generic
    /// 2^-128 of a 128-bit HMAC tag when both must be forged.
    pub const fn bound_log2(self) -> i32 {
        match self {
            #[cfg(fastmac_gears_t8)]
            Level::T8 => -8,
            Level::U32 => -30,
            Level::U64 => -60,
            Level::U96 => -90,
            Level::U128 => -120,
            Level::U128H128 => -128,
        }
    }

    /// The next stronger level, if any.
    pub fn stronger(self) -> Option<Level> {
        let all = Level::all();
        let i = all.iter().position(|l| *l == self)?;
        all.get(i + 1).copied()
    }

    /// Upper-case name as in the gear table.
    pub const fn name(self) -> &'static str {
        match self {
            #[cfg(fastmac_gears_t8)]
            Level::T8 => "T8",
            Level::U32 => "U32",
            Level::U64 => "U64",
            Level::U96 => "U96",
            Level::U128 => "U128",
            Level::U128H128 => "U128+H128",
        }
    }

    /// The level of a name (case-insensitive).
    pub fn from_name(name: &str) -> Option<Level> {
        Level::all().into_iter().find(|l| l.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Level {
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
    fn levels_are_ordered_by_strength() {
        let all = Level::all();
        for pair in all.windows(2) {
            assert!(pair[0] < pair[1]);
            assert!(pair[0].bound_log2() > pair[1].bound_log2());
            assert_eq!(pair[0].stronger(), Some(pair[1]));
        }
    }
}
