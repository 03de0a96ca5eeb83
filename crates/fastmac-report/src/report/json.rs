//! results.json: the run as `fastmac bench --json` prints it (`machine`,
//! one `results` row per measurement), plus `missing` (the jobs not run and
//! why), the report's parameters, Badger's table 1 and `many_keys` (the
//! many-keys table's run as `fastmac bench --keys --json` prints it).

use serde::Serialize;

use super::model::{KeysRun, Machine, Missing, Results, Row};
use super::tables::BadgerCosts;

#[derive(Serialize)]
struct File<'a> {
    machine: &'a Machine,
    report: &'a str,
    results: &'a [Row],
    missing: &'a [Missing],
    badger_table1: Option<&'a BadgerCosts>,
    many_keys: &'a KeysRun,
}

/// The whole run as pretty-printed JSON.
pub fn results(results: &Results, badger: Option<&BadgerCosts>) -> String {
    let file = File {
        machine: &results.machine,
        report: &results.run,
        results: &results.rows,
        missing: &results.missing,
        badger_table1: badger,
        many_keys: &results.keys,
    };
    let mut text = serde_json::to_string_pretty(&file).unwrap_or_default();
    text.push('\n');
    text
}
