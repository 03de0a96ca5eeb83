//! Usage limits per epoch (docs/gears.md section 6.8): packets, time, forgery budget,
//! and the grace period of an old epoch.

use std::time::Duration;

/// When a sender moves on and when a receiver stops accepting an epoch.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RekeyLimits {
    /// Rekey after this many packets: 2^32, as RFC 4344 section 3.1 and the
    /// 2^(L/4) rule for AES-128 (one PDF block per packet).
    pub packets: u64,
    /// Receivers reject an epoch's packets beyond `packets + packet_grace`.
    pub packet_grace: u64,
    /// Rekey after this time (WireGuard-like default: 120 s).
    pub time: Duration,
    /// Receivers reject an epoch older than `time_reject_factor * time`.
    pub time_reject_factor: f64,
    /// Sum over failures of 2^(bound of the failed check) that retires an
    /// epoch (2^-20).
    pub forgery_budget: f64,
    /// How long the previous epoch is still accepted after a newer one
    /// verified (at least twice the largest reordering delay).
    pub grace: Duration,
}

impl Default for RekeyLimits {
    fn default() -> Self {
        RekeyLimits {
            packets: 1 << 32,
            packet_grace: 1 << 16,
            time: Duration::from_secs(120),
            time_reject_factor: 1.5,
            forgery_budget: 2f64.powi(-20),
            grace: Duration::from_secs(2),
        }
    }
}

impl RekeyLimits {
    /// Whether a sender that has sent `packets` in an epoch of age `age`
    /// must rekey before the next packet.
    pub fn sender_must_rekey(&self, packets: u64, age: Duration) -> bool {
        packets >= self.packets || age >= self.time
    }

    /// Whether a receiver must refuse a packet of an epoch that has
    /// accepted `packets` and is `age` old (measured from when the receiver
    /// first verified a packet of it).
    pub fn receiver_refuses(&self, packets: u64, age: Duration) -> bool {
        packets >= self.packets.saturating_add(self.packet_grace)
            || age.as_secs_f64() >= self.time_reject_factor * self.time.as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_trigger_at_their_thresholds() {
        let l = RekeyLimits::default();
        assert!(!l.sender_must_rekey((1 << 32) - 1, Duration::from_secs(119)));
        assert!(l.sender_must_rekey(1 << 32, Duration::ZERO));
        assert!(l.sender_must_rekey(0, Duration::from_secs(120)));
        assert!(!l.receiver_refuses(1 << 32, Duration::from_secs(179)));
        assert!(l.receiver_refuses((1 << 32) + (1 << 16), Duration::ZERO));
        assert!(l.receiver_refuses(0, Duration::from_secs(180)));
    }
}
