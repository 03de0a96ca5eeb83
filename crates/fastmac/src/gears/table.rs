//! The gear table (gears.md 6.2): every gear with its strength and its
//! measured cost, the strength-versus-performance trade-off.

use std::hint::black_box;
use std::time::Duration;

use super::cost::{CostModel, time_per_call};
use super::keys::{EpochKeys, SessionSecret};
use super::level::{Level, SampleRate};
use super::wire::{NonceMode, group_nonce};
use crate::umac::Umac128;

/// Message lengths of the table: a small packet, the IPv4 minimum
/// reassembly size, an Ethernet frame, a jumbo frame.
pub const LENGTHS: [usize; 4] = [64, 576, 1500, 9000];

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
    /// Name as in gears.md 6.2.
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
        #[cfg(feature = "gears-t8")]
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
                    #[cfg(feature = "gears-t8")]
                    Level::T8 => "test builds only",
                    _ => "yes",
                };
                (level.name(), level.umac_bytes(), Strength::Forgery(f64::from(level.bound_log2())), availability)
            }
            Gear::H128 => ("H128", 16, Strength::Forgery(-128.0), "optional, own key"),
            Gear::Badger(trees) => {
                let name = ["B32", "B64", "B96", "B128", "B160"][trees.clamp(1, 5) - 1];
                let longest = (super::wire::HEADER_LEN + super::wire::MAX_PAYLOAD) as u64;
                let bound = crate::badger::forgery_bound_log2(trees, longest);
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

/// Measured costs of one gear.
#[derive(Clone, Debug)]
pub struct Calibration {
    /// The gear.
    pub gear: Gear,
    /// Receiver's verification cost at each of [`LENGTHS`], ns.
    pub verify_ns: [f64; LENGTHS.len()],
    /// The line fitted through them.
    pub model: CostModel,
}

/// The calibration key: public and fixed, since only timing is measured.
fn calibration_keys() -> EpochKeys {
    EpochKeys::derive(&SessionSecret::new(b"fastmac gears calibration key!!!").expect("32 bytes"), 0)
}

/// Measures the verification cost of `gear` at one length, on in-order
/// packets as a receiver sees them. The tags are those of packet 0, so
/// later packets fail after doing all the work (in constant time): the
/// cost of an authentic packet.
fn measure(keys: &EpochKeys, gear: Gear, len: usize, round: Duration) -> f64 {
    let msg = vec![0x5au8; len + 20];
    let (header, payload) = msg.split_at(20);
    let nonce = [7u8; 12];
    let mut pads = keys.pads(NonceMode::Group);
    let field = keys.field(&mut pads, &group_nonce(0, 0), &msg);
    let hmac = keys.hmac_tag(&msg);
    let mut seq = 0u64;
    match gear {
        Gear::Umac(level) => time_per_call(round, || {
            seq += 1;
            let hmac = level.checks_hmac().then_some(&hmac[..]);
            black_box(keys.verify_level(&mut pads, level, &group_nonce(seq, 0), black_box(&msg), &field, hmac)).ok();
        }),
        Gear::H128 => time_per_call(round, || {
            black_box(keys.hmac_tag(black_box(&msg)));
        }),
        Gear::Badger(trees) => {
            let nonce = 1u64.to_be_bytes();
            let tag = keys.badger_tag(&nonce, &msg).expect("non-zero nonce");
            time_per_call(round, || {
                black_box(keys.verify_badger(trees, &nonce, black_box(&msg), &tag)).ok();
            })
        }
        Gear::Sample(rate) => {
            let tag = keys.sample_tag(rate, &nonce, header, payload);
            time_per_call(round, || {
                black_box(keys.verify_sample(rate, &nonce, header, black_box(payload), &tag)).ok();
            })
        }
    }
}

/// Calibrates every gear: `LENGTHS.len()` rounds of about `round` each.
pub fn calibrate(round: Duration) -> Vec<Calibration> {
    let keys = calibration_keys();
    Gear::all()
        .into_iter()
        .map(|gear| {
            let verify_ns = LENGTHS.map(|len| measure(&keys, gear, len, round));
            let points: Vec<(usize, f64)> = LENGTHS.iter().copied().zip(verify_ns).collect();
            Calibration { gear, verify_ns, model: CostModel::fit(&points) }
        })
        .collect()
}

/// The cost model of every receiver level, from a calibration: the UMAC
/// levels measured, U128+H128 as U128 plus H128.
pub fn level_costs(calibration: &[Calibration]) -> Vec<(Level, CostModel)> {
    let model = |g: Gear| calibration.iter().find(|c| c.gear == g).map_or(CostModel::ZERO, |c| c.model);
    Level::all()
        .into_iter()
        .map(|level| {
            let cost = match level {
                Level::U128H128 => model(Gear::Umac(Level::U128)).plus(model(Gear::H128)),
                l => model(Gear::Umac(l)),
            };
            (level, cost)
        })
        .collect()
}

/// The cost model of checking 1 to 5 Badger trees, from a calibration.
pub fn badger_costs(calibration: &[Calibration]) -> Vec<(usize, CostModel)> {
    calibration
        .iter()
        .filter_map(|c| match c.gear {
            Gear::Badger(trees) => Some((trees, c.model)),
            _ => None,
        })
        .collect()
}

/// The two cost ratios of the issue, measured at `len` bytes: the 16-byte
/// field against UMAC-128 alone (sender), and depth 1 against depth 4
/// (receiver).
#[derive(Clone, Copy, Debug)]
pub struct Ratios {
    /// ns of the gears field (`EpochKeys::field`).
    pub field_ns: f64,
    /// ns of `Umac128::mac`.
    pub umac128_ns: f64,
    /// ns of verifying at depth 1 (U32).
    pub depth1_ns: f64,
    /// ns of verifying at depth 4 (U128).
    pub depth4_ns: f64,
}

/// Measures [`Ratios`] at `len` bytes, on in-order packets: the sender's
/// field and UMAC-128 on consecutive counter nonces (both with their pad
/// caches), the receiver's checks on consecutive packets of one sender.
pub fn measure_ratios(len: usize, round: Duration) -> Ratios {
    let keys = calibration_keys();
    let msg = vec![0x5au8; len];
    let mut umac = Umac128::new(b"fastmac gears ca");
    let mut sender_pads = keys.pads(NonceMode::Group);
    let mut receiver_pads = keys.pads(NonceMode::Group);
    let field = keys.field(&mut sender_pads, &group_nonce(0, 0), &msg);
    let (mut sent, mut received, mut counter) = (0u64, 0u64, 0u64);
    // The two sides of each ratio are measured in alternation, so a change
    // in the machine's load affects both alike.
    let slice = round / 5;
    let mut r = Ratios { field_ns: f64::INFINITY, umac128_ns: f64::INFINITY, depth1_ns: f64::INFINITY, depth4_ns: f64::INFINITY };
    for _ in 0..5 {
        r.field_ns = r.field_ns.min(time_per_call(slice, || {
            sent += 1;
            black_box(keys.field(&mut sender_pads, &group_nonce(sent, 0), black_box(&msg)));
        }));
        r.umac128_ns = r.umac128_ns.min(time_per_call(slice, || {
            counter += 1;
            black_box(umac.mac(&counter.to_be_bytes(), black_box(&msg)).ok());
        }));
        for (level, out) in [(Level::U32, &mut r.depth1_ns), (Level::U128, &mut r.depth4_ns)] {
            *out = out.min(time_per_call(slice, || {
                received += 1;
                let nonce = group_nonce(received, 0);
                black_box(keys.verify_level(&mut receiver_pads, level, &nonce, black_box(&msg), &field, None)).ok();
            }));
        }
    }
    r
}
