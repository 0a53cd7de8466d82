//! What a `go` command asks for: clocks, fixed time, depth, nodes, or no limit.

use std::time::Duration;

use super::side::Side;

/// The limits of one search, as sent by `go`. Empty (`Default`) means "no limit given",
/// which the engine treats like `infinite`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Remaining clock time of each player, indexed by [`Side::index`].
    pub time: [Option<Duration>; 2],
    /// Increment per move of each player.
    pub inc: [Option<Duration>; 2],
    /// Moves to the next time control, if the clock has one.
    pub movestogo: Option<u32>,
    /// Exact time to spend on this move.
    pub movetime: Option<Duration>,
    /// Maximum search depth (plies), or playout iterations for MCTS depth-less searches.
    pub depth: Option<u32>,
    /// Maximum nodes (or playouts) to search.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
    /// `go searchmoves`: the root moves to consider, in notation; empty means all.
    pub searchmoves: Vec<String>,
}

impl Limits {
    /// A limit of a fixed depth only.
    pub fn depth(d: u32) -> Limits {
        Limits { depth: Some(d), ..Limits::default() }
    }

    /// A limit of a fixed node count only.
    pub fn nodes(n: u64) -> Limits {
        Limits { nodes: Some(n), ..Limits::default() }
    }

    /// A limit of a fixed time only.
    pub fn movetime(t: Duration) -> Limits {
        Limits { movetime: Some(t), ..Limits::default() }
    }

    /// True when the clock of `side` is given.
    pub fn has_clock(&self, side: Side) -> bool {
        self.time[side.index()].is_some()
    }
}
