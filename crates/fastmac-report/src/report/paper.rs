//! The source papers, and the figures they printed, shown beside this
//! machine's so a reader sees both. They are the papers' data (quoted with
//! their machines), never used to fill a cell that this run did not
//! measure.

/// A source, cited by title, authors and year.
#[derive(Debug, Clone, Copy)]
pub struct Source {
    /// Title.
    pub title: &'static str,
    /// Authors.
    pub authors: &'static str,
    /// Where and when it appeared.
    pub published: &'static str,
}

impl Source {
    /// `Authors, "Title" (published)`.
    pub fn cite(&self) -> String {
        format!("{}, \"{}\" ({})", self.authors, self.title, self.published)
    }
}

/// The OpenSSH paper: its timing table (section 4.4) and figure 1.
pub const OPENSSH: Source =
    Source { title: "MAC algorithms in OpenSSH", authors: "Peter Valchev", published: "CPSC 503 Forum, 2007" };

/// The Badger paper: table 1 and appendix C, figure 6.
pub const BADGER: Source = Source {
    title: "Badger \u{2014} A Fast and Provably Secure MAC",
    authors: "Martin Boesgaard, Thomas Christensen, Erik Zenner",
    published: "ACNS 2005",
};

/// The ACSA slides: the cycles-per-byte table and the strength chart.
pub const ACSA: Source = Source {
    title: "Adaptively Trading Off Strength and Performance in Network Authentication",
    authors: "David W. Carman",
    published: "RSA Conference 2000",
};

/// The Go UMAC package's README, with its `go test -bench` figures.
pub const GO: Source =
    Source { title: "UMAC in Go (README)", authors: "github.com/fakeboboliu/umac", published: "undated" };

/// UMAC itself: the forgery bounds of the strength table.
pub const RFC4418: Source = Source {
    title: "UMAC: Message Authentication Code using Universal Hashing",
    authors: "T. Krovetz (ed.)",
    published: "RFC 4418, 2006",
};

/// Every source, in the order the report cites them.
pub const SOURCES: &[Source] = &[OPENSSH, ACSA, BADGER, GO, RFC4418];

/// The OpenSSH paper, section 4.4: milliseconds for 1000 `mac_compute()` calls on a
/// Pentium 4, at 32 and 512 bytes.
pub const OPENSSH_PENTIUM4_MS: &[(&str, f64, f64)] = &[
    ("hmac-md5", 15.0, 20.0),
    ("hmac-sha1", 17.0, 22.0),
    ("hmac-ripemd160", 20.0, 30.0),
    ("umac-64", 1.0, 3.0),
    ("umac-128", 1.0, 5.0),
];

/// The machine of [`OPENSSH_PENTIUM4_MS`].
pub const OPENSSH_MACHINE: &str = "Pentium 4 (OpenSSH paper, 2007)";

/// The ACSA slides, "Performance Measurements": cycles per byte at 4096 and 65536
/// bytes. The slides' UMAC rows are the 1999 UMAC-MMX drafts, paired here
/// with the RFC 4418 tag length of the same collision bound; the PMAC rows
/// are the slides' partial MACs.
pub const ACSA_CYCLES_PER_BYTE: &[(&str, &str, f64, f64)] = &[
    ("hmac-sha1-96", "HMAC-SHA-1-96", 13.0, 13.0),
    ("hmac-md5-96", "HMAC-MD5-96", 6.4, 6.3),
    ("umac-64", "UMAC-MMX-60", 1.42, 1.35),
    ("umac-32", "UMAC-MMX-30", 1.01, 0.76),
];

/// The slides' remaining rows, which have no counterpart in fastmac yet.
pub const ACSA_UNPAIRED: &[(&str, f64, f64)] = &[
    ("UMAC-MMX-45", 1.23, 1.13),
    ("UMAC-MMX-15", 0.80, 0.53),
    ("PMAC-8", 0.77, 0.44),
    ("PMAC-16", 0.68, 0.20),
    ("PMAC-32", 0.62, 0.10),
    ("PMAC-64", 0.60, 0.076),
    ("PMAC-128", 0.58, 0.055),
    ("PMAC-256", 0.57, 0.047),
    ("PMAC-512", 0.57, 0.044),
];

/// The machine of the ACSA slides (the deck names a Pentium-class PC with
/// MMX; it gives no exact model).
pub const ACSA_MACHINE: &str = "MMX Pentium-class PC (ACSA slides, 2000)";

/// The Badger paper, table 1: Badger with 2 x 32-bit tags.
/// (function, Pentium III, Pentium 4, unit)
pub const BADGER_TABLE1: &[(&str, f64, f64, &str)] = &[
    ("Key setup", 4093.0, 5854.0, "cycles"),
    ("Universal hash", 2.2, 1.3, "cycles/byte"),
    ("Finalization without IV", 175.0, 220.0, "cycles"),
    ("Finalization with IV", 433.0, 800.0, "cycles"),
];

/// The machines of [`BADGER_TABLE1`].
pub const BADGER_MACHINES: &str = "1.0 GHz Pentium III / 1.7 GHz Pentium 4 (Badger paper, 2005)";

/// The Go package's README: its `go test -bench` on an AWS t3.nano
/// (Xeon Platinum 8259CL, no SHA extensions): ns/op at 32 B and 1 KiB.
pub const GO_NS_PER_OP: &[(&str, f64, f64)] = &[
    ("hmac-sha2-256", 670.2, 3614.0),
    ("hmac-md5", 415.3, 2161.0),
    ("umac-64", 152.1, 379.2),
    ("umac-128", 172.0, 595.2),
];

/// The machine of [`GO_NS_PER_OP`].
pub const GO_MACHINE: &str = "Xeon Platinum 8259CL, t3.nano (Go package README)";

/// Looks a row up by algorithm name.
pub fn lookup<'a, T>(rows: &'a [T], alg: &str, key: impl Fn(&T) -> &str) -> Option<&'a T> {
    rows.iter().find(|row| key(row) == alg)
}
