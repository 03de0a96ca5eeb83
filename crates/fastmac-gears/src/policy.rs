//! The policy engine of docs/gears.md section 6.7: a pure function
//! `step(config, state, observation) -> state` whose `state.depth` is the
//! check the receiver verifies. No clock and no I/O: time comes in the
//! observation, so tests drive it with a virtual clock.
//!
//! * **Decision:** the strongest check `d <= ceiling` whose estimated CPU
//!   demand `P * a_d + X * b_d` fits in `B * (1 - headroom)`. If not even
//!   the floor fits, stay at the floor (the receiver sheds load): load is
//!   something an attacker can generate, so it never weakens a check below
//!   the floor.
//! * **Hysteresis:** step down at once when the current check no longer
//!   fits; step up to the next stronger check only after `t_up` during
//!   which it would use at most `u_lo` of the budget.
//! * **Escalation:** a verification failure sends the depth to the ceiling
//!   for `t_esc`: ACSA's "authentication errors" input. A failure during an
//!   escalation doubles the period (up to `t_esc_max`); one within a period
//!   after it ends keeps the period; a later one starts again at `t_esc`.
//!   An audit alarm (a matching prefix with a wrong full tag) escalates for
//!   `t_esc_max` at once.

use std::time::Duration;

use crate::Check;
use crate::cost::CostModel;

/// Tunables of the policy engine.
#[derive(Clone, Debug)]
pub struct PolicyConfig {
    /// Weakest check ever used.
    pub floor: Check,
    /// Strongest check used (and the check of escalation).
    pub ceiling: Check,
    /// Fraction of the budget kept free: a check fits if its demand is at
    /// most `(1 - headroom) * B`.
    pub headroom: f64,
    /// A step up needs the next check's demand at most `u_lo * B`.
    pub u_lo: f64,
    /// How long that must hold before a step up.
    pub t_up: Duration,
    /// First escalation period.
    pub t_esc: Duration,
    /// Longest escalation period.
    pub t_esc_max: Duration,
    /// Weight of the newest tick in the rate averages.
    pub ewma_alpha: f64,
    /// Cost of one verification at each check (emulated CPUs scale these).
    pub costs: Vec<(Check, CostModel)>,
}

impl PolicyConfig {
    /// The defaults of docs/gears.md section 6.7 between `floor` and `ceiling`.
    pub fn new(floor: Check, ceiling: Check, costs: Vec<(Check, CostModel)>) -> Self {
        PolicyConfig {
            floor,
            ceiling,
            headroom: 0.1,
            u_lo: 0.7,
            t_up: Duration::from_millis(500),
            t_esc: Duration::from_secs(5),
            t_esc_max: Duration::from_secs(80),
            ewma_alpha: 0.5,
            costs,
        }
    }

    fn cost(&self, check: Check) -> CostModel {
        self.costs
            .iter()
            .find(|(l, _)| *l == check)
            .map(|(_, c)| *c)
            // A check without a model is priced like the strongest known:
            // never chosen for being cheap.
            .unwrap_or_else(|| self.costs.iter().map(|(_, c)| *c).fold(CostModel::ZERO, CostModel::max))
    }

    fn checks(&self) -> Vec<Check> {
        Check::all().into_iter().filter(|l| *l >= self.floor && *l <= self.ceiling).collect()
    }
}

/// What the receiver saw.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Observation {
    /// A periodic tick (default every 50 ms).
    Tick {
        /// Time now (any fixed origin).
        now: Duration,
        /// Datagrams that arrived since the last tick.
        packets: u64,
        /// Their bytes.
        bytes: u64,
        /// CPU budget B, in ns of CPU per s of time (1e9 = one core).
        budget_ns_per_s: f64,
    },
    /// A MAC verification failed, now.
    Failure {
        /// Time now.
        now: Duration,
    },
    /// A secret audit found a packet whose checked prefix matched but whose
    /// full tag did not: proof of an attack (docs/gears.md section 6.6 step 6).
    AuditAlarm {
        /// Time now.
        now: Duration,
    },
}

/// The engine's memory. `depth` is its decision.
#[derive(Clone, Debug, PartialEq)]
pub struct PolicyState {
    /// The check to verify at.
    pub depth: Check,
    /// Packets per second (EWMA), `None` before the first tick.
    pub packets_per_s: Option<f64>,
    /// Bytes per second (EWMA).
    pub bytes_per_s: f64,
    /// Time of the last tick.
    pub last_tick: Option<Duration>,
    /// Since when a step up has been possible.
    pub up_since: Option<Duration>,
    /// Escalated to the ceiling until then.
    pub escalated_until: Option<Duration>,
    /// Length of the next escalation.
    pub next_escalation: Duration,
    /// Whether even the floor does not fit (the receiver sheds load).
    pub overloaded: bool,
    /// Check changes so far.
    pub switches: u64,
}

impl PolicyState {
    /// The start: at the ceiling (no load is known yet).
    pub fn new(config: &PolicyConfig) -> Self {
        PolicyState {
            depth: config.ceiling,
            packets_per_s: None,
            bytes_per_s: 0.0,
            last_tick: None,
            up_since: None,
            escalated_until: None,
            next_escalation: config.t_esc,
            overloaded: false,
            switches: 0,
        }
    }

    /// Whether an escalation is in force at `now`.
    pub fn escalated(&self, now: Duration) -> bool {
        self.escalated_until.is_some_and(|until| now < until)
    }
}

/// Estimated CPU demand of verifying everything at `check`, ns per s.
fn demand(config: &PolicyConfig, packets_per_s: f64, bytes_per_s: f64, check: Check) -> f64 {
    let cost = config.cost(check);
    packets_per_s * cost.a_ns + bytes_per_s * cost.b_ns_per_byte
}

/// One step of the engine: the next state, whose `depth` is the decision.
pub fn step(config: &PolicyConfig, state: &PolicyState, obs: &Observation) -> PolicyState {
    let mut next = state.clone();
    match *obs {
        Observation::Failure { now } => {
            let repeat = state.escalated_until.is_some_and(|until| now < until + state.next_escalation);
            let period = if repeat && state.escalated(now) {
                (state.next_escalation * 2).min(config.t_esc_max)
            } else if repeat {
                state.next_escalation
            } else {
                config.t_esc
            };
            next.next_escalation = period;
            next.escalated_until = Some(now + period);
            next.up_since = None;
            set_depth(&mut next, config.ceiling);
        }
        Observation::AuditAlarm { now } => {
            // The longest escalation at once.
            next.next_escalation = config.t_esc_max;
            next.escalated_until = Some(now + config.t_esc_max);
            next.up_since = None;
            set_depth(&mut next, config.ceiling);
        }
        Observation::Tick { now, packets, bytes, budget_ns_per_s } => {
            let dt = state.last_tick.map_or(0.0, |t| now.saturating_sub(t).as_secs_f64());
            next.last_tick = Some(now);
            if dt > 0.0 {
                let (p, x) = (packets as f64 / dt, bytes as f64 / dt);
                let a = config.ewma_alpha;
                next.packets_per_s = Some(state.packets_per_s.map_or(p, |old| a * p + (1.0 - a) * old));
                next.bytes_per_s =
                    if state.packets_per_s.is_some() { a * x + (1.0 - a) * state.bytes_per_s } else { x };
            }
            let budget = budget_ns_per_s.max(0.0);
            let (p, x) = (next.packets_per_s.unwrap_or(0.0), next.bytes_per_s);
            let fits = |check: Check| demand(config, p, x, check) <= budget * (1.0 - config.headroom);
            next.overloaded = !fits(config.floor);
            let current = next.depth.clamp(config.floor, config.ceiling);
            let checks = config.checks();
            let target = if next.escalated(now) {
                config.ceiling
            } else if !fits(current) {
                next.up_since = None;
                checks.iter().rev().copied().find(|l| *l < current && fits(*l)).unwrap_or(config.floor)
            } else {
                match current.stronger().filter(|l| *l <= config.ceiling) {
                    Some(up) if demand(config, p, x, up) <= budget * config.u_lo => {
                        let since = *next.up_since.get_or_insert(now);
                        if now.saturating_sub(since) >= config.t_up {
                            next.up_since = None;
                            up
                        } else {
                            current
                        }
                    }
                    _ => {
                        next.up_since = None;
                        current
                    }
                }
            };
            set_depth(&mut next, target);
        }
    }
    next
}

fn set_depth(state: &mut PolicyState, depth: Check) {
    if state.depth != depth {
        state.switches += 1;
        state.depth = depth;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    const TICK: Duration = Duration::from_millis(50);

    /// An emulated slow CPU: each iteration costs 100 ns + 0.8 ns/byte.
    fn config(floor: Check, ceiling: Check) -> PolicyConfig {
        let costs = Check::all()
            .into_iter()
            .map(|l| {
                let j = l.umac_bytes().div_ceil(4) as f64;
                let extra =
                    if l.checks_hmac() { CostModel { a_ns: 1000.0, b_ns_per_byte: 10.0 } } else { CostModel::ZERO };
                (l, CostModel { a_ns: 250.0 + 100.0 * j + extra.a_ns, b_ns_per_byte: 0.8 * j + extra.b_ns_per_byte })
            })
            .collect();
        PolicyConfig::new(floor, ceiling, costs)
    }

    /// 1000 packets of 1400 bytes per 50 ms tick: 20,000 packets/s.
    fn tick(now: Duration, budget: f64) -> Observation {
        Observation::Tick { now, packets: 1000, bytes: 1_400_000, budget_ns_per_s: budget }
    }

    fn run(config: &PolicyConfig, budgets: &[f64]) -> Vec<PolicyState> {
        let mut state = PolicyState::new(config);
        let mut out = Vec::new();
        for (i, b) in budgets.iter().enumerate() {
            state = step(config, &state, &tick(TICK * i as u32, *b));
            out.push(state.clone());
        }
        out
    }

    #[test]
    fn settles_at_the_strongest_level_that_fits() {
        let c = config(Check::U32, Check::U128);
        // U128 costs 650 + 3.2*1400 = 5130 ns: 0.1026 core at 20k/s.
        assert_eq!(run(&c, &[1e9; 40]).last().unwrap().depth, Check::U128);
        // U32: 350 + 1120 = 1470 ns (0.0294 core); U64: 2690 ns (0.0538).
        assert_eq!(run(&c, &[0.05e9; 40]).last().unwrap().depth, Check::U32);
        let c = config(Check::U64, Check::U128);
        let last = run(&c, &[0.01e9; 40]).pop().unwrap();
        assert_eq!(last.depth, Check::U64);
        assert!(last.overloaded);
    }

    #[test]
    fn load_step_moves_down_within_two_ticks_and_back_after_t_up() {
        let c = config(Check::U64, Check::U128);
        // 0.15 core: U128 (0.103) fits with 0.7 * 0.15 = 0.105 to spare.
        let mut budgets = vec![0.15e9; 60];
        budgets.extend(vec![0.075e9; 60]);
        budgets.extend(vec![0.15e9; 60]);
        let states = run(&c, &budgets);
        assert_eq!(states[59].depth, Check::U128);
        let down = (60..).find(|i| states[*i].depth < Check::U128).unwrap();
        assert!(down - 60 < 2, "downshift after {} ticks", down - 60 + 1);
        assert!(states.iter().all(|s| s.depth >= Check::U64));
        let up = (120..).find(|i| states[*i].depth > states[119].depth).unwrap();
        let limit = (c.t_up.as_millis() / TICK.as_millis()) as usize + 2;
        assert!(up - 120 <= limit, "upshift after {} ticks", up - 120);
        assert_eq!(states.last().unwrap().depth, Check::U128);
    }

    #[test]
    fn failure_escalates_to_the_ceiling_and_doubles_on_repeat() {
        let c = config(Check::U32, Check::U128);
        let mut s = run(&c, &[0.05e9; 20]).pop().unwrap();
        assert_eq!(s.depth, Check::U32);
        let t = TICK * 20;
        s = step(&c, &s, &Observation::Failure { now: t });
        assert_eq!(s.depth, Check::U128);
        // Ticks under the same starved budget keep the ceiling until t_esc.
        for i in 1..100 {
            s = step(&c, &s, &tick(t + TICK * i, 0.05e9));
            assert_eq!(s.depth, Check::U128, "tick {i} within the escalation");
        }
        s = step(&c, &s, &tick(t + c.t_esc, 0.05e9));
        assert_eq!(s.depth, Check::U32);
        // A second failure soon after: twice as long.
        let t2 = t + c.t_esc + TICK;
        s = step(&c, &s, &Observation::Failure { now: t2 });
        s = step(&c, &s, &Observation::Failure { now: t2 + TICK });
        assert_eq!(s.next_escalation, c.t_esc * 2);
        s = step(&c, &s, &tick(t2 + c.t_esc + TICK * 2, 0.05e9));
        assert_eq!(s.depth, Check::U128);
    }

    fn any_level() -> impl Strategy<Value = Check> {
        proptest::sample::select(Check::all())
    }

    proptest! {
        #[test]
        fn never_below_floor_nor_above_ceiling(
            floor in any_level(), ceiling in any_level(),
            budgets in proptest::collection::vec(0.0f64..0.3e9, 1..200),
            failures in proptest::collection::vec(any::<bool>(), 200),
        ) {
            prop_assume!(floor <= ceiling);
            let c = config(floor, ceiling);
            let mut s = PolicyState::new(&c);
            for (i, b) in budgets.iter().enumerate() {
                let now = TICK * i as u32;
                if failures[i] {
                    s = step(&c, &s, &Observation::Failure { now });
                    prop_assert_eq!(s.depth, ceiling);
                }
                s = step(&c, &s, &tick(now, *b));
                prop_assert!(s.depth >= floor && s.depth <= ceiling);
            }
        }

        #[test]
        fn depth_is_monotone_in_budget(
            budgets in proptest::collection::vec(0.0f64..0.3e9, 1..200),
            extra in proptest::collection::vec(0.0f64..0.2e9, 200),
            failures in proptest::collection::vec(proptest::bool::weighted(0.02), 200),
        ) {
            let c = config(Check::U32, Check::U128H128);
            let (mut low, mut high) = (PolicyState::new(&c), PolicyState::new(&c));
            for (i, b) in budgets.iter().enumerate() {
                let now = TICK * i as u32;
                if failures[i] {
                    low = step(&c, &low, &Observation::Failure { now });
                    high = step(&c, &high, &Observation::Failure { now });
                }
                low = step(&c, &low, &tick(now, *b));
                high = step(&c, &high, &tick(now, b + extra[i]));
                prop_assert!(high.depth >= low.depth, "tick {}: {} < {}", i, high.depth, low.depth);
            }
        }

        /// Without failures, check changes per minute are bounded: every
        /// step up waits t_up, and a step down needs a step up before it.
        #[test]
        fn switches_are_bounded(budgets in proptest::collection::vec(0.0f64..0.3e9, 1200)) {
            let c = config(Check::U32, Check::U128H128);
            let states = run(&c, &budgets); // 1200 ticks = 60 s
            let ups = 60_000 / c.t_up.as_millis() as u64;
            let bound = 2 * ups + Check::all().len() as u64;
            prop_assert!(states.last().unwrap().switches <= bound);
        }
    }

    #[test]
    fn next_packets_after_a_failure_are_at_full_depth() {
        // The receiver asks the engine before each packet: after a failure
        // every packet within t_esc is verified at the ceiling, whatever
        // the budget.
        let c = config(Check::U32, Check::U96);
        let mut s = run(&c, &[0.0; 5]).pop().unwrap();
        assert_eq!(s.depth, Check::U32);
        s = step(&c, &s, &Observation::Failure { now: TICK * 5 });
        for i in 6..50 {
            s = step(&c, &s, &tick(TICK * i, 0.0));
            assert_eq!(s.depth, Check::U96);
        }
    }
}
