//! The receiver's check (docs/gears.md sections 6.2 and 6.6): how much of a
//! packet a receiver verifies. Its policy chooses one as its depth
//! ([`crate::policy`]); the packet's profile caps it
//! ([`crate::Profile::check_at`]).

use core::fmt;

use fastmac::Algorithm;

/// How much of a packet a receiver verifies, weakest first.
///
/// On a UMAC-prefix profile, `U32`..`U128` check the first 4 to 16 bytes
/// of the field with 1 to 4 UHASH iterations, and `U128H128` adds the
/// HMAC. On a Badger-160 packet a check covers one tree per 32-bit word
/// (all five at `U128H128`, [`Check::badger_trees`]). A partial-MAC tag is
/// always checked whole: an 8-byte field prefix over the sample, `U64`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Check {
    /// Test only (this crate's unit tests): the first byte of the field (one
    /// iteration).
    #[cfg(test)]
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

impl Check {
    /// Every check of this build, weakest first.
    pub fn all() -> Vec<Check> {
        let mut all = Vec::new();
        #[cfg(test)]
        all.push(Check::T8);
        all.extend([Check::U32, Check::U64, Check::U96, Check::U128, Check::U128H128]);
        all
    }

    /// The library's UMAC whose tag this check compares: the field's
    /// first 4 to 16 bytes are the tag of UMAC-32 to UMAC-128 (the nested
    /// UMAC, docs/gears.md), and U128+H128 compares UMAC-128's with the HMAC.
    /// The test-only one-byte check has none.
    pub fn umac(self) -> Option<Algorithm> {
        match self {
            #[cfg(test)]
            Check::T8 => None,
            Check::U32 => Some(Algorithm::Umac32),
            Check::U64 => Some(Algorithm::Umac64),
            Check::U96 => Some(Algorithm::Umac96),
            Check::U128 | Check::U128H128 => Some(Algorithm::Umac128),
        }
    }

    /// Bytes of the UMAC field checked: the tag length of [`Check::umac`]
    /// (one for the test-only check).
    pub fn umac_bytes(self) -> usize {
        self.umac().map_or(1, |umac| umac.info().tag_len)
    }

    /// Badger trees checked on a Badger-160 packet: one per 32-bit word of
    /// the UMAC check, all five at U128+H128.
    pub fn badger_trees(self) -> usize {
        match self {
            Check::U128H128 => 5,
            other => other.umac_bytes().div_ceil(4),
        }
    }

    /// Whether the HMAC is checked too.
    pub const fn checks_hmac(self) -> bool {
        matches!(self, Check::U128H128)
    }

    /// log2 of the forgery probability per attempt: [`Check::umac`]'s
    /// bound (2^-30 per UHASH iteration, RFC 4418 section 1), 2^-8 for one
    /// byte, and the generic 2^-128 of a 128-bit HMAC tag when both must be
    /// forged.
    pub fn bound_log2(self) -> i32 {
        match (self, self.umac()) {
            (Check::U128H128, _) => -128,
            // A whole number of bits: the bound's exponent is -30 per iteration.
            (_, Some(umac)) => umac.info().forgery_bound_log2 as i32,
            (_, None) => -8,
        }
    }

    /// The next stronger check, if any.
    pub fn stronger(self) -> Option<Check> {
        let all = Check::all();
        let i = all.iter().position(|c| *c == self)?;
        all.get(i + 1).copied()
    }

    /// Upper-case name as in the gear table.
    pub const fn name(self) -> &'static str {
        match self {
            #[cfg(test)]
            Check::T8 => "T8",
            Check::U32 => "U32",
            Check::U64 => "U64",
            Check::U96 => "U96",
            Check::U128 => "U128",
            Check::U128H128 => "U128+H128",
        }
    }

    /// The check of a name (case-insensitive).
    pub fn from_name(name: &str) -> Option<Check> {
        Check::all().into_iter().find(|c| c.name().eq_ignore_ascii_case(name))
    }
}

impl fmt::Display for Check {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checks_are_ordered_by_strength() {
        let all = Check::all();
        for pair in all.windows(2) {
            assert!(pair[0] < pair[1]);
            assert!(pair[0].bound_log2() > pair[1].bound_log2());
            assert_eq!(pair[0].stronger(), Some(pair[1]));
        }
        for check in all {
            assert_eq!(Check::from_name(&check.name().to_lowercase()), Some(check));
        }
    }

    #[test]
    fn badger_trees_follow_the_umac_words() {
        let trees: Vec<usize> =
            [Check::U32, Check::U64, Check::U96, Check::U128, Check::U128H128].map(Check::badger_trees).to_vec();
        assert_eq!(trees, [1, 2, 3, 4, 5]);
    }
}
