//! Every number the command line takes, parsed and range-checked in one
//! place: clap calls these parsers, so an out-of-range value exits with
//! status 2 before any work, and the message states the range in the
//! tool's own words (not Rust's parse errors).

use std::fmt::Display;
use std::num::NonZeroUsize;
use std::str::FromStr;

use fastmac_report::human;

/// The most threads `--threads` takes.
pub const MAX_THREADS: usize = 1024;

/// `--threads N`: 1 to [`MAX_THREADS`].
pub fn threads(text: &str) -> Result<NonZeroUsize, String> {
    let count = whole(1, MAX_THREADS)(text)?;
    NonZeroUsize::new(count).ok_or_else(|| "expected at least one thread".to_owned())
}

/// A parser for a whole number in `min..=max`.
pub fn whole<T>(min: T, max: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + Display + Copy + Send + Sync + 'static,
{
    move |text| {
        let range = || format!("expected a whole number from {min} to {max}");
        let value: T = text.trim().parse().map_err(|_| range())?;
        if value < min || value > max {
            return Err(format!("{value} is out of range: {}", range()));
        }
        Ok(value)
    }
}

/// A parser for a decimal number above `above` and at most `max`.
pub fn decimal(above: f64, max: f64) -> impl Fn(&str) -> Result<f64, String> + Clone + Send + Sync + 'static {
    move |text| {
        let range = || format!("expected a number above {above} and at most {max}");
        let value: f64 = text.trim().parse().map_err(|_| range())?;
        // NaN fails both comparisons and is refused with the rest.
        if !(value > above && value <= max) {
            return Err(format!("{value} is out of range: {}", range()));
        }
        Ok(value)
    }
}

/// A parser for a byte count with an optional suffix K or M (times 1024
/// and 1024^2), in `min..=max` bytes.
pub fn size(min: usize, max: usize) -> impl Fn(&str) -> Result<usize, String> + Clone + Send + Sync + 'static {
    move |text| {
        let range = || format!("expected a size from {min} to {} bytes (suffixes K and M: x1024)", human(max));
        let (digits, scale) = match text.as_bytes().last() {
            Some(b'K' | b'k') => (&text[..text.len() - 1], 1 << 10),
            Some(b'M' | b'm') => (&text[..text.len() - 1], 1 << 20),
            _ => (text, 1),
        };
        let count: usize = digits.parse().map_err(|_| format!("not a size: {}", range()))?;
        match count.checked_mul(scale) {
            Some(bytes) if (min..=max).contains(&bytes) => Ok(bytes),
            _ => Err(format!("{text} is out of range: {}", range())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn whole_numbers_in_range_and_out() {
        let threads = whole(1usize, 1024);
        assert_eq!(threads("1"), Ok(1));
        assert_eq!(threads("1024"), Ok(1024));
        assert_eq!(threads("0"), Err("0 is out of range: expected a whole number from 1 to 1024".into()));
        assert_eq!(threads("1025").unwrap_err(), "1025 is out of range: expected a whole number from 1 to 1024");
        for bad in ["", "-1", "x", "1.5", "99999999999999999999999"] {
            assert_eq!(threads(bad), Err("expected a whole number from 1 to 1024".into()), "{bad:?}");
        }
        assert_eq!(whole(0u32, u32::MAX)("4294967295"), Ok(u32::MAX));
    }

    #[test]
    fn decimals_in_range_and_out() {
        let seconds = decimal(0.0, 600.0);
        assert_eq!(seconds("0.5"), Ok(0.5));
        assert_eq!(seconds("600"), Ok(600.0));
        for bad in ["0", "-1", "600.1", "NaN", "inf"] {
            assert!(seconds(bad).unwrap_err().contains("out of range"), "{bad}");
        }
        assert_eq!(seconds("abc"), Err("expected a number above 0 and at most 600".into()));
    }

    #[test]
    fn sizes_with_suffixes_and_bounds() {
        let sizes = size(1, 1 << 30);
        assert_eq!(sizes("32"), Ok(32));
        assert_eq!(sizes("64K"), Ok(64 << 10));
        assert_eq!(sizes("1024m"), Ok(1 << 30));
        assert_eq!(
            sizes("99999999M").unwrap_err(),
            "99999999M is out of range: expected a size from 1 to 1024M bytes (suffixes K and M: x1024)"
        );
        assert!(sizes("0").unwrap_err().contains("out of range"));
        assert!(sizes("99999999999999999999").unwrap_err().starts_with("not a size"));
        assert!(sizes("1025M").is_err() && sizes("K").is_err() && sizes("-1").is_err());
        assert_eq!(size(0, 65_535)("0"), Ok(0));
    }
}
