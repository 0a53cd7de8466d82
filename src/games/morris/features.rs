//! Morris's network inputs ([`Features`]), 89 of them, seen by one player (the
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
//!
//! Men in hand give the phase (placing or moving, and how much placing is left); the
//! material one-hots let the network treat three men (flying, one capture from losing)
//! apart from a sum of points. None depends on the side to move, so a null move changes
//! nothing. A move changes at most three features of each list per perspective
//! ([`Features::move_delta`]): a placement its point and its side's hand, a step its two
//! points, a capture the point taken and the opponent's material.

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
    const FEATURE_COUNT: usize = 89;

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
    }

    fn move_delta(&self, mv: MorrisMove, delta: &mut FeatureDelta) -> bool {
        delta.clear();
        let us = self.side_to_move();
        let them = us.opponent();
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
    use crate::core::{Reversible, Rng};
    use crate::games::morris::{MorrisOptions, MorrisRules};

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
        assert_eq!(active(&seed, Side::P1), vec![OWN_HAND + 9, THEIR_HAND + 9, 77, 87]);
        let standard = MorrisOptions { rules: MorrisRules::Standard, ..MorrisOptions::default() };
        let pos = Morris::startpos(&standard);
        assert_eq!(active(&pos, Side::P2), vec![57, 67, 77, 87, FLYING_RULES]);
    }

    #[test]
    fn the_perspectives_mirror_the_colours() {
        let pos =
            Morris::from_fen("WB1/1WB/2B/WW2WB/1B1/W1B/2W b 0 0 4", &Default::default()).unwrap();
        let white = active(&pos, Side::P1);
        let mut swapped: Vec<u32> = active(&pos, Side::P2)
            .into_iter()
            .map(|f| match f {
                0..24 => f + 24,
                24..48 => f - 24,
                48..58 | 68..78 => f + 10,
                58..68 | 78..88 => f - 10,
                f => f,
            })
            .collect();
        swapped.sort_unstable();
        assert_eq!(white, swapped);
        assert!(white.iter().all(|&f| (f as usize) < Morris::FEATURE_COUNT));
        // Every man, each side's hand and material.
        let men = (pos.men(Side::P1) | pos.men(Side::P2)).count_ones() as usize;
        assert_eq!(white.len(), men + 4);
    }

    /// Every legal move of positions along random games, under both rule sets: the
    /// delta turns off exactly the features active before and not after, and on those
    /// active after and not before.
    #[test]
    fn a_moves_delta_is_the_difference_of_the_feature_sets() {
        let mut rng = Rng::new(17);
        let (mut moves, mut delta) = (Vec::new(), FeatureDelta::default());
        for rules in [MorrisRules::Seed, MorrisRules::Standard] {
            let opts = MorrisOptions { rules, ..MorrisOptions::default() };
            for _ in 0..30 {
                let mut pos = Morris::startpos(&opts);
                while pos.outcome().is_none() {
                    moves.clear();
                    pos.generate_moves(&mut moves);
                    for &mv in &moves {
                        assert!(pos.move_delta(mv, &mut delta));
                        let before = [Side::P1, Side::P2].map(|s| active(&pos, s));
                        let undo = pos.play_reversible(mv);
                        for s in [Side::P1, Side::P2] {
                            let after = active(&pos, s);
                            let old = &before[s.index()];
                            let mut off: Vec<u32> =
                                old.iter().copied().filter(|f| !after.contains(f)).collect();
                            let mut on: Vec<u32> =
                                after.iter().copied().filter(|f| !old.contains(f)).collect();
                            let (mut removed, mut added) =
                                (delta.removed(s).to_vec(), delta.added(s).to_vec());
                            for v in [&mut off, &mut on, &mut removed, &mut added] {
                                v.sort_unstable();
                            }
                            assert_eq!((removed, added), (off, on), "{} {mv}", pos.to_fen());
                        }
                        pos.unplay(mv, undo);
                    }
                    pos.play(*rng.choose(&moves));
                }
            }
        }
    }
}
