//! index.html: one self-contained page (inline CSS and SVG, no script, no
//! external file) with the machine, every table and every chart.

use std::fmt::Write;

use super::model::{Results, RowKind, Table};
use super::paper;
use crate::chart::{Chart, escape};

const STYLE: &str = "body{font-family:sans-serif;margin:2em auto;max-width:1000px;color:#222}\
table{border-collapse:collapse;margin:.5em 0;font-size:14px}\
th,td{border:1px solid #ccc;padding:3px 8px}td{text-align:right}td:first-child{text-align:left}\
th{background:#f0f0f0}tr.comparator td{background:#f7f9ff}tr.paper td{background:#fff8ee;color:#666}\
.source{color:#555;font-style:italic;margin:0}.notes{color:#444;font-size:13px}\
dl.machine{display:grid;grid-template-columns:max-content auto;gap:2px 12px}dt{font-weight:bold}\
figure{margin:1em 0}svg.chart{max-width:100%;height:auto;border:1px solid #ddd}";

/// The page: machine first, then each table followed by its chart.
pub fn page(results: &Results, tables: &[Table], charts: &[(&str, Chart)]) -> String {
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>fastmac bench report</title><style>{STYLE}</style></head><body>\n"
    );
    html.push_str("<h1>fastmac bench: the source papers' tables on this machine</h1>\n");
    html.push_str("<dl class=\"machine\">");
    for (key, value) in results.header() {
        let _ = write!(html, "<dt>{key}</dt><dd>{}</dd>", escape(&value));
    }
    html.push_str("</dl>\n<p>Blue rows are other implementations measured in the same run; amber rows are figures only the paper printed. Every chart is also in this folder as its own .svg, and every measurement in results.json.</p>\n");
    for table in tables {
        write_table(&mut html, table);
        for (_, chart) in charts.iter().filter(|(after, _)| *after == table.id) {
            let _ = writeln!(html, "<figure id=\"figure-{}\">{}</figure>", chart.id, chart.to_svg());
        }
    }
    html.push_str("<section id=\"sources\"><h2>Sources</h2><ul>");
    for source in paper::SOURCES {
        let _ = write!(html, "<li>{}</li>", escape(&source.cite()));
    }
    html.push_str("</ul><p class=\"notes\">Each chart shows this machine's measurements only; the papers' printed figures are in the tables' paper columns.</p></section>\n");
    html.push_str("</body></html>\n");
    html
}

fn write_table(html: &mut String, table: &Table) {
    let _ = write!(html, "<section id=\"{}\"><h2>{}</h2>", table.id, escape(&table.title));
    let _ = write!(html, "<p class=\"source\">from {}</p><table><thead><tr>", escape(&table.source));
    for cell in &table.header {
        let _ = write!(html, "<th>{}</th>", escape(cell));
    }
    html.push_str("</tr></thead><tbody>");
    for (kind, cells) in &table.rows {
        let class = match kind {
            RowKind::Fastmac => "fastmac",
            RowKind::Comparator => "comparator",
            RowKind::PaperOnly => "paper",
        };
        let _ = write!(html, "<tr class=\"{class}\">");
        for cell in cells {
            let _ = write!(html, "<td>{}</td>", escape(cell));
        }
        html.push_str("</tr>");
    }
    html.push_str("</tbody></table><ul class=\"notes\">");
    for note in &table.notes {
        let _ = write!(html, "<li>{}</li>", escape(note));
    }
    html.push_str("</ul></section>\n");
}
