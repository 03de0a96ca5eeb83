//! How a receiver works: its policy, CPU budget, windows, limits and costs.

use std::time::Duration;

use crate::cost::CostModel;
use crate::policy::PolicyConfig;
use crate::rekey::RekeyLimits;
use crate::replay::DEFAULT_WINDOW;
use crate::wire::NonceMode;
use crate::{Check, SampleRate};

/// How a receiver works.
#[derive(Clone, Debug)]
pub struct ReceiverConfig {
    /// Floor, ceiling, hysteresis and the cost model of each check.
    pub policy: PolicyConfig,
    /// CPU budget B, ns per s (1e9 = one core).
    pub budget_ns_per_s: f64,
    /// Policy tick (default 50 ms).
    pub tick: Duration,
    /// Replay window per (epoch, sender), in packets.
    pub window: u64,
    /// The jump rule's J: a packet moving the right edge further is
    /// verified at full depth. Default: the window size.
    pub jump_limit: u64,
    /// Must match the senders'.
    pub nonce_mode: NonceMode,
    /// Usage limits and grace period.
    pub limits: RekeyLimits,
    /// Accept the experimental partial-MAC profiles (off by default).
    pub accept_sample: bool,
    /// Cost of checking each partial-MAC profile.
    pub sample_costs: Vec<(SampleRate, CostModel)>,
    /// Cost of each check of a Badger-160 tag (one to five trees,
    /// [`Check::badger_trees`]).
    pub badger_costs: Vec<(Check, CostModel)>,
    /// Epoch expected first.
    pub first_epoch: u16,
    /// Most senders tracked per epoch (windows are created only after a
    /// packet verifies, so forgeries cannot fill this).
    pub max_senders: usize,
    /// Optional secret audits (docs/gears.md section 6.6 step 3).
    pub audit: Option<AuditConfig>,
}

impl ReceiverConfig {
    /// Defaults of docs/gears.md sections 6.6 to 6.8 around a policy.
    pub fn new(policy: PolicyConfig, budget_ns_per_s: f64) -> Self {
        ReceiverConfig {
            policy,
            budget_ns_per_s,
            tick: Duration::from_millis(50),
            window: DEFAULT_WINDOW,
            jump_limit: DEFAULT_WINDOW,
            nonce_mode: NonceMode::Group,
            limits: RekeyLimits::default(),
            accept_sample: false,
            sample_costs: Vec::new(),
            badger_costs: Vec::new(),
            first_epoch: 0,
            max_senders: 1024,
            audit: None,
        }
    }
}

/// Secret audits: a fraction of packets, chosen by a PRF under a key only
/// this receiver knows, is also checked at full depth, so a forger cannot
/// tell which packets a weak receiver checks fully.
#[derive(Clone)]
pub struct AuditConfig {
    /// Receiver-local AES key of the PRF (never shared, never on the wire).
    pub key: [u8; 16],
    /// Fraction q of packets audited, 0 to 1.
    pub fraction: f64,
}

impl core::fmt::Debug for AuditConfig {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "AuditConfig {{ fraction: {}, .. }}", self.fraction)
    }
}
