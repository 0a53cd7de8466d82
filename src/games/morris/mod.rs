//! Nine Men's Morris, as `docs/rules/morris.md` defines it.
//!
//! Rules source: the French rule sheet `shared/seeds/004_…txt`. DEFAULT is the seed's
//! rules: no flying, and when every enemy man stands in a mill nothing is removed.
//! OPTIONS (`protocol.md`): `Morris Rules` = `standard` (flying with three men, removal
//! from mills when all enemy men are in mills), `Morris Repetition` (the occurrence that
//! draws, 0 = off) and `Morris Move Limit` (plies without capture once both hands are
//! empty that draw, 0 = off). A player whose hand is not empty places; otherwise moves.
//!
//! Points are indexed in reading order (top rank first, left to right), which is also
//! the order of the position string and of the board drawing:
//!
//! ```text
//! 7  0-----1-----2        a7 d7 g7
//! 6  | 3---4---5 |        b6 d6 f6
//! 5  | | 6-7-8 | |        c5 d5 e5
//! 4  9-10-11 12-13-14     a4 b4 c4 e4 f4 g4
//! 3  | | 15-16-17| |      c3 d3 e3
//! 2  | 18--19--20 |       b2 d2 f2
//! 1  21----22----23       a1 d1 g1
//! ```

mod board;
pub mod db;
mod eval;
mod features;
mod notation;
mod options;
mod search;
mod weights;

pub use board::{Morris, MorrisUndo};
pub use notation::MorrisMove;
pub use options::{MorrisOptions, MorrisRules};
pub use search::MorrisSearch;

/// Positions of `ugine bench` for Morris: placement, movement and endgame.
pub const BENCH_POSITIONS: [&str; 4] = [
    "startpos",
    "W1B/1W1/B1W/B1W1B1/3/1B1/W2 w 4 4 0",
    "WB1/1WB/2B/WW2WB/1B1/W1B/2W b 0 0 4",
    "W2/1B1/3/1W2B1/3/B1W/3 w 0 0 10",
];
