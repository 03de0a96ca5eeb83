//! The gear table measured (docs/gears.md section 6.7): the receiver's cost
//! of every gear of `fastmac_gears::table::gears` at a few lengths, timed
//! by the measurement core's one loop (`measure::timing`) on the gear
//! subjects of `measure::gears`; the line `a + b * len` fitted through the
//! times; the cost models the receiver takes as configuration; and the two
//! cost ratios of the gear table. The library never measures time.

use std::time::Duration;

use fastmac_gears::table::{Gear, gears};
use fastmac_gears::{Check, CostModel, Profile, SampleRate};

use crate::measure::gears::{FIELD, Work, work_subject};
use crate::measure::{self, Imp, Row, Subject, registry, timing};

/// Datagram lengths of the table (header included, as the receiver charges
/// its cost models): a small packet, the IPv4 minimum reassembly size, an
/// Ethernet frame, a jumbo frame.
pub const LENGTHS: [usize; 4] = [64, 576, 1500, 9000];

/// Measured costs of one gear.
#[derive(Clone, Debug)]
pub struct Calibration {
    /// The gear.
    pub gear: Gear,
    /// Receiver's verification cost at each of [`LENGTHS`], ns (medians).
    pub verify_ns: [f64; LENGTHS.len()],
    /// The line fitted through them.
    pub model: CostModel,
}

/// Measures every gear of the table at each of [`LENGTHS`], about `round`
/// per gear and length, the gears of one length interleaved.
pub fn calibrate(round: Duration) -> Result<Vec<Calibration>, String> {
    let table = gears();
    let mut subjects: Vec<Subject> =
        table.iter().map(|gear| work_subject(gear.name, Work::of(gear))).collect::<Result<_, _>>()?;
    let mut rows = Vec::new();
    for len in LENGTHS {
        let mut batch: Vec<&mut Subject> = subjects.iter_mut().collect();
        rows.extend(timing::measure_size(&mut batch, len, round)?);
    }
    Ok(fit_all(table, &rows))
}

/// Each gear's medians at [`LENGTHS`] from the rows of one run (named by
/// the gears' names), and the line through them. A length with no row
/// costs nothing, so a missing row shows as 0 ns in the table.
fn fit_all(table: Vec<Gear>, rows: &[Row]) -> Vec<Calibration> {
    table
        .into_iter()
        .map(|gear| {
            let verify_ns = LENGTHS
                .map(|len| rows.iter().find(|r| r.alg == gear.name && r.size == len).map_or(0.0, |r| r.ns_per_msg));
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

/// The two cost ratios of the gear table at one length: the 16-byte field
/// against UMAC-128 alone (sender), and depth 1 against depth 4 (receiver).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ratios {
    /// ns of the gears field (`EpochKeys::field`).
    pub field_ns: f64,
    /// ns of `Umac128::mac` (the registry's `umac-128`).
    pub umac128_ns: f64,
    /// ns of verifying at depth 1 (U32).
    pub depth1_ns: f64,
    /// ns of verifying at depth 4 (U128).
    pub depth4_ns: f64,
    /// The field's time over UMAC-128's ([`measure::ratio`]: per round,
    /// the sides timed side by side).
    pub field_over_umac128: f64,
    /// Depth 1's time over depth 4's, likewise.
    pub depth1_over_depth4: f64,
}

/// The subject names of the four sides of [`Ratios`], in its field order.
const RATIO_SIDES: [&str; 4] = [FIELD, "umac-128", "U32", "U128"];

/// Measures [`Ratios`] at `len` bytes, about `round` per side: the four
/// sides interleaved in the one timing loop, so a change in the machine's
/// load affects them alike.
pub fn measure_ratios(len: usize, round: Duration) -> Result<Ratios, String> {
    let umac128 = registry()
        .into_iter()
        .find(|e| e.alg == RATIO_SIDES[1] && e.imp == Imp::Fastmac)
        .ok_or("umac-128 is not in the registry")?
        .make()?;
    let mut subjects = [
        work_subject(RATIO_SIDES[0], Work::Field)?,
        umac128,
        work_subject(RATIO_SIDES[2], Work::Umac(Check::U32))?,
        work_subject(RATIO_SIDES[3], Work::Umac(Check::U128))?,
    ];
    let mut batch: Vec<&mut Subject> = subjects.iter_mut().collect();
    ratios(&timing::measure_size(&mut batch, len, round)?)
}

/// [`Ratios`] from the rows of the four sides.
fn ratios(rows: &[Row]) -> Result<Ratios, String> {
    let side = |alg: &str| rows.iter().find(|r| r.alg == alg).ok_or_else(|| format!("no row for {alg}"));
    let [field, umac, depth1, depth4] = RATIO_SIDES.map(side);
    let [field, umac, depth1, depth4] = [field?, umac?, depth1?, depth4?];
    Ok(Ratios {
        field_ns: field.ns_per_msg,
        umac128_ns: umac.ns_per_msg,
        depth1_ns: depth1.ns_per_msg,
        depth4_ns: depth4.ns_per_msg,
        field_over_umac128: measure::ratio(field, umac),
        depth1_over_depth4: measure::ratio(depth1, depth4),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(alg: &str, size: usize, ns: f64) -> Row {
        Row {
            alg: alg.into(),
            imp: Imp::Fastmac,
            size,
            ns_per_msg: ns,
            ns_min: ns,
            gb_per_s: size as f64 / ns,
            cycles_per_byte: None,
            cycles_per_msg: None,
            threads: 1,
            backend: None,
            state_bytes: None,
            samples: 5,
            loops: timing::Loops::default(),
        }
    }

    #[test]
    fn each_gear_gets_its_rows_and_the_line_through_them() {
        let table = gears();
        let rows: Vec<Row> =
            LENGTHS.iter().flat_map(|&len| [row("U64", len, 100.0 + len as f64), row("H128", len, 7.0)]).collect();
        let cal = fit_all(table.clone(), &rows);
        assert_eq!(cal.len(), table.len());
        let u64 = cal.iter().find(|c| c.gear.name == "U64").unwrap();
        assert_eq!(u64.verify_ns, LENGTHS.map(|len| 100.0 + len as f64));
        assert!((u64.model.a_ns - 100.0).abs() < 1e-6 && (u64.model.b_ns_per_byte - 1.0).abs() < 1e-9);
        let u32 = cal.iter().find(|c| c.gear.name == "U32").unwrap();
        assert_eq!((u32.verify_ns, u32.model), ([0.0; 4], CostModel::ZERO));
        // U128+H128 costs U128 plus H128; U64 its own line.
        let costs = umac_costs(&cal);
        let of = |check| costs.iter().find(|c| c.0 == check).unwrap().1;
        assert_eq!(of(Check::U64), u64.model);
        assert!((of(Check::U128H128).a_ns - 7.0).abs() < 1e-6);
        assert_eq!(badger_costs(&cal).len(), 5);
        assert_eq!(sample_costs(&cal).len(), SampleRate::ALL.len());
    }

    #[test]
    fn ratios_take_each_side_by_name() {
        let rows =
            [row("U128", 1500, 40.0), row(FIELD, 1500, 10.0), row("U32", 1500, 30.0), row("umac-128", 1500, 20.0)];
        let expected = Ratios {
            field_ns: 10.0,
            umac128_ns: 20.0,
            depth1_ns: 30.0,
            depth4_ns: 40.0,
            field_over_umac128: 0.5,
            depth1_over_depth4: 0.75,
        };
        assert_eq!(ratios(&rows), Ok(expected));
        assert!(ratios(&rows[1..]).unwrap_err().contains("U128"));
    }
}
