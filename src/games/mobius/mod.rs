//! Mobius (Mark Steere, 2008), as `docs/rules/mobius.md` defines it: a connection game
//! on a Möbius strip.
//!
//! Rules source: the French rule sheet `shared/seeds/000_…txt` (figures lost). The board is
//! the spec's reconstruction, kept as data in [`geometry`] (row lengths, seam links,
//! zones) so it can be replaced. Red (player 1) and Blue alternately place a stone on an
//! empty cell. DEFAULT win test (the reading that makes the game draw-free): the mover
//! wins when their network (stones plus their three zones, a zone touching each of their
//! stones on its cells) joins all three zones, or joins two zones and holds a loop that
//! crosses the seam an odd number of times (anywhere in the network, possibly along a
//! zone). OPTIONS (`protocol.md`): `Mobius Win Rule` = `literal` (one group of stones
//! touching three zones, or two zones and containing an odd loop; a full board without
//! winner is a draw), `Mobius Loops` = `any` (loops of any non-zero winding count) and
//! `Mobius Swap` (Blue's first move may be `swap`).
//!
//! Cells are indexed in reading order (row 1 left to right, then row 2, …). Rows 1, 3, …
//! have 12 cells `a`…`l`; rows 2, 4, … have 11 cells `a`…`k`, half a cell to the right.
//! Row 1 is the seam: it is glued to row 12 in reverse order. Zones (junction cells in
//! two zones): R1 a1–a5, B1 a5–a9, R2 a9–a12 + l1, B2 l1 k2 l3 k4 l5, R3 l5–l9 (right
//! edge), B3 l9 k10 l11 k12 + a1.
//!
//! ```text
//!  row          (seam: row 12 continues into row 1 reversed)
//!   1  R1B3 a1  b1  c1  d1  e1  f1  g1  h1  i1  j1  k1  l1  R2B2   cells 0..11
//!   2  R1     a2  b2  c2  d2  e2  f2  g2  h2  i2  j2  k2    B2     cells 12..22
//!   3  R1   a3  b3   …                              k3  l3  B2     cells 23..34
//!   …
//!   9  B1R2 a9   …                                      l9  R3B3
//!  10  R2     a10  …                                k10     B3
//!  11  R2   a11  …                                      l11 B3
//!  12  R2     a12 b12 c12 d12 e12 f12 g12 h12 i12 j12 k12   B3     cells 127..137
//!  1~       l1  k1  j1  i1  h1  g1  f1  e1  d1  c1  b1  a1  (row 1 again, reversed)
//! ```

mod board;
mod features;
mod fen;
pub mod flood;
mod game;
pub mod geometry;
mod network;
mod notation;
mod options;
pub mod playout;
mod render;
mod search;

pub use board::{BLUE, EMPTY, Mobius, RED, colour};
pub use network::{WinRule, default_rule_qualifies};
pub use notation::MobiusMove;
pub use options::MobiusOptions;
pub use search::{Mcts, PARAMS as MCTS_PARAMS};

/// Positions of `ugine bench` for Mobius: the empty board, an opening, a middle game.
pub const BENCH_POSITIONS: [&str; 3] = [
    "startpos",
    "12/11/12/11/5r6/4b6/12/11/12/11/12/11 r",
    "12/11/1r10/2b8/3r1b6/4r6/2b9/11/12/11/12/11 r",
];
