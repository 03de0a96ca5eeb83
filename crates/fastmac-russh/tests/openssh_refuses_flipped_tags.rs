//! The negative control of `openssh_sessions.rs`, built only with the feature
//! `flip-tag` against the russh copy patched further by
//! `russh-flip-tag.patch` (make test-russh): that russh flips one bit of
//! every UMAC tag it sends and checks the tags it receives correctly. For
//! each UMAC name, OpenSSH must refuse it from either side: `sshd` logs
//! "Corrupted MAC on input" and the russh client's session fails; `ssh`
//! reports "Corrupted MAC on input" and exits with an error. Each case also
//! checks from OpenSSH's log that the MAC was negotiated, so that the
//! refusal is the tag's and not a failed negotiation.
#![cfg(feature = "flip-tag")]

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{Keys, REKEY_BYTES, STEP_TIMEOUT, Sshd, check_openssh_kexes, keep_log, ssh, test_dir, user};
use fastmac_russh::{
    ClientSetup, ECHO_COMMAND, connect, exec, load_private_key, load_public_key, serve_one, server_config,
};
use russh::mac;
use tokio::net::TcpListener;

const REFUSAL: &str = "Corrupted MAC on input";

async fn sshd_refuses_russh_client(mac: mac::Name) {
    let dir = test_dir(&format!("flipped-russh-client-{}", mac.as_ref()));
    let keys = Keys::make(&dir);
    let mut sshd = Sshd::start(&dir, &keys, mac);
    let client_key = load_private_key(&keys.client).expect("the client key");
    let host_key = load_public_key(&Keys::public(&keys.host)).expect("the host key");
    let user = user();
    let setup = ClientSetup {
        port: sshd.port,
        user: &user,
        key: &client_key,
        host_key: &host_key,
        mac,
        rekey_bytes: REKEY_BYTES,
    };
    let session = async {
        let connection = connect(&setup).await?;
        exec(&connection, ECHO_COMMAND, Arc::new(b"hello\n".to_vec()), 1).await
    };
    let outcome = tokio::time::timeout(STEP_TIMEOUT, session).await.expect("the refused session ended in time");
    if let Ok(exchange) = outcome {
        panic!("{}: the session succeeded with flipped tags: {exchange:?}", mac.as_ref());
    }
    let err = outcome.err().map(|e| e.to_string()).unwrap_or_default();
    assert!(
        sshd.wait_for_log(REFUSAL, Duration::from_secs(20)),
        "{}: sshd did not report a corrupted MAC (the client saw: {err}):\n{}",
        mac.as_ref(),
        sshd.log_text()
    );
    check_openssh_kexes(&sshd.log_text(), mac, 1).unwrap_or_else(|e| panic!("sshd log: {e}"));
    println!("{}: sshd refused the russh client's flipped tag (\"{REFUSAL}\"); the client saw: {err}", mac.as_ref());
}

async fn ssh_refuses_russh_server(mac: mac::Name) {
    let dir = test_dir(&format!("flipped-russh-server-{}", mac.as_ref()));
    let keys = Keys::make(&dir);
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind a port");
    let port = listener.local_addr().expect("its address").port();
    let config = server_config(load_private_key(&keys.host).expect("the host key"), mac, REKEY_BYTES);
    let client_key = load_public_key(&Keys::public(&keys.client)).expect("the client key");
    let server = tokio::spawn(async move { serve_one(&listener, Arc::new(config), client_key).await });
    let run = ssh(port, &keys, mac, ECHO_COMMAND, Arc::new(b"hello\n".to_vec())).await;
    keep_log(&dir.join("ssh.log"), &run.stderr);
    assert!(!run.status.success(), "{}: ssh succeeded with flipped tags:\n{}", mac.as_ref(), run.stderr);
    assert!(
        run.stderr.contains(REFUSAL),
        "{}: ssh did not report a corrupted MAC ({}):\n{}",
        mac.as_ref(),
        run.status,
        run.stderr
    );
    check_openssh_kexes(&run.stderr, mac, 1).unwrap_or_else(|e| panic!("ssh -v log: {e}"));
    server.abort();
    println!("{}: ssh refused the russh server's flipped tag (\"{REFUSAL}\", {})", mac.as_ref(), run.status);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sshd_refuses_flipped_umac_64() {
    sshd_refuses_russh_client(mac::UMAC_64).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sshd_refuses_flipped_umac_128() {
    sshd_refuses_russh_client(mac::UMAC_128).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sshd_refuses_flipped_umac_64_etm() {
    sshd_refuses_russh_client(mac::UMAC_64_ETM).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sshd_refuses_flipped_umac_128_etm() {
    sshd_refuses_russh_client(mac::UMAC_128_ETM).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssh_refuses_flipped_umac_64() {
    ssh_refuses_russh_server(mac::UMAC_64).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssh_refuses_flipped_umac_128() {
    ssh_refuses_russh_server(mac::UMAC_128).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssh_refuses_flipped_umac_64_etm() {
    ssh_refuses_russh_server(mac::UMAC_64_ETM).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ssh_refuses_flipped_umac_128_etm() {
    ssh_refuses_russh_server(mac::UMAC_128_ETM).await;
}
