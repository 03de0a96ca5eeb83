//! `fastmac bench`: the JSON run has the schema docs/usage.md section 8 documents and every
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
        &[
            "bench",
            "--algs",
            "umac-64,umac-128,hmac-sha2-256,poly1305,poly1305/given-key,aes-128-gmac,aes-128-gmac/gcm128,\
             aegismac-128x2,aegismac-128x4/nonce,blake3-keyed,read-limit",
            "--sizes",
            "32,2K",
            "--seconds",
            "0.01",
            "--json",
        ],
        &[],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let machine = &report["machine"];
    for key in ["cpu", "logical_cpus", "fastmac_backend", "clock_method", "nettle", "openssl", "blake3", "aegis"] {
        assert!(!machine[key].is_null(), "machine.{key} missing");
    }
    // nettle-dev (installed by `make deps`) brings libnettle.so.8.
    assert!(machine["nettle"].as_str().unwrap().starts_with("libnettle.so.8"), "{}", machine["nettle"]);
    // libssl3 (installed by `make deps`) brings libcrypto.so.3.
    assert!(machine["openssl"].as_str().unwrap().starts_with("libcrypto.so.3, OpenSSL 3"), "{}", machine["openssl"]);
    assert!(machine["blake3"].as_str().unwrap().starts_with("blake3 crate 1."), "{}", machine["blake3"]);
    let results = report["results"].as_array().expect("results array");
    let mut seen = Vec::new();
    for row in results {
        let (alg, imp, size) =
            (row["alg"].as_str().unwrap(), row["impl"].as_str().unwrap(), row["size"].as_u64().unwrap());
        let ns = row["ns_per_msg"].as_f64().unwrap();
        assert!(ns > 0.0 && row["gb_per_s"].as_f64().unwrap() > 0.0, "{row}");
        assert!((row["gb_per_s"].as_f64().unwrap() - size as f64 / ns).abs() < 1e-6 * size as f64 / ns, "{row}");
        assert!(row.get("cycles_per_byte").is_some(), "{row}");
        if imp == "nh-ceiling" {
            // The ceiling runs the backend UMAC uses.
            assert_eq!(row["backend"], machine["fastmac_backend"], "{row}");
        }
        // The bytes kept per key, where the subject knows its keyed object.
        let state = row.get("state_bytes").and_then(|b| b.as_u64());
        match imp {
            "fastmac" if alg.starts_with("umac") => assert!(state.is_some_and(|b| b > 1024), "{row}"),
            "aegis" => assert!(state.is_some_and(|b| b >= 256), "{row}"),
            "openssl" | "nettle" => assert_eq!(state, None, "{row}"),
            _ => {}
        }
        seen.push(format!("{alg}/{imp}/{size}"));
    }
    for size in [32, 2048] {
        for expected in [
            "umac-64/fastmac",
            "umac-64/nettle",
            "umac-64/nh-ceiling",
            "umac-128/fastmac",
            "umac-128/nettle",
            "umac-128/nh-ceiling",
            "hmac-sha2-256/rustcrypto",
            "hmac-sha2-256/fastmac",
            "poly1305/rustcrypto",
            "poly1305/openssl",
            "aes-128-gmac/openssl",
            "poly1305/given-key/openssl",
            "aes-128-gmac/gcm128/openssl",
            "aegismac-128x2/aegis",
            "aegismac-128x4/nonce/aegis",
            "blake3-keyed/blake3",
        ] {
            assert!(seen.contains(&format!("{expected}/{size}")), "{expected} at {size} missing: {seen:?}");
        }
        assert!(seen.iter().any(|s| s.starts_with("read-limit/") && s.ends_with(&format!("/{size}"))), "{seen:?}");
    }
}

#[test]
fn the_table_names_the_comparator_libraries_and_how_each_is_keyed() {
    let out = fastmac(
        &["bench", "--algs", "umac-128,poly1305,aes-128-gmac,blake3-keyed", "--sizes", "64", "--seconds", "0.01"],
        &[],
    );
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    for line in ["openssl: libcrypto.so.3, OpenSSL 3", "blake3: blake3 crate 1."] {
        assert!(text.lines().any(|l| l.starts_with(line)), "no line {line:?} in:\n{text}");
    }
    for (row, keyed) in [
        ("poly1305 (openssl)", "a fresh one-time key per message"),
        ("aes-128-gmac (openssl)", "a fresh 96-bit IV per message"),
        ("blake3-keyed (blake3)", "one 256-bit key for every message"),
        ("poly1305 (rustcrypto)", "one key for every message"),
    ] {
        assert!(
            text.contains(&format!("{row} keyed per message: ")) && text.contains(keyed),
            "{row}: {keyed} not in:\n{text}"
        );
    }
    // Each comparator's row is set against fastmac's UMAC-128, unscaled.
    assert_eq!(text.matches("fastmac umac-128 ").count(), 4, "{text}");
    assert!(!text.contains("/ 2"), "{text}");
}

#[test]
fn ssh_names_in_any_case_are_benchmark_names() {
    let out = fastmac(
        &[
            "bench",
            "--algs",
            "UMAC-64@openssh.com,Hmac-Sha2-256-Etm@OpenSSH.com",
            "--sizes",
            "64",
            "--seconds",
            "0.01",
            "--json",
        ],
        &[],
    );
    assert_eq!(out.status.code(), Some(0), "{}", String::from_utf8_lossy(&out.stderr));
    let run: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let algs: Vec<&str> = run["results"].as_array().unwrap().iter().map(|r| r["alg"].as_str().unwrap()).collect();
    assert_eq!(algs, ["umac-64@openssh.com", "hmac-sha2-256-etm@openssh.com"]);
}

#[test]
fn bad_options_exit_2_with_a_message() {
    let out = fastmac(&["bench", "--algs", "md4"], &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown benchmark algorithm \"md4\""));
    for (args, message) in [
        (&["bench", "--seconds", "0"][..], "0 is out of range: expected a number above 0 and at most 600"),
        (&["bench", "--seconds", "abc"], "expected a number above 0 and at most 600"),
        (
            &["bench", "--algs", "umac-64", "--sizes", "99999999M"],
            "99999999M is out of range: expected a size from 1 to 1024M bytes",
        ),
        (&["bench", "--sizes", "0"], "0 is out of range"),
        (&["bench", "--sizes", "18446744073709551615K"], "is out of range"),
    ] {
        let out = fastmac(args, &[]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("memory allocation") && !stderr.contains("panicked"), "{stderr}");
    }
    let out = fastmac(&["list"], &[("FASTMAC_BACKEND", "avx1024")]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown NH backend \"avx1024\""));
}
