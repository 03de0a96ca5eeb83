//! Algorithm names on the command line: the library's names (`fastmac
//! list`'s first table) and the SSH names (its second), both taken in any
//! ASCII case wherever the tool takes a MAC's name, and the closest known
//! names for one that matches nothing.

use fastmac::Algorithm;
use fastmac::ssh::{self, SshAlgorithm};

use crate::input::CliError;

/// Suggestions offered for an unknown name, at most.
const MOST_SUGGESTIONS: usize = 3;

/// A library algorithm by its name, in any case.
pub fn plain(name: &str) -> Option<Algorithm> {
    Algorithm::from_name(name).ok()
}

/// An SSH MAC by its SSH name, in any case. (SSH names are case-sensitive
/// on the wire, RFC 4251 section 6, and the library matches them exactly;
/// a person typing one gets the same MAC in any case.)
pub fn ssh(name: &str) -> Option<&'static SshAlgorithm> {
    ssh::ALGORITHMS.iter().find(|alg| alg.name.eq_ignore_ascii_case(name))
}

/// Every library name, in `fastmac list`'s order.
pub fn plain_names() -> impl Iterator<Item = &'static str> {
    Algorithm::ALL.iter().map(|alg| alg.info().name)
}

/// Every SSH name, in `fastmac list`'s order.
pub fn ssh_names() -> impl Iterator<Item = &'static str> {
    ssh::ALGORITHMS.iter().map(|alg| alg.name)
}

/// The error for `name`, which is none of `known`: the closest known names
/// when some are close ("did you mean"), else all of them.
pub fn unknown<'a>(what: &str, name: &str, known: impl IntoIterator<Item = &'a str>) -> CliError {
    let mut known: Vec<&str> = known.into_iter().collect();
    let mut seen = Vec::new();
    known.retain(|name| {
        if seen.contains(name) {
            false
        } else {
            seen.push(*name);
            true
        }
    });
    let close = closest(name, &known);
    let hint = if close.is_empty() {
        format!("known: {}", known.join(", "))
    } else {
        format!("did you mean {}?", close.join(" or "))
    };
    CliError::Usage(format!("unknown {what} {name:?}: {hint} (`fastmac list` shows every MAC)"))
}

/// Lowercase letters and digits only: `UMAC_64`, `umac64` and `umac-64`
/// compare equal.
fn skeleton(name: &str) -> String {
    name.chars().filter(char::is_ascii_alphanumeric).map(|c| c.to_ascii_lowercase()).collect()
}

/// The known names nearest to `name` by edit distance between skeletons,
/// if near enough to be a slip: the nearest ones (ties kept, in `known`'s
/// order), at most `MOST_SUGGESTIONS`.
pub fn closest<'a>(name: &str, known: &[&'a str]) -> Vec<&'a str> {
    let wanted = skeleton(name);
    // A slip: two edits, or a quarter of the name for longer names.
    let near_enough = (wanted.chars().count() / 4).max(2);
    let distances: Vec<(usize, &str)> =
        known.iter().map(|&k| (strsim::levenshtein(&wanted, &skeleton(k)), k)).collect();
    let Some(best) = distances.iter().map(|d| d.0).min().filter(|&d| d <= near_enough) else { return Vec::new() };
    let mut nearest: Vec<&str> = Vec::new();
    for (_, name) in distances.into_iter().filter(|d| d.0 == best) {
        if !nearest.contains(&name) && nearest.len() < MOST_SUGGESTIONS {
            nearest.push(name);
        }
    }
    nearest
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Vec<&'static str> {
        plain_names().chain(ssh_names()).collect()
    }

    #[test]
    fn names_in_any_case() {
        assert_eq!(plain("UMAC-64"), Some(Algorithm::Umac64));
        assert_eq!(ssh("UMAC-64@OpenSSH.com").map(|a| a.name), Some("umac-64@openssh.com"));
        assert_eq!(ssh("Hmac-Sha2-256-ETM@openssh.com").map(|a| a.name), Some("hmac-sha2-256-etm@openssh.com"));
        assert_eq!(plain("umac-64@openssh.com"), None);
        assert_eq!(ssh("umac-64"), None);
    }

    #[test]
    fn slips_get_the_nearest_names() {
        let known = all();
        assert_eq!(closest("umac64", &known), ["umac-64"]);
        assert_eq!(closest("hmac-sha256", &known), ["hmac-sha2-256"]);
        assert_eq!(closest("umac-63", &known), ["umac-64"]);
        assert_eq!(closest("UMAC_128", &known), ["umac-128"]);
        assert_eq!(closest("umac-64@openssh", &known), ["umac-64@openssh.com"]);
        assert_eq!(closest("badger96", &known), ["badger-96"]);
        assert!(closest("md4", &known).is_empty());
        assert!(closest("", &known).is_empty());
        // A name in both tables is offered once.
        assert_eq!(closest("hmac-sha2-255", &known), ["hmac-sha2-256"]);
    }

    #[test]
    fn the_message_offers_the_nearest_or_lists_all() {
        let text = unknown("algorithm", "umac64", all()).to_string();
        assert_eq!(text, "unknown algorithm \"umac64\": did you mean umac-64? (`fastmac list` shows every MAC)");
        let text = unknown("algorithm", "sha3", ["umac-64", "hmac-sha1"]).to_string();
        assert!(text.contains("known: umac-64, hmac-sha1"), "{text}");
    }
}
