//! results.json: the schema of `fastmac bench --json` (`machine`, and one
//! `results` row per measurement), plus `missing`: the jobs not run and why.

use serde_json::{Value, json};

use super::model::Results;
use super::tables::BadgerCosts;

/// The whole run as pretty-printed JSON.
pub fn results(results: &Results, badger: Option<&BadgerCosts>) -> String {
    let m = &results.machine;
    let mut machine = m.json.clone();
    if let Value::Object(fields) = &mut machine {
        fields.insert("date".into(), json!(m.date));
        fields.insert("report".into(), json!(m.run));
    }
    let rows: Vec<Value> = results.rows.iter().map(|r| r.json.clone()).collect();
    let missing: Vec<Value> = results
        .missing
        .iter()
        .map(|x| json!({"alg": x.job.alg, "impl": x.job.imp.name(), "size": x.job.size, "reason": x.reason}))
        .collect();
    let doc = json!({
        "machine": machine,
        "results": rows,
        "missing": missing,
        "badger_table1": badger.map(|b| json!({
            "key_setup_cycles": b.key_setup,
            "hash_cycles_per_byte": b.hash_per_byte,
            "finalize_no_iv_cycles": b.finalize_no_iv,
            "finalize_iv_cycles": b.finalize_iv,
        })),
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}
