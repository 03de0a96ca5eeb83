//! The CLI's HMAC names (no nonce) and SSH names (`--seq N`).

mod common;

use common::fastmac;

use fastmac::ssh::{ALGORITHMS, SshMac};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn hmac_plain_names_give_rfc_4231_and_2202_answers() {
    // RFC 4231 test case 2 and RFC 2202 test case 2 ("Jefe"): a 4-byte
    // key, shorter than any hash's output, so --allow-short-key; without
    // it, refused.
    let key = hex::encode("Jefe");
    let msg = b"what do ya want for nothing?";
    for (alg, tag) in [
        ("hmac-sha2-256", "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
        ("hmac-sha1", "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79"),
        ("hmac-sha1-96", "effcdf6ae5eb2fa2d27416d5"),
        ("hmac-md5", "750c783e6ab0b503eaa86e310a5db738"),
    ] {
        let short = "--allow-short-key";
        let out = fastmac(&["tag", "--alg", alg, "--key", &key, short], msg);
        assert_eq!(text(&out.stdout), format!("{tag}\n"), "{alg}: {}", text(&out.stderr));
        let ok = fastmac(&["verify", "--alg", alg, "--key", &key, short, "--tag", tag], msg);
        assert_eq!(ok.status.code(), Some(0), "{alg}");
        let bad =
            fastmac(&["verify", "--alg", alg, "--key", &key, short, "--tag", tag], b"what do ya want for nothing!");
        assert_eq!(bad.status.code(), Some(1), "{alg}");
        let refused = fastmac(&["tag", "--alg", alg, "--key", &key], msg);
        assert_eq!(refused.status.code(), Some(2), "{alg}");
        assert!(text(&refused.stderr).contains("wrong key length: expected at least"), "{alg}");
    }
    // HMAC takes no nonce.
    let out = fastmac(&["tag", "--alg", "hmac-sha1", "--key", &key, "--nonce", "00"], msg);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("wrong nonce length"), "{}", text(&out.stderr));
}

#[test]
fn ssh_names_with_seq_match_the_library() {
    let packet: Vec<u8> = (0..70_000u32).map(|i| (i * 7 + 3) as u8).collect();
    for alg in ALGORITHMS {
        let key: Vec<u8> = (0..alg.key_len as u8).collect();
        for seq in [0u32, 5, u32::MAX] {
            let expect = hex::encode(&*SshMac::new(alg.name, &key).unwrap().compute(seq, &packet));
            let seq_text = seq.to_string();
            let args = ["tag", "--alg", alg.name, "--key", &hex::encode(&key), "--seq", &seq_text];
            let out = fastmac(&args, &packet);
            assert_eq!(text(&out.stdout), format!("{expect}\n"), "{} seq {seq}: {}", alg.name, text(&out.stderr));
            let verify =
                ["verify", "--alg", alg.name, "--key", &hex::encode(&key), "--seq", &seq_text, "--tag", &expect];
            assert_eq!(fastmac(&verify, &packet).status.code(), Some(0), "{}", alg.name);
            // The same bytes as packet number seq+1: not authentic.
            let next = seq.wrapping_add(1).to_string();
            let wrong = ["verify", "--alg", alg.name, "--key", &hex::encode(&key), "--seq", &next, "--tag", &expect];
            assert_eq!(fastmac(&wrong, &packet).status.code(), Some(1), "{}", alg.name);
        }
    }
}

#[test]
fn ssh_usage_errors_exit_2() {
    let key16 = "00".repeat(16);
    let cases: [(&[&str], &str); 4] = [
        (
            &["tag", "--alg", "umac-64@openssh.com", "--key", &key16],
            "is an SSH MAC: give the packet sequence number with --seq N",
        ),
        (
            &["tag", "--alg", "umac-64@openssh.com", "--key", &key16, "--seq", "1", "--nonce", "00"],
            "cannot be used with",
        ),
        (
            &["tag", "--alg", "umac-64", "--key", &key16, "--seq", "1"],
            "umac-64 is not an SSH MAC name, and --seq takes one: its SSH names are umac-64@openssh.com and umac-64-etm@openssh.com",
        ),
        (
            &["tag", "--alg", "hmac-sha2-256", "--key", &key16, "--seq", "1"],
            "wrong key length: expected 32 bytes, got 16",
        ),
    ];
    for (args, message) in cases {
        let out = fastmac(args, b"x");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains(message), "{args:?}: {}", text(&out.stderr));
    }
    let out = fastmac(&["tag", "--alg", "umac-64", "--key", &key16], b"x");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("umac-64 needs a nonce: --nonce HEX"));
}

#[test]
fn list_shows_hmacs_and_ssh_names() {
    let out = text(&fastmac(&["list"], b"").stdout);
    for (name, key, nonce, tag) in
        [("hmac-md5", "16", "0", "16"), ("hmac-sha1-96", "20", "0", "12"), ("hmac-sha2-512", "64", "0", "64")]
    {
        let line = out.lines().find(|l| l.split_whitespace().next() == Some(name)).unwrap_or_else(|| panic!("{name}"));
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[1..4], [key, nonce, tag], "{line}");
    }
    // The SSH table follows the plain one (hmac-sha1 is in both).
    let ssh_table = &out[out.find("SSH MACs").expect("SSH table")..];
    for alg in ALGORITHMS {
        let line = ssh_table
            .lines()
            .find(|l| l.split_whitespace().next() == Some(alg.name))
            .unwrap_or_else(|| panic!("{}", alg.name));
        let fields: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(fields[1..3], [alg.key_len.to_string(), alg.tag_len.to_string()], "{line}");
        assert_eq!(line.contains("etm"), alg.etm, "{line}");
    }
}
