//! Moebius Chess (Menno Dekker, 1992/93), as `shared/rules/moebius-chess.md` defines it.
//!
//! Rules source: the chessvariants.com page by Hans Bodlaender with Rob Nierse
//! (`shared/seeds/001_…txt`). Orthodox chess on a 16×8 board whose rows wrap (a
//! cylinder), where every square has a *twin* (the same name with the prime toggled,
//! the other face of the paper) and every piece, pawns and king included, may *phase*
//! to its twin if it is empty or holds an enemy piece.
//!
//! OPTIONS (`protocol.md`): `Moebius Check Rule` = `dekker` (DEFAULT: a move that mates
//! with the moved piece on the twin of the enemy king is illegal), `nierse` (no piece may
//! move to the twin of the enemy king) or `none`; `Moebius Pawn Phasing` = `full`
//! (DEFAULT), `empty` (pawns phase only to an empty twin and so never attack it) or
//! `none`. Draws: stalemate, threefold repetition over the whole game, 100 plies without
//! a capture or pawn move (a pawn's phase is a pawn move), K–K, K+N–K, K+B–K.
//!
//! Coordinates: square `16·y + x`; the picture and the names are
//!
//! ```text
//!  y\x  0   1  …   7 |  8    9  …  15       left half: file = x, rank = 8 − y
//!   0   a8  b8 …  h8 | a1'  b1' … h1'      right half: file = x − 8, rank' = y + 1
//!   1   a7  b7 …  h7 | a2'  b2' … h2'      rows wrap: x = 15 touches x = 0
//!   …                                       twin(x, y) = (x ^ 8, 7 − y): e4 <-> e4'
//!   7   a1  b1 …  h1 | a8'  b8' … h8'
//! ```
//!
//! White pawns advance up the picture on the left half and down it on the right half
//! (toward 8'), Black the reverse; White promotes on 8 and 8', Black on 1 and 1'.

mod board;
mod eval;
mod fen;
mod geometry;
mod movegen;
mod moves;
mod options;
mod position;
mod search;

pub use board::Board;
pub use geometry::{parse_square, square_name};
pub use movegen::MoveList;
pub use moves::{ChessMove, Kind};
pub use options::{CheckRule, MoebiusOptions, PawnPhasing};
pub use position::{MoebiusChess, MoebiusUndo, STARTPOS};
pub use search::MoebiusSearch;

/// Positions of `ugine bench` for Moebius Chess: opening, middlegame, phasing tactics,
/// endgame.
pub const BENCH_POSITIONS: [&str; 4] = [
    "startpos",
    "r1bqk2r8/pppp1ppp8/2n2n10/2b1p11/2B1P11/2N2N10/PPPP1PPP8/R1BQK2R8 w KQkq - 4 5",
    "r3k2r8/ppp2ppp8/2n13/3q12/8p7/8P7/PPP2PPP8/R3K2R8 w KQkq - 0 12",
    "8k7/5p10/16/16/16/16/3P4p7/4K11 w - - 0 40",
];
