//! The secret-audit PRF (docs/gears.md section 6.6 step 3):
//! `AES_key(epoch || sender_id || seq)`, its first 32 bits as a fraction of
//! 2^32, under a key only this receiver knows.

use aes::Aes128;
use aes::cipher::{Array, BlockCipherEncrypt, KeyInit};

use super::config::AuditConfig;

pub(super) struct Auditor {
    cipher: Aes128,
    threshold: u64,
}

impl Auditor {
    pub(super) fn new(config: &AuditConfig) -> Self {
        let threshold = (config.fraction.clamp(0.0, 1.0) * 4_294_967_296.0) as u64;
        Auditor { cipher: Aes128::new(&Array::from(config.key)), threshold }
    }

    /// Whether the packet `(epoch, sender_id, seq)` is audited.
    pub(super) fn selects(&self, epoch: u16, sender_id: u32, seq: u64) -> bool {
        let mut block = Array::from([0u8; 16]);
        block[..2].copy_from_slice(&epoch.to_be_bytes());
        block[2..6].copy_from_slice(&sender_id.to_be_bytes());
        block[6..14].copy_from_slice(&seq.to_be_bytes());
        self.cipher.encrypt_block(&mut block);
        u64::from(u32::from_be_bytes([block[0], block[1], block[2], block[3]])) < self.threshold
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn selects_about_the_fraction_and_nothing_at_zero() {
        let auditor = |fraction| Auditor::new(&AuditConfig { key: [5; 16], fraction });
        let (none, quarter, all) = (auditor(0.0), auditor(0.25), auditor(1.0));
        let chosen = (0..4000u64).filter(|seq| quarter.selects(1, 2, *seq)).count();
        // Binomial(4000, 1/4): mean 1000, sd 27.
        assert!((850..1150).contains(&chosen), "{chosen}");
        assert!((0..1000u64).all(|seq| all.selects(0, 0, seq) && !none.selects(0, 0, seq)));
    }
}
