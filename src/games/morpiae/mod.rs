//! Morpiae (Vincent Everaert, 2004): Morpion Solitaire for two, as
//! `docs/rules/morpiae.md` defines it.
//!
//! Rules source: the French article `shared/seeds/003_…txt` (Tangente Jeux et Stratégie
//! no. 11). Each turn a player draws a new circle that completes five in a row in one of
//! four directions and draws that line; circles crossed in all four directions take the
//! mover's colour; the game ends when no line can be drawn and the most circles wins.
//! DEFAULT: overlap rule 5T (lines of one direction may touch end to end), Red
//! (player 1) moves first, equal colours draw. OPTION `Morpiae Variant` = `5D` (lines
//! of one direction share no point).
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
//! Search: alpha-beta ([`crate::search::AlphaBeta`]) with capturing lines ordered first and
//! no quiescence;
//! see [`eval`] for why and for the score scale (cp = 100 × colour difference).

mod board;
pub mod eval;
mod features;
mod fen;
mod game;
mod notation;
mod options;
mod position;
mod render;
pub mod solitaire;
mod solitaire_board;
mod weights;

pub use board::greek_cross;
pub use fen::LIMIT;
pub use notation::{DIR_LETTERS, DIRS, MorpiaeMove};
pub use options::{MorpiaeOptions, Variant};
pub use position::{Captures, Morpiae, MorpiaeUndo};

/// Morpiae's network options: `Morpiae EvalFile` loads a network of `features.rs`
/// (default none: the hand evaluation of `eval.rs`).
pub const NETWORK_OPTIONS: crate::search::NetOptions<Morpiae> = crate::search::NetOptions {
    file: "Morpiae EvalFile",
    weight: "Morpiae EvalFile Weight",
    embedded: None,
};

/// Positions of `ugine bench` for Morpiae (default rules, 5T): the start and two
/// middle-game drawings with colours (from `tests/data/perft/morpiae.perft`).
pub const BENCH_POSITIONS: [&str; 3] = [
    "startpos",
    "r cross 3,5,V,0;2,0,H,0;5,3,H,0;7,7,A,2;-1,6,H,0;0,7,V,4;7,9,H,4;2,7,D,2;6,4,V,4;1,4,A,2;10,6,H,4;4,3,H,3;2,2,A,2;3,4,V,3;7,2,D,2;8,4,D,2;4,2,D,2;5,2,H,3;2,5,A,1;9,2,V,0;6,5,V,1;-1,2,D,0;2,4,V,1;1,5,A,1;5,4,D,2;-1,4,H,0;4,8,D,4;4,5,A,2;-1,5,H,0;1,2,V,0;-1,3,V,1;5,6,D,3;4,4,A,2;5,1,V,1;7,4,H,2;4,1,V,1;7,5,V,2;4,7,A,0;5,7,H,2;4,6,V,2 2,5 1,4;1,5;4,3;5,3",
    "g cross 9,7,V,4;2,2,A,2;7,9,H,4;3,4,V,4;0,2,V,0;10,3,H,4;5,6,H,0;7,2,D,2;7,0,H,4;6,-1,V,0;6,5,V,0;4,3,H,4;3,10,V,4;7,7,A,2;2,7,D,2;4,1,A,2;5,8,A,2;4,5,D,2;5,4,A,3;4,6,H,3;2,1,D,0;5,2,A,2;5,1,H,3;2,-1,D,0;8,4,D,3;2,0,V,1;5,3,V,3;4,2,H,2;4,4,V,4;6,4,D,4;5,5,A,2;7,4,H,4;7,-1,A,4;7,5,V,3;10,2,A,4;8,5,H,3;3,5,A,1;11,2,A,4;2,4,D,2;5,7,V,2;8,7,H,3;10,8,D,4;2,5,V,2;1,1,D,0;4,7,A,1 4,1;4,2;5,6 3,1;3,2;5,2;7,5",
];
