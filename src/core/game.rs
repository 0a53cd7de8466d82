//! The rules trait every game implements, and the small types around it.

use std::fmt::{self, Debug, Display};
use std::hash::Hash;

use super::ending::Ending;
use super::options::RuleOptions;
use super::rng::Rng;
use super::side::{Outcome, Side};

/// A position string that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionError(pub String);

impl Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad position string: {}", self.0)
    }
}

impl std::error::Error for PositionError {}

/// A move token that is malformed, or well formed but not legal here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveError {
    /// The text is not a move of this game at all.
    Syntax(String),
    /// The text names a move the rules do not allow in this position.
    Illegal(String),
}

impl Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(s) => write!(f, "malformed move: {s}"),
            MoveError::Illegal(s) => write!(f, "illegal move: {s}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// The rules of one game: positions, legal moves, notation and the end of the game.
///
/// Invariants every implementation keeps (checked by the shared conformance tests):
/// - `generate_moves` is empty exactly when `outcome` is `Some`;
/// - `ending` is `Some` exactly when `outcome` is, with the same outcome;
/// - `parse_move(&m.to_string()) == Ok(m)` for every legal move `m`;
/// - `from_fen(&p.to_fen(), opts)` gives back a position with the same `to_fen` and `hash`;
/// - `hash` after `play` equals the hash of the same position built from scratch.
pub trait Game: Clone + Send + Sync + Debug + 'static {
    /// A move: one whitespace-free token in the notation (`Display` writes it).
    type Move: Copy + Eq + Hash + Debug + Display + Send + Sync + 'static;
    /// The rule options of this game (`setoption` values), with the defaults of the spec.
    type Options: RuleOptions;

    /// The protocol name of the game, as in `setoption name Game value <NAME>`.
    const NAME: &'static str;

    /// The standard start position under the given rules.
    fn startpos(opts: &Self::Options) -> Self;
    /// Reads a position string written by [`Game::to_fen`].
    fn from_fen(s: &str, opts: &Self::Options) -> Result<Self, PositionError>;
    /// Writes the position string of this position.
    fn to_fen(&self) -> String;
    /// The player to move. Asked at every node: never assume alternation.
    fn side_to_move(&self) -> Side;
    /// Appends every legal move to `out` (which the caller clears).
    fn generate_moves(&self, out: &mut Vec<Self::Move>);
    /// Turns a move token into a legal move of this position.
    fn parse_move(&self, s: &str) -> Result<Self::Move, MoveError>;
    /// Plays a move known to be legal (from `generate_moves` or `parse_move`).
    fn play(&mut self, mv: Self::Move);
    /// `None` while the game goes on; once over, there are no legal moves.
    fn outcome(&self) -> Option<Outcome>;
    /// The outcome of a finished position with the rule that ended the game; `None`
    /// while it goes on. Not used by searches: it may be slower than `outcome`.
    fn ending(&self) -> Option<Ending>;
    /// A 64-bit hash of everything that decides the legal moves and the outcome,
    /// apart from the history of earlier positions.
    fn hash(&self) -> u64;
    /// The position drawn as text for a person (the `d` command), several lines.
    fn render(&self) -> String;
    /// The places (in move notation) of a king in check, for a board to mark; none (the
    /// default) in games without kings.
    fn checked_kings(&self) -> Vec<String> {
        Vec::new()
    }

    /// A random start position for tournament openings, for games whose start is a
    /// random setup (Mabula); `None` (the default) for games with one start position.
    fn random_setup(_opts: &Self::Options, _rng: &mut Rng) -> Option<Self> {
        None
    }

    /// A random late-game position with `men` men per side that is not over, for
    /// openings that test endgames (Morris: the movement phase, both hands empty);
    /// `None` (the default) for games without such positions or for an impossible `men`.
    fn random_endgame(_opts: &Self::Options, _men: usize, _rng: &mut Rng) -> Option<Self> {
        None
    }

    /// The number of legal moves. Games that can count without generating override it
    /// (perft's bulk counting of the last ply uses it).
    fn count_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.len() as u64
    }

    /// Number of leaf nodes `depth` plies below this position: [`crate::core::perft`],
    /// or its faster forms ([`crate::core::perft_reversible`]: make/unmake and bulk
    /// counting), as the game's generator allows.
    fn perft(&self, depth: u32) -> u64;
}

/// Make/unmake: play a move and take it back, for searches that avoid copying.
pub trait Reversible: Game {
    /// What `unplay` needs to restore the position.
    type Undo;
    /// Plays a legal move and returns what undoes it.
    fn play_reversible(&mut self, mv: Self::Move) -> Self::Undo;
    /// Takes back the last move played with `play_reversible`.
    fn unplay(&mut self, mv: Self::Move, undo: Self::Undo);
}
