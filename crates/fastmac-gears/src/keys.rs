//! Per-epoch keys, derived from the session secret with HKDF-SHA-256
//! (docs/gears.md section 6.3), and the tag computations that use them.
//!
//! `K_umac`, `K_hmac` and `K_sample` come from distinct HKDF `info`
//! strings that end in the big-endian epoch, so every algorithm and every
//! epoch has its own key. The UMAC prefix gears share `K_umac`, which is
//! safe because they all use the same whole-block pad (docs/umac.md section 3.5); the
//! native UMAC-32/64 PDF is never called with it (docs/umac.md section 3.4).

use hkdf::Hkdf;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use zeroize::{Zeroize, Zeroizing};

use crate::Error;
use crate::HMAC_TAG_LEN;
use crate::sample::Sampler;
use crate::wire::NonceMode;
use crate::{Check, SampleRate};
use fastmac::Error as MacError;
use fastmac::badger::Badger160;
use fastmac::umac::{FIELD_LEN, NestedPads, NestedUmac};

type HmacSha256 = Hmac<Sha256>;

/// The session secret every epoch key is derived from (a PSK in the
/// demonstration; a key-exchange exporter in a deployment).
#[derive(Clone)]
pub struct SessionSecret(Zeroizing<Vec<u8>>);

impl SessionSecret {
    /// Shortest secret accepted: 128 bits.
    pub const MIN_LEN: usize = 16;

    /// Wraps a secret of at least 16 bytes.
    pub fn new(secret: &[u8]) -> Result<Self, Error> {
        if secret.len() < Self::MIN_LEN {
            return Err(Error::Mac(MacError::KeyLength { expected: Self::MIN_LEN, got: secret.len() }));
        }
        Ok(SessionSecret(Zeroizing::new(secret.to_vec())))
    }

    /// The secret of the control channel that carries gear-lowering
    /// requests back to the sender ([`crate::control`]):
    /// `HKDF-SHA-256(secret, info = "gears v1 control channel")`, so its
    /// keys are independent of every data epoch's.
    pub fn control_channel(&self) -> SessionSecret {
        let mut derived = Zeroizing::new(vec![0u8; 32]);
        Hkdf::<Sha256>::new(None, &self.0)
            .expand(b"gears v1 control channel", &mut derived)
            .expect("HKDF-SHA-256 outputs up to 8160 bytes");
        SessionSecret(derived)
    }
}

impl core::fmt::Debug for SessionSecret {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("SessionSecret(..)")
    }
}

/// The keys of one epoch.
#[derive(Clone)]
pub struct EpochKeys {
    epoch: u16,
    umac: NestedUmac,
    hmac: HmacSha256,
    sampler: Sampler,
    badger: Badger160,
}

impl EpochKeys {
    /// `K_x = HKDF-SHA-256(secret, info = "gears v1 x" || BE16(epoch))`.
    pub fn derive(secret: &SessionSecret, epoch: u16) -> Self {
        let hkdf = Hkdf::<Sha256>::new(None, &secret.0);
        let expand = |label: &str, out: &mut [u8]| {
            let mut info = label.as_bytes().to_vec();
            info.extend_from_slice(&epoch.to_be_bytes());
            hkdf.expand(&info, out).expect("HKDF-SHA-256 outputs up to 8160 bytes");
        };
        let mut k_umac = [0u8; 16];
        let mut k_hmac = [0u8; 32];
        let mut k_sample = [0u8; 32];
        let mut k_badger = [0u8; 16];
        expand("gears v1 badger", &mut k_badger);
        expand("gears v1 umac", &mut k_umac);
        expand("gears v1 hmac", &mut k_hmac);
        expand("gears v1 sample", &mut k_sample);
        let keys = EpochKeys {
            epoch,
            umac: NestedUmac::new(&k_umac),
            hmac: HmacSha256::new_from_slice(&k_hmac).expect("HMAC takes any key length"),
            sampler: Sampler::new(&k_sample),
            badger: Badger160::new(&k_badger),
        };
        k_badger.zeroize();
        k_umac.zeroize();
        k_hmac.zeroize();
        k_sample.zeroize();
        keys
    }

    /// The epoch these keys belong to.
    pub fn epoch(&self) -> u16 {
        self.epoch
    }

    /// An empty pad cache for one sender's packets under these keys, in
    /// nonce mode `mode`: both modes put the sequence number in the nonce's
    /// first 8 bytes (docs/gears.md section 6.5), `seq` in Group mode and `4 * seq` in
    /// RFC-prefix mode, so in-order packets advance the nonce block by
    /// `1 << 64` or `4 << 64`. One AES call then pads 16 packets.
    pub fn pads(&self, mode: NonceMode) -> NestedPads {
        let step: u128 = match mode {
            NonceMode::Group => 1,
            NonceMode::RfcPrefix => 4,
        };
        NestedPads::new(step << 64)
    }

    /// The 16-byte UMAC-128 field of `msg` (one pass, four iterations),
    /// with the pad from `pads` (made by [`EpochKeys::pads`] of these keys).
    pub fn field(&self, pads: &mut NestedPads, nonce: &[u8], msg: &[u8]) -> [u8; FIELD_LEN] {
        let mut field = [0u8; FIELD_LEN];
        self.field_prefix(pads, nonce, msg, &mut field);
        field
    }

    /// The first `out.len()` bytes of the field, with only the iterations
    /// they need (sender-side gear lowering, docs/gears.md section 6.4).
    pub fn field_prefix(&self, pads: &mut NestedPads, nonce: &[u8], msg: &[u8], out: &mut [u8]) {
        self.umac.prefix_into_cached(pads, nonce, msg, out).expect("gear nonces are 8 or 12 bytes, prefixes 1 to 16")
    }

    /// HMAC-SHA-256 truncated to 128 bits (RFC 4868 style).
    pub fn hmac_tag(&self, msg: &[u8]) -> [u8; HMAC_TAG_LEN] {
        let mut mac = self.hmac.clone();
        mac.update(msg);
        let full = mac.finalize().into_bytes();
        let mut tag = [0u8; HMAC_TAG_LEN];
        tag.copy_from_slice(&full[..HMAC_TAG_LEN]);
        tag
    }

    /// The tag of the experimental partial MAC S-L.
    pub fn sample_tag(&self, rate: SampleRate, nonce: &[u8], header: &[u8], payload: &[u8]) -> [u8; 8] {
        self.sampler.tag(rate, nonce, header, payload)
    }

    /// Checks a packet's tags at `check`, in constant time: the first
    /// `check.umac_bytes()` of `umac_tag` (which must be at least that
    /// long), and the HMAC tag when the check requires it. The pad comes
    /// from `pads`, the cache of the packet's sender under these keys.
    pub fn verify_umac(
        &self,
        pads: &mut NestedPads,
        check: Check,
        nonce: &[u8],
        msg: &[u8],
        umac_tag: &[u8],
        hmac_tag: Option<&[u8]>,
    ) -> Result<(), MacError> {
        let n = check.umac_bytes();
        let prefix = umac_tag.get(..n).ok_or(MacError::TagLength { expected: n, got: umac_tag.len() })?;
        let umac_ok = self.umac.verify_prefix_cached(pads, nonce, msg, prefix);
        if check.checks_hmac() {
            let tag = hmac_tag.ok_or(MacError::TagLength { expected: HMAC_TAG_LEN, got: 0 })?;
            if tag.len() != HMAC_TAG_LEN {
                return Err(MacError::TagLength { expected: HMAC_TAG_LEN, got: tag.len() });
            }
            let mut mac = self.hmac.clone();
            mac.update(msg);
            let hmac_ok = mac.verify_truncated_left(tag).is_ok();
            // Both are computed before either result is looked at.
            return if umac_ok.is_ok() & hmac_ok { Ok(()) } else { Err(MacError::InvalidTag) };
        }
        umac_ok
    }

    /// The Badger-160 tag of `msg` (nonce: 8 bytes, never zero).
    pub fn badger_tag(&self, nonce: &[u8], msg: &[u8]) -> Result<[u8; 20], MacError> {
        self.badger.mac(nonce, msg)
    }

    /// Checks the first `trees` 32-bit chunks of a Badger-160 tag, computing
    /// only those trees, in constant time.
    pub fn verify_badger(&self, trees: usize, nonce: &[u8], msg: &[u8], tag: &[u8]) -> Result<(), MacError> {
        self.badger.verify_prefix(nonce, msg, tag, trees)
    }

    /// Checks an S-L tag in constant time.
    pub fn verify_sample(
        &self,
        rate: SampleRate,
        nonce: &[u8],
        header: &[u8],
        payload: &[u8],
        tag: &[u8],
    ) -> Result<(), MacError> {
        self.sampler.verify(rate, nonce, header, payload, tag)
    }
}

impl core::fmt::Debug for EpochKeys {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "EpochKeys {{ epoch: {}, .. }}", self.epoch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epochs_and_algorithms_get_distinct_keys() {
        let secret = SessionSecret::new(&[7u8; 32]).unwrap();
        let (k0, k1) = (EpochKeys::derive(&secret, 0), EpochKeys::derive(&secret, 1));
        let nonce = [0u8; 12];
        let (mut p0, mut p1) = (k0.pads(NonceMode::Group), k1.pads(NonceMode::Group));
        assert_ne!(k0.field(&mut p0, &nonce, b"m"), k1.field(&mut p1, &nonce, b"m"));
        assert_ne!(k0.hmac_tag(b"m"), k1.hmac_tag(b"m"));
        assert_ne!(k0.field(&mut p0, &nonce, b"m")[..], k0.hmac_tag(b"m")[..]);
    }

    #[test]
    fn short_secret_is_rejected() {
        assert_eq!(
            SessionSecret::new(&[1u8; 15]).unwrap_err(),
            Error::Mac(MacError::KeyLength { expected: 16, got: 15 })
        );
    }
}
