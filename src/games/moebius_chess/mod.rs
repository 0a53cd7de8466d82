//! Moebius Chess (Menno Dekker, 1992/93), as `docs/rules/moebius-chess.md` defines it.
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
//!
//! Files: `geometry` (squares, twins, rays, tables), `board` (copy-make position and
//! attacks), `movegen` (legal generation and the check rules), `moves` (notation),
//! `fen` (position string and drawing), `position` (the [`crate::core::Game`] with its
//! history and draw rules), `eval`, its tuned `weights` and `search` (the engine).

mod board;
mod eval;
mod features;
mod fen;
mod geometry;
mod movegen;
mod moves;
mod network;
mod options;
mod position;
mod search;
mod weights;

pub use board::Board;
pub use geometry::{parse_square, square_name};
pub use movegen::MoveList;
pub use moves::{ChessMove, Kind};
pub use network::{DEFAULT_NET, NETWORK_OPTIONS};
pub use options::{CheckRule, MoebiusOptions, PawnPhasing};
pub use position::{MoebiusChess, MoebiusUndo, STARTPOS};

/// Positions of `ugine bench` for Moebius Chess: the start, and three positions of an
/// engine self-play game (opening, middle game, endgame).
pub const BENCH_POSITIONS: [&str; 4] = [
    "startpos",
    "1nb1kbn4Q4/p1pppppp8/1p14/16/16/1P14/P1PPPPPP8/2B1KBr9 w - - 0 7",
    "2n1kb8Q1/3p1pp9/1pp1p11/1Br13/16/1P2P11/P2P1PPP4b3/3K12 w - - 0 16",
    "2n13/6p9/bpp1Q11/16/5P10/1P2P11/P2P12/3K3r4k3 w - - 1 26",
];
