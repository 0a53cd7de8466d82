//! Morris's network inputs ([`Features`]), 233 of them, seen by one player (the
//! *perspective*; the side to move is implicit: the network reads the side to move's
//! accumulator first):
//!
//! | features | active when |
//! |---|---|
//! | 0–23 | the perspective's man stands on point `p` (index of `board.rs`) |
//! | 24–47 | the opponent's man stands on point `p` |
//! | 48–57 | the perspective has `h` men in hand (0–9, one of them) |
//! | 58–67 | the opponent has `h` men in hand |
//! | 68–77 | the perspective's material (board + hand) is `m` (0–9, one of them) |
//! | 78–87 | the opponent's material is `m` |
//! | 88 | the rules are `standard` (flying with three men; for both perspectives) |
//! | 89 + 4·m + k | mill `m` (0–15, order of `board.rs`) holds: `k` = 0 two of the perspective's men and no other, 1 three of them (closed), 2 two of the opponent's and no other, 3 three of the opponent's |
//! | 153–176 | the perspective's man on point `p` is blocked (no empty neighbour) |
//! | 177–200 | the opponent's man on `p` is blocked |
//! | 201–216 | the steps the perspective's men would have (empty neighbours summed over its men, 15 for 15 or more) |
//! | 217–232 | the opponent's steps |
//!
//! Men in hand give the phase (placing or moving, and how much placing is left); the
//! material one-hots let the network treat three men (flying, one capture from losing)
//! apart from a sum of points. None depends on the side to move, so a null move changes
//! nothing. The mill states, blocked men and steps give the network the threats, closed
//! mills and blockades that a sum of points cannot express (a hidden layer of
//! piece-square inputs alone ranked the moves of self-play far worse than the hand
//! evaluation). A move changes at most three features
//! of each group per perspective ([`Features::move_delta`]): a placement its point and its
//! side's hand, a step its two points, a capture the point taken and the opponent's
//! material; the states of the (at most six) mills through the points it touches; the
//! blocked men near them; each side's steps.

use super::board::{Morris, bits};
use super::notation::{MorrisMove, NONE};
use crate::core::{Game, Side};
use crate::search::nnue::{FeatureDelta, Features};

/// First feature of each group (see the module doc).
const OWN_MAN: u32 = 0;
const THEIR_MAN: u32 = 24;
const OWN_HAND: u32 = 48;
const THEIR_HAND: u32 = 58;
const OWN_MATERIAL: u32 = 68;
const THEIR_MATERIAL: u32 = 78;
const FLYING_RULES: u32 = 88;
const MILL_STATE: u32 = 89;
const OWN_BLOCKED: u32 = 153;
const THEIR_BLOCKED: u32 = 177;
const OWN_STEPS: u32 = 201;
const THEIR_STEPS: u32 = 217;

/// Every point of the board.
const BOARD: u32 = (1 << 24) - 1;

/// The men of `side` (an index) with no empty neighbour, on the board `men`.
fn blocked(men: [u32; 2], side: usize) -> u32 {
    men[side] & !Morris::neighbours(!(men[0] | men[1]) & BOARD)
}

/// The steps of `side`'s (an index) men on the board `men`: their empty neighbours,
/// summed.
fn step_count(men: [u32; 2], side: usize) -> u32 {
    Morris::steps(men[side], !(men[0] | men[1]) & BOARD)
}

/// The feature of `side` (an index) having `n` steps, seen by `perspective`.
fn steps(perspective: Side, side: usize, n: u32) -> u32 {
    (if side == perspective.index() { OWN_STEPS } else { THEIR_STEPS }) + n.min(15)
}

/// The blocked-man feature of `side`'s man on `p` seen by `perspective`.
fn blocked_man(perspective: Side, side: usize, p: usize) -> u32 {
    (if side == perspective.index() { OWN_BLOCKED } else { THEIR_BLOCKED }) + p as u32
}

/// The state of a mill (`mask` its points) on `men` (White's, Black's), seen by White:
/// 0 two White men and no other, 1 three White men, 2 and 3 the same for Black; none
/// for any other filling. Black sees the colours swapped ([`mill_feature`]).
fn mill_state(mask: u32, men: [u32; 2]) -> Option<u32> {
    match ((mask & men[0]).count_ones(), (mask & men[1]).count_ones()) {
        (2, 0) => Some(0),
        (3, _) => Some(1),
        (0, 2) => Some(2),
        (_, 3) => Some(3),
        _ => None,
    }
}

/// The feature of mill `mill` in state `state` ([`mill_state`]) seen by `perspective`.
fn mill_feature(perspective: Side, mill: usize, state: u32) -> u32 {
    let own = if perspective == Side::P1 { state } else { state ^ 2 };
    MILL_STATE + 4 * mill as u32 + own
}

/// The feature of `side`'s man on `p` seen by `perspective`.
fn man(perspective: Side, side: Side, p: u8) -> u32 {
    (if side == perspective { OWN_MAN } else { THEIR_MAN }) + u32::from(p)
}

/// The feature of `side` having `h` men in hand, seen by `perspective`.
fn hand(perspective: Side, side: Side, h: u32) -> u32 {
    (if side == perspective { OWN_HAND } else { THEIR_HAND }) + h
}

/// The feature of `side` having `m` men in all, seen by `perspective`.
fn material(perspective: Side, side: Side, m: u32) -> u32 {
    (if side == perspective { OWN_MATERIAL } else { THEIR_MATERIAL }) + m.min(9)
}

impl Features for Morris {
    const FEATURE_COUNT: usize = 233;

    fn active_features(&self, perspective: Side, out: &mut Vec<u32>) {
        for side in [perspective, perspective.opponent()] {
            out.extend(bits(self.men(side)).map(|p| man(perspective, side, p as u8)));
            let h = self.in_hand(side);
            out.push(hand(perspective, side, h));
            out.push(material(perspective, side, self.men(side).count_ones() + h));
        }
        if self.options().flying() {
            out.push(FLYING_RULES);
        }
        let men = [self.men(Side::P1), self.men(Side::P2)];
        for (m, &mask) in Morris::mills().iter().enumerate() {
            out.extend(mill_state(mask, men).map(|state| mill_feature(perspective, m, state)));
        }
        for side in 0..2 {
            out.extend(bits(blocked(men, side)).map(|p| blocked_man(perspective, side, p)));
            out.push(steps(perspective, side, step_count(men, side)));
        }
    }

    fn move_delta(&self, mv: MorrisMove, delta: &mut FeatureDelta) -> bool {
        delta.clear();
        let us = self.side_to_move();
        let them = us.opponent();
        let before = [self.men(Side::P1), self.men(Side::P2)];
        let mut after = before;
        let mut touched = 1u32 << mv.to;
        after[us.index()] |= 1 << mv.to;
        if mv.from != NONE {
            after[us.index()] &= !(1 << mv.from);
            touched |= 1 << mv.from;
        }
        if mv.capture != NONE {
            after[them.index()] &= !(1 << mv.capture);
            touched |= 1 << mv.capture;
        }
        for (m, &mask) in Morris::mills().iter().enumerate() {
            if mask & touched == 0 {
                continue;
            }
            let (old, new) = (mill_state(mask, before), mill_state(mask, after));
            if old != new {
                for p in [Side::P1, Side::P2] {
                    old.into_iter().for_each(|state| delta.remove(p, mill_feature(p, m, state)));
                    new.into_iter().for_each(|state| delta.add(p, mill_feature(p, m, state)));
                }
            }
        }
        for side in 0..2 {
            let (old, new) = (blocked(before, side), blocked(after, side));
            let (old_steps, new_steps) = (step_count(before, side), step_count(after, side));
            for p in [Side::P1, Side::P2] {
                bits(old & !new).for_each(|q| delta.remove(p, blocked_man(p, side, q)));
                bits(new & !old).for_each(|q| delta.add(p, blocked_man(p, side, q)));
                let (old, new) = (steps(p, side, old_steps), steps(p, side, new_steps));
                if old != new {
                    delta.remove(p, old);
                    delta.add(p, new);
                }
            }
        }
        for p in [Side::P1, Side::P2] {
            if mv.from == NONE {
                let h = self.in_hand(us);
                delta.remove(p, hand(p, us, h));
                delta.add(p, hand(p, us, h - 1));
            } else {
                delta.remove(p, man(p, us, mv.from));
            }
            delta.add(p, man(p, us, mv.to));
            if mv.capture != NONE {
                let m = self.men(them).count_ones() + self.in_hand(them);
                delta.remove(p, man(p, them, mv.capture));
                delta.remove(p, material(p, them, m));
                delta.add(p, material(p, them, m - 1));
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rng;
    use crate::games::morris::{MorrisOptions, MorrisRules};
    use crate::search::nnue::check_move_delta;

    /// Sorted active features of `side`.
    fn active(pos: &Morris, side: Side) -> Vec<u32> {
        let mut v = Vec::new();
        pos.active_features(side, &mut v);
        v.sort_unstable();
        v
    }

    #[test]
    fn the_start_has_hands_material_and_the_rules() {
        let seed = Morris::startpos(&MorrisOptions::default());
        let start = vec![OWN_HAND + 9, THEIR_HAND + 9, 77, 87, OWN_STEPS, THEIR_STEPS];
        assert_eq!(active(&seed, Side::P1), start);
        let standard = MorrisOptions { rules: MorrisRules::Standard, ..MorrisOptions::default() };
        let pos = Morris::startpos(&standard);
        assert_eq!(active(&pos, Side::P2), vec![57, 67, 77, 87, FLYING_RULES, 201, 217]);
    }

    #[test]
    fn the_perspectives_mirror_the_colours() {
        let pos =
            Morris::from_fen("WB1/1WB/2B/WW2WB/1B1/W1B/2W b 0 0 4", &Default::default()).unwrap();
        let white = active(&pos, Side::P1);
        let mut swapped: Vec<u32> = active(&pos, Side::P2)
            .into_iter()
            .map(|f| match f {
                0..=23 | 153..=176 => f + 24,
                24..=47 | 177..=200 => f - 24,
                48..=57 | 68..=77 => f + 10,
                58..=67 | 78..=87 => f - 10,
                89..=152 if (f - MILL_STATE) % 4 < 2 => f + 2,
                89..=152 => f - 2,
                201..=216 => f + 16,
                217..=232 => f - 16,
                f => f,
            })
            .collect();
        swapped.sort_unstable();
        assert_eq!(white, swapped);
        assert!(white.iter().all(|&f| (f as usize) < Morris::FEATURE_COUNT));
        // Every man, each side's hand and material, and the mills with a state.
        let men = (pos.men(Side::P1) | pos.men(Side::P2)).count_ones() as usize;
        let mills = white.iter().filter(|&&f| (MILL_STATE..OWN_BLOCKED).contains(&f)).count();
        let blocked = white.iter().filter(|&&f| (OWN_BLOCKED..OWN_STEPS).contains(&f)).count();
        assert_eq!(white.len(), men + 4 + mills + blocked + 2);
        assert!(mills > 0);
    }

    /// Every legal move of positions along random games, under both rule sets: the
    /// delta turns off exactly the features active before and not after, and on those
    /// active after and not before.
    #[test]
    fn a_moves_delta_is_the_difference_of_the_feature_sets() {
        let mut rng = Rng::new(17);
        let mut moves = Vec::new();
        for rules in [MorrisRules::Seed, MorrisRules::Standard] {
            let opts = MorrisOptions { rules, ..MorrisOptions::default() };
            for _ in 0..30 {
                let mut pos = Morris::startpos(&opts);
                while pos.outcome().is_none() {
                    moves.clear();
                    pos.generate_moves(&mut moves);
                    for &mv in &moves {
                        check_move_delta(&mut pos, mv).unwrap_or_else(|e| panic!("{e}"));
                    }
                    pos.play(*rng.choose(&moves));
                }
            }
        }
    }
}
