//! One bulk transfer between a russh client and a russh server in this
//! process, over TCP on 127.0.0.1: aes128-ctr and the MAC given, `--mib`
//! MiB from the client to the server's `sink` command in channel packets of
//! 32 KiB (the server's maximum packet size), after the key exchange and
//! authentication. Prints one line: the MAC, the MiB sent, the wall time
//! and MB/s (10^6 bytes per second) of the transfer, and the process's CPU
//! time (both sides, all threads) over it.
//!
//! `make bench-russh` (crates/fastmac-russh/bench.sh) runs it, built against
//! stock and patched russh, in interleaved rounds, and profiles it with perf.
//!
//! Usage: russh-bench --mac NAME [--mib N]

use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use fastmac_russh::{
    ClientSetup, Error, SINK_COMMAND, connect, disconnect, exec, mac_by_name, serve_one, server_config,
};
use russh::keys::PrivateKey;
use russh::keys::ssh_key::private::Ed25519Keypair;
use tokio::net::TcpListener;

/// SSH's usual channel packet size (OpenSSH's and russh's default).
const PACKET_BYTES: u32 = 32 * 1024;
const MIB: usize = 1 << 20;
/// No rekey inside the transfer (russh's default limit is 1 GiB).
const REKEY_BYTES: usize = 1 << 30;

struct Options {
    mac: String,
    mib: usize,
}

fn parse_args() -> Result<Options, String> {
    let mut args = std::env::args().skip(1);
    let (mut mac, mut mib) = (None, 256);
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--mac" => mac = Some(value()?),
            "--mib" => mib = value()?.parse().map_err(|e| format!("--mib: {e}"))?,
            _ => return Err(format!("unknown argument {arg:?}")),
        }
    }
    let mac = mac.ok_or("--mac NAME is required")?;
    Ok(Options { mac, mib })
}

/// The process's user + system CPU time in seconds, from /proc/self/stat
/// (fields 14 and 15, in clock ticks of 1/100 s on Linux).
fn process_cpu_seconds() -> Result<f64, Error> {
    let stat = std::fs::read_to_string("/proc/self/stat")?;
    let after_name = stat.rsplit_once(')').ok_or("no command name in /proc/self/stat")?.1;
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    // after_name starts at field 3 (the state), so field n is at n - 3.
    let ticks =
        |n: usize| -> Result<f64, Error> { Ok(fields.get(n - 3).ok_or("short /proc/self/stat")?.parse::<f64>()?) };
    Ok((ticks(14)? + ticks(15)?) / 100.0)
}

/// A fixed key from `seed`: the benchmark needs keys, not secrets.
fn key(seed: u8) -> PrivateKey {
    PrivateKey::from(Ed25519Keypair::from_seed(&[seed; 32]))
}

async fn transfer(options: &Options) -> Result<String, Error> {
    let mac = mac_by_name(&options.mac)?;
    let (host_key, client_key) = (key(1), key(2));
    let mut config = server_config(host_key.clone(), mac, REKEY_BYTES);
    config.maximum_packet_size = PACKET_BYTES;
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
        "mac={} mib={} seconds={seconds:.3} mb_per_s={:.1} cpu_seconds={cpu:.2}",
        options.mac,
        options.mib,
        megabytes / seconds
    ))
}

fn main() -> ExitCode {
    let options = match parse_args() {
        Ok(options) => options,
        Err(err) => {
            eprintln!("russh-bench: {err}\nusage: russh-bench --mac NAME [--mib N]");
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
