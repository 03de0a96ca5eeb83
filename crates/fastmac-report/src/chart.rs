//! Every chart of the benchmark, as hand-built SVG: a chart is one or more panels
//! stacked vertically, each with log or linear axes and units, one `<g
//! class="series">` per series (the tests count them). Lines are named at
//! their right end, points beside themselves; no point is left without a
//! name. No fonts, scripts or external files, so the SVG inlines into a
//! self-contained page.

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
    /// Filled markers, each labelled: fastmac.
    Points,
    /// Rings, each labelled: a comparator (a ring stays visible around a
    /// filled marker at the same place).
    Rings,
}

/// One named series.
#[derive(Debug, Clone)]
pub struct Series {
    /// Its name: the line's end label, or the legend entry of points.
    pub name: String,
    /// How to draw it.
    pub style: Style,
    /// (x, y) points with a label each for [`Style::Points`] and
    /// [`Style::Rings`].
    pub points: Vec<(f64, f64, Option<String>)>,
}

/// One plot: axes and series.
#[derive(Debug, Clone)]
pub struct Panel {
    /// Title drawn above the plot.
    pub title: String,
    /// The x axis.
    pub x: Axis,
    /// The y axis.
    pub y: Axis,
    /// The series.
    pub series: Vec<Series>,
    /// Vertical reference lines (x value, label), e.g. the read limit.
    pub markers: Vec<(f64, String)>,
}

/// A chart: one SVG of stacked panels.
#[derive(Debug, Clone)]
pub struct Chart {
    /// File stem of the .svg and anchor in the page.
    pub id: &'static str,
    /// Title drawn above the panels.
    pub title: String,
    /// The panels, top to bottom.
    pub panels: Vec<Panel>,
}

const WIDTH: f64 = 900.0;
const HEADER: f64 = 36.0;
const PANEL_HEIGHT: f64 = 420.0;
const LEFT: f64 = 80.0;
const RIGHT: f64 = 660.0;
/// Plot top and bottom, from the top of the panel.
const PLOT_TOP: f64 = 40.0;
const PLOT_BOTTOM: f64 = 360.0;
/// Line height of labels.
const LABEL_H: f64 = 12.0;

/// Colours that stay distinct on white and in grey print.
const PALETTE: &[&str] = &[
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f", "#bcbd22",
    "#393b79", "#637939", "#843c39", "#7b4173",
];

impl Chart {
    /// The chart as a standalone SVG document.
    pub fn to_svg(&self) -> String {
        let height = HEADER + PANEL_HEIGHT * self.panels.len().max(1) as f64;
        let mut svg = String::new();
        let _ = write!(
            svg,
            r#"<svg xmlns="http://www.w3.org/2000/svg" class="chart" id="chart-{id}" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" role="img" font-family="sans-serif" font-size="12">"#,
            id = self.id
        );
        let _ = write!(svg, "<title>{}</title>", escape(&self.title));
        let _ = write!(svg, r##"<rect width="{WIDTH}" height="{height}" fill="#ffffff"/>"##);
        let _ = write!(
            svg,
            r#"<text x="{}" y="24" font-size="15" font-weight="bold" text-anchor="middle">{}</text>"#,
            WIDTH / 2.0,
            escape(&self.title)
        );
        for (i, panel) in self.panels.iter().enumerate() {
            let _ = write!(svg, r#"<g class="panel" transform="translate(0 {})">"#, HEADER + PANEL_HEIGHT * i as f64);
            panel.draw(&mut svg);
            svg.push_str("</g>");
        }
        svg.push_str("</svg>\n");
        svg
    }
}

impl Panel {
    fn draw(&self, svg: &mut String) {
        let xs = self.values(|p| p.0).chain(self.markers.iter().map(|m| m.0));
        let x_map = Mapper::new(&self.x, xs, LEFT, RIGHT);
        let y_map = Mapper::new(&self.y, self.values(|p| p.1), PLOT_BOTTOM, PLOT_TOP);
        let _ = write!(
            svg,
            r#"<text class="panel-title" x="{LEFT}" y="24" font-size="13" font-weight="bold">{}</text>"#,
            escape(&self.title)
        );
        self.axes(svg, &x_map, &y_map);
        // Reference lines and their labels first, so no label covers them.
        let mut placed = Vec::new();
        for (x, label) in &self.markers {
            let px = x_map.at(*x);
            let _ = write!(
                svg,
                r##"<g class="marker"><line x1="{px:.1}" y1="{PLOT_TOP}" x2="{px:.1}" y2="{PLOT_BOTTOM}" stroke="#555" stroke-dasharray="2 3"/><text x="{:.1}" y="{}" fill="#555" font-size="11">{}</text></g>"##,
                px + 4.0,
                PLOT_TOP + 10.0,
                escape(label)
            );
            placed.push(Rect { x: px + 4.0, y: PLOT_TOP, w: text_width(label), h: LABEL_H });
        }
        // Every marker is an obstacle for every label.
        for series in &self.series {
            let r = if series.style == Style::Rings { 8.0 } else { 5.0 };
            placed.extend(series.points.iter().filter(|p| p.2.is_some()).map(|p| {
                let (px, py) = (x_map.at(p.0), y_map.at(p.1));
                Rect { x: px - r, y: py - r, w: 2.0 * r, h: 2.0 * r }
            }));
        }
        let ends = self.end_labels(&y_map);
        for (i, series) in self.series.iter().enumerate() {
            let colour = PALETTE[i % PALETTE.len()];
            let _ = write!(svg, r#"<g class="series" data-series="{}">"#, escape(&series.name));
            let points: Vec<(f64, f64)> = series.points.iter().map(|p| (x_map.at(p.0), y_map.at(p.1))).collect();
            draw_line(svg, series.style, colour, &points);
            for ((px, py), point) in points.iter().zip(&series.points) {
                draw_marker(svg, series.style, colour, *px, *py);
                if let Some(label) = &point.2 {
                    let rect = place_label(*px, *py, label, &placed);
                    label_with_leader(svg, colour, *px, *py, &rect, label);
                    placed.push(rect);
                }
            }
            if let (Some(&(px, py)), Some(&label_y)) = (points.last(), ends.get(&i)) {
                let _ = write!(
                    svg,
                    r#"<line x1="{:.1}" y1="{py:.1}" x2="{:.1}" y2="{label_y:.1}" stroke="{colour}" stroke-width="0.8"/><text class="end-label" x="{:.1}" y="{:.1}" fill="{colour}">{}</text>"#,
                    px + 4.0,
                    RIGHT + 14.0,
                    RIGHT + 16.0,
                    label_y + 4.0,
                    escape(&series.name)
                );
            }
            svg.push_str("</g>");
        }
        self.legend(svg);
    }

    fn values(&self, pick: fn(&(f64, f64, Option<String>)) -> f64) -> impl Iterator<Item = f64> + '_ {
        self.series.iter().flat_map(move |s| s.points.iter().map(pick))
    }

    /// The y of each line's name in the right margin: at its last point,
    /// pushed apart so no two names overlap, and below the legend of point
    /// series, which shares the margin.
    fn end_labels(&self, y_map: &Mapper) -> std::collections::HashMap<usize, f64> {
        let mut ends: Vec<(usize, f64)> = self
            .series
            .iter()
            .enumerate()
            .filter(|(_, s)| matches!(s.style, Style::Line | Style::Dashed))
            .filter_map(|(i, s)| s.points.last().map(|p| (i, y_map.at(p.1))))
            .collect();
        ends.sort_by(|a, b| a.1.total_cmp(&b.1));
        let legend_rows = self.legend_entries().count();
        let floor = if legend_rows == 0 { PLOT_TOP - 20.0 } else { legend_y(legend_rows) };
        spread(&mut ends, LABEL_H + 2.0, floor);
        ends.into_iter().collect()
    }

    fn axes(&self, svg: &mut String, x_map: &Mapper, y_map: &Mapper) {
        let _ = write!(
            svg,
            r##"<g class="axes" stroke="#000"><line x1="{LEFT}" y1="{PLOT_BOTTOM}" x2="{RIGHT}" y2="{PLOT_BOTTOM}"/><line x1="{LEFT}" y1="{PLOT_TOP}" x2="{LEFT}" y2="{PLOT_BOTTOM}"/></g>"##
        );
        for &tick in &x_map.ticks {
            let px = x_map.at(tick);
            let _ = write!(
                svg,
                r##"<line x1="{px:.1}" y1="{PLOT_TOP}" x2="{px:.1}" y2="{PLOT_BOTTOM}" stroke="#e4e4e4"/><line x1="{px:.1}" y1="{PLOT_BOTTOM}" x2="{px:.1}" y2="{}" stroke="#000"/><text x="{px:.1}" y="{}" text-anchor="middle">{}</text>"##,
                PLOT_BOTTOM + 5.0,
                PLOT_BOTTOM + 19.0,
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
            PLOT_BOTTOM + 40.0,
            escape(&axis_text(&self.x))
        );
        let _ = write!(
            svg,
            r#"<text class="y-label" x="18" y="{mid}" text-anchor="middle" transform="rotate(-90 18 {mid})">{}</text>"#,
            escape(&axis_text(&self.y)),
            mid = (PLOT_TOP + PLOT_BOTTOM) / 2.0
        );
    }

    /// The series named in the legend: the point series (lines carry their
    /// names at their ends), with their palette index.
    fn legend_entries(&self) -> impl Iterator<Item = (usize, &Series)> {
        self.series.iter().enumerate().filter(|(_, s)| matches!(s.style, Style::Points | Style::Rings))
    }

    /// The legend of point series (lines carry their names at their ends).
    fn legend(&self, svg: &mut String) {
        let x = RIGHT + 20.0;
        svg.push_str(r#"<g class="legend">"#);
        for (row, (i, series)) in self.legend_entries().enumerate() {
            let y = legend_y(row);
            let colour = PALETTE[i % PALETTE.len()];
            svg.push_str(r#"<g class="legend-entry">"#);
            draw_marker(svg, series.style, colour, x + 6.0, y);
            let _ = write!(svg, r#"<text x="{}" y="{}">{}</text></g>"#, x + 16.0, y + 4.0, escape(&series.name));
        }
        svg.push_str("</g>");
    }
}

/// The y of the legend's `row`th entry, in the right margin.
fn legend_y(row: usize) -> f64 {
    PLOT_TOP + 8.0 + 18.0 * row as f64
}

fn draw_line(svg: &mut String, style: Style, colour: &str, points: &[(f64, f64)]) {
    if !matches!(style, Style::Line | Style::Dashed) || points.len() < 2 {
        return;
    }
    let path: Vec<String> = points.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
    let dash = if style == Style::Dashed { r#" stroke-dasharray="6 4""# } else { "" };
    let _ =
        write!(svg, r#"<polyline fill="none" stroke="{colour}" stroke-width="2"{dash} points="{}"/>"#, path.join(" "));
}

fn draw_marker(svg: &mut String, style: Style, colour: &str, px: f64, py: f64) {
    let _ = match style {
        Style::Line | Style::Dashed => write!(svg, r#"<circle cx="{px:.1}" cy="{py:.1}" r="3" fill="{colour}"/>"#),
        Style::Points => write!(svg, r#"<circle cx="{px:.1}" cy="{py:.1}" r="4" fill="{colour}"/>"#),
        Style::Rings => {
            write!(svg, r#"<circle cx="{px:.1}" cy="{py:.1}" r="7" fill="none" stroke="{colour}" stroke-width="2"/>"#)
        }
    };
}

fn label_with_leader(svg: &mut String, colour: &str, px: f64, py: f64, rect: &Rect, label: &str) {
    // A label that had to move away from its point is tied to it.
    let (cx, cy) = (px.clamp(rect.x, rect.x + rect.w), py.clamp(rect.y, rect.y + rect.h));
    if (cx - px).hypot(cy - py) > 12.0 {
        let _ = write!(
            svg,
            r#"<line x1="{px:.1}" y1="{py:.1}" x2="{cx:.1}" y2="{cy:.1}" stroke="{colour}" stroke-width="0.7"/>"#
        );
    }
    let _ = write!(
        svg,
        r#"<text class="point-label" x="{:.1}" y="{:.1}" font-size="10" fill="{colour}">{}</text>"#,
        rect.x,
        rect.y + rect.h - 2.0,
        escape(label)
    );
}

/// Moves sorted positions apart to at least `gap`, keeping them below
/// `floor` and as close to where they were as it can.
fn spread(ends: &mut [(usize, f64)], gap: f64, floor: f64) {
    for i in 0..ends.len() {
        let least = if i == 0 { floor } else { ends[i - 1].1 + gap };
        ends[i].1 = ends[i].1.max(least);
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
        self.x < other.x + other.w
            && other.x < self.x + self.w
            && self.y < other.y + other.h
            && other.y < self.y + self.h
    }
}

/// Width of a label in the 10 to 12 px sans-serif of the charts, with a
/// little to spare.
fn text_width(label: &str) -> f64 {
    6.2 * label.chars().count() as f64
}

/// A spot for a point's label that overlaps no label already placed: beside
/// the point first, then on rings farther out (drawn with a leader line).
/// Every point gets its label: if no spot is free, the first in the plot.
fn place_label(px: f64, py: f64, label: &str, placed: &[Rect]) -> Rect {
    let (w, h) = (text_width(label), LABEL_H);
    let inside =
        |r: &Rect| r.x >= LEFT + 2.0 && r.x + r.w <= RIGHT + 12.0 && r.y >= PLOT_TOP - 12.0 && r.y + r.h <= PLOT_BOTTOM;
    let near = [(9.0, -6.0), (9.0, -16.0), (9.0, 4.0), (-w - 9.0, -6.0), (-w / 2.0, -22.0), (-w / 2.0, 10.0)];
    let rings = (1..=6).flat_map(|ring| {
        let step = 16.0 * ring as f64;
        [(8.0, -step), (8.0, step), (-w - 8.0, -step), (-w - 8.0, step), (8.0 + step, -6.0), (-w - 8.0 - step, -6.0)]
    });
    let mut candidates = near.into_iter().chain(rings).map(|(dx, dy)| Rect { x: px + dx, y: py + dy, w, h });
    let first = Rect { x: px + 7.0, y: py - 14.0, w, h };
    candidates.find(|r| inside(r) && !placed.iter().any(|p| p.overlaps(r))).unwrap_or(first)
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
        let usable: Vec<f64> = values.filter(|v| v.is_finite() && (axis.scale == Scale::Linear || *v > 0.0)).collect();
        let (mut lo, mut hi) =
            usable.iter().fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &v| (lo.min(v), hi.max(v)));
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
            panels: vec![Panel {
                title: "panel".into(),
                x: Axis { label: "size (bytes)".into(), scale: Scale::Log, ticks: vec![] },
                y: Axis { label: "time (ns)".into(), scale: Scale::Linear, ticks: vec![] },
                series,
                markers: vec![(100.0, "limit".into())],
            }],
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
        // Each line is named at its end.
        assert_eq!(svg.matches(r#"class="end-label""#).count(), 2);
    }

    #[test]
    fn every_point_is_labelled_even_when_all_coincide() {
        let points: Vec<_> = (0..12).map(|i| (5.0, 10.0, Some(format!("point {i}")))).collect();
        let svg = chart(vec![Series { name: "p".into(), style: Style::Points, points }]).to_svg();
        assert_eq!(svg.matches(r#"class="point-label""#).count(), 12);
        let doc_labels: Vec<Rect> = (0..12).fold(Vec::new(), |mut placed, i| {
            let r = place_label(300.0, 200.0, &format!("point {i}"), &placed);
            placed.push(r);
            placed
        });
        for (i, a) in doc_labels.iter().enumerate() {
            assert!(doc_labels[i + 1..].iter().all(|b| !a.overlaps(b)), "label {i} overlaps another");
        }
    }

    #[test]
    fn end_labels_do_not_overlap() {
        let mut ends = vec![(0, 100.0), (1, 101.0), (2, 102.0), (3, 300.0)];
        spread(&mut ends, 14.0, 0.0);
        assert_eq!(ends.iter().map(|e| e.1).collect::<Vec<_>>(), [100.0, 114.0, 128.0, 300.0]);
    }

    #[test]
    fn line_names_stay_below_the_legend() {
        let top_line =
            Series { name: "line".into(), style: Style::Line, points: vec![(1.0, 0.0, None), (2.0, 10.0, None)] };
        let dots = |name: &str| Series {
            name: name.into(),
            style: Style::Points,
            points: vec![(1.5, 10.0, Some("p".into()))],
        };
        let panel = chart(vec![top_line, dots("a"), dots("b")]).panels.remove(0);
        let y_map = Mapper::new(&panel.y, panel.values(|p| p.1), PLOT_BOTTOM, PLOT_TOP);
        let ends = panel.end_labels(&y_map);
        // The line ends at the top of the plot, where the legend is: its
        // name moves below the legend's two rows.
        assert_eq!(y_map.at(10.0), PLOT_TOP);
        assert!(ends[&0] >= legend_y(2) && legend_y(2) > legend_y(1) + LABEL_H);
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
