//! Mabula's network inputs ([`Features`]): one feature per marble, by square and by
//! whose it is from the perspective's point of view.
//!
//! Feature `sq` (0–63) is a marble of the perspective's on square `sq`, `64 + sq` one of
//! the opponent's. A push moves a run of marbles, so it changes a few features of each
//! perspective: the squares a colour left and the squares it reached.

use super::board::Mabula;
use super::geometry::bits;
use crate::core::Side;
use crate::search::nnue::Features;

impl Features for Mabula {
    const FEATURE_COUNT: usize = 128;

    fn active_features(&self, perspective: Side, out: &mut Vec<u32>) {
        let own = bits(self.men(perspective)).map(u32::from);
        let theirs = bits(self.men(perspective.opponent())).map(|sq| 64 + u32::from(sq));
        out.extend(own.chain(theirs));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::core::{Game, Rng};
    use crate::games::mabula::MabulaOptions;

    #[test]
    fn each_marble_is_one_feature_and_the_perspectives_mirror_the_colours() {
        let opts = MabulaOptions::default();
        let mut rng = Rng::new(3);
        let mut pos = Mabula::random(&opts, &mut rng);
        let mut moves = Vec::new();
        for _ in 0..10 {
            moves.clear();
            pos.generate_moves(&mut moves);
            pos.play(*rng.choose(&moves));
        }
        let (mut black, mut white) = (Vec::new(), Vec::new());
        pos.active_features(Side::P1, &mut black);
        pos.active_features(Side::P2, &mut white);
        assert_eq!(black.len(), 24);
        assert!(black.iter().all(|&f| (f as usize) < Mabula::FEATURE_COUNT));
        let swapped: Vec<u32> = white.iter().map(|&f| f ^ 64).collect();
        black.sort_unstable();
        let mut swapped_sorted = swapped;
        swapped_sorted.sort_unstable();
        assert_eq!(black, swapped_sorted);
        let own: Vec<u32> = bits(pos.men(Side::P1)).map(u32::from).collect();
        assert!(own.iter().all(|f| black.contains(f)));
    }
}
