//! russh with the UMAC patch against the real OpenSSH, both ways, for each
//! of the four UMAC names: a russh client to a private `sshd`, and the `ssh`
//! client to a russh server, both through the repository's sshd harness
//! (tests/common/mod.rs). Each session offers aes128-ctr and the one MAC on
//! both sides, sends 4 MiB of data through `cat` and checks by SHA-256 that
//! the same 4 MiB came back, and rekeys every 768 KiB (both sides' limits):
//! every key exchange, as each side reports it, must have negotiated that
//! MAC, and there must be at least one rekey.
//!
//! Not built with the feature `flip-tag` (russh's tags corrupted on
//! purpose): that build runs `openssh_refuses_flipped_tags.rs` instead.
#![cfg(not(feature = "flip-tag"))]

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{PAYLOAD_BYTES, RusshServerFixture, STEP_TIMEOUT, SshdFixture, check_openssh_kexes};
use fastmac_russh::{ECHO_COMMAND, Exchange, Negotiated, connect, disconnect, exec, payload, sha256_hex};
use russh::mac;

/// The first key exchange and at least one rekey.
const MIN_KEXES: usize = 2;

fn check_echo(output: &[u8], input: &[u8]) {
    assert_eq!(output.len(), input.len(), "bytes echoed");
    assert_eq!(sha256_hex(output), sha256_hex(input), "SHA-256 of the echoed data");
}

async fn russh_client_to_sshd(mac: mac::Name) {
    let test = SshdFixture::start("russh-client", mac);
    let input = Arc::new(payload(1, PAYLOAD_BYTES));
    let session = async {
        let connection = connect(&test.client_setup()).await?;
        let exchange = exec(&connection, ECHO_COMMAND, input.clone(), 1).await?;
        let kexes = connection.kexes.lock().expect("the kex log").clone();
        disconnect(connection).await?;
        Ok::<(Exchange, Vec<Negotiated>), fastmac_russh::Error>((exchange, kexes))
    };
    let (exchange, kexes) = match tokio::time::timeout(STEP_TIMEOUT, session).await {
        Ok(Ok(done)) => done,
        Ok(Err(err)) => panic!("{}: the russh client failed: {err}\nsshd log:\n{}", mac.as_ref(), test.sshd.log_text()),
        Err(_) => panic!("{}: the session did not finish in {STEP_TIMEOUT:?}", mac.as_ref()),
    };
    assert_eq!(exchange.exit_status, Some(0), "cat's exit status");
    check_echo(&exchange.output, &input);
    // russh's account: each key exchange (kex_done) negotiated the MAC.
    assert!(kexes.len() >= MIN_KEXES, "russh saw {} key exchanges, expected a rekey", kexes.len());
    for kex in &kexes {
        assert!(kex.is(mac), "russh negotiated {kex:?}, not {}", mac.as_ref());
    }
    // sshd's account, from its debug log (written by the per-connection
    // process, which may trail the client).
    test.sshd.wait_for_kexes(kexes.len(), Duration::from_secs(20));
    let sshd_kexes =
        check_openssh_kexes(&test.sshd.log_text(), mac, MIN_KEXES).unwrap_or_else(|err| panic!("sshd log: {err}"));
    println!(
        "{}: russh client -> sshd: {} MiB each way, SHA-256 equal; {} key exchanges (russh), {sshd_kexes} (sshd)",
        mac.as_ref(),
        PAYLOAD_BYTES >> 20,
        kexes.len()
    );
}

async fn ssh_to_russh_server(mac: mac::Name) {
    let test = RusshServerFixture::start("russh-server", mac).await;
    let input = Arc::new(payload(2, PAYLOAD_BYTES));
    let run = test.ssh(mac, ECHO_COMMAND, input.clone()).await;
    assert!(run.status.success(), "{}: ssh failed ({}): {}\n{}", mac.as_ref(), run.status, run.stderr, run.log);
    check_echo(&run.stdout, &input);
    let ssh_kexes = check_openssh_kexes(&run.log, mac, MIN_KEXES).unwrap_or_else(|err| panic!("ssh -v log: {err}"));
    match tokio::time::timeout(STEP_TIMEOUT, test.server).await {
        Ok(Ok(Ok(()))) => {}
        Ok(Ok(Err(err))) => panic!("{}: the russh server's session failed: {err}", mac.as_ref()),
        Ok(Err(err)) => panic!("{}: the russh server task failed: {err}", mac.as_ref()),
        Err(_) => panic!("{}: the russh server did not end after ssh", mac.as_ref()),
    }
    println!(
        "{}: ssh -> russh server: {} MiB each way, SHA-256 equal; {ssh_kexes} key exchanges (ssh)",
        mac.as_ref(),
        PAYLOAD_BYTES >> 20
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn russh_client_to_sshd_umac_64() {
    russh_client_to_sshd(mac::UMAC_64).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn russh_client_to_sshd_umac_128() {
    russh_client_to_sshd(mac::UMAC_128).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn russh_client_to_sshd_umac_64_etm() {
    russh_client_to_sshd(mac::UMAC_64_ETM).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn russh_client_to_sshd_umac_128_etm() {
    russh_client_to_sshd(mac::UMAC_128_ETM).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssh_to_russh_server_umac_64() {
    ssh_to_russh_server(mac::UMAC_64).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssh_to_russh_server_umac_128() {
    ssh_to_russh_server(mac::UMAC_128).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssh_to_russh_server_umac_64_etm() {
    ssh_to_russh_server(mac::UMAC_64_ETM).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssh_to_russh_server_umac_128_etm() {
    ssh_to_russh_server(mac::UMAC_128_ETM).await;
}

/// The log check that fails a session which negotiated anything but the
/// requested MAC, or did not rekey, on lines as sshd and ssh -v write them.
#[test]
fn openssh_kex_check_fails_another_mac_and_a_session_without_rekey() {
    let kex = |direction: &str, mac: &str| {
        format!("debug1: kex: {direction} cipher: aes128-ctr MAC: {mac} compression: none [preauth]\n")
    };
    let umac = mac::UMAC_64_ETM.as_ref();
    let both = |mac: &str| kex("client->server", mac) + &kex("server->client", mac);
    let two_kexes = both(umac) + &both(umac);
    assert_eq!(check_openssh_kexes(&two_kexes, mac::UMAC_64_ETM, 2), Ok(2));
    // The same log, read as a session that asked for another MAC.
    assert!(check_openssh_kexes(&two_kexes, mac::UMAC_128_ETM, 2).is_err());
    // A rekey that fell back to another MAC, in one direction.
    let fell_back = both(umac) + &kex("client->server", umac) + &kex("server->client", "hmac-sha2-256-etm@openssh.com");
    assert!(check_openssh_kexes(&fell_back, mac::UMAC_64_ETM, 2).is_err());
    // Another cipher.
    let other_cipher = two_kexes.replace("aes128-ctr", "aes256-ctr");
    assert!(check_openssh_kexes(&other_cipher, mac::UMAC_64_ETM, 2).is_err());
    // No rekey, or no key exchange logged at all.
    assert!(check_openssh_kexes(&both(umac), mac::UMAC_64_ETM, 2).is_err());
    assert!(check_openssh_kexes("", mac::UMAC_64_ETM, 1).is_err());
}
