//! The gears' cost models, measured (docs/gears.md section 6.7): a short
//! micro-benchmark of every gear of the table at a few lengths, the line
//! `a + b * len` fitted through the times, and the two cost ratios of the
//! gear table. The library takes the models as configuration and never
//! measures time; this module is the one place that does it for the
//! `fastmac gears` commands.

use std::hint::black_box;
use std::time::{Duration, Instant};

use fastmac::umac::Umac128;
use fastmac_gears::table::{Gear, gears};
use fastmac_gears::wire::{HEADER_LEN, group_nonce};
use fastmac_gears::{Check, CostModel, EpochKeys, NonceMode, Profile, SampleRate, SessionSecret};

/// ns per call of `f`: the fastest of many short batches (about 20 us
/// each) run for about `round` in all. Other processes only ever add time,
/// and a batch shorter than a scheduler time slice often runs undisturbed,
/// so the minimum is the estimate least affected by a busy machine.
fn time_per_call(round: Duration, mut f: impl FnMut()) -> f64 {
    const BATCH: Duration = Duration::from_micros(20);
    let mut batch = 1u64;
    loop {
        let start = Instant::now();
        for _ in 0..batch {
            black_box(&mut f)();
        }
        if start.elapsed() >= BATCH || batch >= 1 << 24 {
            break;
        }
        batch *= 2;
    }
    let begin = Instant::now();
    let mut best = f64::INFINITY;
    while begin.elapsed() < round {
        let start = Instant::now();
        for _ in 0..batch {
            black_box(&mut f)();
        }
        best = best.min(start.elapsed().as_nanos() as f64 / batch as f64);
    }
    best
}

/// Message lengths of the table: a small packet, the IPv4 minimum
/// reassembly size, an Ethernet frame, a jumbo frame.
pub const LENGTHS: [usize; 4] = [64, 576, 1500, 9000];

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
fn measure(keys: &EpochKeys, gear: &Gear, len: usize, round: Duration) -> f64 {
    let msg = vec![0x5au8; len + HEADER_LEN];
    let (header, payload) = msg.split_at(HEADER_LEN);
    let nonce = [7u8; 12];
    let mut pads = keys.pads(NonceMode::Group);
    let field = keys.field(&mut pads, &group_nonce(0, 0), &msg);
    let hmac = keys.hmac_tag(&msg);
    let mut seq = 0u64;
    match (gear.profile, gear.check) {
        (_, None) => time_per_call(round, || {
            black_box(keys.hmac_tag(black_box(&msg)));
        }),
        (Profile::Badger160, Some(check)) => {
            let nonce = 1u64.to_be_bytes();
            let tag = keys.badger_tag(&nonce, &msg).expect("non-zero nonce");
            time_per_call(round, || {
                black_box(keys.verify_badger(check.badger_trees(), &nonce, black_box(&msg), &tag)).ok();
            })
        }
        (Profile::Sample(rate), Some(_)) => {
            let tag = keys.sample_tag(rate, &nonce, header, payload);
            time_per_call(round, || {
                black_box(keys.verify_sample(rate, &nonce, header, black_box(payload), &tag)).ok();
            })
        }
        (_, Some(check)) => time_per_call(round, || {
            seq += 1;
            let hmac = check.checks_hmac().then_some(&hmac[..]);
            black_box(keys.verify_umac(&mut pads, check, &group_nonce(seq, 0), black_box(&msg), &field, hmac)).ok();
        }),
    }
}

/// Calibrates every gear: `LENGTHS.len()` rounds of about `round` each.
pub fn calibrate(round: Duration) -> Vec<Calibration> {
    let keys = calibration_keys();
    gears()
        .into_iter()
        .map(|gear| {
            let verify_ns = LENGTHS.map(|len| measure(&keys, &gear, len, round));
            let points: Vec<(usize, f64)> = LENGTHS.iter().copied().zip(verify_ns).collect();
            Calibration { gear, verify_ns, model: CostModel::fit(&points) }
        })
        .collect()
}

/// The cost model of every receiver check of a UMAC prefix, from a
/// calibration: the prefixes measured, U128+H128 as U128 plus H128.
pub fn umac_costs(calibration: &[Calibration]) -> Vec<(Check, CostModel)> {
    let model = |check: Option<Check>| {
        calibration
            .iter()
            .find(|c| c.gear.check == check && c.gear.profile.is_umac_prefix())
            .map_or(CostModel::ZERO, |c| c.model)
    };
    Check::all()
        .into_iter()
        .map(|check| {
            let cost = match check {
                Check::U128H128 => model(Some(Check::U128)).plus(model(None)),
                c => model(Some(c)),
            };
            (check, cost)
        })
        .collect()
}

/// The cost model of each check of a Badger-160 tag (1 to 5 trees), from
/// a calibration.
pub fn badger_costs(calibration: &[Calibration]) -> Vec<(Check, CostModel)> {
    calibration
        .iter()
        .filter_map(|c| match (c.gear.profile, c.gear.check) {
            (Profile::Badger160, Some(check)) => Some((check, c.model)),
            _ => None,
        })
        .collect()
}

/// The cost model of each partial MAC S-L, from a calibration.
pub fn sample_costs(calibration: &[Calibration]) -> Vec<(SampleRate, CostModel)> {
    calibration
        .iter()
        .filter_map(|c| match c.gear.profile {
            Profile::Sample(rate) => Some((rate, c.model)),
            _ => None,
        })
        .collect()
}

/// The two cost ratios of the gear table, measured at `len` bytes: the 16-byte
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
        for (check, out) in [(Check::U32, &mut r.depth1_ns), (Check::U128, &mut r.depth4_ns)] {
            *out = out.min(time_per_call(slice, || {
                received += 1;
                let nonce = group_nonce(received, 0);
                black_box(keys.verify_umac(&mut receiver_pads, check, &nonce, black_box(&msg), &field, None)).ok();
            }));
        }
    }
    r
}
