//! The core clock, measured in-process.
//!
//! A VM often has no performance counters, and its TSC may run at a fixed
//! rate in coarse steps (docs/performance.md), so neither gives core
//! cycles. Instead a chain of dependent 64-bit `imul` instructions is
//! timed on the monotonic clock: `imul r64` has a latency of 3 cycles on
//! every x86-64 core of the last decade (Intel since Nehalem, AMD since
//! Zen), so `3 * imuls / ns` is the core frequency in GHz. (A chain of
//! `add reg, 1` does not work: Intel cores since Golden Cove fold such
//! adds at rename, and it reads as 11 GHz.) Cycle figures are then
//! `ns * GHz`, with the clock measured just before each message size.

use std::time::Instant;

/// How [`core_ghz`] measures, for the report.
const METHOD: &str = "dependent chain of 3-cycle imul r64 (inline asm) timed with the monotonic clock \
    before each size, fastest of 15 runs of 0.5 M cycles; cycles = ns x GHz";

/// The run's clock readings, one before each message size.
#[derive(Debug, Default, Clone)]
pub struct Clock {
    readings: Vec<f64>,
}

impl Clock {
    /// Takes one reading (none where `core_ghz` is not implemented).
    pub fn read(&mut self) {
        self.readings.extend(core_ghz());
    }

    /// The clock every cycle figure uses: the highest reading, since a
    /// reading taken while this process was descheduled is low, never high
    /// (the chain cannot run faster than the core).
    pub fn ghz(&self) -> Option<f64> {
        self.readings.iter().copied().reduce(f64::max)
    }

    /// Lowest and highest reading.
    pub fn range(&self) -> Option<[f64; 2]> {
        Some([self.readings.iter().copied().reduce(f64::min)?, self.ghz()?])
    }

    /// How cycles were obtained, with this run's readings.
    pub fn method(&self) -> String {
        match self.range() {
            Some([lo, hi]) => format!(
                "{METHOD}; every cycle figure uses the highest of the run's {} readings (range {lo:.2}-{hi:.2} GHz), since a descheduled reading is low",
                self.readings.len()
            ),
            None => format!("{METHOD}; no reading on this architecture"),
        }
    }
}

/// Core clock in GHz, or `None` where the imul chain is not implemented.
fn core_ghz() -> Option<f64> {
    #[cfg(target_arch = "x86_64")]
    {
        let rounds = 20_000u64; // 8 imuls each: 0.5 M cycles
        imul_chain(rounds); // warm up the core's clock and caches
        // Preemption (other processes share the cores) can only make a
        // run slower, never faster, so the fastest of several short runs
        // is the clock.
        let fastest = (0..15)
            .map(|_| {
                let start = Instant::now();
                imul_chain(rounds);
                (rounds * 8 * 3) as f64 / start.elapsed().as_nanos() as f64
            })
            .fold(0.0, f64::max);
        Some(fastest)
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        let _ = Instant::now;
        None
    }
}

/// `rounds` x 8 dependent `imul`s: 24 cycles per round, since each waits
/// for the previous product (the loop counter runs alongside).
#[cfg(target_arch = "x86_64")]
#[allow(unsafe_code)]
fn imul_chain(rounds: u64) {
    let mut x = 1u64;
    let mut n = rounds;
    // SAFETY: register-only arithmetic and a backward branch; touches no
    // memory and clobbers only the two named registers and the flags.
    unsafe {
        core::arch::asm!(
            "2:",
            "imul {x}, {x}", "imul {x}, {x}", "imul {x}, {x}", "imul {x}, {x}",
            "imul {x}, {x}", "imul {x}, {x}", "imul {x}, {x}", "imul {x}, {x}",
            "dec {n}",
            "jnz 2b",
            x = inout(reg) x,
            n = inout(reg) n,
            options(nomem, nostack),
        );
    }
    std::hint::black_box((x, n));
}
