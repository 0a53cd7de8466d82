//! Game-independent vocabulary shared by every game, search and the protocol.

mod ending;
mod fen;
mod game;
mod limits;
mod options;
mod perft;
mod rng;
mod side;
mod terms;
pub mod words;

pub use ending::{EndReason, Ending, ScoreKind, reason_kind};
pub use fen::compress_rank;
pub use game::{Game, MoveError, PositionError, Reversible};
pub use limits::Limits;
pub use options::{NoOptions, OptionKind, OptionSpec, OptionValue, RuleOptions};
pub use perft::{perft, perft_divide, perft_reversible};
pub use rng::Rng;
pub use side::{Outcome, Side};
pub use terms::{LinearEval, Terms, Trace, WeightSum};
