//! Mobius's network inputs ([`Features`]): one feature per stone, by cell, by whose it is
//! from the perspective's point of view, and by the perspective's colour.
//!
//! The board is not the same for the two colours (each owns its own three border zones),
//! so each perspective has its own features: from Red's, feature `c` is a Red stone on
//! cell `c` and `CELLS + c` a Blue one; from Blue's, `2·CELLS + c` is a Blue stone and
//! `3·CELLS + c` a Red one. A placement turns on one feature of each perspective; the swap
//! changes colours, and is left to a refresh.

use super::board::{BLUE, EMPTY, Mobius, RED};
use super::geometry::CELLS;
use super::notation::MobiusMove;
use crate::core::{Game, Side};
use crate::search::nnue::{FeatureDelta, Features};

/// The feature of a stone of `owner` on `cell` from `perspective`'s point of view.
fn feature(perspective: Side, owner: Side, cell: usize) -> u32 {
    let group = 2 * perspective.index() + usize::from(owner != perspective);
    (group * CELLS + cell) as u32
}

impl Features for Mobius {
    const FEATURE_COUNT: usize = 4 * CELLS;

    fn active_features(&self, perspective: Side, out: &mut Vec<u32>) {
        for (cell, &stone) in self.cells().iter().enumerate() {
            let owner = match stone {
                EMPTY => continue,
                RED => Side::P1,
                BLUE => Side::P2,
                _ => unreachable!("a cell holds no stone, Red's or Blue's"),
            };
            out.push(feature(perspective, owner, cell));
        }
    }

    fn move_delta(&self, mv: MobiusMove, delta: &mut FeatureDelta) -> bool {
        delta.clear();
        let Some(cell) = mv.cell() else { return false };
        let mover = self.side_to_move();
        for perspective in [Side::P1, Side::P2] {
            delta.add(perspective, feature(perspective, mover, cell));
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::Rng;
    use crate::games::mobius::MobiusOptions;

    /// The features of each perspective, sorted.
    fn active(pos: &Mobius) -> [Vec<u32>; 2] {
        [Side::P1, Side::P2].map(|side| {
            let mut v = Vec::new();
            pos.active_features(side, &mut v);
            v.sort_unstable();
            v
        })
    }

    #[test]
    fn each_stone_is_one_feature_of_each_perspective_and_placements_have_deltas() {
        let opts = MobiusOptions { swap: true, ..MobiusOptions::default() };
        let mut rng = Rng::new(5);
        let mut moves = Vec::new();
        for _ in 0..20 {
            let mut pos = Mobius::startpos(&opts);
            while pos.outcome().is_none() {
                moves.clear();
                pos.generate_moves(&mut moves);
                let mv = *rng.choose(&moves);
                let mut delta = FeatureDelta::default();
                let known = pos.move_delta(mv, &mut delta);
                assert_eq!(known, mv.cell().is_some(), "the swap refreshes");
                let before = active(&pos);
                pos.play(mv);
                if known {
                    for side in [Side::P1, Side::P2] {
                        let mut expected = before[side.index()].clone();
                        expected.extend_from_slice(delta.added(side));
                        expected.sort_unstable();
                        assert_eq!(active(&pos)[side.index()], expected);
                        assert!(delta.removed(side).is_empty());
                    }
                }
            }
            let (mut red, mut blue) = (Vec::new(), Vec::new());
            pos.active_features(Side::P1, &mut red);
            pos.active_features(Side::P2, &mut blue);
            assert_eq!(red.len(), pos.stones());
            assert_eq!(blue.len(), pos.stones());
            assert!(red.iter().all(|&f| (f as usize) < 2 * CELLS), "Red's own half");
            assert!(blue.iter().all(|&f| (2 * CELLS..4 * CELLS).contains(&(f as usize))));
            // The same stone seen from either side: own for its owner, theirs for the other.
            for (cell, &stone) in pos.cells().iter().enumerate() {
                let (r, b) = match stone {
                    RED => (cell, 3 * CELLS + cell),
                    BLUE => (CELLS + cell, 2 * CELLS + cell),
                    _ => continue,
                };
                assert!(red.contains(&(r as u32)) && blue.contains(&(b as u32)), "cell {cell}");
            }
        }
    }
}
