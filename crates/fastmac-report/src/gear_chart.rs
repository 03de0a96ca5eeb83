//! The strength-versus-cost chart of the gear table (`fastmac gears table
//! --svg`), drawn by the benchmark's one chart module ([`crate::chart`]): one panel per table
//! length, one labelled point per gear in every panel.

use fastmac_gears::Profile;
use fastmac_gears::table::{Gear, Strength};

use crate::chart::{Axis, Chart, Panel, Scale, Series, Style};
use crate::gear_table::{Calibration, LENGTHS};

/// Which series a gear belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Family {
    /// UMAC prefixes: strength grows with the prefix's cost.
    Umac,
    /// Badger-160 trees: strength grows with the trees checked.
    Badger,
    /// H128 alone (HMAC under its own key).
    Hmac,
    /// Partial MACs: a detection rate, no forgery bound.
    Sample,
}

impl Family {
    const ALL: [Family; 4] = [Family::Umac, Family::Badger, Family::Hmac, Family::Sample];

    fn of(gear: &Gear) -> Family {
        match (gear.profile, gear.check) {
            (Profile::Badger160, _) => Family::Badger,
            (Profile::Sample(_), _) => Family::Sample,
            (_, None) => Family::Hmac,
            _ => Family::Umac,
        }
    }

    fn series(self) -> (&'static str, Style) {
        match self {
            Family::Umac => ("UMAC prefixes", Style::Line),
            Family::Badger => ("Badger-160 trees", Style::Dashed),
            Family::Hmac => ("H128 (HMAC, own key)", Style::Points),
            Family::Sample => ("S-L: no forgery bound", Style::Rings),
        }
    }
}

/// Bits of forgery resistance per attempt; 0 for a detection rate.
fn bits(strength: Strength) -> f64 {
    match strength {
        Strength::Forgery(log2) => -log2,
        Strength::Detection { .. } => 0.0,
    }
}

/// The chart: for each length, each gear at (its cost there, its bits),
/// labelled with its name; lines run from the weakest point to the
/// strongest.
pub fn strength_chart(cal: &[Calibration]) -> Chart {
    let panels = LENGTHS
        .iter()
        .enumerate()
        .map(|(i, len)| Panel {
            title: format!("{len}-byte datagrams"),
            x: Axis { label: "receiver's verification cost, ns per datagram".into(), scale: Scale::Log, ticks: vec![] },
            y: Axis {
                label: "bits: -log2 forgery bound per attempt (S-L at 0)".into(),
                scale: Scale::Linear,
                ticks: vec![0.0, 30.0, 60.0, 90.0, 120.0, 150.0],
            },
            series: Family::ALL
                .into_iter()
                .filter(|family| cal.iter().any(|c| Family::of(&c.gear) == *family))
                .map(|family| {
                    let (name, style) = family.series();
                    let mut points: Vec<(f64, f64, Option<String>)> = cal
                        .iter()
                        .filter(|c| Family::of(&c.gear) == family)
                        .map(|c| (c.verify_ns[i], bits(c.gear.strength), Some(c.gear.name.to_owned())))
                        .collect();
                    points.sort_by(|a, b| a.1.total_cmp(&b.1).then(a.0.total_cmp(&b.0)));
                    Series { name: name.into(), style, points }
                })
                .collect(),
            markers: vec![],
        })
        .collect();
    Chart { id: "gears-strength", title: "fastmac gears: strength vs verification cost (this machine)".into(), panels }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fastmac_gears::CostModel;
    use fastmac_gears::table::gears;

    #[test]
    fn every_gear_is_a_labelled_point_in_every_panel() {
        let cal: Vec<Calibration> = gears()
            .into_iter()
            .enumerate()
            .map(|(i, gear)| Calibration { gear, verify_ns: LENGTHS.map(|l| (l + i) as f64), model: CostModel::ZERO })
            .collect();
        let chart = strength_chart(&cal);
        assert_eq!(chart.panels.len(), LENGTHS.len());
        for (panel, len) in chart.panels.iter().zip(LENGTHS) {
            let mut labels: Vec<&str> =
                panel.series.iter().flat_map(|s| s.points.iter().map(|p| p.2.as_deref().unwrap())).collect();
            labels.sort_unstable();
            let mut names: Vec<&str> = cal.iter().map(|c| c.gear.name).collect();
            names.sort_unstable();
            assert_eq!(labels, names);
            let u32 = panel.series[0].points.iter().find(|p| p.2.as_deref() == Some("U32")).unwrap();
            assert_eq!(u32.0, len as f64 + 3.0);
            assert_eq!(panel.series[0].points[0].2.as_deref(), Some("U32"), "the line starts at its weakest point");
        }
        let rings = chart.panels[0].series.iter().find(|s| s.style == Style::Rings).unwrap();
        assert!(rings.points.iter().all(|p| p.1 == 0.0));
        let svg = chart.to_svg();
        assert_eq!(svg.matches(r#"class="point-label""#).count(), LENGTHS.len() * cal.len());
    }
}
