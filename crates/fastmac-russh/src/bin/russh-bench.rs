//! One bulk transfer between a russh client and a russh server in this
//! process, over TCP on 127.0.0.1: aes128-ctr and the MAC given, `--mib`
//! MiB from the client to the server's `sink` command in channel packets of
//! `--packet-bytes` (the server's maximum packet size; 32 KiB, SSH's usual
//! size, by default), after the key exchange and authentication. Prints one line: the MAC, the MiB sent, the wall time
//! and MB/s (10^6 bytes per second) of the transfer, and the process's CPU
//! time (both sides, all threads) over it.
//!
//! `make bench-russh` (crates/fastmac-russh/bench.sh) runs it, built against
//! stock and patched russh, in interleaved rounds, and profiles it with perf.
//!
//! Usage: russh-bench --mac NAME [--mib N] [--packet-bytes N]

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use fastmac_russh::{
    ClientSetup, Error, SINK_COMMAND, connect, disconnect, exec, mac_by_name, serve_one, server_config,
};
use nix::time::{ClockId, clock_gettime};
use russh::keys::PrivateKey;
use russh::keys::ssh_key::private::Ed25519Keypair;
use tokio::net::TcpListener;

const MIB: usize = 1 << 20;
/// No rekey inside the transfer (russh's default limit is 1 GiB).
const REKEY_BYTES: usize = 1 << 30;

struct Options {
    mac: String,
    mib: usize,
    packet_bytes: u32,
}

fn parse_args() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    // SSH's usual channel packet size (OpenSSH's and russh's default).
    let (mut mac, mut mib, mut packet_bytes) = (None, 256, 32 * 1024);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--mac" => mac = Some(value()?),
            "--mib" => mib = value()?.parse().map_err(|e| format!("--mib: {e}"))?,
            "--packet-bytes" => packet_bytes = value()?.parse().map_err(|e| format!("--packet-bytes: {e}"))?,
            _ => return Err(format!("unknown argument {arg:?}")),
        }
    }
    let mac = mac.ok_or("--mac NAME is required")?;
    Ok(Options { mac, mib, packet_bytes })
}

/// The CPU time of the process (all threads, user and system) in seconds.
fn process_cpu_seconds() -> Result<f64, Error> {
    let time = clock_gettime(ClockId::CLOCK_PROCESS_CPUTIME_ID)?;
    Ok(time.tv_sec() as f64 + time.tv_nsec() as f64 * 1e-9)
}

/// A fixed key from `seed`: the benchmark needs keys, not secrets.
fn key(seed: u8) -> PrivateKey {
    PrivateKey::from(Ed25519Keypair::from_seed(&[seed; 32]))
}

async fn transfer(options: &Options) -> Result<String, Error> {
    let mac = mac_by_name(&options.mac)?;
    let (host_key, client_key) = (key(1), key(2));
    let mut config = server_config(host_key.clone(), mac, REKEY_BYTES);
    config.maximum_packet_size = options.packet_bytes;
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let port = listener.local_addr()?.port();
    let client_public = client_key.public_key().clone();
    let server = tokio::spawn(async move { serve_one(&listener, Arc::new(config), client_public).await });

    let host_public = host_key.public_key().clone();
    let setup =
        ClientSetup { port, user: "bench", key: &client_key, host_key: &host_public, mac, rekey_bytes: REKEY_BYTES };
    let connection = connect(&setup).await?;
    let chunk = Arc::new(vec![0x5a; MIB]);
    let (start, cpu_start) = (Instant::now(), process_cpu_seconds()?);
    let exchange = exec(&connection, SINK_COMMAND, chunk, options.mib).await?;
    let (seconds, cpu) = (start.elapsed().as_secs_f64(), process_cpu_seconds()? - cpu_start);
    if exchange.exit_status != Some(0) {
        return Err(format!("the sink ended with {:?}", exchange.exit_status).into());
    }
    disconnect(connection).await?;
    server.await??;
    let megabytes = (options.mib * MIB) as f64 / 1e6;
    Ok(format!(
        "mac={} mib={} packet_bytes={} seconds={seconds:.3} mb_per_s={:.1} cpu_seconds={cpu:.3}",
        options.mac,
        options.mib,
        options.packet_bytes,
        megabytes / seconds
    ))
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(options) => options,
        Err(err) => {
            eprintln!("russh-bench: {err}\nusage: russh-bench --mac NAME [--mib N] [--packet-bytes N]");
            return ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
        Ok(runtime) => runtime,
        Err(err) => {
            eprintln!("russh-bench: no tokio runtime: {err}");
            return ExitCode::FAILURE;
        }
    };
    match runtime.block_on(transfer(&options)) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(err) => {
            eprintln!("russh-bench: {}: {err}", options.mac);
            ExitCode::FAILURE
        }
    }
}
