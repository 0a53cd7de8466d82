//! When a search must stop: the `stop` flag, node and depth limits, and the clock.
//!
//! Time management (in the spirit of Stockfish's `TimeManagement`): from the clock of
//! the side to move we derive a *soft* budget (do not start a new iteration after it)
//! and a *hard* deadline (abort at once). `Move Overhead` is taken off the clock first
//! so the engine keeps a safety margin for process and pipe latency.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::core::{Limits, Side};

/// The time a search may use, measured from its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeBudget {
    /// Do not start a new iteration after this much time; `None` under `movetime`,
    /// where there is no later move to save time for and the search uses it all.
    pub soft: Option<Duration>,
    /// Stop at once after this much time.
    pub hard: Duration,
}

impl TimeBudget {
    /// Derives the budget of `side` from `limits`, or `None` when no time limit applies.
    /// `overhead` is the `Move Overhead` option; `moves_left` the search's estimate of the
    /// moves still to play when the clock gives no `movestogo`.
    pub fn from_limits(
        limits: &Limits,
        side: Side,
        overhead: Duration,
        moves_left: u32,
    ) -> Option<TimeBudget> {
        if limits.infinite {
            return None;
        }
        if let Some(mt) = limits.movetime {
            let t = mt.saturating_sub(overhead).max(Duration::from_millis(1));
            return Some(TimeBudget { soft: None, hard: t });
        }
        let left = limits.time[side.index()]?;
        let inc = limits.inc[side.index()].unwrap_or_default();
        // Keep the overhead for every move still to come in this time control, capped.
        let mtg = limits.movestogo.unwrap_or(moves_left).clamp(1, 60);
        let reserve = overhead * 2;
        let usable = left.saturating_sub(reserve);
        let soft = usable / mtg + inc * 3 / 4;
        // Never plan to use more than a fraction of what is left.
        let cap = usable.mul_f64(if mtg == 1 { 0.8 } else { 0.5 });
        let soft = soft.min(cap);
        let hard = (soft * 3).min(cap).max(soft);
        let floor = Duration::from_millis(1);
        Some(TimeBudget { soft: Some(soft.max(floor)), hard: hard.max(floor) })
    }
}

/// Shared by the protocol loop (which may raise `stop`) and the search (which polls it).
#[derive(Clone, Debug)]
pub struct SearchControl {
    stop: Arc<AtomicBool>,
    /// The stop flag of the control this one was [linked](SearchControl::linked) from:
    /// raising it stops this search too.
    parent_stop: Option<Arc<AtomicBool>>,
    start: Instant,
    budget: Option<TimeBudget>,
    max_nodes: Option<u64>,
    max_depth: Option<u32>,
}

impl SearchControl {
    /// A control that starts its clock now.
    pub fn new(
        stop: Arc<AtomicBool>,
        budget: Option<TimeBudget>,
        max_nodes: Option<u64>,
        max_depth: Option<u32>,
    ) -> SearchControl {
        SearchControl {
            stop,
            parent_stop: None,
            start: Instant::now(),
            budget,
            max_nodes,
            max_depth,
        }
    }

    /// A control with no limits and its own stop flag (bench, tests).
    pub fn unlimited() -> SearchControl {
        SearchControl::new(Arc::new(AtomicBool::new(false)), None, None, None)
    }

    /// A control limited by depth and/or nodes only.
    pub fn fixed(max_depth: Option<u32>, max_nodes: Option<u64>) -> SearchControl {
        SearchControl::new(Arc::new(AtomicBool::new(false)), None, max_nodes, max_depth)
    }

    /// The same control (same stop flag, start and node and depth limits) with its time
    /// budget scaled by `fraction`: for a first search that must leave time to a second.
    pub fn share(&self, fraction: f64) -> SearchControl {
        let scale = |d: Duration| d.mul_f64(fraction);
        let budget =
            self.budget.map(|b| TimeBudget { soft: b.soft.map(scale), hard: scale(b.hard) });
        SearchControl { budget, ..self.clone() }
    }

    /// The same control with a stop flag of its own: `stop` on this control still stops
    /// the linked one, but [`Self::request_stop`] on the linked one stops only it. For two
    /// searches run side by side, each of which may end the other.
    pub fn linked(&self) -> SearchControl {
        SearchControl {
            stop: Arc::new(AtomicBool::new(false)),
            parent_stop: Some(Arc::clone(&self.stop)),
            ..self.clone()
        }
    }

    /// The same control without its soft budget: under a clock it stops only at the hard
    /// deadline (or a stop).
    pub fn without_soft(&self) -> SearchControl {
        let budget = self.budget.map(|b| TimeBudget { soft: None, ..b });
        SearchControl { budget, ..self.clone() }
    }

    /// Time since the search started.
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// The depth limit, if any.
    pub fn max_depth(&self) -> Option<u32> {
        self.max_depth
    }

    /// The node limit, if any.
    pub fn max_nodes(&self) -> Option<u64> {
        self.max_nodes
    }

    /// True once `stop` was sent.
    pub fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
            || self.parent_stop.as_ref().is_some_and(|p| p.load(Ordering::Relaxed))
    }

    /// Raises the stop flag (the search itself may do so when it hits a hard limit).
    pub fn request_stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// Polled often inside the search: true when it must stop at once.
    pub fn must_stop(&self, nodes: u64) -> bool {
        self.max_nodes.is_some_and(|m| nodes >= m) || self.interrupted()
    }

    /// True once `stop` was sent or the hard time limit has passed: [`Self::must_stop`]
    /// without the node limit, for a search that keeps to it by other means.
    pub fn interrupted(&self) -> bool {
        self.stop_requested() || self.budget.is_some_and(|b| self.start.elapsed() >= b.hard)
    }

    /// Checked between iterations: true when another iteration should not start.
    /// `fraction` lets a search scale the soft budget (e.g. when the best move is stable).
    pub fn soft_expired(&self, fraction: f64) -> bool {
        match self.budget.and_then(|b| b.soft) {
            Some(soft) => self.start.elapsed() >= soft.mul_f64(fraction),
            None => false,
        }
    }

    /// True when a clock or `movetime` limits the search.
    pub fn is_timed(&self) -> bool {
        self.budget.is_some()
    }

    /// True when the search is bounded only by `stop` (no time, depth or node limit).
    pub fn is_unbounded(&self) -> bool {
        self.budget.is_none() && self.max_nodes.is_none() && self.max_depth.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn movetime(ms: u64) -> SearchControl {
        let budget = TimeBudget { soft: None, hard: Duration::from_millis(ms) };
        SearchControl::new(Arc::new(AtomicBool::new(false)), Some(budget), None, None)
    }

    #[test]
    fn a_linked_control_stops_with_its_parent_but_not_the_parent_with_it() {
        let parent = movetime(60_000);
        let (a, b) = (parent.linked(), parent.linked());
        a.request_stop();
        assert!(a.must_stop(0));
        assert!(!parent.stop_requested() && !b.stop_requested());
        parent.request_stop();
        assert!(b.must_stop(0));
    }

    #[test]
    fn a_linked_control_keeps_the_clock_and_limits() {
        let parent = movetime(0);
        let linked = parent.linked();
        assert!(linked.is_timed() && linked.interrupted());
        assert!(!parent.stop_requested(), "the deadline, not a stop, interrupts");
        let fixed = SearchControl::fixed(Some(3), Some(100)).linked();
        assert_eq!((fixed.max_depth(), fixed.max_nodes()), (Some(3), Some(100)));
        assert!(!fixed.is_timed() && !fixed.is_unbounded());
    }

    #[test]
    fn without_its_soft_budget_a_search_runs_to_the_hard_deadline() {
        let soft = Duration::from_millis(0);
        let budget = TimeBudget { soft: Some(soft), hard: Duration::from_secs(60) };
        let ctl = SearchControl::new(Arc::new(AtomicBool::new(false)), Some(budget), None, None);
        assert!(ctl.soft_expired(1.0));
        let long = ctl.without_soft();
        assert!(!long.soft_expired(1.0) && !long.interrupted() && long.is_timed());
    }
}
