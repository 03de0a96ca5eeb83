//! What the report measures: the algorithms and sizes of the seven tables
//! (issue 7), named as `fastmac list` names them. A row whose algorithm the
//! library does not have is reported missing, never filled in.

/// Where a measured row comes from: fastmac itself or a comparator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Impl {
    /// fastmac's own implementation.
    Fastmac,
    /// GNU Nettle's UMAC, loaded at run time.
    Nettle,
    /// RustCrypto's crates (Poly1305, HMAC-SHA256).
    RustCrypto,
    /// The vectorized pure read pass: the floor no MAC can beat.
    ReadLimit,
}

impl Impl {
    /// The `impl` field of results.json.
    pub fn name(self) -> &'static str {
        match self {
            Impl::Fastmac => "fastmac",
            Impl::Nettle => "nettle",
            Impl::RustCrypto => "rustcrypto",
            Impl::ReadLimit => "read-limit",
        }
    }
}

/// One thing to time: an algorithm of one implementation at one message size.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Job {
    /// Algorithm name (`umac-64`, `hmac-sha1`, `read-limit`, ...).
    pub alg: String,
    /// Who implements it.
    pub imp: Impl,
    /// Message size in bytes.
    pub size: usize,
}

/// The OpenSSH paper's algorithms (seed 000, section 4.4), then the ones
/// the issue adds to its table.
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

/// The ACSA slides' packet sizes (seed 004, "Performance Measurements").
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

/// The Go package's benchmark (seed 003).
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

/// Badger-64's key setup alone, timed as a job of size 0.
pub const BADGER_KEY_SETUP: &str = "badger-64/key-setup";

/// Badger-64 in sequential mode (no IV setup: the pad is the next bytes of
/// one keystream), timed on the empty message.
pub const BADGER_SEQUENTIAL: &str = "badger-64/sequential";

/// Comparators measured in the same run: Nettle's UMAC at the four tag
/// lengths, RustCrypto's Poly1305 and HMAC-SHA256, and the read pass.
pub const COMPARATORS: &[(&str, Impl)] = &[
    ("umac-32", Impl::Nettle),
    ("umac-64", Impl::Nettle),
    ("umac-96", Impl::Nettle),
    ("umac-128", Impl::Nettle),
    ("poly1305", Impl::RustCrypto),
    ("hmac-sha256", Impl::RustCrypto),
    ("read-limit", Impl::ReadLimit),
];

/// The comparators drawn in figure 1 beside the paper's algorithms (more
/// lines would hide the paper's).
pub const SWEEP_COMPARATORS: &[(&str, Impl)] = &[
    ("umac-64", Impl::Nettle),
    ("umac-128", Impl::Nettle),
    ("poly1305", Impl::RustCrypto),
    ("read-limit", Impl::ReadLimit),
];

/// Extra algorithms (the gears and partial MACs of issue 8) that join the
/// ACSA table and the strength chart when the library has them.
pub fn extra_acsa_algs(known: &[String]) -> Vec<String> {
    known
        .iter()
        .filter(|name| name.starts_with("gear"))
        .cloned()
        .collect()
}

/// Every job the seven tables need, each once, in a stable order.
pub fn jobs(extra: &[String]) -> Vec<Job> {
    let mut jobs = std::collections::BTreeSet::new();
    let mut add = |alg: &str, imp: Impl, sizes: &[usize]| {
        for &size in sizes {
            jobs.insert(Job { alg: alg.to_owned(), imp, size });
        }
    };
    for alg in OPENSSH_ALGS {
        add(alg, Impl::Fastmac, SWEEP_SIZES);
    }
    for alg in ACSA_ALGS.iter().copied().chain(extra.iter().map(String::as_str)) {
        add(alg, Impl::Fastmac, ACSA_SIZES);
        add(alg, Impl::Fastmac, &[STRENGTH_SIZE]);
    }
    for alg in GO_ALGS {
        add(alg, Impl::Fastmac, GO_SIZES);
    }
    for alg in OPENSSH_ALGS {
        add(alg, Impl::Fastmac, &[STRENGTH_SIZE]);
    }
    for &(alg, imp) in COMPARATORS {
        add(alg, imp, COMPARATOR_SIZES);
    }
    for &(alg, imp) in SWEEP_COMPARATORS {
        add(alg, imp, SWEEP_SIZES);
    }
    // Badger's table 1: finalization is the cost of the empty message, the
    // hash per byte the difference to a long one.
    add(BADGER_TABLE_ALG, Impl::Fastmac, &[0, BADGER_HASH_SIZE]);
    add(BADGER_KEY_SETUP, Impl::Fastmac, &[0]);
    add(BADGER_SEQUENTIAL, Impl::Fastmac, &[0]);
    // Badger's appendix C (figure 6): both modes across message sizes.
    add(BADGER_SEQUENTIAL, Impl::Fastmac, SWEEP_SIZES);
    jobs.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_table_cell_is_planned_once() {
        let jobs = jobs(&[]);
        let has = |alg: &str, size| jobs.iter().any(|j| j.alg == alg && j.imp == Impl::Fastmac && j.size == size);
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
