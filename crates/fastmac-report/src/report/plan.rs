//! What the report measures: the algorithms and sizes of its first eight
//! tables, named as `fastmac list` names them, and the points of its
//! many-keys table (table 9). A row whose algorithm has no subject in this
//! build is reported missing, never filled in.

pub use crate::measure::Imp;
pub use crate::measure::aegis::{
    AEGIS_128L, AEGIS_128L_NONCE, AEGIS_128X2, AEGIS_128X2_NONCE, AEGIS_128X4, AEGIS_128X4_NONCE, AEGIS_256,
    AEGIS_256_NONCE,
};
pub use crate::measure::subjects::{
    BADGER_KEY_SETUP, BADGER_SEQUENTIAL, BLAKE3_KEYED, GMAC, GMAC_GCM128, POLY1305, POLY1305_GIVEN_KEY, READ_LIMIT,
};

/// One thing to time: an algorithm of one implementation at one message size.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub struct Job {
    /// Algorithm name (`umac-64`, `hmac-sha1`, `read-limit`, ...).
    pub alg: String,
    /// Who implements it.
    #[serde(rename = "impl")]
    pub imp: Imp,
    /// Message size in bytes.
    pub size: usize,
}

/// The OpenSSH paper's algorithms (section 4.4), then the library's others
/// that an SSH connection can use.
pub const OPENSSH_ALGS: &[&str] = &[
    "hmac-md5",
    "hmac-sha1",
    "hmac-ripemd160",
    "umac-64",
    "umac-128",
    "hmac-sha2-256",
    "hmac-sha2-512",
    "umac-32",
    "umac-96",
    "badger-64",
];

/// The OpenSSH paper's two packet sizes.
pub const OPENSSH_SIZES: &[usize] = &[32, 512];

/// Figure 1's sweep: typical SSH packet sizes up to the 4 KiB the paper saw.
pub const SWEEP_SIZES: &[usize] = &[32, 64, 128, 256, 512, 1024, 1500, 2048, 4096];

/// The ACSA slides' packet sizes ("Performance Measurements").
pub const ACSA_SIZES: &[usize] = &[4096, 65536];

/// The ACSA table's rows: the IPsec HMACs, UMAC at every tag length,
/// Badger at every tag length.
pub const ACSA_ALGS: &[&str] = &[
    "hmac-sha1-96",
    "hmac-md5-96",
    "umac-128",
    "umac-96",
    "umac-64",
    "umac-32",
    "badger-32",
    "badger-64",
    "badger-96",
    "badger-128",
    "badger-160",
];

/// The Go UMAC package's benchmark (its README).
pub const GO_ALGS: &[&str] = &["hmac-sha2-256", "hmac-md5", "umac-64", "umac-128"];

/// The Go package's two sizes.
pub const GO_SIZES: &[usize] = &[32, 1024];

/// Strength vs. performance is plotted at one IPsec-sized packet.
pub const STRENGTH_SIZE: usize = 1500;

/// The comparator table's sizes: every size the other tables use.
pub const COMPARATOR_SIZES: &[usize] = &[32, 512, 1024, 1500, 4096, 65536];

/// Badger's table 1 times the universal hash over this many bytes (long
/// enough that the fixed costs vanish, short enough to stay in L2).
pub const BADGER_HASH_SIZE: usize = 65536;

/// Badger's table 1 is measured on Badger-64 (the paper's 2 x 32-bit tag).
pub const BADGER_TABLE_ALG: &str = "badger-64";

/// Comparators measured in the same run: Nettle's UMAC at the four tag
/// lengths, OpenSSL's Poly1305 (with its key derived, and given) and
/// AES-128-GMAC (through EVP_MAC, and CRYPTO_gcm128), AEGIS as a MAC
/// (keyed, and a nonce per message), keyed BLAKE3, RustCrypto's Poly1305
/// and HMAC-SHA2-256, the read pass, and UMAC-64's NH ceiling.
pub const COMPARATORS: &[(&str, Imp)] = &[
    ("umac-32", Imp::Nettle),
    ("umac-64", Imp::Nettle),
    ("umac-96", Imp::Nettle),
    ("umac-128", Imp::Nettle),
    (POLY1305, Imp::OpenSsl),
    (POLY1305_GIVEN_KEY, Imp::OpenSsl),
    (GMAC, Imp::OpenSsl),
    (GMAC_GCM128, Imp::OpenSsl),
    (AEGIS_128L, Imp::Aegis),
    (AEGIS_128X2, Imp::Aegis),
    (AEGIS_128X4, Imp::Aegis),
    (AEGIS_256, Imp::Aegis),
    (AEGIS_128L_NONCE, Imp::Aegis),
    (AEGIS_128X2_NONCE, Imp::Aegis),
    (AEGIS_128X4_NONCE, Imp::Aegis),
    (AEGIS_256_NONCE, Imp::Aegis),
    (BLAKE3_KEYED, Imp::Blake3),
    (POLY1305, Imp::RustCrypto),
    ("hmac-sha2-256", Imp::RustCrypto),
    (READ_LIMIT, Imp::ReadLimit),
    ("umac-64", Imp::NhCeiling),
];

/// The many-keys table's MACs, by their `fastmac bench --keys` names:
/// fastmac's UMAC-64 and UMAC-128 through the one-shot call, and AEGIS-128L's
/// MAC with its keyed state cloned per packet, a 128-bit tag from a state
/// about a tenth of UMAC's (docs/choosing.md section 3, "Many live keys").
pub const KEYS_ALGS: &[&str] = &["umac-64", "umac-128", AEGIS_128L];

/// The many-keys table's live keys: one (the cache-warm case every other
/// table measures), 4096 (about 10 MiB of UMAC states, within a last-level
/// cache of 16 or 32 MiB) and 65536 (about 170 MB, past any cache).
pub const KEYS_COUNTS: &[usize] = &[1, 4096, 65536];

/// `--quick`'s live keys: only the two ends, to keep within its time.
pub const KEYS_COUNTS_QUICK: &[usize] = &[1, 65536];

/// The many-keys table's packet sizes: a short packet and a full Ethernet
/// frame.
pub const KEYS_SIZES: &[usize] = &[64, 1500];

/// The comparators swept with figure 1's sizes.
pub const SWEEP_COMPARATORS: &[(&str, Imp)] = &[
    ("umac-64", Imp::Nettle),
    ("umac-128", Imp::Nettle),
    (POLY1305, Imp::OpenSsl),
    (GMAC, Imp::OpenSsl),
    (AEGIS_128L, Imp::Aegis),
    (AEGIS_128X4, Imp::Aegis),
    (BLAKE3_KEYED, Imp::Blake3),
    (POLY1305, Imp::RustCrypto),
    (READ_LIMIT, Imp::ReadLimit),
];

/// The UMAC tag lengths of the table of MACs users would pick instead
/// (fastmac's and Nettle's rows); the others there have 128-bit tags.
const PICKED_UMACS: &[&str] = &["umac-64", "umac-128"];

/// The rows of the table of MACs users would pick instead of UMAC:
/// fastmac's UMAC-64 and UMAC-128 first, then every comparator of the same
/// run that is a MAC (not the read pass or the NH ceiling; Nettle's at
/// those two tag lengths only).
pub fn picked() -> Vec<(&'static str, Imp)> {
    let ours = PICKED_UMACS.iter().map(|&alg| (alg, Imp::Fastmac));
    let others = COMPARATORS
        .iter()
        .copied()
        .filter(|&(alg, imp)| imp.is_mac() && (imp != Imp::Nettle || PICKED_UMACS.contains(&alg)));
    ours.chain(others).collect()
}

/// Every job the first eight tables need, each once, in a stable order; `extra`
/// are the gears, which join the ACSA table and the strength chart.
pub fn jobs(extra: &[&str]) -> Vec<Job> {
    let mut jobs = std::collections::BTreeSet::new();
    let mut add = |alg: &str, imp: Imp, sizes: &[usize]| {
        for &size in sizes {
            jobs.insert(Job { alg: alg.to_owned(), imp, size });
        }
    };
    for alg in OPENSSH_ALGS {
        add(alg, Imp::Fastmac, SWEEP_SIZES);
    }
    for alg in ACSA_ALGS.iter().copied().chain(extra.iter().copied()) {
        add(alg, Imp::Fastmac, ACSA_SIZES);
        add(alg, Imp::Fastmac, &[STRENGTH_SIZE]);
    }
    for alg in GO_ALGS {
        add(alg, Imp::Fastmac, GO_SIZES);
    }
    for alg in OPENSSH_ALGS {
        add(alg, Imp::Fastmac, &[STRENGTH_SIZE]);
    }
    for &(alg, imp) in COMPARATORS {
        add(alg, imp, COMPARATOR_SIZES);
    }
    for &(alg, imp) in SWEEP_COMPARATORS {
        add(alg, imp, SWEEP_SIZES);
    }
    for (alg, imp) in picked() {
        add(alg, imp, COMPARATOR_SIZES);
    }
    // Badger's table 1: finalization is the cost of the empty message, the
    // hash per byte the difference to a long one.
    add(BADGER_TABLE_ALG, Imp::Fastmac, &[0, BADGER_HASH_SIZE]);
    add(BADGER_KEY_SETUP, Imp::Fastmac, &[0]);
    add(BADGER_SEQUENTIAL, Imp::Fastmac, &[0]);
    // Badger's appendix C (figure 6): both modes across message sizes.
    add(BADGER_SEQUENTIAL, Imp::Fastmac, SWEEP_SIZES);
    jobs.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_cell_is_planned_once() {
        let jobs = jobs(&[]);
        let has = |alg: &str, size| jobs.iter().any(|j| j.alg == alg && j.imp == Imp::Fastmac && j.size == size);
        for alg in OPENSSH_ALGS {
            for &size in SWEEP_SIZES.iter().chain(OPENSSH_SIZES) {
                assert!(has(alg, size), "{alg} {size}");
            }
        }
        for alg in ACSA_ALGS {
            for &size in ACSA_SIZES {
                assert!(has(alg, size), "{alg} {size}");
            }
        }
        let mut sorted = jobs.clone();
        sorted.dedup();
        assert_eq!(sorted.len(), jobs.len());
    }
}
