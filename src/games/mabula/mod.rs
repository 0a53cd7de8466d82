//! Mabula (Néstor Romeral Andrés, nestorgames), as `docs/rules/mabula.md` defines it.
//!
//! Rules source: the French rule sheet `shared/seeds/002_…txt`. 12 black and 12 white
//! marbles start on the 24 border squares of an 8×8 board without corners, never three of
//! one colour in a row round the border (a cycle). A turn pushes one of the mover's border
//! marbles 1–6 squares straight inward, pushing the run ahead of it; no marble may end on
//! a border square. A player without a push passes; the game ends when neither can push.
//! Black (player 1) moves first from `startpos`.
//!
//! OPTIONS (`protocol.md`): `Mabula Scoring` = `largest` (DEFAULT: size of the largest
//! group) or `product` (product of all group sizes); `Mabula Ties` = `draw` (DEFAULT) or
//! `break` (compare the sorted group sizes).
//!
//! Squares are numbered `rank * 8 + file` (a1 = 0). The border cycle of the setup string
//! runs b1→g1, h2→h7, g8→b8, a7→a2 (indices 0–23); `.` is the field b2–g7:
//!
//! ```text
//! 8     17 16 15 14 13 12
//! 7  18  .  .  .  .  .  .  11        a3-d3 pushes a3 along rank 3 to d3;
//! 6  19  .  .  .  .  .  .  10        d1-d4 pushes d1 up file d to d4.
//! 5  20  .  .  .  .  .  .   9
//! 4  21  .  .  .  .  .  .   8
//! 3  22  .  .  .  .  .  .   7
//! 2  23  .  .  .  .  .  .   6
//! 1      0  1  2  3  4  5
//!    a   b  c  d  e  f  g   h
//! ```

mod board;
mod eval;
mod features;
mod geometry;
mod mcts;
mod notation;
mod options;
mod score;
mod search;
mod setup;
pub mod solve;
mod weights;

pub use board::{Mabula, MabulaUndo};
pub use geometry::group_sizes;
pub use mcts::{MabulaPolicy, MabulaSearch};
pub use notation::MabulaMove;
pub use options::{MabulaOptions, Scoring, Ties};
pub use setup::{SetupMask, is_valid_setup, parse_setup, setup_string};

/// Positions of `ugine bench` for Mabula: the standard start, two random setups, a
/// midgame with long mixed runs, a position a few plies before a forced pass, and a
/// late position the search solves to the end.
pub const BENCH_POSITIONS: [&str; 6] = [
    "startpos",
    "BWBBWWBWWBWWBBWBWBWBWBBW",
    "WBWWBWWBWBBWBBWWBBWBBWBW",
    "BBWWBBWBWBBWWBBWWBWBWWBW 1BWW2W1/2B2BW1/2BBBB2/3WW2B/2WW4/4B3/W3W3/1B1WWBB1 w",
    "WWBBWWBBWBWWBWBWWBBWBBWB 1BWW2B1/B1BW4/WBW1B1W1/1WBBW3/7W/2W4B/2BB4/2WB1W2 w",
    "BWBWBBWWBWWBBWBWWBWBBWWB 2W2W2/1W3BB1/BBWW4/BW1WBW2/1BBWBB2/2W1W1B1/4BW2/8 b",
];
