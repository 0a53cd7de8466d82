//! Searches, generic over games. They never print: they report through [`Reporter`]
//! and stop when [`SearchControl`] says so.

mod abdada;
mod alphabeta;
mod control;
mod mcts;
mod net_alphabeta;
pub mod nnue;
mod oracle;
pub mod params;
mod report;
pub mod root_split;
mod score;
mod tt;
pub mod tunables;

pub use alphabeta::{AlphaBeta, Evaluate, Line, SearchParams, SearchResult};
pub use control::{SearchControl, TimeBudget};
pub use mcts::{
    LeafValue, MctsParams, MctsResult, MonteCarlo, Policy, Prior, Uniform, collection_threshold,
    playout_by_moves, result_for,
};
pub use net_alphabeta::{Embedded, NetAlphaBeta, NetOptions};
pub use oracle::{Oracle, Verdict};
pub use report::{NullReporter, Recorder, Report, Reporter, Score, SearchInfo};
pub use score::{MATE, MATE_BOUND, score_from_tt, score_to_tt};
pub use tt::{Bound, PackedMove, TranspositionTable};

use crate::core::{Game, Limits, OptionSpec, OptionValue};

/// A search for one game. It lives as long as the engine (its tables survive between
/// moves) and is told about option changes.
pub trait Searcher<G: Game>: Send + 'static {
    /// Resizes the hash table(s) to about `mb` megabytes (clears them).
    fn set_hash_mb(&mut self, mb: usize);
    /// The number of threads to search with; searches that do not parallelise ignore it.
    fn set_threads(&mut self, _threads: usize) {}
    /// How many best lines to report (`MultiPV`, at least 1); `bestmove` is the first.
    fn set_multipv(&mut self, _lines: usize) {}
    /// The options of this search that a user sets (database paths), announced after
    /// the rule options. Names are unique engine-wide.
    fn option_specs(&self) -> Vec<OptionSpec> {
        Vec::new()
    }
    /// The search's tunable parameters (SPSA's knobs): set like any option, but
    /// announced only when asked for (`ugine --tuning-options`), so that a GUI's engine
    /// dialog shows what a user sets.
    fn tuning_specs(&self) -> Vec<OptionSpec> {
        Vec::new()
    }
    /// SPSA's final perturbation (`c_end`) of each spin option of
    /// [`Searcher::tuning_specs`] that SPSA may tune, by option name.
    fn spsa_steps(&self) -> Vec<(&'static str, f64)> {
        Vec::new()
    }
    /// Applies one of [`Searcher::option_specs`] or [`Searcher::tuning_specs`] (value
    /// already checked against its spec).
    fn set_option(&mut self, name: &str, _value: &OptionValue) -> Result<(), String> {
        Err(format!("unknown option '{name}'"))
    }
    /// Forgets everything learned in the previous game.
    fn new_game(&mut self);
    /// How many more moves of its own the side to move is expected to play from `pos`,
    /// for dividing a clock without `movestogo`.
    fn expected_moves_left(&self, _pos: &G) -> u32 {
        30
    }
    /// Searches `pos` (not over) within the control's limits and returns the best move,
    /// considering only `root_moves` at the root (the legal moves, or those of
    /// `go searchmoves`; never empty). Must return one of them even when stopped at once.
    fn search(
        &mut self,
        pos: &G,
        root_moves: &[G::Move],
        limits: &Limits,
        ctl: &SearchControl,
        reporter: &mut dyn Reporter,
    ) -> G::Move;
}
