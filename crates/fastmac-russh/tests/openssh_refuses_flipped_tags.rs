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

use common::{RusshServerFixture, STEP_TIMEOUT, SshdFixture, check_openssh_kexes};
use fastmac_russh::{ECHO_COMMAND, connect, exec};
use russh::mac;

const REFUSAL: &str = "Corrupted MAC on input";

async fn sshd_refuses_russh_client(mac: mac::Name) {
    let test = SshdFixture::start("flipped-russh-client", mac);
    let session = async {
        let connection = connect(&test.client_setup()).await?;
        exec(&connection, ECHO_COMMAND, Arc::new(b"hello\n".to_vec()), 1).await
    };
    let outcome = tokio::time::timeout(STEP_TIMEOUT, session).await.expect("the refused session ended in time");
    let err = match outcome {
        Ok(exchange) => panic!("{}: the session succeeded with flipped tags: {exchange:?}", mac.as_ref()),
        Err(err) => err.to_string(),
    };
    assert!(
        test.sshd.wait_for_log(REFUSAL, Duration::from_secs(20)),
        "{}: sshd did not report a corrupted MAC (the client saw: {err}):\n{}",
        mac.as_ref(),
        test.sshd.log_text()
    );
    check_openssh_kexes(&test.sshd.log_text(), mac, 1).unwrap_or_else(|e| panic!("sshd log: {e}"));
    println!("{}: sshd refused the russh client's flipped tag (\"{REFUSAL}\"); the client saw: {err}", mac.as_ref());
}

async fn ssh_refuses_russh_server(mac: mac::Name) {
    let test = RusshServerFixture::start("flipped-russh-server", mac).await;
    let run = test.ssh(mac, ECHO_COMMAND, Arc::new(b"hello\n".to_vec())).await;
    assert!(!run.status.success(), "{}: ssh succeeded with flipped tags:\n{}", mac.as_ref(), run.log);
    assert!(
        run.log.contains(REFUSAL),
        "{}: ssh did not report a corrupted MAC ({}):\n{}",
        mac.as_ref(),
        run.status,
        run.log
    );
    check_openssh_kexes(&run.log, mac, 1).unwrap_or_else(|e| panic!("ssh -v log: {e}"));
    test.server.abort();
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
