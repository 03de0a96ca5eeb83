//! Charts as hand-built SVG: log or linear axes with units, one `<g
//! class="series">` per series (the tests count them), a legend. No fonts,
//! scripts or external files, so the SVG inlines into a self-contained page.

use std::fmt::Write;

/// How an axis maps values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// Evenly spaced values.
    Linear,
    /// Evenly spaced powers (the papers' sweeps span three decades).
    Log,
}

/// One axis.
#[derive(Debug, Clone)]
pub struct Axis {
    /// Label with unit, e.g. "packet size (bytes)".
    pub label: String,
    /// Mapping.
    pub scale: Scale,
    /// Tick values; chosen from the data when empty.
    pub ticks: Vec<f64>,
}

/// How a series is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// A solid line through markers: fastmac.
    Line,
    /// A dashed line: a comparator measured in the same run.
    Dashed,
    /// Markers only, each labelled (the strength chart).
    Points,
}

/// One named series.
#[derive(Debug, Clone)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// How to draw it.
    pub style: Style,
    /// (x, y) points with an optional label each.
    pub points: Vec<(f64, f64, Option<String>)>,
}

/// A chart: the model behind one SVG.
#[derive(Debug, Clone)]
pub struct Chart {
    /// File stem of the .svg and anchor in the page.
    pub id: &'static str,
    /// Title drawn above the plot.
    pub title: String,
    /// The x axis.
    pub x: Axis,
    /// The y axis.
    pub y: Axis,
    /// The series, in legend order.
    pub series: Vec<Series>,
    /// Vertical reference lines (x value, label), e.g. the read limit.
    pub markers: Vec<(f64, String)>,
}

const WIDTH: f64 = 860.0;
const HEIGHT: f64 = 480.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 640.0;
const TOP: f64 = 48.0;
const BOTTOM: f64 = 410.0;

/// Colours that stay distinct on white and in grey print.
const PALETTE: &[&str] = &[
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f",
    "#bcbd22", "#393b79", "#637939", "#843c39", "#7b4173",
];

impl Chart {
    /// The chart as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        let xs = self.values(|p| p.0).chain(self.markers.iter().map(|m| m.0));
        let x_map = Mapper::new(&self.x, xs, LEFT, RIGHT);
        let y_map = Mapper::new(&self.y, self.values(|p| p.1), BOTTOM, TOP);
        let mut svg = String::new();
        let _ = write!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="chart-{id}" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img" font-family="sans-serif" font-size="12">"#,
            id = self.id
        );
        let _ = write!(svg, "<title>{}</title>", escape(&self.title));
        let _ = write!(svg, r##"<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>"##);
        let _ = write!(
            svg,
            r#"<text x="{}" y="24" font-size="15" font-weight="bold" text-anchor="middle">{}</text>"#,
            (LEFT + RIGHT) / 2.0,
            escape(&self.title)
        );
        self.axes(&mut svg, &x_map, &y_map);
        for (x, label) in &self.markers {
            let px = x_map.at(*x);
            let _ = write!(
                svg,
                r##"<g class="marker"><line x1="{px:.1}" y1="{TOP}" x2="{px:.1}" y2="{BOTTOM}" stroke="#555" stroke-dasharray="2 3"/><text x="{:.1}" y="{}" fill="#555" font-size="11">{}</text></g>"##,
                px + 4.0,
                TOP + 12.0,
                escape(label)
            );
        }
        let mut labels = Vec::new();
        for (i, series) in self.series.iter().enumerate() {
            self.draw_series(&mut svg, series, PALETTE[i % PALETTE.len()], &x_map, &y_map, &mut labels);
        }
        self.legend(&mut svg);
        svg.push_str("</svg>\n");
        svg
    }

    fn values(&self, pick: fn(&(f64, f64, Option<String>)) -> f64) -> impl Iterator<Item = f64> + '_ {
        self.series.iter().flat_map(move |s| s.points.iter().map(pick))
    }

    fn axes(&self, svg: &mut String, x_map: &Mapper, y_map: &Mapper) {
        let _ = write!(
            svg,
            r##"<g class="axes" stroke="#000"><line x1="{LEFT}" y1="{BOTTOM}" x2="{RIGHT}" y2="{BOTTOM}"/><line x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{BOTTOM}"/></g>"##
        );
        for &tick in &x_map.ticks {
            let px = x_map.at(tick);
            let _ = write!(
                svg,
                r##"<line x1="{px:.1}" y1="{TOP}" x2="{px:.1}" y2="{BOTTOM}" stroke="#e4e4e4"/><line x1="{px:.1}" y1="{BOTTOM}" x2="{px:.1}" y2="{}" stroke="#000"/><text x="{px:.1}" y="{}" text-anchor="middle">{}</text>"##,
                BOTTOM + 5.0,
                BOTTOM + 19.0,
                tick_label(tick)
            );
        }
        for &tick in &y_map.ticks {
            let py = y_map.at(tick);
            let _ = write!(
                svg,
                r##"<line x1="{LEFT}" y1="{py:.1}" x2="{RIGHT}" y2="{py:.1}" stroke="#e4e4e4"/><line x1="{}" y1="{py:.1}" x2="{LEFT}" y2="{py:.1}" stroke="#000"/><text x="{}" y="{:.1}" text-anchor="end">{}</text>"##,
                LEFT - 5.0,
                LEFT - 8.0,
                py + 4.0,
                tick_label(tick)
            );
        }
        let _ = write!(
            svg,
            r#"<text class="x-label" x="{}" y="{}" text-anchor="middle">{}</text>"#,
            (LEFT + RIGHT) / 2.0,
            BOTTOM + 42.0,
            escape(&axis_text(&self.x))
        );
        let _ = write!(
            svg,
            r#"<text class="y-label" x="18" y="{mid}" text-anchor="middle" transform="rotate(-90 18 {mid})">{}</text>"#,
            escape(&axis_text(&self.y)),
            mid = (TOP + BOTTOM) / 2.0
        );
    }

    fn draw_series(
        &self,
        svg: &mut String,
        series: &Series,
        colour: &str,
        x_map: &Mapper,
        y_map: &Mapper,
        labels: &mut Vec<Rect>,
    ) {
        let _ = write!(svg, r#"<g class="series" data-series="{}">"#, escape(&series.name));
        let points: Vec<(f64, f64)> = series.points.iter().map(|p| (x_map.at(p.0), y_map.at(p.1))).collect();
        if series.style != Style::Points && points.len() > 1 {
            let path: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
            let dash = if series.style == Style::Dashed { r#" stroke-dasharray="6 4""# } else { "" };
            let _ = write!(
                svg,
                r#"<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{}"/>"#,
                path.join(" ")
            );
        }
        let radius = if series.style == Style::Points { 5.0 } else { 3.0 };
        for ((px, py), point) in points.iter().zip(&series.points) {
            let _ = write!(svg, r#"<circle cx="{px:.1}" cy="{py:.1}" r="{radius}" fill="{colour}"/>"#);
            if let Some(label) = &point.2
                && let Some(rect) = place_label(*px, *py, label, labels)
            {
                let _ = write!(
                    svg,
                    r#"<text x="{:.1}" y="{:.1}" font-size="10" fill="{colour}">{}</text>"#,
                    rect.x,
                    rect.y + rect.h - 2.0,
                    escape(label)
                );
                labels.push(rect);
            }
        }
        svg.push_str("</g>");
    }

    fn legend(&self, svg: &mut String) {
        let x = RIGHT + 20.0;
        svg.push_str(r#"<g class="legend">"#);
        for (i, series) in self.series.iter().enumerate() {
            let y = TOP + 8.0 + 18.0 * i as f64;
            let colour = PALETTE[i % PALETTE.len()];
            let line = match series.style {
                Style::Points => String::new(),
                Style::Line | Style::Dashed => {
                    let dash = if series.style == Style::Dashed { r#" stroke-dasharray="6 4""# } else { "" };
                    format!(r#"<line x1="{x}" y1="{y}" x2="{}" y2="{y}" stroke="{colour}" stroke-width="2"{dash}/>"#, x + 24.0)
                }
            };
            let radius = if series.style == Style::Points { 5.0 } else { 3.0 };
            let _ = write!(
                svg,
                r#"<g class="legend-entry">{line}<circle cx="{}" cy="{y}" r="{radius}" fill="{colour}"/><text x="{}" y="{}">{}</text></g>"#,
                x + 12.0,
                x + 30.0,
                y + 4.0,
                escape(&series.name)
            );
        }
        svg.push_str("</g>");
    }
}

/// A label's box, in pixels.
#[derive(Debug, Clone, Copy)]
struct Rect {
    x: f64,
    y: f64,
    w: f64,
    h: f64,
}

impl Rect {
    fn overlaps(&self, other: &Rect) -> bool {
        self.x < other.x + other.w && other.x < self.x + self.w && self.y < other.y + other.h && other.y < self.y + self.h
    }
}

/// A spot beside the point (right, then below, above, left) where the
/// label overlaps no label already drawn; `None` leaves it to the legend.
fn place_label(px: f64, py: f64, label: &str, placed: &[Rect]) -> Option<Rect> {
    let (w, h) = (5.6 * label.chars().count() as f64, 11.0);
    let offsets = [(7.0, -14.0), (7.0, 2.0), (7.0, -26.0), (7.0, 14.0), (-w - 7.0, -14.0), (-w - 7.0, 2.0)];
    offsets
        .iter()
        .map(|&(dx, dy)| Rect { x: px + dx, y: py + dy, w, h })
        .find(|r| r.x >= LEFT && r.x + r.w <= RIGHT + 10.0 && r.y >= TOP - 10.0 && !placed.iter().any(|p| p.overlaps(r)))
}

fn axis_text(axis: &Axis) -> String {
    match axis.scale {
        Scale::Log => format!("{} (log scale)", axis.label),
        Scale::Linear => axis.label.clone(),
    }
}

/// Maps data values to pixels along one axis.
struct Mapper {
    scale: Scale,
    lo: f64,
    hi: f64,
    from: f64,
    to: f64,
    ticks: Vec<f64>,
}

impl Mapper {
    fn new(axis: &Axis, values: impl Iterator<Item = f64>, from: f64, to: f64) -> Mapper {
        let usable: Vec<f64> =
            values.filter(|v| v.is_finite() && (axis.scale == Scale::Linear || *v > 0.0)).collect();
        let (mut lo, mut hi) = usable.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
        for &tick in &axis.ticks {
            lo = lo.min(tick);
            hi = hi.max(tick);
        }
        if !lo.is_finite() {
            (lo, hi) = if axis.scale == Scale::Log { (1.0, 10.0) } else { (0.0, 1.0) };
        }
        let ticks = if !axis.ticks.is_empty() {
            axis.ticks.clone()
        } else {
            match axis.scale {
                Scale::Log => {
                    (lo, hi) = (10f64.powf(lo.log10().floor()), 10f64.powf(hi.log10().ceil()));
                    if hi <= lo {
                        hi = lo * 10.0;
                    }
                    log_ticks(lo, hi)
                }
                Scale::Linear => {
                    // Linear axes start at zero, so lengths compare honestly.
                    lo = lo.min(0.0);
                    let step = nice_step((hi - lo).max(1e-9) / 6.0);
                    (lo, hi) = ((lo / step).floor() * step, (hi / step).ceil() * step);
                    if hi <= lo {
                        hi = lo + step;
                    }
                    (0..=((hi - lo) / step).round() as usize).map(|i| lo + step * i as f64).collect()
                }
            }
        };
        Mapper { scale: axis.scale, lo, hi, from, to, ticks }
    }

    fn at(&self, value: f64) -> f64 {
        let t = match self.scale {
            Scale::Log => (value.max(f64::MIN_POSITIVE).ln() - self.lo.ln()) / (self.hi.ln() - self.lo.ln()),
            Scale::Linear => (value - self.lo) / (self.hi - self.lo),
        };
        self.from + t * (self.to - self.from)
    }
}

/// Decades, with 2 and 5 in between when the range is short enough.
fn log_ticks(lo: f64, hi: f64) -> Vec<f64> {
    let decades = (hi / lo).log10().round() as i32;
    let steps: &[f64] = if decades <= 3 { &[1.0, 2.0, 5.0] } else { &[1.0] };
    let mut ticks = Vec::new();
    let mut decade = lo;
    while decade <= hi * 1.0001 {
        for &step in steps {
            let tick = decade * step;
            if tick <= hi * 1.0001 {
                ticks.push(tick);
            }
        }
        decade *= 10.0;
    }
    ticks
}

/// 1, 2 or 5 times a power of ten, at least `raw`.
fn nice_step(raw: f64) -> f64 {
    let power = 10f64.powf(raw.log10().floor());
    [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * power).find(|&s| s >= raw).unwrap_or(10.0 * power)
}

fn tick_label(value: f64) -> String {
    if value >= 1.0 && value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        let text = format!("{value:.6}");
        text.trim_end_matches('0').trim_end_matches('.').to_owned()
    }
}

/// Escapes text for XML content and attributes.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;").replace('"', "&quot;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(series: Vec<Series>) -> Chart {
        Chart {
            id: "t",
            title: "a <title> & more".into(),
            x: Axis { label: "size (bytes)".into(), scale: Scale::Log, ticks: vec![] },
            y: Axis { label: "time (ns)".into(), scale: Scale::Linear, ticks: vec![] },
            series,
            markers: vec![(100.0, "limit".into())],
        }
    }

    #[test]
    fn one_group_per_series_and_escaped_text() {
        let s = |name: &str| Series {
            name: name.into(),
            style: Style::Line,
            points: vec![(32.0, 1.0, None), (4096.0, 7.5, Some("x".into()))],
        };
        let svg = chart(vec![s("a"), s("b & c")]).to_svg();
        assert_eq!(svg.matches(r#"<g class="series""#).count(), 2);
        assert!(svg.contains("b &amp; c") && svg.contains("a &lt;title&gt; &amp; more"));
        assert!(svg.contains("size (bytes) (log scale)"));
    }

    #[test]
    fn log_ticks_cover_the_data() {
        assert_eq!(log_ticks(1.0, 100.0), vec![1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0]);
        assert_eq!(log_ticks(0.001, 10.0), vec![0.001, 0.01, 0.1, 1.0, 10.0]);
        assert_eq!(nice_step(0.7), 1.0);
        assert_eq!(nice_step(13.0), 20.0);
    }

    #[test]
    fn empty_chart_still_renders() {
        let svg = chart(vec![]).to_svg();
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>\n"));
        assert!(!svg.contains("NaN") && !svg.contains("inf"));
    }
}
