//! The one seam between a search and the world: progress reports.

use std::time::Duration;

/// A search score from the point of view of the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centipawn-like units (each game documents its scale in `protocol.md`).
    Cp(i32),
    /// A forced win in this many moves of the side to move (negative: a forced loss).
    Mate(i32),
}

/// One progress report of a search (an `info` line).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchInfo {
    pub depth: u32,
    pub seldepth: u32,
    /// The rank of this line among the best moves (1 = best) when the search reports
    /// several (`MultiPV`); `None` for a single line.
    pub multipv: Option<u32>,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    /// Permille of the hash table in use, if the search has one.
    pub hashfull: Option<u32>,
    /// The principal variation in move notation.
    pub pv: Vec<String>,
}

/// Receives what a search has to say. Implemented by the protocol layer, which alone
/// decides how it is printed.
pub trait Reporter: Send {
    /// A new iteration finished (or a better move was found).
    fn info(&mut self, info: &SearchInfo);
    /// A free-form note for the user (`info string …`).
    fn note(&mut self, _text: &str) {}
}

/// A reporter that drops everything: for bench, tests and the match runner's players.
pub struct NullReporter;

impl Reporter for NullReporter {
    fn info(&mut self, _info: &SearchInfo) {}
}
