//! Perfect knowledge of some positions (endgame databases) that a game hands to a
//! search: probed at every node, asked for the move at the root.
//!
//! CITE: probing at interior nodes and playing the table's move at the root as chess
//! engines do with Syzygy tablebases (Stockfish `tbprobe`).

use super::score::{MATE, MATE_BOUND};
use crate::core::Game;

/// What an oracle knows of a position, for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Won: the game ends after this many plies of best play, within the game's rules.
    Win(u32),
    /// Lost after this many plies of best play.
    Loss(u32),
    /// Neither side can force a win.
    Draw,
    /// Won in this many plies if a draw rule (a move limit) does not end the game first.
    LikelyWin(u32),
    /// Lost in this many plies if a draw rule does not end the game first.
    LikelyLoss(u32),
}

/// Likely wins score just inside the mate bound, less the further they are.
const LIKELY: i32 = MATE_BOUND - 1;
const LIKELY_SPAN: u32 = 500;

impl Verdict {
    /// The search score of this verdict at `ply` from the root: a mate score for an exact
    /// win or loss, below the mate bound (still ordered by distance) for a likely one.
    pub fn score(self, ply: usize) -> i32 {
        let mate = |d: u32| MATE - ply as i32 - d as i32;
        match self {
            Verdict::Win(d) if mate(d) >= MATE_BOUND => mate(d),
            Verdict::Loss(d) if mate(d) >= MATE_BOUND => -mate(d),
            Verdict::Win(d) | Verdict::LikelyWin(d) => LIKELY - d.min(LIKELY_SPAN) as i32,
            Verdict::Loss(d) | Verdict::LikelyLoss(d) => -(LIKELY - d.min(LIKELY_SPAN) as i32),
            Verdict::Draw => 0,
        }
    }
}

/// A source of perfect knowledge for some positions of `G`. Probes must be fast: they are
/// made at every node.
pub trait Oracle<G: Game>: Send + Sync {
    /// The verdict on `pos` (not over), when `pos` is covered.
    fn probe(&self, pos: &G) -> Option<Verdict>;
    /// A move keeping the verdict on `pos` and the verdict, when covered.
    fn best_move(&self, pos: &G) -> Option<(G::Move, Verdict)>;
    /// A few words on what covers `pos`, for the `info string` of a root probe.
    fn describe(&self, pos: &G) -> String;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_verdicts_are_mates_and_likely_ones_are_not() {
        assert_eq!(Verdict::Win(5).score(2), MATE - 7);
        assert_eq!(Verdict::Loss(4).score(0), -(MATE - 4));
        assert!(Verdict::LikelyWin(5).score(2) < MATE_BOUND);
        assert!(Verdict::LikelyWin(5).score(2) > Verdict::LikelyWin(7).score(2));
        assert!(Verdict::LikelyLoss(5).score(2) > -MATE_BOUND);
        assert_eq!(Verdict::Draw.score(9), 0);
        // Too far for a mate score: kept below the bound.
        assert!(Verdict::Win(1200).score(0) < MATE_BOUND);
    }
}
