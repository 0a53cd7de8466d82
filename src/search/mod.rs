//! Searches, generic over games. They never print: they report through [`Reporter`]
//! and stop when [`SearchControl`] says so.

mod alphabeta;
mod control;
mod report;
mod score;
mod tt;

pub use alphabeta::{AlphaBeta, Evaluate};
pub use control::{SearchControl, TimeBudget};
pub use report::{NullReporter, Reporter, Score, SearchInfo};
pub use score::{MATE, MATE_BOUND, score_from_tt, score_to_tt};
pub use tt::{Bound, TranspositionTable};

use crate::core::{Game, Limits};

/// A search for one game. It lives as long as the engine (its tables survive between
/// moves) and is told about option changes.
pub trait Searcher<G: Game>: Send + 'static {
    /// Resizes the hash table(s) to about `mb` megabytes (clears them).
    fn set_hash_mb(&mut self, mb: usize);
    /// The number of threads to search with; searches that do not parallelise ignore it.
    fn set_threads(&mut self, _threads: usize) {}
    /// Forgets everything learned in the previous game.
    fn new_game(&mut self);
    /// How many more moves of its own the side to move is expected to play from `pos`,
    /// for dividing a clock without `movestogo`.
    fn expected_moves_left(&self, _pos: &G) -> u32 {
        30
    }
    /// Searches `pos` (not over) within the control's limits and returns the best move.
    /// Must return a legal move even when stopped at once.
    fn search(
        &mut self,
        pos: &G,
        limits: &Limits,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> G::Move;
}
