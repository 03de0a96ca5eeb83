//! T8 (1-byte tags, which only this crate's unit-test build has: every
//! `T8` item is `#[cfg(test)]`): the harness can see forgeries. 100,000
//! random-tag forgeries over UDP must be accepted at a rate inside the
//! 99.9 % binomial interval of p = 2^-8. The UDP helpers are the integration
//! tests' (tests/gears_net/mod.rs), which name the crate `fastmac_gears`
//! (lib.rs gives the unit-test build that name too).

#[path = "../tests/gears_net/mod.rs"]
mod gears_net;

use std::time::Duration;

use fastmac_gears::{Check, PolicyConfig, Profile, ReceiverConfig, RekeyLimits, Sender, SenderConfig, Verdict};
use gears_net::*;

/// The smallest `lo` and largest `hi` with P(X < lo) <= alpha/2 and
/// P(X > hi) <= alpha/2 for X ~ Binomial(n, p), from the exact pmf.
fn binomial_interval(n: u64, p: f64, alpha: f64) -> (u64, u64) {
    let ln_pmf = |k: u64| {
        let (k, nf) = (k as f64, n as f64);
        ln_gamma(nf + 1.0) - ln_gamma(k + 1.0) - ln_gamma(nf - k + 1.0) + k * p.ln() + (nf - k) * (1.0 - p).ln()
    };
    let pmf: Vec<f64> = (0..=n.min(5000)).map(|k| ln_pmf(k).exp()).collect();
    let mut acc = 0.0;
    let lo = (0..pmf.len()).find(|&k| {
        acc += pmf[k];
        acc > alpha / 2.0
    });
    let mut acc = 0.0;
    let hi = (0..pmf.len()).rev().find(|&k| {
        acc += pmf[k];
        acc > alpha / 2.0
    });
    (lo.unwrap() as u64, hi.unwrap() as u64)
}

/// Lanczos approximation (g = 7, n = 9), accurate to ~1e-13 here.
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    let x = x - 1.0;
    let t = x + 7.5;
    let series = C[1..].iter().enumerate().fold(C[0], |s, (i, c)| s + c / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + series.ln()
}

#[test]
fn interval_is_right_for_a_known_case() {
    // Binomial(100, 0.5): the central 99.9 % is 34..=66 (symmetric).
    assert_eq!(binomial_interval(100, 0.5, 0.001), (34, 66));
}

#[test]
fn t8_forgery_rate_is_two_to_the_minus_8() {
    let limits = RekeyLimits { forgery_budget: f64::INFINITY, ..RekeyLimits::default() };
    let mut config = ReceiverConfig::new(PolicyConfig::new(Check::T8, Check::T8, emulated_costs()), 100e9);
    config.limits = limits;
    let mut r = receiver_with(config);
    let mut s = Sender::new(secret(), SenderConfig::new(Profile::T8), Duration::ZERO).unwrap();
    let mut link = Link::new(1);
    let mut rng = Rng(8);
    let n = 100_000u64;
    let mut accepted = 0u64;
    let step = Duration::from_micros(10);
    for i in 0..n {
        // A genuine packet's header (fresh seq), random payload, random tag.
        let mut f = s.seal(Duration::ZERO, &payload(i, 64)).unwrap();
        let len = f.len();
        rng.fill(&mut f[20..len]);
        link.deliver(step * i as u32, &f, &mut [&mut r], |_, v| {
            if matches!(v, Verdict::Delivered(_)) {
                accepted += 1;
            }
        });
    }
    let (lo, hi) = binomial_interval(n, 1.0 / 256.0, 0.001);
    println!(
        "T8: {accepted} of {n} forgeries accepted; 99.9 % interval [{lo}, {hi}], expected {:.1}",
        n as f64 / 256.0
    );
    assert!((lo..=hi).contains(&accepted));
    assert_conserved("T8", link.sent, r.counters());
    assert_eq!(r.counters().delivered, accepted);
}
