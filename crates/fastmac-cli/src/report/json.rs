//! results.json: the run as `fastmac bench --json` prints it (`machine`,
//! one `results` row per measurement), plus `missing` (the jobs not run and
//! why), the report's parameters and Badger's table 1.

use serde::Serialize;

use super::model::{Machine, Missing, Results, Row};
use super::tables::BadgerCosts;

#[derive(Serialize)]
struct File<'a> {
    machine: &'a Machine,
    report: &'a str,
    results: &'a [Row],
    missing: &'a [Missing],
    badger_table1: Option<&'a BadgerCosts>,
}

/// The whole run as pretty-printed JSON.
pub fn results(results: &Results, badger: Option<&BadgerCosts>) -> String {
    let file = File {
        machine: &results.machine,
        report: &results.run,
        results: &results.rows,
        missing: &results.missing,
        badger_table1: badger,
    };
    let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
    text.push('\n');
    text
}
