//! Mate-aware scores shared by the alpha-beta searches: the internal integer scale,
//! its conversion for the transposition table, and for `info` reports.

use super::report::Score;

/// The score of a win at the root; a win `n` plies away scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Scores beyond this bound (in absolute value) are forced wins or losses.
pub const MATE_BOUND: i32 = MATE - 1_000;

/// A score relative to the node at `ply`, made relative to the node itself for storing in
/// the transposition table (mates count from where they are stored).
pub fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score + ply as i32
    } else if score <= -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

/// The inverse of [`score_to_tt`] for a node at `ply`.
pub fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= MATE_BOUND {
        score - ply as i32
    } else if score <= -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

impl Score {
    /// The reported form of an internal root score: `Mate(n)` in moves for forced wins
    /// and losses, `Cp` otherwise.
    pub fn from_internal(score: i32) -> Score {
        if score >= MATE_BOUND {
            Score::Mate((MATE - score + 1) / 2)
        } else if score <= -MATE_BOUND {
            Score::Mate(-(MATE + score) / 2)
        } else {
            Score::Cp(score)
        }
    }
}
