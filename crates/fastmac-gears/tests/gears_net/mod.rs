//! Helpers of the gears UDP tests: loopback links, an emulated slow CPU, a
//! virtual clock, and the bounds every test keeps: at most 200,000
//! packets, and a datagram that has not arrived within 2 s fails the test.
//! No test bounds its wall time: the policy runs on the virtual clock, so
//! a loaded machine makes a scenario slower, never different.
#![allow(dead_code)] // each test binary uses a different subset

use std::net::UdpSocket;
use std::time::Duration;

use fastmac_gears::{Check, CostModel, Counters, PolicyConfig, Receiver, ReceiverConfig, SessionSecret, Verdict};

pub const MAX_PACKETS: u64 = 200_000;

pub fn secret() -> SessionSecret {
    SessionSecret::new(b"gears test session secret, 32 B!").unwrap()
}

/// An emulated 2000-era CPU (docs/gears.md section 6.9: real CI machines are too fast
/// to be constrained): each UHASH iteration costs 100 ns + 0.8 ns/byte over
/// 250 ns fixed, HMAC 1000 ns + 10 ns/byte.
pub fn emulated_costs() -> Vec<(Check, CostModel)> {
    Check::all()
        .into_iter()
        .map(|l| {
            let j = l.umac_bytes().div_ceil(4) as f64;
            let mut c = CostModel { a_ns: 250.0 + 100.0 * j, b_ns_per_byte: 0.8 * j };
            if l.checks_hmac() {
                c = c.plus(CostModel { a_ns: 1000.0, b_ns_per_byte: 10.0 });
            }
            (l, c)
        })
        .collect()
}

pub fn receiver(floor: Check, ceiling: Check, cores: f64) -> Receiver {
    let policy = PolicyConfig::new(floor, ceiling, emulated_costs());
    Receiver::new(secret(), ReceiverConfig::new(policy, cores * 1e9), Duration::ZERO)
}

pub fn receiver_with(config: ReceiverConfig) -> Receiver {
    Receiver::new(secret(), config, Duration::ZERO)
}

/// One sending socket and `n` receiving sockets, all on 127.0.0.1
/// (emulated multicast: the sender fans out to every port). Datagrams go
/// one at a time, so loopback never drops any.
pub struct Link {
    tx: UdpSocket,
    rx: Vec<UdpSocket>,
    buf: Vec<u8>,
    pub sent: u64,
}

impl Link {
    pub fn new(receivers: usize) -> Link {
        let tx = UdpSocket::bind("127.0.0.1:0").unwrap();
        let rx: Vec<UdpSocket> = (0..receivers)
            .map(|_| {
                let s = UdpSocket::bind("127.0.0.1:0").unwrap();
                s.set_read_timeout(Some(Duration::from_secs(2))).unwrap();
                s
            })
            .collect();
        Link { tx, rx, buf: vec![0; 65536], sent: 0 }
    }

    /// Sends `datagram` to every receiver and hands each copy, as read
    /// back from its socket, to the matching receiver at time `now`.
    pub fn deliver(
        &mut self,
        now: Duration,
        datagram: &[u8],
        receivers: &mut [&mut Receiver],
        mut seen: impl FnMut(usize, &Verdict<'_>),
    ) {
        assert!(self.sent < MAX_PACKETS, "test exceeds {MAX_PACKETS} packets");
        self.sent += 1;
        for (i, (socket, receiver)) in self.rx.iter().zip(receivers.iter_mut()).enumerate() {
            self.tx.send_to(datagram, socket.local_addr().unwrap()).unwrap();
            let n = socket.recv(&mut self.buf).expect("loopback datagram");
            let verdict = receiver.receive(now, &self.buf[..n]);
            seen(i, &verdict);
        }
    }
}

/// The conservation law of docs/gears.md section 6.9 for one receiver.
pub fn assert_conserved(name: &str, sent: u64, c: &Counters) {
    assert_eq!(c.received, sent, "{name}: every datagram must arrive on loopback");
    assert!(c.conserved(), "{name}: {c}");
    assert_eq!(
        sent,
        c.delivered + c.dropped_overload + c.rejected_auth + c.rejected_replay + c.rejected_format,
        "{name}: sent = delivered + dropped_overload + rejected_auth + rejected_replay + rejected_format"
    );
    println!("{name}: sent={sent} {c}");
}

/// `n` bytes depending on `i`.
pub fn payload(i: u64, n: usize) -> Vec<u8> {
    (0..n).map(|b| (b as u64 * 31 + i * 7) as u8).collect()
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn fill(&mut self, out: &mut [u8]) {
        for chunk in out.chunks_mut(8) {
            let v = self.next().to_le_bytes();
            chunk.copy_from_slice(&v[..chunk.len()]);
        }
    }
}
