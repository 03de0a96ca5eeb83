//! Tables for the terminal: aligned columns, names left, numbers right.

use std::fmt::Write;

use super::model::{Results, Table};

/// The machine header printed before the tables.
pub fn machine(results: &Results) -> String {
    let mut out = "fastmac bench: the source papers' tables on this machine\n".to_owned();
    for (key, value) in results.header() {
        let _ = writeln!(out, "  {:<11} {value}", format!("{key}:"));
    }
    out
}

/// One table with its title, source and notes.
pub fn table(table: &Table) -> String {
    let columns = table.header.len();
    let mut widths: Vec<usize> = table.header.iter().map(|h| h.chars().count()).collect();
    for (_, cells) in &table.rows {
        for (width, cell) in widths.iter_mut().zip(cells) {
            *width = (*width).max(cell.chars().count());
        }
    }
    let line = |cells: &[String]| {
        let mut text = String::new();
        for (i, (cell, width)) in cells.iter().zip(&widths).enumerate() {
            if i == 0 {
                let _ = write!(text, "{cell:<width$}");
            } else {
                let _ = write!(text, "  {cell:>width$}");
            }
        }
        text.trim_end().to_owned()
    };
    let mut out = String::new();
    let _ = writeln!(out, "\n{}", table.title);
    let _ = writeln!(out, "  from {}", table.source);
    let _ = writeln!(out, "{}", line(&table.header));
    let total: usize = widths.iter().sum::<usize>() + 2 * (columns.saturating_sub(1));
    let _ = writeln!(out, "{}", "-".repeat(total));
    let mut previous = None;
    for (kind, cells) in &table.rows {
        if previous.is_some_and(|p| p != *kind) {
            let _ = writeln!(out, "{}", "·".repeat(total));
        }
        previous = Some(*kind);
        let _ = writeln!(out, "{}", line(cells));
    }
    for note in &table.notes {
        let _ = writeln!(out, "  * {note}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::RowKind;

    #[test]
    fn columns_line_up() {
        let t = Table {
            id: "t",
            title: "T".into(),
            source: "S".into(),
            header: vec!["algorithm".into(), "ns".into()],
            rows: vec![
                (RowKind::Fastmac, vec!["UMAC-64".into(), "7.5".into()]),
                (RowKind::Comparator, vec!["UMAC-64 (Nettle)".into(), "35.0".into()]),
            ],
            notes: vec!["n".into()],
        };
        let text = table(&t);
        let lines: Vec<&str> = text.lines().filter(|l| l.contains("UMAC")).collect();
        assert_eq!(lines[0].len(), lines[1].len());
        assert!(text.contains("* n"));
    }
}
