//! results.json: the schema of `fastmac bench --json` (`machine`, and one
//! `results` row per measurement), plus `missing`: the jobs not run and why.

use serde_json::{Value, json};

use super::model::Results;
use super::tables::BadgerCosts;

/// The whole run as pretty-printed JSON.
pub fn results(results: &Results, badger: Option<&BadgerCosts>) -> String {
    let m = &results.machine;
    let rows: Vec<Value> = results
        .rows
        .iter()
        .map(|r| {
            json!({
                "alg": r.alg,
                "impl": r.imp.name(),
                "size": r.size,
                "ns_per_msg": r.ns_per_msg,
                "gb_per_s": r.gb_per_s,
                "cycles_per_byte": r.cycles_per_byte,
            })
        })
        .collect();
    let missing: Vec<Value> = results
        .missing
        .iter()
        .map(|x| json!({"alg": x.job.alg, "impl": x.job.imp.name(), "size": x.job.size, "reason": x.reason}))
        .collect();
    let doc = json!({
        "machine": {
            "cpu": m.cpu,
            "cpus": m.cpus,
            "backend": m.backend,
            "clock_ghz": m.clock_ghz,
            "clock_method": m.clock_method,
            "date": m.date,
            "nettle": m.nettle,
            "run": m.run,
        },
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
