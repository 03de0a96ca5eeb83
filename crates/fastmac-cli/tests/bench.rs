//! `fastmac bench`: the JSON run has the schema the README documents and every
//! comparator, and bad options or a bad FASTMAC_BACKEND exit 2 with a clear
//! message. (Speed itself is never asserted in tests.)

use std::process::{Command, Output};

fn fastmac(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_fastmac"));
    command.args(args).env_remove("FASTMAC_BACKEND");
    for (key, value) in env {
        command.env(key, value);
    }
    command.output().expect("run fastmac")
}

#[test]
fn json_report_has_the_schema_and_every_comparator() {
    let out = fastmac(
        &["bench", "--algs", "umac-64,umac-128,hmac-sha2-256,poly1305,read-limit", "--sizes", "32,2K", "--seconds", "0.01", "--json"],
        &[],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let machine = &report["machine"];
    for key in ["cpu", "logical_cpus", "fastmac_backend", "clock_method", "nettle"] {
        assert!(!machine[key].is_null(), "machine.{key} missing");
    }
    // nettle-dev (installed by `make deps`) brings libnettle.so.8.
    assert!(machine["nettle"].as_str().unwrap().starts_with("libnettle.so.8"), "{}", machine["nettle"]);
    let results = report["results"].as_array().expect("results array");
    let mut seen = Vec::new();
    for row in results {
        let (alg, imp, size) = (row["alg"].as_str().unwrap(), row["impl"].as_str().unwrap(), row["size"].as_u64().unwrap());
        let ns = row["ns_per_msg"].as_f64().unwrap();
        assert!(ns > 0.0 && row["gb_per_s"].as_f64().unwrap() > 0.0, "{row}");
        assert!((row["gb_per_s"].as_f64().unwrap() - size as f64 / ns).abs() < 1e-6 * size as f64 / ns, "{row}");
        assert!(row.get("cycles_per_byte").is_some(), "{row}");
        if imp == "nh-ceiling" {
            // The ceiling runs the backend UMAC uses.
            assert_eq!(row["backend"], machine["fastmac_backend"], "{row}");
        }
        seen.push(format!("{alg}/{imp}/{size}"));
    }
    for size in [32, 2048] {
        for expected in ["umac-64/fastmac", "umac-64/nettle", "umac-64/nh-ceiling", "umac-128/fastmac", "umac-128/nettle", "umac-128/nh-ceiling", "hmac-sha2-256/rustcrypto", "hmac-sha2-256/fastmac", "poly1305/rustcrypto"] {
            assert!(seen.contains(&format!("{expected}/{size}")), "{expected} at {size} missing: {seen:?}");
        }
        assert!(seen.iter().any(|s| s.starts_with("read-limit/") && s.ends_with(&format!("/{size}"))), "{seen:?}");
    }
}

#[test]
fn bad_options_exit_2_with_a_message() {
    let out = fastmac(&["bench", "--algs", "md4"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown benchmark algorithm \"md4\""));
    let out = fastmac(&["bench", "--seconds", "0"], &[]);
    assert_eq!(out.status.code(), Some(2));
    let out = fastmac(&["list"], &[("FASTMAC_BACKEND", "avx1024")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown NH backend \"avx1024\""));
}
