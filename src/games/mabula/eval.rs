//! Static evaluation of unfinished Mabula positions: the predicted final score difference
//! from the side to move's point of view, in hundredths of a score point.
//!
//! Largest-group scoring: each side's prediction is its largest group, plus part of its
//! second group (groups merge when a push lands between them), plus its live border
//! marbles, which will all enter the field: those that can land next to the largest group
//! count more than the others. Product scoring: log2 of the product of group sizes plus
//! the live border marbles. The side to move gets a small tempo bonus.

use super::board::Mabula;
use super::geometry::{BORDER, TABLES, bits, flood, neighbours};
use super::options::Scoring;
use crate::core::{Game, Side};

/// Evaluation weights, in one table (hundredths of a score point).
mod weights {
    /// One marble of the largest group.
    pub const LARGEST: i32 = 100;
    /// One marble of the second-largest group.
    pub const SECOND: i32 = 25;
    /// A live border marble that can land next to the largest group.
    pub const CONNECTABLE: i32 = 45;
    /// Any other live border marble.
    pub const LIVE: i32 = 15;
    /// One unit of log2 of the product (product scoring).
    pub const LOG2_PRODUCT: i32 = 100;
    /// The side to move acts first.
    pub const TEMPO: i32 = 10;
}

/// The largest group of `men` as a set, and the size of the second largest.
fn two_largest(men: u64) -> (u64, u32) {
    let mut rest = men;
    let (mut best, mut best_size, mut second) = (0u64, 0, 0);
    while rest != 0 {
        let g = flood(rest & rest.wrapping_neg(), rest);
        let size = g.count_ones();
        if size > best_size {
            (second, best, best_size) = (best_size, g, size);
        } else {
            second = second.max(size);
        }
        rest &= !g;
    }
    (best, second)
}

/// The product of the sizes of the groups of `men`.
fn group_product(men: u64) -> u32 {
    let mut rest = men;
    let mut product = 1;
    while rest != 0 {
        let g = flood(rest & rest.wrapping_neg(), rest);
        product *= g.count_ones();
        rest &= !g;
    }
    product
}

/// The predicted score of `side` under largest-group scoring.
fn predict_largest(pos: &Mabula, side: Side) -> i32 {
    use weights::*;
    let men = pos.men(side);
    let (group, second) = two_largest(men);
    let near = neighbours(group);
    let mut score = LARGEST * group.count_ones() as i32 + SECOND * second as i32;
    let lines = &TABLES.lines;
    for b in bits(men & BORDER) {
        let reach = pos.max_push(b) as usize;
        if reach == 0 {
            continue;
        }
        let lands = lines[b as usize][..reach].iter().any(|&s| near & 1 << s != 0);
        score += if lands { CONNECTABLE } else { LIVE };
    }
    score
}

/// The predicted score of `side` under product scoring.
fn predict_product(pos: &Mabula, side: Side) -> i32 {
    use weights::*;
    let men = pos.men(side);
    let product = group_product(men);
    let live = bits(men & BORDER).filter(|&b| pos.max_push(b) > 0).count() as i32;
    (LOG2_PRODUCT as f64 * (product.max(1) as f64).log2()) as i32 + LIVE * live
}

/// The evaluation from the side to move's point of view.
pub fn evaluate(pos: &Mabula) -> i32 {
    let me = pos.side_to_move();
    let predict = match pos.options().scoring {
        Scoring::Largest => predict_largest,
        Scoring::Product => predict_product,
    };
    predict(pos, me) - predict(pos, me.opponent()) + weights::TEMPO
}
