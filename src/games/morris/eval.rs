//! Static evaluation of Morris positions for the alpha-beta search.
//!
//! Terms, from the side to move's point of view (one man = 100):
//! material (board + hand), closed mills, open mills that a man can close next turn
//! (a "running" mill is nearly a man), two-in-a-row with the third point empty,
//! mobility and blocked men in the movement phase. Weights depend on the phase.

use super::board::{Morris, bits};
use super::notation::{MorrisMove, NONE};
use crate::core::{Game, Side};
use crate::search::Evaluate;

/// Evaluation weights, in one table.
mod weights {
    pub const MAN: i32 = 100;
    pub const CLOSED_MILL: i32 = 12;
    pub const CLOSABLE_MILL: i32 = 35;
    pub const TWO_IN_ROW: i32 = 8;
    pub const MOBILITY: i32 = 6;
    pub const BLOCKED_MAN: i32 = 10;
    /// Bonus for the side to move, which acts first on every threat.
    pub const TEMPO: i32 = 10;
}

/// The terms of one side.
fn side_terms(pos: &Morris, side: Side) -> i32 {
    use weights::*;
    let own = pos.men(side);
    let enemy = pos.men(side.opponent());
    let empty = !(own | enemy) & ((1 << 24) - 1);
    let hand = pos.in_hand(side);
    let flying = pos.can_fly(side);
    let mut score = MAN * (own.count_ones() + hand) as i32;
    for &mill in Morris::mills() {
        // Men of the mill counted without a popcount (a mill has three points).
        let mine = own & mill;
        if mine == mill {
            score += CLOSED_MILL;
        } else if mine & mine.wrapping_sub(1) != 0 && enemy & mill == 0 {
            score += TWO_IN_ROW;
            let gap = (mill & empty).trailing_zeros() as usize;
            // Closable next turn: from hand, by flying, or by a neighbour outside the mill.
            let closable = hand > 0 || flying || Morris::adjacent(gap) & own & !mill != 0;
            if closable {
                score += CLOSABLE_MILL;
            }
        }
    }
    if hand == 0 && !flying {
        score += MOBILITY * pos.mobility(side) as i32;
        let blocked = bits(own).filter(|&p| Morris::adjacent(p) & empty == 0).count();
        score -= BLOCKED_MAN * blocked as i32;
    }
    score
}

impl Evaluate for Morris {
    const HISTORY_SIZE: usize = 25 * 24;

    fn evaluate(&self) -> i32 {
        let me = self.side_to_move();
        side_terms(self, me) - side_terms(self, me.opponent()) + weights::TEMPO
    }

    fn is_noisy(&self, mv: MorrisMove) -> bool {
        mv.capture != NONE
    }

    fn history_index(&self, mv: MorrisMove) -> usize {
        mv.from as usize * 24 + mv.to as usize
    }

    fn expected_moves_left(&self) -> u32 {
        self.in_hand(self.side_to_move()) + 20
    }
}
