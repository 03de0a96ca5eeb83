//! `fastmac gears ...`: the gear table, and the UDP demonstration of
//! docs/gears.md section 6.9 (send, recv, attack) on 127.0.0.1 only.

use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use fastmac_gears::wire::{HEADER_LEN, MAX_PAYLOAD};
use fastmac_gears::{
    Check, NonceMode, PolicyConfig, Profile, Receiver, ReceiverConfig, RekeyLimits, Sender, SenderConfig, SessionSecret,
};
use fastmac_report::gear_chart::strength_chart;
use fastmac_report::gear_table::{badger_costs, calibrate, measure_ratios, sample_costs, umac_costs};

use crate::input::{CliError, NetCall, unhex, writable_file};
use crate::numbers;
use crate::out::outln;

#[derive(Subcommand)]
pub enum GearsCommand {
    /// Print every gear with its bound and its measured cost at 64, 576, 1500 and 9000 bytes.
    Table {
        /// Also draw the strength-versus-cost chart into this SVG file.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Milliseconds of measurement per gear and length (1 to 10000).
        #[arg(long, default_value_t = 60, value_parser = numbers::whole(1u64, 10_000))]
        round_ms: u64,
    },
    /// Send authenticated datagrams to one or more 127.0.0.1 ports.
    Send(SendArgs),
    /// Receive, verify at an adaptive depth under a CPU budget, print counters.
    Recv(RecvArgs),
    /// Forward genuine datagrams, each preceded by forgeries and replays.
    Attack(AttackArgs),
}

#[derive(Args)]
pub struct Secret {
    /// Session secret in hex (at least 16 bytes).
    #[arg(long)]
    secret: String,
    /// Nonce = BE64(4 * seq), so every prefix is a standard UMAC tag
    /// (unicast only: one --to).
    #[arg(long)]
    rfc_prefix: bool,
}

impl Secret {
    fn get(&self) -> Result<SessionSecret, CliError> {
        let bytes = zeroize::Zeroizing::new(unhex("secret", &self.secret)?);
        Ok(SessionSecret::new(&bytes)?)
    }

    fn mode(&self) -> NonceMode {
        if self.rfc_prefix { NonceMode::RfcPrefix } else { NonceMode::Group }
    }
}

#[derive(Args)]
pub struct SendArgs {
    #[command(flatten)]
    secret: Secret,
    /// Destination 127.0.0.1:PORT; repeat to fan out (emulated multicast).
    #[arg(long, required = true)]
    to: Vec<String>,
    /// Datagrams to send (1 to 10^9).
    #[arg(long, default_value_t = 10_000, value_parser = numbers::whole(1u64, 1_000_000_000))]
    count: u64,
    /// Datagrams per second (0: as fast as possible; at most 10^7).
    #[arg(long, default_value_t = 20_000, value_parser = numbers::whole(0u64, 10_000_000))]
    rate: u64,
    /// Payload sizes, cycled (0 to 65535 bytes each).
    #[arg(long, value_delimiter = ',', default_value = "64,576,1400,9000", value_parser = numbers::size(0, MAX_PAYLOAD))]
    sizes: Vec<usize>,
    /// Profile: u128, u128+h128, u96, u64, u32, b160, s-8, s-64, s-512.
    #[arg(long, default_value = "u128")]
    profile: String,
    /// Rekey after this many packets (1 to 2^32, RFC 4344 section 3.1's
    /// limit).
    #[arg(long, default_value_t = 1 << 32, value_parser = numbers::whole(1u64, 1 << 32))]
    rekey_packets: u64,
    /// Sender id in a group.
    #[arg(long, default_value_t = 0, value_parser = numbers::whole(0u32, u32::MAX))]
    sender_id: u32,
}

#[derive(Args)]
pub struct RecvArgs {
    #[command(flatten)]
    secret: Secret,
    /// Address to listen on, 127.0.0.1:PORT (port 0: a free port, which
    /// the first line names).
    #[arg(long)]
    listen: String,
    /// CPU budget in cores (1.0 = one core; above 0, at most 1024).
    #[arg(long, default_value_t = 1.0, value_parser = numbers::decimal(0.0, 1024.0))]
    budget: f64,
    /// Multiply the calibrated costs (emulates a slower CPU; above 0, at
    /// most 10^6).
    #[arg(long, default_value_t = 1.0, value_parser = numbers::decimal(0.0, 1e6))]
    cost_scale: f64,
    /// Weakest level: u32, u64, u96, u128, u128+h128.
    #[arg(long, default_value = "u64")]
    floor: String,
    /// Strongest level.
    #[arg(long, default_value = "u128")]
    ceiling: String,
    /// Accept the experimental partial-MAC profiles.
    #[arg(long)]
    accept_sample: bool,
    /// Stop after this many datagrams (0: no limit but the time limits).
    #[arg(long, default_value_t = 0, value_parser = numbers::whole(0u64, u64::MAX))]
    count: u64,
    /// Stop after this long without a datagram, in milliseconds (1 to
    /// 3600000).
    #[arg(long, default_value_t = 2000, value_parser = numbers::whole(1u64, MAX_IDLE_MS))]
    idle_ms: u64,
    /// Stop after this many seconds in all (1 to 86400).
    #[arg(long, default_value_t = 60, value_parser = numbers::whole(1u64, 86_400))]
    max_secs: u64,
}

#[derive(Args)]
pub struct AttackArgs {
    /// Where genuine datagrams arrive, 127.0.0.1:PORT (port 0: a free
    /// port, which the first line names).
    #[arg(long)]
    listen: String,
    /// The receiver to forward to and attack, 127.0.0.1:PORT.
    #[arg(long)]
    to: String,
    /// Forgeries injected with each genuine datagram, sent just before it
    /// (0 to 1000).
    #[arg(long, default_value_t = 1, value_parser = numbers::whole(0u64, 1000))]
    per_packet: u64,
    /// Stop after this long without a datagram, in milliseconds (1 to
    /// 3600000).
    #[arg(long, default_value_t = 2000, value_parser = numbers::whole(1u64, MAX_IDLE_MS))]
    idle_ms: u64,
}

/// The longest wait for a datagram `--idle-ms` takes: an hour.
const MAX_IDLE_MS: u64 = 3_600_000;

/// Only 127.0.0.1: the demonstration never leaves the machine.
fn loopback(what: &str, text: &str) -> Result<SocketAddr, CliError> {
    let addr: SocketAddr = text.parse().map_err(|_| CliError::Usage(format!("--{what}: not an address:port")))?;
    if addr.ip() != std::net::IpAddr::V4(Ipv4Addr::LOCALHOST) {
        return Err(CliError::Usage(format!("--{what}: only 127.0.0.1 is allowed")));
    }
    Ok(addr)
}

/// A loopback address a datagram can be sent to: port 0 is none.
fn destination(what: &str, text: &str) -> Result<SocketAddr, CliError> {
    let addr = loopback(what, text)?;
    if addr.port() == 0 {
        return Err(CliError::Usage(format!("--{what}: port 0 is no port a datagram can be sent to")));
    }
    Ok(addr)
}

/// The address `socket` is bound to: the port the kernel chose where
/// `--listen` gave port 0, so that the caller can send to it.
fn bound_address(socket: &UdpSocket, requested: SocketAddr) -> Result<SocketAddr, CliError> {
    socket.local_addr().map_err(net(NetCall::Bind, requested))
}

/// The error of a socket `call` on or to `addr`.
fn net(call: NetCall, addr: SocketAddr) -> impl FnOnce(std::io::Error) -> CliError {
    move |source| CliError::Net { call, addr, source }
}

/// Binds a UDP socket to `addr` (port 0: any free port).
fn bind(addr: SocketAddr) -> Result<UdpSocket, CliError> {
    UdpSocket::bind(addr).map_err(net(NetCall::Bind, addr))
}

/// Any free port of 127.0.0.1, to send from.
const ANY_PORT: SocketAddr = SocketAddr::new(std::net::IpAddr::V4(Ipv4Addr::LOCALHOST), 0);

fn check(name: &str) -> Result<Check, CliError> {
    Check::from_name(name).ok_or_else(|| CliError::Usage(format!("unknown level {name:?}")))
}

pub fn run(command: GearsCommand) -> Result<(), CliError> {
    match command {
        GearsCommand::Table { svg, round_ms } => table(svg, Duration::from_millis(round_ms)),
        GearsCommand::Send(args) => send(args),
        GearsCommand::Recv(args) => recv(args),
        GearsCommand::Attack(args) => attack(args),
    }
}

fn table(svg: Option<PathBuf>, round: Duration) -> Result<(), CliError> {
    if let Some(path) = &svg {
        writable_file(path)?;
    }
    let cal = calibrate(round).map_err(CliError::Usage)?;
    outln!(
        "gear        tag B  strength                                            default                   ns@64  ns@576 ns@1500 ns@9000  model (ns)"
    )?;
    for c in &cal {
        let info = &c.gear;
        let ns: Vec<String> = c.verify_ns.iter().map(|v| format!("{v:>7.0}")).collect();
        outln!(
            "{:<11} {:>5}  {:<51} {:<24} {}  {:.0} + {:.3}*len",
            info.name,
            info.tag_bytes,
            info.strength.describe(),
            info.availability,
            ns.join(" "),
            c.model.a_ns,
            c.model.b_ns_per_byte
        )?;
    }
    let r = measure_ratios(1500, round).map_err(CliError::Usage)?;
    outln!(
        "at 1500 B: 16-byte field {:.0} ns vs UMAC-128 alone {:.0} ns (ratio {:.3}); verify depth 1 {:.0} ns vs depth 4 {:.0} ns (ratio {:.3})",
        r.field_ns,
        r.umac128_ns,
        r.field_over_umac128,
        r.depth1_ns,
        r.depth4_ns,
        r.depth1_over_depth4
    )?;
    if let Some(path) = svg {
        std::fs::write(&path, strength_chart(&cal).to_svg())
            .map_err(|source| CliError::Write { what: path.display().to_string(), source })?;
        outln!("chart written to {}", path.display())?;
    }
    Ok(())
}

fn send(args: SendArgs) -> Result<(), CliError> {
    let targets: Vec<SocketAddr> = args.to.iter().map(|t| destination("to", t)).collect::<Result<_, _>>()?;
    if args.secret.rfc_prefix && targets.len() > 1 {
        return Err(CliError::Usage(format!(
            "--rfc-prefix is unicast only: one --to, not {} (group nonces serve several receivers)",
            targets.len()
        )));
    }
    let profile = Profile::from_name(&args.profile)
        .ok_or_else(|| CliError::Usage(format!("unknown profile {:?}", args.profile)))?;
    if args.sizes.is_empty() {
        return Err(CliError::Usage("--sizes: give at least one size".into()));
    }
    let mut config = SenderConfig::new(profile);
    config.nonce_mode = args.secret.mode();
    config.sender_id = args.sender_id;
    config.limits = RekeyLimits { packets: args.rekey_packets, ..RekeyLimits::default() };
    let start = Instant::now();
    let mut sender = Sender::new(args.secret.get()?, config, Duration::ZERO)?;
    let socket = bind(ANY_PORT)?;
    let mut sent = 0u64;
    for i in 0..args.count {
        if args.rate > 0 {
            let due = Duration::from_secs_f64(i as f64 / args.rate as f64);
            while start.elapsed() < due {
                std::hint::spin_loop();
            }
        }
        let size = args.sizes[(i % args.sizes.len() as u64) as usize];
        let payload: Vec<u8> = (0..size).map(|b| (b as u64 ^ i) as u8).collect();
        let datagram = sender.seal(start.elapsed(), &payload)?;
        for &target in &targets {
            socket.send_to(&datagram, target).map_err(net(NetCall::Send, target))?;
        }
        sent += 1;
    }
    outln!(
        "sent={sent} to {} receiver(s) in {:.2} s, final epoch {}",
        targets.len(),
        start.elapsed().as_secs_f64(),
        sender.epoch()
    )?;
    Ok(())
}

fn recv(args: RecvArgs) -> Result<(), CliError> {
    let requested = loopback("listen", &args.listen)?;
    let (floor, ceiling) = (check(&args.floor)?, check(&args.ceiling)?);
    if floor > ceiling {
        return Err(CliError::Usage("--floor is stronger than --ceiling".into()));
    }
    let secret = args.secret.get()?;
    let socket = bind(requested)?;
    let addr = bound_address(&socket, requested)?;
    // Calibrate the cost model (a short start-up benchmark, docs/gears.md section 6.7).
    let cal = calibrate(Duration::from_millis(10)).map_err(CliError::Usage)?;
    let costs = umac_costs(&cal).into_iter().map(|(l, c)| (l, c.scaled(args.cost_scale))).collect();
    let mut config = ReceiverConfig::new(PolicyConfig::new(floor, ceiling, costs), args.budget * 1e9);
    config.nonce_mode = args.secret.mode();
    config.accept_sample = args.accept_sample;
    config.badger_costs = badger_costs(&cal).into_iter().map(|(t, c)| (t, c.scaled(args.cost_scale))).collect();
    config.sample_costs = sample_costs(&cal).into_iter().map(|(r, c)| (r, c.scaled(args.cost_scale))).collect();
    let start = Instant::now();
    let mut receiver = Receiver::new(secret, config, Duration::ZERO);
    socket.set_read_timeout(Some(Duration::from_millis(50))).map_err(net(NetCall::SetTimeout, addr))?;
    let mut buf = vec![0u8; 65536];
    let mut last_packet = Instant::now();
    let mut depth_changes = Vec::new();
    let mut depth = receiver.policy().depth;
    outln!(
        "listening on {addr}: budget {} core(s), cost scale {}, floor {floor}, ceiling {ceiling}",
        args.budget,
        args.cost_scale
    )?;
    loop {
        let now = start.elapsed();
        match socket.recv(&mut buf) {
            Ok(n) => {
                last_packet = Instant::now();
                receiver.receive(start.elapsed(), &buf[..n]);
            }
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => {
                receiver.maybe_tick(now);
            }
            Err(e) => return Err(net(NetCall::Read, addr)(e)),
        }
        if receiver.policy().depth != depth {
            depth = receiver.policy().depth;
            depth_changes.push(format!("{:.2}s:{depth}", now.as_secs_f64()));
        }
        let c = receiver.counters();
        if (args.count > 0 && c.received >= args.count)
            || last_packet.elapsed() >= Duration::from_millis(args.idle_ms)
            || now >= Duration::from_secs(args.max_secs)
        {
            break;
        }
    }
    let c = receiver.counters();
    outln!("{c}")?;
    outln!(
        "final depth {}, epoch {}, depth changes: [{}]",
        receiver.policy().depth,
        receiver.epoch(),
        depth_changes.join(" ")
    )?;
    outln!(
        "conservation received = delivered + dropped_overload + rejected_*: {}",
        if c.conserved() { "holds" } else { "BROKEN" }
    )?;
    Ok(())
}

/// The forgery kinds of docs/gears.md section 6.9, injected in turn.
const ATTACKS: [&str; 7] =
    ["random-tag", "payload-bit", "replay", "stale-epoch", "wrong-profile", "window-jump", "truncated"];

fn attack(args: AttackArgs) -> Result<(), CliError> {
    let requested = loopback("listen", &args.listen)?;
    let to = destination("to", &args.to)?;
    if to == requested {
        return Err(CliError::Usage(format!(
            "--to {to} is --listen's own address: every datagram would come back to be forwarded again"
        )));
    }
    let inbound = bind(requested)?;
    let listen = bound_address(&inbound, requested)?;
    inbound.set_read_timeout(Some(Duration::from_millis(args.idle_ms))).map_err(net(NetCall::SetTimeout, listen))?;
    let outbound = bind(ANY_PORT)?;
    let mut buf = vec![0u8; 65536];
    let mut previous: Option<Vec<u8>> = None;
    let mut forwarded = 0u64;
    let mut injected = [0u64; ATTACKS.len()];
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    let mut rand = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut kind = 0usize;
    outln!("listening on {listen}: forwarding to {to}")?;
    loop {
        let n = match inbound.recv(&mut buf) {
            Ok(n) => n,
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => break,
            Err(e) => return Err(net(NetCall::Read, listen)(e)),
        };
        let genuine = buf[..n].to_vec();
        // Forgeries go first, carrying the genuine packet's fresh sequence
        // number, so the receiver must reject them by their MAC (and must
        // still accept the genuine one after them).
        for _ in 0..args.per_packet {
            let mut f = genuine.clone();
            let k = kind % ATTACKS.len();
            kind += 1;
            if f.len() < HEADER_LEN + 4 {
                continue;
            }
            let last = f.len() - 1;
            match ATTACKS[k] {
                "random-tag" => {
                    // The whole tag block, so the prefix a receiver checks
                    // changes too.
                    let tag_len = Profile::from_code(f[1]).map_or(4, |p| p.tag_len()).min(f.len() - HEADER_LEN);
                    let from = f.len() - tag_len;
                    for b in &mut f[from..] {
                        *b = rand() as u8;
                    }
                }
                "payload-bit" => {
                    // A bit of the payload (of the header if it is empty).
                    let payload_len = usize::from(u16::from_be_bytes([f[16], f[17]])).min(f.len() - HEADER_LEN);
                    let at = if payload_len > 0 {
                        HEADER_LEN + rand() as usize % payload_len
                    } else {
                        8 + rand() as usize % 8
                    };
                    f[at] ^= 1 << (rand() % 8);
                }
                "replay" => f = previous.clone().unwrap_or(f),
                "stale-epoch" => {
                    let stale = u16::from_be_bytes([f[2], f[3]]).wrapping_sub(1);
                    f[2..4].copy_from_slice(&stale.to_be_bytes());
                }
                "wrong-profile" => f[1] = if f[1] == 0x10 { 0x12 } else { 0x10 },
                "window-jump" => {
                    let seq = u64::from_be_bytes(f[8..16].try_into().expect("8 bytes"));
                    f[8..16].copy_from_slice(&seq.wrapping_add(1 << 40).to_be_bytes());
                }
                _ => f.truncate(last),
            }
            outbound.send_to(&f, to).map_err(net(NetCall::Send, to))?;
            injected[k] += 1;
        }
        outbound.send_to(&genuine, to).map_err(net(NetCall::Send, to))?;
        forwarded += 1;
        previous = Some(genuine);
    }
    let total: u64 = injected.iter().sum();
    let detail: Vec<String> = ATTACKS.iter().zip(injected).map(|(a, n)| format!("{a}:{n}")).collect();
    outln!("forwarded={forwarded} injected={total} [{}]", detail.join(" "))?;
    Ok(())
}
