//! The end of the game: each player's score under the chosen scoring, and who wins.

use std::cmp::Ordering;

use super::geometry::{Bits, group_sizes, largest_group};
use super::options::{MabulaOptions, Scoring, Ties};
use crate::core::{EndReason, Ending, Outcome, ScoreKind, Side};

/// A player's score under `scoring`, from the sizes of their groups (largest first).
pub fn score_of(sizes: &[u32], scoring: Scoring) -> u32 {
    match scoring {
        Scoring::Largest => sizes.first().copied().unwrap_or(0),
        Scoring::Product => sizes.iter().product(),
    }
}

/// Compares Black's result with White's: the scores, then (with [`Ties::Break`]) the
/// group sizes sorted from largest down.
pub fn compare(men: [Bits; 2], opts: &MabulaOptions) -> Ordering {
    if (opts.scoring, opts.ties) == (Scoring::Largest, Ties::Draw) {
        // The largest groups alone decide (the fast path of the playouts' ends).
        return largest_group(men[0]).cmp(&largest_group(men[1]));
    }
    let (b, w) = (group_sizes(men[0]), group_sizes(men[1]));
    let by_score = score_of(&b, opts.scoring).cmp(&score_of(&w, opts.scoring));
    match opts.ties {
        Ties::Draw => by_score,
        // Both players own 12 marbles, so neither sorted list is a prefix of the other.
        Ties::Break => by_score.then_with(|| b.cmp(&w)),
    }
}

/// The outcome of a finished game with these marbles and the scores behind it (with the
/// sorted group sizes when the tie rule decided equal scores).
pub fn final_ending(men: [Bits; 2], opts: &MabulaOptions) -> Ending {
    let outcome = final_outcome(men, opts);
    let groups = [group_sizes(men[0]), group_sizes(men[1])];
    let scores = [score_of(&groups[0], opts.scoring), score_of(&groups[1], opts.scoring)];
    let kind = match opts.scoring {
        Scoring::Largest => ScoreKind::LargestGroup,
        Scoring::Product => ScoreKind::GroupProduct,
    };
    let broken = scores[0] == scores[1] && outcome != Outcome::Draw;
    let groups = broken.then_some(groups);
    Ending { outcome, reason: EndReason::NoPushLeft { kind, scores, groups } }
}

/// The outcome of a finished game with these marbles.
pub fn final_outcome(men: [Bits; 2], opts: &MabulaOptions) -> Outcome {
    match compare(men, opts) {
        Ordering::Greater => Outcome::Win(Side::P1),
        Ordering::Less => Outcome::Win(Side::P2),
        Ordering::Equal => Outcome::Draw,
    }
}
