//! Morpiae (Vincent Everaert, 2004): Morpion Solitaire for two, as
//! `shared/rules/morpiae.md` defines it.
//!
//! Rules source: the French article `shared/seeds/003_…txt` (Tangente Jeux et Stratégie
//! no. 11). Each turn a player draws a new circle that completes five in a row in one of
//! four directions and draws that line; circles crossed in all four directions take the
//! mover's colour; the game ends when no line can be drawn and the most circles wins.
//! DEFAULT: overlap rule 5T (lines of one direction may touch end to end), Red (player
//! 1) moves first, equal colours draw. OPTION `Morpiae Variant` = `5D` (lines of one
//! direction share no point).
//!
//! Coordinates: an unbounded lattice, y upward; the Greek cross of 36 circles lies in
//! x, y ∈ 0…9. Directions H (+x), V (+y), D (+x+y), A (+x−y). A move `x,y,D,k` is the
//! new point, the direction and the new point's index on the line from its first end
//! (smaller x; for V smaller y):
//!
//! ```text
//! y=9  . . . o o o o . . .        D  (+1,+1)   V (0,+1)
//! y=8  . . . o . . o . . .            /        |
//! y=7  . . . o . . o . . .           /         |
//! y=6  o o o o . . o o o o          * - - H (+1,0)
//! y=5  o . . . . . . . . o           \
//! y=4  o . . . . . . . . o            \  A (+1,-1)
//! y=3  o o o o . . o o o o
//! y=2  . . . o . . o . . .     e.g. 4,3,H,4 draws (0,3)…(4,3)
//! y=1  . . . o . . o . . .
//! y=0  . . . o o o o . . .
//!      0 1 2 3 4 5 6 7 8 9
//! ```
//!
//! The lattice is stored as a window that doubles when the drawing nears its edge, so
//! play never meets a bound; only position strings are limited (|coordinate| ≤ 500,
//! refused with an error). The legal moves are kept as a list updated after each line
//! (only lines through the new circle appear; only those of its direction or through
//! its point disappear), which also serves the solitaire search ([`solitaire`]).
//!
//! Search: alpha-beta ([`crate::search::AlphaBeta`]) with quiescence on capturing lines;
//! see [`eval`] for why and for the score scale (cp = 100 × colour difference).

mod board;
pub mod eval;
mod fen;
mod notation;
mod options;
mod position;
mod render;
pub mod solitaire;

pub use board::greek_cross;
pub use fen::LIMIT;
pub use notation::{DIR_LETTERS, DIRS, MorpiaeMove};
pub use options::{MorpiaeOptions, Variant};
pub use position::{Morpiae, MorpiaeUndo};

/// Positions of `ugine bench` for Morpiae (default rules, 5T): the start and two
/// middle-game drawings with colours.
pub const BENCH_POSITIONS: [&str; 1] = ["startpos"];
