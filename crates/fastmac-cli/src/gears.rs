//! `fastmac gears ...`: the gear table, and the UDP demonstration of
//! docs/gears.md section 6.9 (send, recv, attack) on 127.0.0.1 only.

mod strength_chart;
mod table;

use std::net::{Ipv4Addr, SocketAddr, UdpSocket};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::{Args, Subcommand};
use fastmac_gears::wire::{HEADER_LEN, MAX_PAYLOAD};
use fastmac_gears::{
    Check, NonceMode, PolicyConfig, Profile, Receiver, ReceiverConfig, RekeyLimits, Sender, SenderConfig, SessionSecret,
};

use self::strength_chart::strength_chart;
use self::table::{badger_costs, calibrate, measure_ratios, sample_costs, umac_costs};
use crate::input::{CliError, unhex, writable_file};
use crate::out::outln;

#[derive(Subcommand)]
pub enum GearsCommand {
    /// Print every gear with its bound and its measured cost at 64, 576, 1500 and 9000 bytes.
    Table {
        /// Also draw the strength-versus-cost chart into this SVG file.
        #[arg(long)]
        svg: Option<PathBuf>,
        /// Milliseconds of measurement per gear and length.
        #[arg(long, default_value_t = 60)]
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
    /// Nonce = BE64(4 * seq), so every prefix is a standard UMAC tag (unicast only).
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
    /// Datagrams to send.
    #[arg(long, default_value_t = 10_000)]
    count: u64,
    /// Datagrams per second (0: as fast as possible).
    #[arg(long, default_value_t = 20_000)]
    rate: u64,
    /// Payload sizes, cycled.
    #[arg(long, value_delimiter = ',', default_value = "64,576,1400,9000")]
    sizes: Vec<usize>,
    /// Profile: u128, u128+h128, u96, u64, u32, b160, s-8, s-64, s-512.
    #[arg(long, default_value = "u128")]
    profile: String,
    /// Rekey after this many packets.
    #[arg(long, default_value_t = 1 << 32)]
    rekey_packets: u64,
    /// Sender id in a group.
    #[arg(long, default_value_t = 0)]
    sender_id: u32,
}

#[derive(Args)]
pub struct RecvArgs {
    #[command(flatten)]
    secret: Secret,
    /// Address to listen on, 127.0.0.1:PORT.
    #[arg(long)]
    listen: String,
    /// CPU budget in cores (1.0 = one core).
    #[arg(long, default_value_t = 1.0)]
    budget: f64,
    /// Multiply the calibrated costs (emulates a slower CPU).
    #[arg(long, default_value_t = 1.0)]
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
    /// Stop after this many datagrams (0: no limit).
    #[arg(long, default_value_t = 0)]
    count: u64,
    /// Stop after this long without a datagram, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    idle_ms: u64,
    /// Stop after this many seconds in all.
    #[arg(long, default_value_t = 60)]
    max_secs: u64,
}

#[derive(Args)]
pub struct AttackArgs {
    /// Where genuine datagrams arrive, 127.0.0.1:PORT.
    #[arg(long)]
    listen: String,
    /// The receiver to forward to and attack, 127.0.0.1:PORT.
    #[arg(long)]
    to: String,
    /// Forgeries injected with each genuine datagram (sent just before it).
    #[arg(long, default_value_t = 1)]
    per_packet: u64,
    /// Stop after this long without a datagram, in milliseconds.
    #[arg(long, default_value_t = 2000)]
    idle_ms: u64,
}

/// Only 127.0.0.1: the demonstration never leaves the machine.
fn loopback(what: &str, text: &str) -> Result<SocketAddr, CliError> {
    let addr: SocketAddr = text.parse().map_err(|_| CliError::Usage(format!("--{what}: not an address:port")))?;
    if addr.ip() != std::net::IpAddr::V4(Ipv4Addr::LOCALHOST) {
        return Err(CliError::Usage(format!("--{what}: only 127.0.0.1 is allowed")));
    }
    Ok(addr)
}

fn net(what: &str) -> impl FnOnce(std::io::Error) -> CliError + '_ {
    move |source| CliError::Io { what: what.to_string(), source }
}

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
        r.field_ns / r.umac128_ns,
        r.depth1_ns,
        r.depth4_ns,
        r.depth1_ns / r.depth4_ns
    )?;
    if let Some(path) = svg {
        std::fs::write(&path, strength_chart(&cal).to_svg())
            .map_err(|source| CliError::Write { what: path.display().to_string(), source })?;
        outln!("chart written to {}", path.display())?;
    }
    Ok(())
}

fn send(args: SendArgs) -> Result<(), CliError> {
    let targets: Vec<SocketAddr> = args.to.iter().map(|t| loopback("to", t)).collect::<Result<_, _>>()?;
    let profile = Profile::from_name(&args.profile)
        .ok_or_else(|| CliError::Usage(format!("unknown profile {:?}", args.profile)))?;
    if args.sizes.is_empty() || args.sizes.iter().any(|s| *s > MAX_PAYLOAD) {
        return Err(CliError::Usage("--sizes: each size must be 0 to 65535".into()));
    }
    let mut config = SenderConfig::new(profile);
    config.nonce_mode = args.secret.mode();
    config.sender_id = args.sender_id;
    config.limits = RekeyLimits { packets: args.rekey_packets, ..RekeyLimits::default() };
    let start = Instant::now();
    let mut sender = Sender::new(args.secret.get()?, config, Duration::ZERO)?;
    let socket = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).map_err(net("a UDP socket"))?;
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
        for t in &targets {
            socket.send_to(&datagram, t).map_err(net("the socket"))?;
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
    let addr = loopback("listen", &args.listen)?;
    let (floor, ceiling) = (check(&args.floor)?, check(&args.ceiling)?);
    if floor > ceiling {
        return Err(CliError::Usage("--floor is stronger than --ceiling".into()));
    }
    if !(args.budget > 0.0 && args.cost_scale > 0.0) {
        return Err(CliError::Usage("--budget and --cost-scale must be positive".into()));
    }
    let socket = UdpSocket::bind(addr).map_err(net("the listening socket"))?;
    // Calibrate the cost model (a short start-up benchmark, docs/gears.md section 6.7).
    let cal = calibrate(Duration::from_millis(10)).map_err(CliError::Usage)?;
    let costs = umac_costs(&cal).into_iter().map(|(l, c)| (l, c.scaled(args.cost_scale))).collect();
    let mut config = ReceiverConfig::new(PolicyConfig::new(floor, ceiling, costs), args.budget * 1e9);
    config.nonce_mode = args.secret.mode();
    config.accept_sample = args.accept_sample;
    config.badger_costs = badger_costs(&cal).into_iter().map(|(t, c)| (t, c.scaled(args.cost_scale))).collect();
    config.sample_costs = sample_costs(&cal).into_iter().map(|(r, c)| (r, c.scaled(args.cost_scale))).collect();
    let start = Instant::now();
    let mut receiver = Receiver::new(args.secret.get()?, config, Duration::ZERO);
    socket.set_read_timeout(Some(Duration::from_millis(50))).map_err(net("the listening socket"))?;
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
            Err(e) => return Err(net("the listening socket")(e)),
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
    let listen = loopback("listen", &args.listen)?;
    let to = loopback("to", &args.to)?;
    let inbound = UdpSocket::bind(listen).map_err(net("the listening socket"))?;
    inbound.set_read_timeout(Some(Duration::from_millis(args.idle_ms.max(1)))).map_err(net("the listening socket"))?;
    let outbound = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).map_err(net("a UDP socket"))?;
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
    loop {
        let n = match inbound.recv(&mut buf) {
            Ok(n) => n,
            Err(e) if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut) => break,
            Err(e) => return Err(net("the listening socket")(e)),
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
            outbound.send_to(&f, to).map_err(net("the socket"))?;
            injected[k] += 1;
        }
        outbound.send_to(&genuine, to).map_err(net("the socket"))?;
        forwarded += 1;
        previous = Some(genuine);
    }
    let total: u64 = injected.iter().sum();
    let detail: Vec<String> = ATTACKS.iter().zip(injected).map(|(a, n)| format!("{a}:{n}")).collect();
    outln!("forwarded={forwarded} injected={total} [{}]", detail.join(" "))?;
    Ok(())
}
