//! The sender (docs/gears.md section 6.4): numbers packets, tags them under the current
//! epoch's keys, and rekeys on the usage limits of section 6.8.

use std::time::Duration;

use crate::Error;
use crate::keys::{EpochKeys, SessionSecret};
use crate::rekey::RekeyLimits;
use crate::wire::{BADGER_MAX_SENDER, BADGER_SEQ_LIMIT, HEADER_LEN, Header, MAX_PAYLOAD, NonceMode};
use crate::{Check, Profile};
use fastmac::nonce::NonceCounter;
use fastmac::umac::NestedPads;

/// Highest sequence number a sender uses in an epoch: it never wraps
/// (docs/gears.md section 6.4: hard stop at 2^64 - 2^16).
pub const SEQ_HARD_STOP: u64 = u64::MAX - (1 << 16) + 1;
/// In [`NonceMode::RfcPrefix`] the nonce is `4 * seq`, so seq stays below
/// 2^62.
pub const SEQ_HARD_STOP_RFC_PREFIX: u64 = 1 << 62;

/// How a sender tags.
#[derive(Clone, Debug)]
pub struct SenderConfig {
    /// The profile of every packet.
    pub profile: Profile,
    /// How the nonce is formed.
    pub nonce_mode: NonceMode,
    /// This sender's id in a group (0 for unicast).
    pub sender_id: u32,
    /// When to move to the next epoch.
    pub limits: RekeyLimits,
    /// The first epoch.
    pub first_epoch: u16,
}

impl SenderConfig {
    /// Unicast, group nonces, default limits, epoch 0.
    pub fn new(profile: Profile) -> Self {
        SenderConfig {
            profile,
            nonce_mode: NonceMode::Group,
            sender_id: 0,
            limits: RekeyLimits::default(),
            first_epoch: 0,
        }
    }
}

/// A sender of gears datagrams.
pub struct Sender {
    secret: SessionSecret,
    config: SenderConfig,
    /// The profile packets get: `config.profile`, or a shorter UMAC prefix
    /// after a gear-lowering request ([`Sender::lower_to`]).
    profile: Profile,
    keys: EpochKeys,
    /// Pads of `keys` computed ahead for the coming sequence numbers.
    pads: NestedPads,
    /// This epoch's sequence numbers: never repeated, never wrapped.
    seq: NonceCounter,
    epoch_started: Duration,
}

impl Sender {
    /// A sender starting its first epoch at time `now`.
    pub fn new(secret: SessionSecret, config: SenderConfig, now: Duration) -> Result<Self, Error> {
        if config.nonce_mode == NonceMode::RfcPrefix && config.sender_id != 0 {
            return Err(Error::Config("the RFC-prefix nonce mode is unicast only (sender_id 0)"));
        }
        if config.profile == Profile::Badger160 && config.sender_id > BADGER_MAX_SENDER {
            return Err(Error::Config("Badger-160 packets carry sender ids up to 65535"));
        }
        let keys = EpochKeys::derive(&secret, config.first_epoch);
        let pads = keys.pads(config.nonce_mode);
        let seq = NonceCounter::new(seq_limit(&config));
        Ok(Sender { secret, keys, pads, seq, epoch_started: now, profile: config.profile, config })
    }

    /// The profile of the next packet.
    pub fn profile(&self) -> Profile {
        self.profile
    }

    /// Sender-side gear lowering (docs/gears.md section 6.4): tags at most as deep as
    /// `max` from now on, computing only the iterations that needs; `U128`
    /// (or anything at or above the configured profile) restores it.
    /// Unicast UMAC-prefix senders only. Call it on an authenticated
    /// request ([`crate::ControlReceiver::apply`] does).
    pub fn lower_to(&mut self, max: Check) -> Result<Profile, Error> {
        if self.config.sender_id != 0 {
            return Err(Error::Config("gear lowering is unicast only: a group sender tags for its strongest receiver"));
        }
        let configured = match self.config.profile {
            p @ (Profile::U128 | Profile::U96 | Profile::U64 | Profile::U32) => p,
            _ => return Err(Error::Config("only a U128, U96, U64 or U32 sender lowers its gear")),
        };
        // U128+H128 (or T8) asks for no lowering: full tags.
        let requested = Profile::of_prefix(max).unwrap_or(Profile::U128);
        self.profile = if requested.umac_len() < configured.umac_len() { requested } else { configured };
        Ok(self.profile)
    }

    /// The current epoch.
    pub fn epoch(&self) -> u16 {
        self.keys.epoch()
    }

    /// The sequence number the next packet gets.
    pub fn next_seq(&self) -> u64 {
        self.seq.peek()
    }

    /// Moves to the next epoch now (sequence numbers restart at 0).
    pub fn rekey(&mut self, now: Duration) -> Result<(), Error> {
        let epoch = self.epoch().checked_add(1).ok_or(Error::EpochsExhausted)?;
        self.keys = EpochKeys::derive(&self.secret, epoch);
        self.pads = self.keys.pads(self.config.nonce_mode);
        self.seq = NonceCounter::new(self.seq.limit());
        self.epoch_started = now;
        Ok(())
    }

    /// Authenticates `payload` into a datagram, rekeying first if a usage
    /// limit is reached.
    pub fn seal(&mut self, now: Duration, payload: &[u8]) -> Result<Vec<u8>, Error> {
        if payload.len() > MAX_PAYLOAD {
            return Err(Error::PayloadTooLong { max: MAX_PAYLOAD, got: payload.len() });
        }
        if self.config.limits.sender_must_rekey(self.seq.peek(), now.saturating_sub(self.epoch_started)) {
            self.rekey(now)?;
        }
        let seq = self.seq.next().map_err(|_| Error::SequenceExhausted)?;
        let profile = self.profile;
        let header = Header {
            profile,
            epoch: self.epoch(),
            sender_id: self.config.sender_id,
            seq,
            payload_len: payload.len() as u16,
        };
        let mut out = Vec::with_capacity(HEADER_LEN + payload.len() + profile.tag_len());
        out.extend_from_slice(&header.encode());
        out.extend_from_slice(payload);
        let nonce = header.nonce(self.config.nonce_mode);
        match profile {
            Profile::Badger160 => {
                let nonce = header.badger_nonce().ok_or(Error::SequenceExhausted)?;
                out.extend_from_slice(&self.keys.badger_tag(&nonce, &out)?);
            }
            Profile::Sample(rate) => {
                let tag = self.keys.sample_tag(rate, nonce.as_bytes(), &out[..HEADER_LEN], payload);
                out.extend_from_slice(&tag);
            }
            Profile::U128H128 => {
                let field = self.keys.field(&mut self.pads, nonce.as_bytes(), &out);
                let hmac = self.keys.hmac_tag(&out);
                out.extend_from_slice(&field);
                out.extend_from_slice(&hmac);
            }
            _ => {
                // The whole field for U128; a shorter profile computes only
                // the iterations its prefix needs (gear lowering, 6.4).
                let mut tag = [0u8; 16];
                let len = profile.umac_len();
                self.keys.field_prefix(&mut self.pads, nonce.as_bytes(), &out, &mut tag[..len]);
                out.extend_from_slice(&tag[..len]);
            }
        }
        Ok(out)
    }
}

/// The first sequence number the sender must not use in an epoch.
fn seq_limit(config: &SenderConfig) -> u64 {
    match (config.profile, config.nonce_mode) {
        (Profile::Badger160, _) => BADGER_SEQ_LIMIT,
        (_, NonceMode::Group) => SEQ_HARD_STOP,
        (_, NonceMode::RfcPrefix) => SEQ_HARD_STOP_RFC_PREFIX,
    }
}

impl core::fmt::Debug for Sender {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Sender {{ epoch: {}, next_seq: {}, .. }}", self.epoch(), self.seq.peek())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sender(profile: Profile, mode: NonceMode) -> Sender {
        let mut config = SenderConfig::new(profile);
        config.nonce_mode = mode;
        Sender::new(SessionSecret::new(&[1u8; 16]).unwrap(), config, Duration::ZERO).unwrap()
    }

    #[test]
    fn sequence_numbers_never_wrap() {
        for (profile, mode, stop) in [
            (Profile::U128, NonceMode::Group, SEQ_HARD_STOP),
            (Profile::U64, NonceMode::RfcPrefix, SEQ_HARD_STOP_RFC_PREFIX),
            (Profile::Badger160, NonceMode::Group, BADGER_SEQ_LIMIT),
        ] {
            let mut s = sender(profile, mode);
            // No real sender gets here before rekeying; jump to the edge.
            s.config.limits.packets = u64::MAX;
            s.seq = NonceCounter::starting_at(stop - 1, stop).unwrap();
            assert!(s.seal(Duration::ZERO, b"last").is_ok());
            assert_eq!(s.seal(Duration::ZERO, b"one more"), Err(Error::SequenceExhausted));
            assert_eq!(s.next_seq(), stop);
        }
    }

    #[test]
    fn rekeys_on_time_and_packets() {
        let mut s = sender(Profile::U128, NonceMode::Group);
        s.config.limits.time = Duration::from_secs(1);
        s.config.limits.packets = 3;
        s.seal(Duration::from_millis(500), b"a").unwrap();
        assert_eq!(s.epoch(), 0);
        s.seal(Duration::from_millis(1000), b"b").unwrap();
        assert_eq!((s.epoch(), s.next_seq()), (1, 1));
        for _ in 0..3 {
            s.seal(Duration::from_millis(1100), b"c").unwrap();
        }
        assert_eq!((s.epoch(), s.next_seq()), (2, 1));
    }

    #[test]
    fn bad_configurations_and_payloads_are_typed_errors() {
        let mut config = SenderConfig::new(Profile::U64);
        config.nonce_mode = NonceMode::RfcPrefix;
        config.sender_id = 7;
        let secret = SessionSecret::new(&[1u8; 16]).unwrap();
        assert!(matches!(Sender::new(secret.clone(), config, Duration::ZERO), Err(Error::Config(_))));
        let mut config = SenderConfig::new(Profile::Badger160);
        config.sender_id = 1 << 16;
        assert!(matches!(Sender::new(secret, config, Duration::ZERO), Err(Error::Config(_))));
        let mut s = sender(Profile::U128, NonceMode::Group);
        let big = vec![0u8; MAX_PAYLOAD + 1];
        assert_eq!(s.seal(Duration::ZERO, &big), Err(Error::PayloadTooLong { max: MAX_PAYLOAD, got: MAX_PAYLOAD + 1 }));
        let mut s = sender(Profile::U128, NonceMode::Group);
        s.keys = EpochKeys::derive(&s.secret, u16::MAX);
        assert_eq!(s.rekey(Duration::ZERO), Err(Error::EpochsExhausted));
    }
}
