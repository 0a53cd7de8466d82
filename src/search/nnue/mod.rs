//! Efficiently updatable neural network evaluation (NNUE), generic over games.
//!
//! A game maps a position to sparse binary input features ([`Features`]), once from each
//! player's point of view (a *perspective*). The network ([`Network`]) is small and fully
//! connected:
//!
//! ```text
//! features ──W1,b1──▶ accumulator[perspective] (H each) ──clipped ReLU──▶
//!     [side to move's H, opponent's H] ──W2,b2──▶ 1 output (a logit)
//! ```
//!
//! `σ(output)` predicts the side to move's score (1 win, ½ draw, 0 loss); `output ×
//! scale` is an evaluation in the game's `cp` units. The accumulator ([`Accumulator`])
//! is the sum of the first layer's rows of the active features; a move changes few
//! features, so an alpha-beta search adds and removes rows instead of summing them all
//! again (as Stockfish's NNUE does: [`AccumulatorStack`], from each move's
//! [`FeatureDelta`]), and a Monte Carlo search refreshes it at a leaf.
//! Weights and accumulators are 16-bit integers ([`QA`], [`QB`]); the file format is in
//! [`mod@format`] and `docs/tuning.md`; `ugine train` (`crate::tune::train`) makes the files.

mod accumulator;
pub mod format;
mod incremental;
mod network;

pub use accumulator::Accumulator;
pub use format::NetError;
pub use incremental::{
    AccumulatorStack, FeatureDelta, MAX_DELTA, MAX_EVAL, NetEval, check_move_delta, check_stack,
    load_eval_file,
};
pub use network::{FloatWeights, Network, QA, QB};

use crate::core::{Game, Side};

/// What a game gives the network: its input features, seen by one player.
pub trait Features: Game {
    /// The number of input features (every index of [`Features::active_features`] is
    /// below it); a network file for the game must have exactly this many.
    const FEATURE_COUNT: usize;

    /// Appends to `out` the indices of the features active in this position from
    /// `perspective`'s point of view (each index at most once, in any order).
    /// Must not depend on which side is to move (the network reads the side to move's
    /// accumulator first): a null move then changes no feature.
    fn active_features(&self, perspective: Side, out: &mut Vec<u32>);

    /// Writes into `delta` (after clearing it) the features that `mv`, legal here and not
    /// played yet, turns on and off for each perspective, so an alpha-beta search
    /// updates its accumulators instead of refreshing them ([`AccumulatorStack`]).
    /// Returns false when the game does not know them (the default): the search then
    /// refreshes after the move.
    fn move_delta(&self, _mv: Self::Move, _delta: &mut FeatureDelta) -> bool {
        false
    }
}
