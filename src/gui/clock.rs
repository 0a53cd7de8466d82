//! The two players' clocks: time left, increment, and which one runs.

use std::time::{Duration, Instant};

use crate::core::Side;

/// Chess-style clocks: the side to move's clock runs; finishing a move adds the increment.
#[derive(Clone, Debug)]
pub struct Clocks {
    left: [Duration; 2],
    inc: Duration,
    running: Option<(Side, Instant)>,
}

impl Clocks {
    /// Both clocks at `base`, neither running.
    pub fn new(base: Duration, inc: Duration) -> Clocks {
        Clocks { left: [base; 2], inc, running: None }
    }

    /// Starts `side`'s clock (stopping any other without increment).
    pub fn start(&mut self, side: Side) {
        self.pause();
        self.running = Some((side, Instant::now()));
    }

    /// Stops the running clock without increment (a take-back, a pause, the game's end).
    pub fn pause(&mut self) {
        if let Some((s, since)) = self.running.take() {
            let i = s.index();
            self.left[i] = self.left[i].saturating_sub(since.elapsed());
        }
    }

    /// Stops `side`'s clock after its move and adds the increment.
    pub fn moved(&mut self, side: Side) {
        self.pause();
        self.left[side.index()] += self.inc;
    }

    /// Time left on `side`'s clock now.
    pub fn left(&self, side: Side) -> Duration {
        match self.running {
            Some((s, since)) if s == side => {
                self.left[side.index()].saturating_sub(since.elapsed())
            }
            _ => self.left[side.index()],
        }
    }

    /// The increment per move.
    pub fn inc(&self) -> Duration {
        self.inc
    }

    /// The side whose clock runs.
    pub fn running(&self) -> Option<Side> {
        self.running.map(|(s, _)| s)
    }

    /// The side whose clock has run out, if the running clock has.
    pub fn flagged(&self) -> Option<Side> {
        self.running().filter(|&s| self.left(s).is_zero())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_adds_the_increment_and_only_the_running_clock_loses_time() {
        let mut c = Clocks::new(Duration::from_secs(60), Duration::from_secs(2));
        c.start(Side::P1);
        assert_eq!(c.left(Side::P2), Duration::from_secs(60));
        c.moved(Side::P1);
        assert!(c.left(Side::P1) > Duration::from_secs(61));
        assert_eq!(c.running(), None);
        c.start(Side::P2);
        assert_eq!(c.running(), Some(Side::P2));
        assert_eq!(c.flagged(), None);
    }

    #[test]
    fn an_empty_clock_is_flagged() {
        let mut c = Clocks::new(Duration::ZERO, Duration::ZERO);
        c.start(Side::P2);
        assert_eq!(c.flagged(), Some(Side::P2));
    }
}
